// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2" | FileCheck %s

// The AdamW step writes param and both moments in place: ttnn.adamw has no results and the
// function returns the updated param argument; the f32 gradient is typecast to the bf16 the
// ttml kernel takes, the f32 state is not.
module {
  // CHECK-LABEL: func.func @step(
  // CHECK-SAME: %[[P:arg0]]: tensor<2x32x32xf32
  // CHECK: %[[G:.*]] = "ttnn.typecast"(%arg1) : (tensor<2x32x32xf32, {{.*}}) -> tensor<2x32x32xbf16
  // CHECK-NEXT: "ttnn.adamw"(%[[P]], %[[G]], %arg2, %arg3) <{beta1 = 0.899999976 : f32, beta1_pow = 8.100000e-01 : f32, beta2 = 9.990000e-01 : f32, beta2_pow = 0.998000979 : f32, epsilon = 9.99999993E-9 : f32, lr = 1.000000e-03 : f32, stochastic_rounding = true, weight_decay = 0.00999999977 : f32}>
  // CHECK-SAME: -> ()
  // CHECK: return %[[P]]
  func.func @step(%p: tensor<2x32x32xf32>, %g: tensor<2x32x32xf32>, %m: tensor<2x32x32xf32>, %v: tensor<2x32x32xf32>) -> tensor<2x32x32xf32> {
    %0:3 = "ttir.adamw"(%p, %g, %m, %v) <{lr = 1.000000e-03 : f32, beta1 = 0.899999976 : f32, beta2 = 0.999000012 : f32,
        beta1_pow = 0.810000002 : f32, beta2_pow = 0.998000979 : f32, epsilon = 1.000000e-08 : f32,
        weight_decay = 1.000000e-02 : f32, stochastic_rounding = true}>
        : (tensor<2x32x32xf32>, tensor<2x32x32xf32>, tensor<2x32x32xf32>, tensor<2x32x32xf32>) -> (tensor<2x32x32xf32>, tensor<2x32x32xf32>, tensor<2x32x32xf32>)
    return %0#0 : tensor<2x32x32xf32>
  }
}
