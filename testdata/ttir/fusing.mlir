// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// matmul + broadcast bias -> linear reading the bias as it is.
// CHECK-LABEL: func.func @linear
// CHECK-NEXT: %[[L:.*]] = "ttir.linear"(%arg0, %arg1, %arg2) <{transpose_a = false, transpose_b = false}> : (tensor<32x64xbf16>, tensor<64x128xbf16>, tensor<128xbf16>) -> tensor<32x128xbf16>
// CHECK-NEXT: return %[[L]]
// TRACE: ttir-fusing: linear at "bias_add": applied: ttir.linear {{.*}} us vs 4 ops ({{.*}}) {{.*}} us, saves {{.*}} us
// TTNN-LABEL: func.func @linear
// TTNN: "ttnn.linear"(%arg0, %arg1, %arg2) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, transpose_a = false, transpose_b = false}>
// TTNN-NOT: "ttnn.add"
func.func @linear(%x: tensor<32x64xbf16>, %w: tensor<64x128xbf16>, %b: tensor<128xbf16>) -> tensor<32x128xbf16> {
  %0 = "ttir.matmul"(%x, %w) : (tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>
  %1 = "ttir.reshape"(%b) <{shape = [1 : i32, 128 : i32]}> : (tensor<128xbf16>) -> tensor<1x128xbf16>
  %2 = "ttir.broadcast"(%1) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x128xbf16>) -> tensor<32x128xbf16>
  %3 = "ttir.add"(%0, %2) : (tensor<32x128xbf16>, tensor<32x128xbf16>) -> tensor<32x128xbf16> loc("bias_add")
  return %3 : tensor<32x128xbf16>
}

// -----

