// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s

// Rank-0 tensors keep rank 0, with HEAD's one-element layout.
// CHECK: #[[SCALAR:.*]] = #ttnn.ttnn_layout<() -> (0, 0), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
// CHECK-LABEL: func.func @scalars
// CHECK: "ttnn.add"(%arg0, %arg1) : (tensor<f32, #[[SCALAR]]>, tensor<f32, #[[SCALAR]]>) -> tensor<f32, #[[SCALAR]]>
func.func @scalars(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = "ttir.add"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// le / lt are ge / gt of the swapped operands, as HEAD's TTIR canonicalizer leaves them.
// CHECK-LABEL: func.func @compares
// CHECK: "ttnn.ge"(%arg1, %arg0)
// CHECK: "ttnn.gt"(%arg1, %arg0)
func.func @compares(%arg0: tensor<13x31xf32>, %arg1: tensor<13x31xf32>) -> (tensor<13x31xf32>, tensor<13x31xf32>) {
  %0 = "ttir.le"(%arg0, %arg1) : (tensor<13x31xf32>, tensor<13x31xf32>) -> tensor<13x31xf32>
  %1 = "ttir.lt"(%arg0, %arg1) : (tensor<13x31xf32>, tensor<13x31xf32>) -> tensor<13x31xf32>
  return %0, %1 : tensor<13x31xf32>, tensor<13x31xf32>
}

// clamp_tensor with constant bounds is clamp_scalar; an i64 bound saturates to i32.
// CHECK-LABEL: func.func @clamps
// CHECK: "ttnn.clamp_scalar"(%arg0) <{max = 2147483647 : i32, min = 1 : i32}>
// CHECK: "ttnn.clamp_tensor"(%arg1, %arg2, %arg3)
func.func @clamps(%arg0: tensor<64x128xi64>, %arg1: tensor<32x64xf32>, %arg2: tensor<32x64xf32>, %arg3: tensor<32x64xf32>) -> (tensor<64x128xi64>, tensor<32x64xf32>) {
  %min = "ttir.constant"() <{value = dense<1> : tensor<64x128xi64>}> : () -> tensor<64x128xi64>
  %max = "ttir.constant"() <{value = dense<9223372036854775807> : tensor<64x128xi64>}> : () -> tensor<64x128xi64>
  %0 = "ttir.clamp_tensor"(%arg0, %min, %max) : (tensor<64x128xi64>, tensor<64x128xi64>, tensor<64x128xi64>) -> tensor<64x128xi64>
  %1 = "ttir.clamp_tensor"(%arg1, %arg2, %arg3) : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0, %1 : tensor<64x128xi64>, tensor<32x64xf32>
}

// repeat_interleave by 1 folds away; reduce_or / reduce_and are sum / prod.
// CHECK-LABEL: func.func @folds
// CHECK: "ttnn.sum"(%arg1) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, dim_arg = [1 : i32], keep_dim = false}>
// CHECK: return %arg0
func.func @folds(%arg0: tensor<8x64xf32>, %arg1: tensor<32x4xbf16>) -> (tensor<8x64xf32>, tensor<32xbf16>) {
  %0 = "ttir.repeat_interleave"(%arg0) <{repeats = 1 : ui32, dim = 0 : si32}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %1 = "ttir.reduce_or"(%arg1) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x4xbf16>) -> tensor<32xbf16>
  return %0, %1 : tensor<8x64xf32>, tensor<32xbf16>
}
