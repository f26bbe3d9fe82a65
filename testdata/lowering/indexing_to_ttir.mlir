// RUN: ttopt opt %s --convert-stablehlo-to-ttir --canonicalize | FileCheck %s
// RUN: ttopt opt %s --convert-stablehlo-to-ttir --ttir-to-ttir-decomposition | FileCheck %s --check-prefix=DECOMP
// RUN: ttopt opt %s --convert-stablehlo-to-ttir --canonicalize --ttir-to-ttnn-backend-pipeline | ttopt opt | FileCheck %s --check-prefix=TTNN
// dot_general, gather, scatter, reduce_window, select_and_scatter, pad and the dynamic slices in the
// TTIR forms tt-mlir emits (its conversion tests' op sequences); the whole file then reaches TTNN.

// TTNN-NOT: stablehlo.
// TTNN-NOT: "ttir.
// TTNN: func.func @dot_batch_middle

// Batch dimensions anywhere: the dimension numbers are kept as they are.
// CHECK-LABEL: func.func @dot_batch_middle
// CHECK: "ttir.dot_general"(%arg0, %arg1) <{batch_dims_lhs = array<i64: 1>, batch_dims_rhs = array<i64: 1>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 0>}> : (tensor<3x2x4xf32>, tensor<4x2x5xf32>) -> tensor<2x3x5xf32>
// DECOMP-LABEL: func.func @dot_batch_middle
// DECOMP: %[[A:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0, 2>}> : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
// DECOMP: %[[B:.*]] = "ttir.permute"(%arg1) <{permutation = array<i64: 1, 0, 2>}> : (tensor<4x2x5xf32>) -> tensor<2x4x5xf32>
// DECOMP: "ttir.matmul"(%[[A]], %[[B]]) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
func.func @dot_batch_middle(%a: tensor<3x2x4xf32>, %b: tensor<4x2x5xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [1] x [1], contracting_dims = [2] x [0] : (tensor<3x2x4xf32>, tensor<4x2x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// No contracting dimension: an outer product, a broadcasting multiply after decomposition.
// CHECK-LABEL: func.func @dot_outer
// CHECK: "ttir.dot_general"(%arg0, %arg1) <{batch_dims_lhs = array<i64>, batch_dims_rhs = array<i64>, contract_dims_lhs = array<i64>, contract_dims_rhs = array<i64>}>
// DECOMP-LABEL: func.func @dot_outer
// DECOMP: %[[A:.*]] = "ttir.reshape"(%arg0) <{shape = [5 : i32, 1 : i32]}>
// DECOMP: %[[B:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 7 : i32]}>
// DECOMP: "ttir.multiply"(%[[A]], %[[B]]) : (tensor<5x1xf32>, tensor<1x7xf32>) -> tensor<5x7xf32>
func.func @dot_outer(%a: tensor<5xf32>, %b: tensor<7xf32>) -> tensor<5x7xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<5xf32>, tensor<7xf32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}

// An embedding lookup: the start indices flattened to 2-D, the table looked up with ttir.embedding
// (canonicalize then squeezes the index's leading 1 out, as tt-mlir's embedding pattern does).
// CHECK-LABEL: func.func @gather_rows
// CHECK: %[[IDS:.*]] = "ttir.reshape"(%arg1) <{shape = [12 : i32]}> : (tensor<2x6x1xi32>) -> tensor<12xi32>
// CHECK: %[[ROWS:.*]] = "ttir.embedding"(%[[IDS]], %{{.*}}) : (tensor<12xi32>, tensor<10x8xf32>) -> tensor<12x8xf32>
// CHECK: "ttir.reshape"(%[[ROWS]]) <{shape = [2 : i32, 6 : i32, 8 : i32]}>
func.func @gather_rows(%t: tensor<10x8xf32>, %ids: tensor<2x6x1xi32>) -> tensor<2x6x8xf32> {
  %0 = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 8>}> : (tensor<10x8xf32>, tensor<2x6x1xi32>) -> tensor<2x6x8xf32>
  return %0 : tensor<2x6x8xf32>
}

