// RUN: ttopt opt %s --convert-stablehlo-to-ttir | FileCheck %s
// RUN: ttopt opt %s --convert-stablehlo-to-ttir | ttopt opt | FileCheck %s --check-prefix=NOHLO
// One op of each kind, StableHLO -> TTIR (generic form, tt-mlir's property spellings, no DPS operands).
// The output re-parses and verifies, and no StableHLO op is left. Errors: stablehlo_to_ttir_errors.mlir.

// NOHLO-NOT: stablehlo.
// NOHLO: func.func @creation
// NOHLO-NOT: stablehlo.

// CHECK-LABEL: func.func @elementwise
// CHECK: "ttir.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: "ttir.div"
// CHECK: "ttir.neg"
// CHECK: "ttir.sigmoid"
// CHECK: "ttir.pow"
// CHECK: "ttir.rsqrt"
// CHECK: "ttir.typecast"({{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xbf16> {
  %0 = stablehlo.add %a, %b : tensor<4x8xf32>
  %1 = stablehlo.divide %0, %b : tensor<4x8xf32>
  %2 = stablehlo.negate %1 : tensor<4x8xf32>
  %3 = stablehlo.logistic %2 : tensor<4x8xf32>
  %4 = stablehlo.power %3, %a : tensor<4x8xf32>
  %5 = stablehlo.rsqrt %4 : tensor<4x8xf32>
  %6 = stablehlo.convert %5 : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  return %6 : tensor<4x8xbf16>
}

// CHECK-LABEL: func.func @compare_select_logical
// CHECK: %[[GT:.*]] = "ttir.gt"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
// CHECK: %[[NE:.*]] = "ttir.ne"(%arg0, %arg1)
// CHECK: %[[OR:.*]] = "ttir.logical_or"(%[[GT]], %[[NE]])
// CHECK: "ttir.where"(%[[OR]], %arg0, %arg1) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @compare_select_logical(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %1 = stablehlo.compare NE, %a, %b, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %2 = stablehlo.or %0, %1 : tensor<4x8xi1>
  %3 = stablehlo.select %2, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// Every dot_general stays a ttir.dot_general, dimension numbers as they are (as tt-mlir emits it;
// ttir-to-ttir-decomposition makes matmuls of them on the way to TTNN).
// CHECK-LABEL: func.func @matmuls
// CHECK: "ttir.dot_general"(%arg0, %arg1) <{batch_dims_lhs = array<i64: 0>, batch_dims_rhs = array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 1>}> : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
// CHECK: "ttir.dot_general"(%arg0, %arg2) <{batch_dims_lhs = array<i64: 0>, batch_dims_rhs = array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 2>}> : (tensor<2x4x8xf32>, tensor<2x16x8xf32>) -> tensor<2x4x16xf32>
// CHECK: "ttir.dot_general"(%arg3, %arg1) <{batch_dims_lhs = array<i64: 1>, batch_dims_rhs = array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 1>}> : (tensor<4x2x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
func.func @matmuls(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x16x8xf32>, %d: tensor<4x2x8xf32>) -> (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  %1 = stablehlo.dot_general %a, %c, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x4x8xf32>, tensor<2x16x8xf32>) -> tensor<2x4x16xf32>
  %2 = stablehlo.dot_general %d, %b, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<4x2x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  return %0, %1, %2 : tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>
}

// NCHW / OIHW: permute to NHWC, conv2d, permute back; padding [[lo_h, hi_h], [lo_w, hi_w]] -> [top, left, bottom, right].
// CHECK-LABEL: func.func @conv
// CHECK: %[[X:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[Y:.*]] = "ttir.conv2d"(%[[X]], %arg1) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 0, 2, 1>, stride = array<i32: 2, 2>}> : (tensor<1x8x8x4xf32>, tensor<6x4x3x3xf32>) -> tensor<1x5x4x6xf32>
// CHECK: "ttir.permute"(%[[Y]]) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<1x5x4x6xf32>) -> tensor<1x6x5x4xf32>
func.func @conv(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x5x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 2], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x5x4xf32>
  return %0 : tensor<1x6x5x4xf32>
}

// The identity init (0 for add) is dropped; any other init is combined after the reduction.
// CHECK-LABEL: func.func @reductions
// CHECK: "ttir.sum"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK: %[[M:.*]] = "ttir.max"(%arg0) <{dim_arg = [0 : i32, 1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<f32>
// CHECK: "ttir.maximum"(%[[M]], %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: "ttir.reduce_or"(%arg1) <{dim_arg = [0 : i32], keep_dim = false}> : (tensor<4x8xi1>) -> tensor<8xi1>
func.func @reductions(%a: tensor<4x8xf32>, %p: tensor<4x8xi1>) -> (tensor<4xf32>, tensor<f32>, tensor<8xi1>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.reduce(%a init: %zero) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %2 = stablehlo.reduce(%p init: %false) applies stablehlo.or across dimensions = [0] : (tensor<4x8xi1>, tensor<i1>) -> tensor<8xi1>
  return %0, %1, %2 : tensor<4xf32>, tensor<f32>, tensor<8xi1>
}

// broadcast_in_dim: reshape to the result's rank, then broadcast by repeat factors per dim.
// CHECK-LABEL: func.func @data_movement
// CHECK: %[[R:.*]] = "ttir.reshape"(%arg0) <{shape = [1 : i32, 8 : i32]}> : (tensor<8xf32>) -> tensor<1x8xf32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[R]]) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK: %[[P:.*]] = "ttir.permute"(%[[B]]) <{permutation = array<i64: 1, 0>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK: %[[S:.*]] = "ttir.slice_static"(%[[P]]) <{begins = [0 : i32, 1 : i32], ends = [8 : i32, 4 : i32], step = [2 : i32, 1 : i32]}> : (tensor<8x4xf32>) -> tensor<4x3xf32>
// CHECK: %[[C:.*]] = "ttir.concat"(%[[S]], %[[S]]) <{dim = 0 : si32}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
// CHECK: "ttir.reshape"(%[[C]]) <{shape = [24 : i32]}> : (tensor<8x3xf32>) -> tensor<24xf32>
func.func @data_movement(%a: tensor<8xf32>) -> tensor<24xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.slice %1 [0:8:2, 1:4] : (tensor<8x4xf32>) -> tensor<4x3xf32>
  %3 = stablehlo.concatenate %2, %2, dim = 0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %4 = stablehlo.reshape %3 : (tensor<8x3xf32>) -> tensor<24xf32>
  return %4 : tensor<24xf32>
}

// CHECK-LABEL: func.func @creation
// CHECK: "ttir.arange"() <{arange_dimension = 1 : i64, end = 8 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<4x8xi32>
// CHECK: "ttir.constant"() <{value = dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>}> : () -> tensor<8xi32>
func.func @creation() -> (tensor<4x8xi32>, tensor<8xi32>) {
  %0 = stablehlo.iota dim = 1 : tensor<4x8xi32>
  %1 = stablehlo.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  return %0, %1 : tensor<4x8xi32>, tensor<8xi32>
}
