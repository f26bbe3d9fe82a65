#l1 = #ttnn.buffer_type<l1>
module attributes {a.first = "x", z.last = 1 : i64} {
  func.func @f(%arg0: tensor<4xf32> {aa = 2 : i32, zz}) -> tensor<4xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#named)
    %1 = stablehlo.add %0, %0 {a = 2 : i64, b = 1 : i64} : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
#named = loc("abs"("model.py":3:14 to :20))