// Integer tables keep their precision: ttir.gather along the rows instead of the bf16 embedding.
// CHECK-LABEL: func.func @gather_int_rows
// CHECK-NOT: ttir.embedding
// CHECK: "ttir.broadcast"(%{{.*}}) <{broadcast_dimensions = array<i64: 1, 3>}> : (tensor<4x1xi32>) -> tensor<4x3xi32>
// CHECK: "ttir.gather"(%{{.*}}, %{{.*}}) <{dim = 0 : i32}> : (tensor<5x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>
func.func @gather_int_rows(%t: tensor<5x3xi32>, %ids: tensor<4x1xi32>) -> tensor<4x3xi32> {
  %0 = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xi32>, tensor<4x1xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// Two indexed dimensions: the index pairs folded into one row number by a float matmul with the strides.
// CHECK-LABEL: func.func @gather_points
// CHECK: "ttir.reshape"(%{{.*}}) <{shape = [20 : i32, 3 : i32]}> : (tensor<4x5x3xf32>) -> tensor<20x3xf32>
// CHECK: %[[F:.*]] = "ttir.typecast"(%{{.*}}) : (tensor<6x2xi32>) -> tensor<6x2xf32>
// CHECK: %[[S:.*]] = "ttir.constant"() <{value = dense<{{\[}}[5.000000e+00], [1.000000e+00]]> : tensor<2x1xf32>}>
// CHECK: %[[R:.*]] = "ttir.matmul"(%[[F]], %[[S]]) : (tensor<6x2xf32>, tensor<2x1xf32>) -> tensor<6x1xf32>
// CHECK: "ttir.embedding"(%[[R]], %{{.*}}) : (tensor<6x1xf32>, tensor<20x3xf32>) -> tensor<6x1x3xf32>
func.func @gather_points(%x: tensor<4x5x3xf32>, %ij: tensor<6x2xi32>) -> tensor<6x3xf32> {
  %0 = "stablehlo.gather"(%x, %ij) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<4x5x3xf32>, tensor<6x2xi32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// A batched index-select (take_along_axis): ttir.gather, torch semantics.
// CHECK-LABEL: func.func @take_along_axis
// CHECK: %[[I:.*]] = "ttir.reshape"(%arg1) <{shape = [3 : i32, 4 : i32]}>
// CHECK: "ttir.gather"(%arg0, %[[I]]) <{dim = 1 : i32}> : (tensor<3x5xf32>, tensor<3x4xi32>) -> tensor<3x4xf32>
func.func @take_along_axis(%x: tensor<3x5xf32>, %idx: tensor<3x4x1xi32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<3x5xf32>, tensor<3x4x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// A dynamic slice written as a gather.
// CHECK-LABEL: func.func @gather_window
// CHECK: %[[B:.*]] = "ttir.concat"
// CHECK: %[[E:.*]] = "ttir.add"(%[[B]], %{{.*}})
// CHECK: "ttir.slice_dynamic"(%arg0, %[[B]], %[[E]]) : (tensor<8x6xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x6xf32>
func.func @gather_window(%x: tensor<8x6xf32>, %start: tensor<1xi32>) -> tensor<3x6xf32> {
  %0 = "stablehlo.gather"(%x, %start) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0]>, slice_sizes = array<i64: 3, 6>}> : (tensor<8x6xf32>, tensor<1xi32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// Constant indices [0, 0, 1, 2, 3, 3, 3]: replicate padding as slices, repeats and a concat (the
// repeat by 1 of the first row folds away in canonicalize).
// CHECK-LABEL: func.func @gather_edge_repeat
// CHECK: %[[F:.*]] = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32], ends = [1 : i32, 5 : i32]
// CHECK-NOT: "ttir.repeat"(%[[F]])
// CHECK: %[[L:.*]] = "ttir.slice_static"(%arg0) <{begins = [3 : i32, 0 : i32], ends = [4 : i32, 5 : i32]
// CHECK: %[[LR:.*]] = "ttir.repeat"(%[[L]]) <{repeat_dimensions = array<i64: 2, 1>}>
// CHECK: "ttir.concat"(%[[F]], %arg0, %[[LR]]) <{dim = 0 : si32}> : (tensor<1x5xf32>, tensor<4x5xf32>, tensor<2x5xf32>) -> tensor<7x5xf32>
func.func @gather_edge_repeat(%x: tensor<4x5xf32>) -> tensor<7x5xf32> {
  %i = stablehlo.constant dense<[[0], [0], [1], [2], [3], [3], [3]]> : tensor<7x1xi32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>}> : (tensor<4x5xf32>, tensor<7x1xi32>) -> tensor<7x5xf32>
  return %0 : tensor<7x5xf32>
}

// Summing rows into a 2-D table is an embedding gradient; the table is added back.
// CHECK-LABEL: func.func @scatter_rows_sum
// CHECK: %[[I:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 3 : i32, 1 : i32]}>
// CHECK: %[[G:.*]] = "ttir.embedding_backward"(%[[I]], %arg0, %arg2) : (tensor<1x3x1xi32>, tensor<6x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
// CHECK: "ttir.add"(%[[G]], %arg0)
func.func @scatter_rows_sum(%t: tensor<6x4xf32>, %ids: tensor<3x1xi32>, %v: tensor<3x4xf32>) -> tensor<6x4xf32> {
  %0 = "stablehlo.scatter"(%t, %ids, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// One scattered dimension: the index repeated over the window, torch-style ttir.scatter along it.
// CHECK-LABEL: func.func @scatter_columns_set
// CHECK: %[[I:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 2 : i32]}>
// CHECK: %[[R:.*]] = "ttir.repeat"(%[[I]]) <{repeat_dimensions = array<i64: 3, 1>}> : (tensor<1x2xi32>) -> tensor<3x2xi32>
// CHECK: "ttir.scatter"(%arg0, %[[R]], %arg2) <{dim = 1 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}>
func.func @scatter_columns_set(%x: tensor<3x5xf32>, %ids: tensor<2x1xi32>, %v: tensor<3x2xf32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.scatter"(%x, %ids, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<3x5xf32>, tensor<2x1xi32>, tensor<3x2xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// Several scattered dimensions: flat row-major positions, a scatter of the flattened tensors.
// CHECK-LABEL: func.func @scatter_points_max
// CHECK: "ttir.full"() <{fill_value = 5 : i32, shape = array<i32: 3, 1>}>
// CHECK: "ttir.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<max>}> : (tensor<20xf32>, tensor<3xi32>, tensor<3xf32>) -> tensor<20xf32>
// CHECK: "ttir.reshape"(%{{.*}}) <{shape = [4 : i32, 5 : i32]}>
func.func @scatter_points_max(%x: tensor<4x5xf32>, %ij: tensor<3x2xi32>, %v: tensor<3xf32>) -> tensor<4x5xf32> {
  %0 = "stablehlo.scatter"(%x, %ij, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x5xf32>, tensor<3x2xi32>, tensor<3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// NCHW max pooling: permuted to NHWC around ttir.max_pool2d; padding (top, left, bottom, right).
// CHECK-LABEL: func.func @max_pool_nchw
// CHECK: %[[X:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 1>}>
// CHECK: %[[P:.*]] = "ttir.max_pool2d"(%[[X]]) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 3, 3>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>}> : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
// CHECK: "ttir.permute"(%[[P]]) <{permutation = array<i64: 0, 3, 1, 2>}>
func.func @max_pool_nchw(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %ninf) <{padding = dense<[[0, 0], [0, 0], [1, 1], [1, 1]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x3x8x8xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// A window sum divided by the window size: ttir.avg_pool2d, the division absorbed.
// CHECK-LABEL: func.func @avg_pool
// CHECK: %[[P:.*]] = "ttir.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}>
// CHECK-NOT: "ttir.div"
// CHECK-NOT: "ttir.multiply"
// CHECK: return %[[P]]
func.func @avg_pool(%x: tensor<2x8x6x3xf32>) -> tensor<2x4x3x3xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x8x6x3xf32>, tensor<f32>) -> tensor<2x4x3x3xf32>
  %four = stablehlo.constant dense<4.000000e+00> : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<2x4x3x3xf32>
  %2 = stablehlo.divide %0, %1 : tensor<2x4x3x3xf32>
  return %2 : tensor<2x4x3x3xf32>
}

// CHECK-LABEL: func.func @cumsum
// CHECK: "ttir.cumsum"(%arg0) <{dim = 1 : i64}> : (tensor<3x7xf32>) -> tensor<3x7xf32>
func.func @cumsum(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [6, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 7>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x7xf32>, tensor<f32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// The max-pool gradient: where each window's maximum is, then a scatter-add of the gradient there.
// CHECK-LABEL: func.func @max_pool_grad
// CHECK: %[[P:[a-z_0-9]+]], %[[PI:[a-z_0-9]+]] = "ttir.max_pool2d_with_indices"(%{{.*}}, %{{.*}}, %{{.*}}) <{ceil_mode = false, dilation = array<i32: 1, 1>, kernel = array<i32: 2, 2>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}>
// CHECK: %[[I:.*]] = "ttir.reshape"(%[[PI]]) <{shape = [2 : i32, 9 : i32, 1 : i32, 3 : i32]}>
// CHECK: "ttir.scatter"(%{{.*}}, %[[I]], %{{.*}}) <{dim = 1 : i32, scatter_reduce_type = #ttcore.reduce_type<sum>}> : (tensor<2x36x1x3xf32>, tensor<2x9x1x3xi32>, tensor<2x9x1x3xf32>) -> tensor<2x36x1x3xf32>
func.func @max_pool_grad(%x: tensor<2x6x6x3xf32>, %g: tensor<2x3x3x3xf32>) -> tensor<2x6x6x3xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %g, %zero) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x6x6x3xf32>, tensor<2x3x3x3xf32>, tensor<f32>) -> tensor<2x6x6x3xf32>
  return %0 : tensor<2x6x6x3xf32>
}

// CHECK-LABEL: func.func @pad_edges
// CHECK: "ttir.pad"(%arg0) <{padding = array<i32: 0, 0, 1, 2>, value = 3.000000e+00 : f32}> : (tensor<3x4xf32>) -> tensor<3x7xf32>
func.func @pad_edges(%x: tensor<3x4xf32>) -> tensor<3x7xf32> {
  %c = stablehlo.constant dense<3.000000e+00> : tensor<f32>
  %0 = stablehlo.pad %x, %c, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// Interior padding: the operand scattered into a full tensor of the padding value at its positions
// (the flattening reshape of that full folds into it: zeros, flat).
// CHECK-LABEL: func.func @pad_interior
// CHECK-DAG: %[[FULL:.*]] = "ttir.zeros"() <{shape = array<i32: 15>}>
// CHECK-DAG: %[[POS:.*]] = "ttir.constant"() <{value = dense<[5, 7, 9, 10, 12, 14]> : tensor<6xi64>}>
// CHECK: "ttir.scatter"(%[[FULL]], %[[POS]], %{{.*}}) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> : (tensor<15xf32>, tensor<6xi64>, tensor<6xf32>) -> tensor<15xf32>
func.func @pad_interior(%x: tensor<2x3xf32>) -> tensor<3x5xf32> {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.pad %x, %c, low = [1, 0], high = [0, 0], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// CHECK-LABEL: func.func @dynamic_slice
// CHECK: %[[I:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32]}>
// CHECK: %[[J:.*]] = "ttir.reshape"(%arg2) <{shape = [1 : i32]}>
// CHECK: %[[B:.*]] = "ttir.concat"(%[[I]], %[[J]]) <{dim = 0 : si32}>
// CHECK: %[[S:.*]] = "ttir.constant"() <{value = dense<[3, 2]> : tensor<2xi32>}>
// CHECK: %[[E:.*]] = "ttir.add"(%[[B]], %[[S]])
// CHECK: "ttir.slice_dynamic"(%arg0, %[[B]], %[[E]]) : (tensor<6x4xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x2xf32>
func.func @dynamic_slice(%x: tensor<6x4xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<3x2xf32> {
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [3, 2] : (tensor<6x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// The clamped start turned into one flat offset added to the window's flat positions; a scatter.
// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK: "ttir.clamp_scalar"(%{{.*}}) <{max = 3 : i32, min = 0 : i32}>
// CHECK: "ttir.constant"() <{value = dense<[0, 1, 2, 6, 7, 8]> : tensor<6xi32>}>
// CHECK: "ttir.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> : (tensor<30xf32>, tensor<6xi32>, tensor<6xf32>) -> tensor<30xf32>
// CHECK: "ttir.reshape"(%{{.*}}) <{shape = [5 : i32, 6 : i32]}>
func.func @dynamic_update_slice(%x: tensor<5x6xf32>, %u: tensor<2x3xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<5x6xf32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<5x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
