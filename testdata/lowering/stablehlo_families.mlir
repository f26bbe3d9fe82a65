// RUN: ttopt opt %s --split-input-file --convert-stablehlo-to-ttir | FileCheck %s
// The TTIR forms of the sort/top-k, reduce, CHLO, RNG, rounding, shift, barrier and quantization
// families, as tt-mlir HEAD writes them.

// CHECK-LABEL: func.func @argsort
// CHECK: %values, %indices = "ttir.sort"(%arg0) <{descending = true, dim = 1 : si32, stable = true}> : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
// CHECK: return %indices
func.func @argsort(%x: tensor<4x8xf32>) -> tensor<4x8xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x8xi32>
  %1:2 = "stablehlo.sort"(%x, %0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %2 = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  return %1#1 : tensor<4x8xi32>
}

// -----

// An index operand counting along another dimension is sorted as a value (embedding gather).
// CHECK-LABEL: func.func @not_an_argsort
// CHECK: %values, %indices = "ttir.sort"(%arg0) <{descending = false, dim = 1 : si32, stable = false}>
// CHECK: "ttir.arange"() <{arange_dimension = 0 : i64, end = 32 : si64, start = 0 : si64, step = 8 : si64}> : () -> tensor<4x8xi32>
// CHECK: "ttir.embedding"
func.func @not_an_argsort(%x: tensor<4x8xf32>) -> tensor<4x8xi32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x8xi32>
  %1:2 = "stablehlo.sort"(%x, %0) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %2 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  return %1#1 : tensor<4x8xi32>
}

// -----

// CHECK-LABEL: func.func @top_k
// CHECK: %values, %indices = "ttir.topk"(%arg0) <{dim = -1 : i32, k = 3 : i32, largest = true, sorted = true}> : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
func.func @top_k(%x: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<4x8xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
  return %v, %i : tensor<4x3xf32>, tensor<4x3xi32>
}

// -----

// argmin: the argmax of the negated input; the value result, used here, is a ttir.min.
// CHECK-LABEL: func.func @argmin
// CHECK: %[[NEG:[0-9]+]] = "ttir.neg"(%arg0)
// CHECK: %[[IDX:[0-9]+]] = "ttir.argmax"(%[[NEG]]) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<4xi32>
// CHECK: %[[MIN:[0-9]+]] = "ttir.min"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK: return %[[MIN]], %[[IDX]]
func.func @argmin(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = stablehlo.iota dim = 1 : tensor<4x8xi32>
  %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.reduce(%x init: %inf), (%0 init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {
    %2 = stablehlo.compare LT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %b, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %a, %c : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  return %1#0, %1#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// Independent results: each operand reduced on its own (a non-identity init folded in).
// CHECK-LABEL: func.func @sum_and_max
// CHECK: %[[S:[0-9]+]] = "ttir.sum"(%arg0) <{dim_arg = [0 : i32], keep_dim = false}>
// CHECK: %[[M:[0-9]+]] = "ttir.max"(%arg1) <{dim_arg = [0 : i32], keep_dim = false}>
// CHECK: "ttir.maximum"(%[[M]],
func.func @sum_and_max(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %1:2 = stablehlo.reduce(%x init: %z), (%y init: %one) across dimensions = [0] : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>)  {
    %2 = stablehlo.add %a, %c : tensor<f32>
    %3 = stablehlo.maximum %b, %d : tensor<f32>
    stablehlo.return %2, %3 : tensor<f32>, tensor<f32>
  }
  return %1#0, %1#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @chlo_ops
// CHECK: "ttir.erfc"(%arg0)
// CHECK: "ttir.asinh"(%arg0)
// CHECK: "ttir.exp"(%arg0)
// CHECK: "ttir.neg"(%arg0)
// CHECK: "ttir.subtract"
// CHECK: "ttir.constant"() <{value = dense<5.000000e-01> : tensor<2x3xf32>}>
func.func @chlo_ops(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = chlo.erfc %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = chlo.asinh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = chlo.sinh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @rng
// CHECK: "ttir.rand"() <{high = 4.2949673E+9 : f32, low = 0.000000e+00 : f32, seed = 0 : ui32, size = [2 : i32, 4 : i32]}> : () -> tensor<2x4xf32>
// CHECK: "ttir.typecast"
// CHECK-SAME: -> tensor<2x4xui32>
// CHECK: return %arg0,
func.func @rng(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<2x4xui32>) {
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x4xui32>)
  return %state, %bits : tensor<2xui64>, tensor<2x4xui32>
}

// -----

// CHECK-LABEL: func.func @misc
// CHECK: "ttir.logical_right_shift"(%arg1, %arg1)
// CHECK: %[[B:[0-9]+]]:2 = "ttcore.optimization_barrier"(%arg0, %arg0)
// CHECK: "ttir.quantize"(%arg0) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>
func.func @misc(%x: tensor<4xf32>, %u: tensor<4xui32>) -> (tensor<4xui32>, tensor<4xf32>, tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>) {
  %0 = stablehlo.shift_right_logical %u, %u : tensor<4xui32>
  %1:2 = stablehlo.optimization_barrier %x, %x : tensor<4xf32>, tensor<4xf32>
  %2 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>
  return %0, %1#1, %2 : tensor<4xui32>, tensor<4xf32>, tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>
}
