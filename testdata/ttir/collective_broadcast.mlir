// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --convert-to-ttnn-ccl | FileCheck %s --check-prefix=CCL

// ttir.collective_broadcast has no TTNN op: as HEAD's TTIRToTTNN, the input is copied
// (ttnn.assign) and each group's first device sends it to every other member, each transfer
// written into the previous one's result. Device 1 -> 3 on the 2x2 mesh is (0,1) -> (1,1), 0 -> 2
// is (0,0) -> (1,0).

// CHECK-LABEL: func.func @broadcast
// CHECK: %[[B:.*]] = "ttnn.assign"(%arg0)
// CHECK: %[[P:.*]] = "ttnn.point_to_point"(%arg0, %[[B]]) <{receiver_coord = array<i64: 1, 1>, sender_coord = array<i64: 0, 1>}>
// CHECK: %[[Q:.*]] = "ttnn.point_to_point"(%arg0, %[[P]]) <{receiver_coord = array<i64: 1, 0>, sender_coord = array<i64: 0, 0>}>
// CHECK: return %[[Q]]

// CCL-LABEL: func.func @broadcast
// CCL: %[[B:.*]] = "ttnn.assign"(%arg0) : (tensor<1x1x32x64xbf16>) -> tensor<1x1x32x64xbf16>
// CCL: "ttnn.point_to_point"(%arg0, %[[B]]) <{receiver_coord = array<i64: 1, 1>, sender_coord = array<i64: 0, 1>}>
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x2>]>} {
  func.func @broadcast(%arg0: tensor<1x1x32x64xbf16>) -> tensor<1x1x32x64xbf16> {
    %0 = "ttir.collective_broadcast"(%arg0) <{replica_groups = dense<[[1, 3], [0, 2]]> : tensor<2x2xi64>}> : (tensor<1x1x32x64xbf16>) -> tensor<1x1x32x64xbf16>
    return %0 : tensor<1x1x32x64xbf16>
  }
}