// max-subtracted softmax (JAX's form: reductions without keep_dim, then reshapes) -> one softmax,
// and an activation read once folded into the matmul by ttnn-fusing.
// CHECK-LABEL: func.func @softmax_gelu
// CHECK-NEXT: %[[S:.*]] = "ttir.softmax"(%arg0) <{dimension = 1 : si32, numericStable = true}> : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
// CHECK-NEXT: %[[M:.*]] = "ttir.matmul"(%[[S]], %arg1)
// CHECK-NEXT: %[[G:.*]] = "ttir.gelu"(%[[M]])
// CHECK-NEXT: return %[[G]]
// TRACE: ttir-fusing: softmax at "softmax": applied: ttir.softmax
// TRACE: ttir-fusing: gelu at "gelu": applied: ttir.gelu {{.*}} (erf form)
// TRACE: ttir-fusing: softmax_stable at "softmax": applied
// TTNN-LABEL: func.func @softmax_gelu
// TTNN: "ttnn.softmax"(%arg0) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, dimension = 1 : si32, numericStable = true}>
// TTNN: "ttnn.matmul"({{.*}}) <{activation = "gelu", compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, transpose_a = false, transpose_b = false}>
// TTNN-NOT: "ttnn.gelu"
func.func @softmax_gelu(%x: tensor<32x128xbf16>, %w: tensor<128x64xbf16>) -> tensor<32x64xbf16> {
  %0 = "ttir.max"(%x) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x128xbf16>) -> tensor<32xbf16>
  %1 = "ttir.reshape"(%0) <{shape = [32 : i32, 1 : i32]}> : (tensor<32xbf16>) -> tensor<32x1xbf16>
  %2 = "ttir.broadcast"(%1) <{broadcast_dimensions = array<i64: 1, 128>}> : (tensor<32x1xbf16>) -> tensor<32x128xbf16>
  %3 = "ttir.subtract"(%x, %2) : (tensor<32x128xbf16>, tensor<32x128xbf16>) -> tensor<32x128xbf16>
  %4 = "ttir.exp"(%3) : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
  %5 = "ttir.sum"(%4) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x128xbf16>) -> tensor<32xbf16>
  %6 = "ttir.reshape"(%5) <{shape = [32 : i32, 1 : i32]}> : (tensor<32xbf16>) -> tensor<32x1xbf16>
  %7 = "ttir.broadcast"(%6) <{broadcast_dimensions = array<i64: 1, 128>}> : (tensor<32x1xbf16>) -> tensor<32x128xbf16>
  %8 = "ttir.div"(%4, %7) : (tensor<32x128xbf16>, tensor<32x128xbf16>) -> tensor<32x128xbf16> loc("softmax")
  %9 = "ttir.matmul"(%8, %w) : (tensor<32x128xbf16>, tensor<128x64xbf16>) -> tensor<32x64xbf16>
  %h = "ttir.full"() <{fill_value = 5.000000e-01 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xbf16>
  %k = "ttir.full"() <{fill_value = 0.707106769 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xbf16>
  %one = "ttir.full"() <{fill_value = 1.000000e+00 : f32, shape = array<i32: 32, 64>}> : () -> tensor<32x64xbf16>
  %10 = "ttir.multiply"(%9, %k) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %11 = "ttir.erf"(%10) : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %12 = "ttir.add"(%11, %one) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %13 = "ttir.multiply"(%9, %h) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %14 = "ttir.multiply"(%13, %12) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16> loc("gelu")
  return %14 : tensor<32x64xbf16>
}

// -----

// rms_norm with its gamma reshaped to the normalized dimension.
// CHECK-LABEL: func.func @rms_norm
// CHECK-NEXT: %[[G:.*]] = "ttir.reshape"(%arg1) <{shape = [512 : i32]}> : (tensor<1x512xbf16>) -> tensor<512xbf16>
// CHECK-NEXT: "ttir.rms_norm"(%arg0, %[[G]]) <{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 512>, operandSegmentSizes = array<i32: 1, 1, 0>}>
// TTNN-LABEL: func.func @rms_norm
// TTNN: "ttnn.rms_norm"(%arg0, %{{.*}}) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, epsilon = {{.*}} : f32, operandSegmentSizes = array<i32: 1, 1, 0>}>
func.func @rms_norm(%x: tensor<128x512xbf16>, %g: tensor<1x512xbf16>) -> tensor<128x512xbf16> {
  %0 = "ttir.multiply"(%x, %x) : (tensor<128x512xbf16>, tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %1 = "ttir.mean"(%0) <{dim_arg = [-1 : i32], keep_dim = true}> : (tensor<128x512xbf16>) -> tensor<128x1xbf16>
  %e = "ttir.full"() <{fill_value = 9.99999974E-6 : f32, shape = array<i32: 128, 1>}> : () -> tensor<128x1xbf16>
  %2 = "ttir.add"(%1, %e) : (tensor<128x1xbf16>, tensor<128x1xbf16>) -> tensor<128x1xbf16>
  %3 = "ttir.rsqrt"(%2) : (tensor<128x1xbf16>) -> tensor<128x1xbf16>
  %4 = "ttir.broadcast"(%3) <{broadcast_dimensions = array<i64: 1, 512>}> : (tensor<128x1xbf16>) -> tensor<128x512xbf16>
  %5 = "ttir.multiply"(%x, %4) : (tensor<128x512xbf16>, tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %6 = "ttir.broadcast"(%g) <{broadcast_dimensions = array<i64: 128, 1>}> : (tensor<1x512xbf16>) -> tensor<128x512xbf16>
  %7 = "ttir.multiply"(%5, %6) : (tensor<128x512xbf16>, tensor<128x512xbf16>) -> tensor<128x512xbf16>
  return %7 : tensor<128x512xbf16>
}

// -----

// Attention: scaled scores, softmax, context matmul -> scaled_dot_product_attention (K^T peeled).
// CHECK-LABEL: func.func @attention
// CHECK-NEXT: %[[A:.*]] = "ttir.scaled_dot_product_attention"(%arg0, %arg1, %arg2) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32}>
// CHECK-NEXT: return %[[A]]
// TRACE: ttir-fusing: sdpa at "context": applied: ttir.scaled_dot_product_attention {{.*}} vs 7 ops ({{.*}})
// TTNN-LABEL: func.func @attention
// TTNN: "ttnn.scaled_dot_product_attention"(%arg0, %arg1, %arg2) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32}>
func.func @attention(%q: tensor<1x8x128x64xbf16>, %k: tensor<1x8x128x64xbf16>, %v: tensor<1x8x128x64xbf16>) -> tensor<1x8x128x64xbf16> {
  %kt = "ttir.permute"(%k) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x8x128x64xbf16>) -> tensor<1x8x64x128xbf16>
  %0 = "ttir.matmul"(%q, %kt) : (tensor<1x8x128x64xbf16>, tensor<1x8x64x128xbf16>) -> tensor<1x8x128x128xbf16>
  %c = "ttir.full"() <{fill_value = 1.250000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}> : () -> tensor<1x1x1x1xbf16>
  %cb = "ttir.broadcast"(%c) <{broadcast_dimensions = array<i64: 1, 8, 128, 128>}> : (tensor<1x1x1x1xbf16>) -> tensor<1x8x128x128xbf16>
  %1 = "ttir.multiply"(%0, %cb) : (tensor<1x8x128x128xbf16>, tensor<1x8x128x128xbf16>) -> tensor<1x8x128x128xbf16>
  %2 = "ttir.softmax"(%1) <{dimension = -1 : si32}> : (tensor<1x8x128x128xbf16>) -> tensor<1x8x128x128xbf16>
  %3 = "ttir.matmul"(%2, %v) : (tensor<1x8x128x128xbf16>, tensor<1x8x128x64xbf16>) -> tensor<1x8x128x64xbf16> loc("context")
  return %3 : tensor<1x8x128x64xbf16>
}

// -----

// Preconditions that fail are named in the trace and leave the ops as they are.
// CHECK-LABEL: func.func @declined
// CHECK: "ttir.sigmoid"
// CHECK: "ttir.multiply"
// CHECK-NOT: "ttir.silu"
// TRACE: ttir-fusing: silu at "silu": not applied: the sigmoid has other users
func.func @declined(%x: tensor<32x64xbf16>) -> (tensor<32x64xbf16>, tensor<32x64xbf16>) {
  %0 = "ttir.sigmoid"(%x) : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
  %1 = "ttir.multiply"(%x, %0) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16> loc("silu")
  return %1, %0 : tensor<32x64xbf16>, tensor<32x64xbf16>
}
