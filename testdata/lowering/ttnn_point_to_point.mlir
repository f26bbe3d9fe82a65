// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline="mesh-shape=2,2" | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline="mesh-shape=2,2" | python %S/../../bench/ttnn_ods_check.py - --split-input-file | FileCheck %s --check-prefix=ODS

// collective_permute and all_to_all become point_to_point exchanges, as tt-mlir HEAD converts them
// (HEAD has no TTNN collective_permute or all_to_all). Device ids are row-major on the 2x2 mesh.
// ODS: 0 violation(s)

// An assign copy is the buffer each transfer writes into. 0 -> 3 shares neither row nor column:
// it goes through (0, 1). Devices 0 and 2, which no pair targets, get zeros (clamp_scalar to [0, 0])
// from device 1 and device 0.
// CHECK-LABEL: func.func @permute
// CHECK: %[[BUF:.*]] = "ttnn.assign"(%arg0)
// CHECK: %[[A:.*]] = "ttnn.point_to_point"(%arg0) <{receiver_coord = array<i64: 0, 1>, sender_coord = array<i64: 0, 0>}>
// CHECK: %[[B:.*]] = "ttnn.point_to_point"(%[[A]], %[[BUF]]) <{receiver_coord = array<i64: 1, 1>, sender_coord = array<i64: 0, 1>}>
// CHECK: %[[Z:.*]] = "ttnn.clamp_scalar"(%arg0) <{max = 0.000000e+00 : f32, min = 0.000000e+00 : f32}>
// CHECK: %[[C:.*]] = "ttnn.point_to_point"(%[[Z]], %[[B]]) <{receiver_coord = array<i64: 0, 0>, sender_coord = array<i64: 0, 1>}>
// CHECK: "ttnn.point_to_point"(%[[Z]], %[[C]]) <{receiver_coord = array<i64: 1, 0>, sender_coord = array<i64: 0, 0>}>
// CHECK-NOT: ttnn.collective_permute
module {
  func.func @permute(%arg0: tensor<1x1x32x32xf32>) -> tensor<1x1x32x32xf32> {
    %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 3], [1, 1]]> : tensor<2x2xi64>}> : (tensor<1x1x32x32xf32>) -> tensor<1x1x32x32xf32>
    return %0 : tensor<1x1x32x32xf32>
  }
}

// -----

// all_to_all over groups {0, 1} and {2, 3}: two slices along split_dim, one assign each, each
// member sends into the other's buffer, and the buffers concatenate along concat_dim.
// CHECK-LABEL: func.func @all_to_all
// CHECK: %[[S0:.*]] = "ttnn.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32], ends = [32 : i32, 32 : i32], step = [1 : i32, 1 : i32]}>
// CHECK: %[[S1:.*]] = "ttnn.slice_static"(%arg0) <{begins = [32 : i32, 0 : i32], ends = [64 : i32, 32 : i32], step = [1 : i32, 1 : i32]}>
// CHECK: %[[B0:.*]] = "ttnn.assign"(%[[S0]])
// CHECK: %[[B1:.*]] = "ttnn.assign"(%[[S1]])
// CHECK: %[[P0:.*]] = "ttnn.point_to_point"(%[[S1]], %[[B0]]) <{receiver_coord = array<i64: 0, 1>, sender_coord = array<i64: 0, 0>}>
// CHECK: %[[P1:.*]] = "ttnn.point_to_point"(%[[S0]], %[[B1]]) <{receiver_coord = array<i64: 0, 0>, sender_coord = array<i64: 0, 1>}>
// CHECK: %[[P2:.*]] = "ttnn.point_to_point"(%[[S1]], %[[P0]]) <{receiver_coord = array<i64: 1, 1>, sender_coord = array<i64: 1, 0>}>
// CHECK: %[[P3:.*]] = "ttnn.point_to_point"(%[[S0]], %[[P1]]) <{receiver_coord = array<i64: 1, 0>, sender_coord = array<i64: 1, 1>}>
// CHECK: "ttnn.concat"(%[[P2]], %[[P3]]) <{dim = 1 : si32}> : ({{.*}}) -> tensor<32x64xf32
module {
  func.func @all_to_all(%arg0: tensor<64x32xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.all_to_all"(%arg0) <{concat_dim = 1 : si32, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : si32, split_dim = 0 : si32}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}
