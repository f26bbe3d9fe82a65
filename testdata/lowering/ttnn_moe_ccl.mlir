// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline="mesh-shape=2,4" | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline="mesh-shape=2,4" | python %S/../../bench/ttnn_ods_check.py - --split-input-file | FileCheck %s --check-prefix=ODS

// The mixture-of-experts collectives convert one to one, as tt-mlir HEAD's TTIRToTTNN does, with
// HEAD's result names. dispatch_metadata reads its expert mapping as [D, E] (a reshape) and leaves
// its output buffers and semaphore unbound. HEAD's workarounds run dispatch and combine on row-major
// bf16 data and row-major ui16 indices and maps, and convert their results back.
// ODS: 0 violation(s)

// CHECK-LABEL: func.func @dispatch_combine
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%arg0) {{.*}} -> tensor<1x1x128x2880xbf16
// CHECK: %[[I:.*]] = "ttnn.to_layout"({{.*}} -> tensor<1x1x128x4xui16
// CHECK: %[[M:.*]] = "ttnn.to_layout"({{.*}} -> tensor<1x1x32x8xui16
// CHECK: %dispatched, %metadata = "ttnn.all_to_all_dispatch"(%[[X]], %[[I]], %[[M]]) <{cluster_axis = 0 : i64, num_devices = 2 : i64}> {{.*}} -> (tensor<1x2x128x2880xbf16, {{.*}}>, tensor<1x2x128x4xui16
// CHECK: "ttnn.all_to_all_combine"({{.*}}) <{cluster_axis = 0 : i64, num_devices = 2 : i64, num_experts_per_tok = 4 : i64, output_shard_dim = 1 : i64}>
module {
  func.func @dispatch_combine(%x: tensor<1x1x128x2880xbf16>, %idx: tensor<1x1x128x4xi64>, %map: tensor<1x1x32x8xi64>) -> tensor<2x1x128x2880xbf16> {
    %d, %m = "ttir.all_to_all_dispatch"(%x, %idx, %map) <{cluster_axis = 0 : i64, num_devices = 2 : i64}> : (tensor<1x1x128x2880xbf16>, tensor<1x1x128x4xi64>, tensor<1x1x32x8xi64>) -> (tensor<1x2x128x2880xbf16>, tensor<1x2x128x4xi64>)
    %r = "ttir.all_to_all_combine"(%d, %m, %map) <{cluster_axis = 0 : i64, num_devices = 2 : i64, num_experts_per_tok = 4 : i64, output_shard_dim = 1 : i64}> : (tensor<1x2x128x2880xbf16>, tensor<1x2x128x4xi64>, tensor<1x1x32x8xi64>) -> tensor<2x1x128x2880xbf16>
    return %r : tensor<2x1x128x2880xbf16>
  }
}

// -----

// HEAD's workaround reads input, indices and scores row-major from L1 interleaved (on the DRAM
// tensors' 1x1 grid: all pages in one row), the mapping row-major ui16, and brings the indices and
// scores the kernel writes height sharded in L1 back to DRAM.
// CHECK-DAG: #[[LX:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x368640xbf16, #l1>, <interleaved>>
// CHECK-DAG: #[[LI:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<1x512xui16, #l1>, <interleaved>>
// CHECK-DAG: #[[LO:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}, <1x1>, memref<256x4xui16, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 0)>]>>
// CHECK-LABEL: func.func @dispatch_metadata
// CHECK: %[[MAP:.*]] = "ttnn.reshape"(%arg3) <{shape = [8 : i32, 32 : i32]}>
// CHECK: %[[X:.*]] = "ttnn.to_memory_config"({{.*}} -> tensor<1x1x128x2880xbf16, #[[LX]]>
// CHECK: %[[I:.*]] = "ttnn.to_memory_config"({{.*}} -> tensor<1x1x128x4xui16, #[[LI]]>
// CHECK: %[[S:.*]] = "ttnn.to_memory_config"({{.*}} -> tensor<1x1x128x4xbf16
// CHECK: %[[M:.*]] = "ttnn.to_layout"({{.*}} -> tensor<8x32xui16
// CHECK: %dispatched, %indices, %scores = "ttnn.all_to_all_dispatch_metadata"(%[[X]], %[[I]], %[[S]], %[[M]]) <{cluster_axis = 0 : i64, num_devices = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}>
// CHECK-SAME: tensor<1x256x4xui16, #[[LO]]>
// CHECK: "ttnn.to_memory_config"(%indices)
module {
  func.func @dispatch_metadata(%x: tensor<1x1x128x2880xbf16>, %idx: tensor<1x1x128x4xi64>, %s: tensor<1x1x128x4xbf16>, %map: tensor<1x1x8x32xi64>) -> (tensor<1x256x2880xbf16>, tensor<1x256x4xi64>, tensor<1x256x4xbf16>) {
    %d, %i, %o = "ttir.all_to_all_dispatch_metadata"(%x, %idx, %s, %map) <{cluster_axis = 0 : i64, num_devices = 2 : i64}> : (tensor<1x1x128x2880xbf16>, tensor<1x1x128x4xi64>, tensor<1x1x128x4xbf16>, tensor<1x1x8x32xi64>) -> (tensor<1x256x2880xbf16>, tensor<1x256x4xi64>, tensor<1x256x4xbf16>)
    return %d, %i, %o : tensor<1x256x2880xbf16>, tensor<1x256x4xi64>, tensor<1x256x4xbf16>
  }
}

// -----

// sparse_matmul gets HEAD's 1-D multicast program config: N = 5760 is 180 tiles, 23 per column
// on all 8 columns of the mock wormhole_b0 8x8 grid; M = 32 is one tile per core.
// CHECK-LABEL: func.func @sparse_matmul
// The sparsity tensor is read row-major (HEAD's sparse_matmul workaround).
// CHECK: %[[S:.*]] = "ttnn.to_layout"(%arg2) {{.*}} -> tensor<2x4x1x4xbf16, #[[RM:.*]]>
// CHECK: "ttnn.sparse_matmul"(%arg0, %arg1, %[[S]]) <{is_input_a_sparse = false, is_input_b_sparse = true, program_config = #ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 8>, in0_block_w = 1, out_subblock_h = 1, out_subblock_w = 1, out_block_h = 1, out_block_w = 1, per_core_m = 1, per_core_n = 23, fuse_batch = false, mcast_in0 = true, gather_in0 = false, hop_cores = #ttnn.core_range_set<>, num_global_cb_receivers = 0, untilize_out = false>}>
module {
  func.func @sparse_matmul(%a: tensor<2x4x32x2880xbf16>, %b: tensor<1x4x2880x5760xbf16>, %s: tensor<2x4x1x4xbf16>) -> tensor<2x4x1x4x32x5760xbf16> {
    %0 = "ttir.sparse_matmul"(%a, %b, %s) <{is_input_a_sparse = false, is_input_b_sparse = true}> : (tensor<2x4x32x2880xbf16>, tensor<1x4x2880x5760xbf16>, tensor<2x4x1x4xbf16>) -> tensor<2x4x1x4x32x5760xbf16>
    return %0 : tensor<2x4x1x4x32x5760xbf16>
  }
}
