// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s

// ttir.distributed_layer_norm lowers as HEAD's TTNN decomposition leaves it: the residual added
// first, per-device statistics (64 wide), their all_gather over the 2 devices of cluster axis 1
// (128 wide), then the normalization with weight, bias and epsilon.

// CHECK-LABEL: func.func @norm
// CHECK: %[[S:.*]] = "ttnn.add"(%arg0, %arg3) {{.*}} -> tensor<1x1x64x256xbf16
// CHECK: %[[P:.*]] = "ttnn.layer_norm_pre_all_gather"(%[[S]]) <{{.*}}operandSegmentSizes = array<i32: 1, 0, 0>}> {{.*}} -> tensor<1x1x64x64xbf16
// CHECK: %[[G:.*]] = "ttnn.all_gather"(%[[P]]) <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}> {{.*}} -> tensor<1x1x64x128xbf16
// CHECK: %[[Y:.*]] = "ttnn.layer_norm_post_all_gather"(%[[S]], %[[G]], %arg1, %arg2) <{{.*}}epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1>}>
// CHECK-SAME: -> tensor<1x1x64x256xbf16
// CHECK: return %[[Y]]
// CHECK-NOT: distributed_layer_norm
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @norm(%x: tensor<1x1x64x256xbf16>, %w: tensor<256xbf16>, %b: tensor<256xbf16>, %r: tensor<1x1x64x256xbf16>) -> tensor<1x1x64x256xbf16> {
    %0 = "ttir.distributed_layer_norm"(%x, %w, %b, %r) <{cluster_axis = 1 : ui32, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (tensor<1x1x64x256xbf16>, tensor<256xbf16>, tensor<256xbf16>, tensor<1x1x64x256xbf16>) -> tensor<1x1x64x256xbf16>
    return %0 : tensor<1x1x64x256xbf16>
  }
}
