// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline | python %S/../../bench/ttnn_ods_check.py - --split-input-file | FileCheck %s --check-prefix=ODS

// distributed_rms_norm as tt-mlir HEAD's TTNN decomposition leaves it. An input the fused kernel
// does not take (32x1x256: the second-to-last dimension is not 32) is padded to rank 4 and
// computed from the per-device statistics: the residual added, rms_norm_pre_all_gather, all_gather
// over cluster axis 0 (2 devices), column 0 of each device's tile row, mean over the devices,
// times 1/256, plus epsilon, rsqrt, times the input and the weight.
// ODS: 0 violation(s)
// CHECK-LABEL: func.func @composite
// CHECK: %[[X:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 32 : i32, 1 : i32, 256 : i32]}>
// CHECK: %[[R:.*]] = "ttnn.reshape"(%arg2) <{shape = [1 : i32, 32 : i32, 1 : i32, 256 : i32]}>
// CHECK: %[[XR:.*]] = "ttnn.add"(%[[X]], %[[R]])
// CHECK: %[[S:.*]] = "ttnn.rms_norm_pre_all_gather"(%[[XR]]) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>}> : ({{.*}}) -> tensor<1x32x1x32xbf16
// CHECK: %[[G:.*]] = "ttnn.all_gather"(%[[S]]) <{all_gather_dim = 3 : si32, cluster_axis = 0 : ui32}> : ({{.*}}) -> tensor<1x32x1x64xbf16
// CHECK: %[[G2:.*]] = "ttnn.reshape"(%[[G]]) <{shape = [1 : i32, 32 : i32, 1 : i32, 2 : i32, 32 : i32]}>
// CHECK: %[[C:.*]] = "ttnn.slice_static"(%[[G2]]) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 32 : i32, 1 : i32, 2 : i32, 1 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32, 1 : i32]}>
// CHECK: %[[F:.*]] = "ttnn.reshape"(%[[C]]) <{shape = [1 : i32, 32 : i32, 1 : i32, 2 : i32]}>
// CHECK: %[[M:.*]] = "ttnn.mean"(%[[F]]) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, dim_arg = [3 : i32], keep_dim = true}>
// CHECK: %[[N:.*]] = "ttnn.full"(%{{.*}}) <{fill_value = 3.906250e-03 : f32, shape = #ttnn.shape<1x32x1x1>}>
// CHECK: %[[E2:.*]] = "ttnn.multiply"(%[[M]], %[[N]])
// CHECK: %[[EPS:.*]] = "ttnn.full"(%{{.*}}) <{fill_value = 9.99999974E-6 : f32, shape = #ttnn.shape<1x32x1x1>}>
// CHECK: %[[A:.*]] = "ttnn.add"(%[[E2]], %[[EPS]])
// CHECK: %[[Q:.*]] = "ttnn.rsqrt"(%[[A]])
// CHECK: %[[Y:.*]] = "ttnn.multiply"(%[[XR]], %[[Q]])
// CHECK: %[[YW:.*]] = "ttnn.multiply"(%[[Y]], %arg1)
// CHECK: "ttnn.reshape"(%[[YW]]) <{shape = [32 : i32, 1 : i32, 256 : i32]}>
// CHECK-NOT: ttnn.distributed_rms_norm
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>} {
  func.func @composite(%x: tensor<32x1x256xbf16>, %w: tensor<256xbf16>, %r: tensor<32x1x256xbf16>) -> tensor<32x1x256xbf16> {
    %0 = "ttir.distributed_rms_norm"(%x, %w, %r) <{cluster_axis = 0 : ui32, epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<32x1x256xbf16>, tensor<256xbf16>, tensor<32x1x256xbf16>) -> tensor<32x1x256xbf16>
    return %0 : tensor<32x1x256xbf16>
  }
}

// -----

// Without a weight the fused kernel is not used either; over a one-device axis (1x2 mesh, axis 0)
// the statistics need no all_gather.
// CHECK-LABEL: func.func @no_weight
// CHECK: "ttnn.rms_norm_pre_all_gather"
// CHECK-NOT: ttnn.all_gather
// CHECK: "ttnn.reshape"({{.*}}) <{shape = [1 : i32, 1 : i32, 32 : i32, 1 : i32, 32 : i32]}>
// CHECK: "ttnn.rsqrt"
// CHECK: "ttnn.multiply"
// CHECK-NOT: "ttnn.multiply"
// CHECK: return
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @no_weight(%x: tensor<1x1x32x64xbf16>) -> tensor<1x1x32x64xbf16> {
    %0 = "ttir.distributed_rms_norm"(%x) <{cluster_axis = 0 : ui32, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1x1x32x64xbf16>) -> tensor<1x1x32x64xbf16>
    return %0 : tensor<1x1x32x64xbf16>
  }
}
