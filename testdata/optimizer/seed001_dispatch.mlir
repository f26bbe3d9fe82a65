// RUN: ttopt opt %S/../seeds/001_input.mlir --canonicalize --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding | FileCheck %s
// RUN: ttopt opt %S/../seeds/001_input.mlir --canonicalize --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %S/../seeds/001_input.mlir --canonicalize --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --stats %t >/dev/null && FileCheck %s --check-prefix=STATS < %t

// Seed 001's module (testdata/seeds/001_input.mlir; canonicalize drops the exp/neg/abs the seed
// keeps for context although they are fused into the dispatch). Chain0 = {%0} ends at the dispatch
// and keeps its output in L1 (2x8 block sharded, the seed's #ttnn_layout3); Chain1 = {%4, %5}
// consumes the dispatch and solves for its optimal first-op input (2x2 block sharded, the seed's
// #ttnn_layout4), which becomes the dispatch's output (and its output buffer's layout); Chain1
// spills to DRAM before the return. Ops are reordered to the schedule [%0, %dispatch, %4, %5].

// CHECK: #[[B28:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 1)>]>>
// CHECK: #[[B22:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x2>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (1, 1)>]>>
// CHECK: %[[M0:.*]] = "ttnn.matmul"(%arg0, %arg1) {{.*}} -> tensor<64x256xbf16, #[[B28]]>
// CHECK-NEXT: %[[DEV:.*]] = "ttnn.get_device"
// CHECK-NEXT: %[[BUF:.*]] = "ttnn.empty"(%[[DEV]]) {{.*}} -> tensor<64x256xbf16, #[[B22]]>
// CHECK-NEXT: %[[D:.*]] = "ttnn.dispatch_d2m"(%[[M0]], %[[BUF]]) : (tensor<64x256xbf16, #[[B28]]>, tensor<64x256xbf16, #[[B22]]>) -> tensor<64x256xbf16, #[[B22]]>
// CHECK-NEXT: %[[M4:.*]] = "ttnn.matmul"(%[[D]], %arg2) {{.*}}compute_with_storage_grid_size = #ttnn.core_coord<2, 2>{{.*}} -> tensor<64x64xbf16, #{{.*}}>
// CHECK-NEXT: %[[M5:.*]] = "ttnn.matmul"(%[[M4]], %arg3)
// CHECK-NEXT: %[[S:.*]] = "ttnn.to_memory_config"(%[[M5]])
// CHECK-NEXT: return %[[S]]

// TRACE: schedule: matmul#0, dispatch_d2m#3, matmul#4, matmul#5
// TRACE: chain 0: [matmul#0]
// TRACE-NEXT: chain 1: [matmul#4, matmul#5]
// TRACE: dispatch dispatch_d2m#3: producer chain 0, consumer chain 1
// TRACE: chain solving order: [0, 1]
// TRACE: chain 0 completed, spill location None
// TRACE: ShardSolver: chain 1 (consumes a dispatch op: solving for its optimal input)
// TRACE: preprocess: first op matmul#4 consumes a dispatch op: {{[0-9]+}} valid (input, config) combination(s), picked config 0
// TRACE-NEXT: resolved first-op input layout: l1 block_sharded 2x2 [1x4 tiles]
// TRACE: chain 1 completed, spill location DRAM
// TRACE: dispatch config dispatch_d2m#3: input l1 block_sharded 2x8 [1x1 tiles], output l1 block_sharded 2x2 [1x4 tiles], L1 budget 1487872 B/core

// STATS: "chains": [
// STATS: "ops": [
// STATS-NEXT: "matmul#0"
// STATS: "spill_location": "None"
// STATS: "ops": [
// STATS-NEXT: "matmul#4",
// STATS-NEXT: "matmul#5"
// STATS: "spill_location": "DRAM"
// STATS: "dispatch": [
// STATS: "l1_budget": 1487872
// STATS: "solving_order": [
// STATS-NEXT: 0,
// STATS-NEXT: 1
// STATS: "spills": [
// STATS: "op": "matmul#5"
