// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 memory-layout-analysis-policy=DFSharding" -o %t && FileCheck %s --input-file=%t
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2" | FileCheck %s --check-prefix=L2
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-optimizer=true memory-layout-analysis-enabled=true max-legal-layouts=0" | FileCheck %s --check-prefix=NOSHARD
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" | FileCheck %s --check-prefix=LEVEL1
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 override-output-layout=matmul_out=dram" | FileCheck %s --check-prefix=OVERRIDE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 memory-layout-analysis-policy=BFInterleaved insert-memreconfig=act=0" --mlir-print-debuginfo | FileCheck %s --check-prefix=RECONFIG
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-greedy-optimizer=true" --stats - -o %t.greedy | FileCheck %s --check-prefix=GREEDY
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 compute-cfg-math-fidelity=lofi" | FileCheck %s --check-prefix=FIDELITY

// A matmul chain in TTIR, written like tt-mlir's optimizer tests (matmul_program_config.mlir):
// DFSharding shards the matmul with a multicast program config and keeps the eltwise consumers in
// the same L1 shards; the returned result is spilled to DRAM. optimization-level=2 (CostBased)
// shards the matmul and the multiply the same way, and the relu writes its result to DRAM itself
// (no spill op).

// CHECK-DAG: #[[DRAM:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK-DAG: #[[L1:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <{{[0-9]+x[0-9]+}}>, memref<{{[0-9]+x[0-9]+}}x!ttcore.tile<32x32, bf16>, #l1>, <{{width|height|block}}_sharded>
// CHECK: "ttnn.matmul"
// CHECK-SAME: matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast
// CHECK-SAME: compute_with_storage_grid_size
// CHECK-SAME: -> tensor<512x2048xbf16, #[[L1]]>
// CHECK: "ttnn.multiply"{{.*}} -> tensor<512x2048xbf16, #[[L1]]>
// CHECK: "ttnn.relu"{{.*}} -> tensor<512x2048xbf16, #[[L1]]>
// CHECK: "ttnn.to_memory_config"{{.*}} -> tensor<512x2048xbf16, #[[DRAM]]>
// CHECK: return {{.*}} : tensor<512x2048xbf16, #[[DRAM]]>

// L2-DAG: #[[DRAM:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<16x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// L2-DAG: #[[L1:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <{{[0-9]+x[0-9]+}}>, memref<{{[0-9]+x[0-9]+}}x!ttcore.tile<32x32, bf16>, #l1>, <{{width|height|block}}_sharded>
// L2: "ttnn.matmul"
// L2-SAME: matmul_program_config = #ttnn.matmul_multi_core_reuse_multi_cast
// L2-SAME: -> tensor<512x2048xbf16, #[[L1]]>
// L2: "ttnn.multiply"{{.*}} -> tensor<512x2048xbf16, #[[L1]]>
// L2: "ttnn.relu"{{.*}} -> tensor<512x2048xbf16, #[[DRAM]]>
// L2-NOT: ttnn.to_layout
// L2: return {{.*}} : tensor<512x2048xbf16, #[[DRAM]]>

// max-legal-layouts=0: no sharding at all.
// NOSHARD-NOT: _sharded
// NOSHARD: "ttnn.matmul"

// optimization-level=1: the optimizer runs without memory layout analysis: all DRAM interleaved.
// LEVEL1-NOT: #l1
// LEVEL1: "ttnn.matmul"

// OVERRIDE: "ttnn.matmul"{{.*}} -> tensor<512x2048xbf16, #[[D:ttnn_layout[0-9]*]]>
// OVERRIDE: return {{.*}} : tensor<512x2048xbf16, #[[D]]>

// insert-memreconfig on the relu's operand: a to_layout in front of it.
// RECONFIG: %[[RC:.*]] = "ttnn.to_memory_config"({{.*}}) {{.*}} loc("act_mem_reconfig")
// RECONFIG: "ttnn.relu"(%[[RC]])

// GREEDY: "memory_layout_analysis_policy": "CostBased"
// GREEDY: "estimated_ns": [[AFTER:[0-9.]+]]
// GREEDY: "estimated_ns_before": [[BEFORE:[0-9.]+]]

// FIDELITY: "ttnn.matmul"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi>

#loc = loc("test":0:0)
module attributes {} {
  func.func @forward(%arg0: tensor<512x1024xbf16>, %arg1: tensor<1024x2048xbf16>, %arg2: tensor<512x2048xbf16>) -> tensor<512x2048xbf16> {
    %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<512x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<512x2048xbf16> loc(#loc1)
    %1 = "ttir.multiply"(%0, %arg2) : (tensor<512x2048xbf16>, tensor<512x2048xbf16>) -> tensor<512x2048xbf16> loc(#loc2)
    %2 = "ttir.relu"(%1) : (tensor<512x2048xbf16>) -> tensor<512x2048xbf16> loc(#loc3)
    return %2 : tensor<512x2048xbf16>
  }
}
#loc1 = loc("matmul_out"(#loc))
#loc2 = loc("scale"(#loc))
#loc3 = loc("act"(#loc))
