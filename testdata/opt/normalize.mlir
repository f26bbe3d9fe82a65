// GOLDEN: ttopt opt %s --mlir-print-debuginfo
// How ttopt normalises hand-written IR, as mlir-opt does: dictionaries sorted, `-> (T)` unwrapped,
// known ops printed in their custom form, values renumbered, whitespace canonical. Aliases and
// locations (forward references) are kept as written. Regenerate with `pytest --update-goldens`.
#l1   =   #ttnn.buffer_type<l1>
module   attributes {z.last = 1 : i64,   a.first = "x"} {
  func.func @f(%input: tensor<4xf32> {zz = unit, aa = 2 : i32}) -> (tensor<4xf32>) {
    %x = "stablehlo.abs"(%input) : (tensor<4xf32>) -> tensor<4xf32> loc(#named)
    %y  =   stablehlo.add %x,%x {b = 1, a = 2} : tensor<4xf32>
    "func.return"(%y) : (tensor<4xf32>) -> ()
  }
}
#named = loc("abs"("model.py":3:14 to :20))
