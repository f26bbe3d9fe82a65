// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="disable-workarounds=true" | FileCheck %s --check-prefix=NOWA

// ttnn-workaround runs embedding_bw as HEAD's workaround pass does: indices row-major ui32, table
// and gradient bf16, the bf16 result typecast back to f32.

// CHECK: %[[C:.*]] = "ttnn.typecast"{{.*}} -> tensor<1x1x1x32xui32
// CHECK: %[[I:.*]] = "ttnn.to_layout"(%[[C]]){{.*}} -> tensor<1x1x1x32xui32
// CHECK: %[[W:.*]] = "ttnn.typecast"(%arg1){{.*}} -> tensor<512x128xbf16
// CHECK: %[[G:.*]] = "ttnn.typecast"{{.*}} -> tensor<1x1x32x128xbf16
// CHECK: %[[E:.*]] = "ttnn.embedding_bw"(%[[I]], %[[W]], %[[G]]){{.*}} -> tensor<1x1x512x128xbf16
// CHECK: "ttnn.typecast"(%[[E]]){{.*}} -> tensor<1x1x512x128xf32
// NOWA-NOT: ttnn.typecast
// NOWA: "ttnn.embedding_bw"{{.*}} -> tensor<1x1x512x128xf32
func.func @backward(%arg0: tensor<1x32xf32>, %arg1: tensor<512x128xf32>, %arg2: tensor<1x32x128xf32>) -> tensor<512x128xf32> {
  %0 = "ttir.embedding_backward"(%arg0, %arg1, %arg2) : (tensor<1x32xf32>, tensor<512x128xf32>, tensor<1x32x128xf32>) -> tensor<512x128xf32>
  return %0 : tensor<512x128xf32>
}
