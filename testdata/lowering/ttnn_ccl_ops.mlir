// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 verify-l1-budget=true" | FileCheck %s --check-prefix=OPT

// A tensor-parallel body nested in ttcore.device_module, as tt-mlir's model files hold it: the
// collectives and distributed_rms_norm lower in convert-ttir-to-ttnn as HEAD's TTIRToTTNN does.
// mesh_partition reads and writes row-major DRAM (HEAD's TTNNLayout), untilized before and
// re-tilized for the op after it. Collectives take no device operand and no num_links (a rank-2
// all_reduce runs on 1x1xMxN between two reshapes, HEAD's workaround); distributed_rms_norm takes
// the function's one device last, its segments (input, weight, residual, stats, semaphore, device),
// on the fused kernel's (1, 1, 32, M) input and (N/32, 32) weight (HEAD's TTNN decomposition).
// CHECK: func.func @main
// CHECK: %[[DEV:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x2>}>
// CHECK-NOT: ttnn.get_device
// CHECK: %[[RM:.*]] = "ttnn.to_layout"(%arg0)
// CHECK: %[[PART:.*]] = "ttnn.mesh_partition"(%[[RM]]) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<64x128xbf16, {{.*}}>) -> tensor<32x128xbf16,
// CHECK: %[[TILED:.*]] = "ttnn.to_layout"(%[[PART]])
// CHECK: %[[W:.*]] = "ttnn.reshape"(%arg1) <{shape = [4 : i32, 32 : i32]}>
// CHECK: %[[X4:.*]] = "ttnn.reshape"(%[[TILED]]) <{shape = [1 : i32, 1 : i32, 32 : i32, 128 : i32]}>
// CHECK: "ttnn.distributed_rms_norm"(%[[X4]], %[[W]], %[[DEV]]) <{cluster_axis = 1 : ui32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1>}>
// The norm's reshape back to 2-D and the all_reduce workaround's reshape to 4-D cancel (canonicalize).
// CHECK-NOT: "ttnn.reshape"
// CHECK: "ttnn.all_reduce"(%{{.*}}) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x128xbf16,
// CHECK: "ttnn.reshape"(%{{.*}}) <{shape = [32 : i32, 128 : i32]}>
// CHECK: "ttnn.all_gather"(%{{.*}}) <{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}> : (tensor<32x128xbf16,
// CHECK-SAME: -> tensor<64x128xbf16,
// OPT: "ttnn.distributed_rms_norm"
// OPT: "ttnn.all_gather"
module @tp attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  ttcore.device_module {
    builtin.module @tp attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
      func.func @main(%arg0: tensor<64x128xbf16>, %arg1: tensor<128xbf16>) -> tensor<64x128xbf16> {
        %0 = "ttir.mesh_partition"(%arg0) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<64x128xbf16>) -> tensor<32x128xbf16>
        %1 = "ttir.distributed_rms_norm"(%0, %arg1) <{cluster_axis = 1 : ui32, epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x128xbf16>, tensor<128xbf16>) -> tensor<32x128xbf16>
        %2 = "ttir.all_reduce"(%1) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
        %3 = "ttir.all_gather"(%2) <{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}> : (tensor<32x128xbf16>) -> tensor<64x128xbf16>
        return %3 : tensor<64x128xbf16>
      }
    }
  }
}
