// RUN: ttopt opt %s --ttir-fold-full-to-scalar | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// A full / zeros / ones read only by elementwise ops (HEAD's Broadcastable trait) becomes the same
// op of one element, of its rank; the readers broadcast it. A reader whose shape the creation op
// carried computes the smaller shape and a ttir.broadcast restores it. Any other reader, or one
// element already, leaves the op alone.

// CHECK-LABEL: func.func @full_read_by_elementwise_ops
// CHECK: %[[F:.*]] = "ttir.full"() <{fill_value = 5.000000e-01 : f32, shape = array<i32: 1, 1, 1>}> : () -> tensor<1x1x1xf32>
// CHECK: %[[M:.*]] = "ttir.multiply"(%arg0, %[[F]]) : (tensor<2x64x32xf32>, tensor<1x1x1xf32>) -> tensor<2x64x32xf32>
// CHECK: "ttir.where"(%arg1, %[[M]], %[[F]]) : (tensor<2x64x32xbf16>, tensor<2x64x32xf32>, tensor<1x1x1xf32>) -> tensor<2x64x32xf32>
// TTNN-LABEL: func.func private @full_read_by_elementwise_ops_const_eval_0() -> tensor<1x1x1xf32,
// TTNN: "ttnn.full"(%{{.*}}) <{fill_value = 5.000000e-01 : f32, shape = #ttnn.shape<1x1x1>}>
// TTNN-LABEL: func.func @full_read_by_elementwise_ops(
// TTNN: %[[F:.*]] = ttcore.load_cached(@full_read_by_elementwise_ops_const_eval_0, [])
// TTNN: "ttnn.multiply"(%arg0, %[[F]]) : (tensor<2x64x32xf32, {{.*}}>, tensor<1x1x1xf32, {{.*}}>) -> tensor<2x64x32xf32,
// TTNN: "ttnn.where"(%{{.*}}, %{{.*}}, %[[F]])
func.func @full_read_by_elementwise_ops(%arg0: tensor<2x64x32xf32>, %arg1: tensor<2x64x32xbf16>) -> tensor<2x64x32xf32> {
  %0 = "ttir.full"() <{shape = array<i32: 2, 64, 32>, fill_value = 0.5 : f32}> : () -> tensor<2x64x32xf32>
  %1 = "ttir.multiply"(%arg0, %0) : (tensor<2x64x32xf32>, tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  %2 = "ttir.where"(%arg1, %1, %0) : (tensor<2x64x32xbf16>, tensor<2x64x32xf32>, tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  return %2 : tensor<2x64x32xf32>
}

// CHECK-LABEL: func.func @zeros_and_ones
// CHECK-DAG: %[[Z:.*]] = "ttir.zeros"() <{shape = array<i32: 1, 1>}> : () -> tensor<1x1xbf16>
// CHECK-DAG: %[[O:.*]] = "ttir.ones"() <{shape = array<i32: 1, 1>}> : () -> tensor<1x1xbf16>
// CHECK: %[[MAX:.*]] = "ttir.maximum"(%arg0, %[[Z]]) : (tensor<32x64xbf16>, tensor<1x1xbf16>) -> tensor<32x64xbf16>
// CHECK: "ttir.subtract"(%[[O]], %[[MAX]]) : (tensor<1x1xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
func.func @zeros_and_ones(%arg0: tensor<32x64xbf16>) -> tensor<32x64xbf16> {
  %0 = "ttir.zeros"() <{shape = array<i32: 32, 64>}> : () -> tensor<32x64xbf16>
  %1 = "ttir.ones"() <{shape = array<i32: 32, 64>}> : () -> tensor<32x64xbf16>
  %2 = "ttir.maximum"(%arg0, %0) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %3 = "ttir.subtract"(%1, %2) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
  return %3 : tensor<32x64xbf16>
}

// The full carried the add's shape: the add now computes 1x32 and a broadcast restores 64x32.
// CHECK-LABEL: func.func @shape_carrier
// CHECK: %[[F:.*]] = "ttir.full"() <{fill_value = 1.000000e+00 : f32, shape = array<i32: 1, 1>}> : () -> tensor<1x1xf32>
// CHECK: %[[A:.*]] = "ttir.add"(%arg0, %[[F]]) : (tensor<1x32xf32>, tensor<1x1xf32>) -> tensor<1x32xf32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[A]]) <{broadcast_dimensions = array<i64: 64, 1>}> : (tensor<1x32xf32>) -> tensor<64x32xf32>
// CHECK: return %[[B]]
// TTNN-LABEL: func.func @shape_carrier
// TTNN: %[[A:.*]] = "ttnn.add"({{.*}}) : (tensor<1x32xf32, {{.*}}>, tensor<1x1xf32, {{.*}}>) -> tensor<1x32xf32,
// TTNN: "ttnn.repeat"(%[[A]]) <{repeat_dims = #ttnn.shape<64x1>}> : (tensor<1x32xf32, {{.*}}>) -> tensor<64x32xf32,
func.func @shape_carrier(%arg0: tensor<1x32xf32>) -> tensor<64x32xf32> {
  %0 = "ttir.full"() <{shape = array<i32: 64, 32>, fill_value = 1.0 : f32}> : () -> tensor<64x32xf32>
  %1 = "ttir.add"(%arg0, %0) : (tensor<1x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}

// A unary reader always took its shape from the creation op: it runs on one element and is
// broadcast (gelu has no constant fold).
// CHECK-LABEL: func.func @unary_reader
// CHECK: %[[F:.*]] = "ttir.full"() <{fill_value = 3.000000e+00 : f32, shape = array<i32: 1, 1>}> : () -> tensor<1x1xf32>
// CHECK: %[[G:.*]] = "ttir.gelu"(%[[F]]) : (tensor<1x1xf32>) -> tensor<1x1xf32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[G]]) <{broadcast_dimensions = array<i64: 32, 32>}> : (tensor<1x1xf32>) -> tensor<32x32xf32>
// CHECK: "ttir.add"(%arg0, %[[B]])
func.func @unary_reader(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = "ttir.full"() <{shape = array<i32: 32, 32>, fill_value = 3.0 : f32}> : () -> tensor<32x32xf32>
  %1 = "ttir.gelu"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %2 = "ttir.add"(%arg0, %1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %2 : tensor<32x32xf32>
}

// The pass runs TTIR's folds as MLIR's greedy driver does: once the ones is one element, the add of
// it and a constant of the add's narrowed shape folds into that constant, broadcast to 3x3 (which
// canonicalize leaves alone while the splat is the larger operand).
// CHECK-LABEL: func.func @folds_after_the_shrink
// CHECK-NOT: "ttir.ones"
// CHECK-NOT: "ttir.add"
// CHECK: %[[C:.*]] = "ttir.constant"() <{value = dense<{{\[\[}}2, 3, 4]]> : tensor<1x3xsi32>}> : () -> tensor<1x3xsi32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[C]]) <{broadcast_dimensions = array<i64: 3, 1>}> : (tensor<1x3xsi32>) -> tensor<3x3xsi32>
// CHECK: return %[[B]]
func.func @folds_after_the_shrink() -> tensor<3x3xsi32> {
  %0 = "ttir.ones"() <{shape = array<i32: 3, 1>}> : () -> tensor<3x1xsi32>
  %1 = "ttir.constant"() <{value = dense<[[1, 2, 3]]> : tensor<1x3xsi32>}> : () -> tensor<1x3xsi32>
  %2 = "ttir.add"(%0, %1) : (tensor<3x1xsi32>, tensor<1x3xsi32>) -> tensor<3x3xsi32>
  return %2 : tensor<3x3xsi32>
}

// A tag on the creation op stays on its one-element form (ttopt hoists tagged ops after this pass).
// CHECK-LABEL: func.func @attributes_kept
// CHECK: "ttir.zeros"() <{shape = array<i32: 1, 1>}> {ttir.should_hoist} : () -> tensor<1x1xf32>
func.func @attributes_kept(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = "ttir.zeros"() <{shape = array<i32: 32, 32>}> {ttir.should_hoist} : () -> tensor<32x32xf32>
  %1 = "ttir.add"(%arg0, %0) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}

// A destination-passing reader (older TTIR) reads the one element when its output operand keeps
// its shape; refused when the creation op carried its shape, as that operand cannot shrink.
// CHECK-LABEL: func.func @destination_passing_readers
// CHECK: %[[F:.*]] = "ttir.full"() <{fill_value = 2.000000e+00 : f32, shape = array<i32: 1, 1>}> : () -> tensor<1x1xf32>
// CHECK: %[[E:.*]] = ttir.empty() : tensor<64x32xf32>
// CHECK: "ttir.add"(%arg0, %[[F]], %[[E]]) : (tensor<64x32xf32>, tensor<1x1xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
// CHECK: "ttir.full"() <{fill_value = 3.000000e+00 : f32, shape = array<i32: 64, 32>}> : () -> tensor<64x32xf32>
// CHECK-NOT: "ttir.broadcast"
func.func @destination_passing_readers(%arg0: tensor<64x32xf32>, %arg1: tensor<1x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %0 = "ttir.full"() <{shape = array<i32: 64, 32>, fill_value = 2.0 : f32}> : () -> tensor<64x32xf32>
  %1 = ttir.empty() : tensor<64x32xf32>
  %2 = "ttir.add"(%arg0, %0, %1) : (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %3 = "ttir.full"() <{shape = array<i32: 64, 32>, fill_value = 3.0 : f32}> : () -> tensor<64x32xf32>
  %4 = ttir.empty() : tensor<64x32xf32>
  %5 = "ttir.add"(%arg1, %3, %4) : (tensor<1x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2, %5 : tensor<64x32xf32>, tensor<64x32xf32>
}

// Refused: a reader that is not elementwise (the return, a matmul, a softmax) beside elementwise ones.
// CHECK-LABEL: func.func @other_readers
// CHECK: %[[F:.*]] = "ttir.full"() <{{.*}}shape = array<i32: 64, 32>}> : () -> tensor<64x32xf32>
// CHECK: "ttir.add"(%arg0, %[[F]]) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
// CHECK: %[[Z:.*]] = "ttir.zeros"() <{shape = array<i32: 32, 32>}> : () -> tensor<32x32xf32>
// CHECK: "ttir.matmul"(%arg0, %[[Z]])
// CHECK: "ttir.subtract"({{.*}}, %[[Z]]) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK: %[[O:.*]] = "ttir.ones"() <{shape = array<i32: 64, 32>}> : () -> tensor<64x32xf32>
// CHECK: "ttir.softmax"(%[[O]])
// CHECK: "ttir.multiply"({{.*}}, %[[O]]) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
func.func @other_readers(%arg0: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x32xf32>, tensor<64x32xf32>) {
  %0 = "ttir.full"() <{shape = array<i32: 64, 32>, fill_value = 2.0 : f32}> : () -> tensor<64x32xf32>
  %1 = "ttir.add"(%arg0, %0) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %2 = "ttir.zeros"() <{shape = array<i32: 32, 32>}> : () -> tensor<32x32xf32>
  %3 = "ttir.matmul"(%arg0, %2) : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %4 = "ttir.slice_static"(%3) <{begins = [0 : i32, 0 : i32], ends = [32 : i32, 32 : i32], step = [1 : i32, 1 : i32]}> : (tensor<64x32xf32>) -> tensor<32x32xf32>
  %5 = "ttir.subtract"(%4, %2) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %6 = "ttir.ones"() <{shape = array<i32: 64, 32>}> : () -> tensor<64x32xf32>
  %7 = "ttir.softmax"(%6) <{dimension = 1 : si32}> : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %8 = "ttir.multiply"(%7, %6) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0, %1, %5, %8 : tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x32xf32>, tensor<64x32xf32>
}

// Refused: one element already (whatever its rank), and a splat ttir.constant (not a creation op;
// canonicalize makes it a full first).
// CHECK-LABEL: func.func @one_element_or_constant
// CHECK: "ttir.full"() <{{.*}}shape = array<i32: 1>}> : () -> tensor<1xf32>
// CHECK: "ttir.ones"() <{shape = array<i32: 1, 1>}> : () -> tensor<1x1xf32>
// CHECK: "ttir.constant"() <{value = dense<2.000000e+00> : tensor<64x32xf32>}> : () -> tensor<64x32xf32>
func.func @one_element_or_constant(%arg0: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = "ttir.full"() <{shape = array<i32: 1>, fill_value = 3.0 : f32}> : () -> tensor<1xf32>
  %1 = "ttir.add"(%arg0, %0) : (tensor<64x32xf32>, tensor<1xf32>) -> tensor<64x32xf32>
  %2 = "ttir.ones"() <{shape = array<i32: 1, 1>}> : () -> tensor<1x1xf32>
  %3 = "ttir.multiply"(%1, %2) : (tensor<64x32xf32>, tensor<1x1xf32>) -> tensor<64x32xf32>
  %4 = "ttir.constant"() <{value = dense<2.000000e+00> : tensor<64x32xf32>}> : () -> tensor<64x32xf32>
  %5 = "ttir.subtract"(%3, %4) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %5 : tensor<64x32xf32>
}
