// RUN: ttopt analyze %s --max-legal-layouts 4 | FileCheck %s
// RUN: ttopt analyze %s --json | FileCheck %s --check-prefix=JSON
// RUN: ttopt analyze %s --tensor-l1-usage-cap 0.01 | FileCheck %s --check-prefix=CAP

// A two-layer MLP in DRAM-interleaved TTNN layouts (no system desc: the wormhole_b0 preset).
// `ttopt analyze` lists per op the candidate configs, which are legal, their L1 peak and estimated
// latency, and why the others are rejected.

// CHECK: device: wormhole_b0 (8x8 cores), usable L1 1498112 B/core (cap 1.0); estimates from ttopt's analytic device model, not measurements
// CHECK: func @mlp: 5 ttnn ops, estimated {{[0-9.]+}} us with the current layouts

// CHECK: ttnn.matmul "fc1" -> tensor<128x256xbf16, #ttnn_layout2>
// CHECK-NEXT: inputs: dram interleaved 1x1 [4x8 tiles]; dram interleaved 1x1 [8x8 tiles]
// CHECK-NEXT: current: dram interleaved 1x1 [4x8 tiles]: success, L1 peak {{[0-9]+}} B, {{[0-9]+}} ns
// CHECK-NEXT: estimate: compute {{[0-9]+}} + dram {{[0-9]+}} + noc 0 + floor 4958 + dispatch 0 - overlap {{[0-9]+}} ns, HiFi2
// CHECK-NEXT: candidates: 6 legal of 6
// CHECK: 0 dram interleaved 1x1 [4x8 tiles] success 18432
// CHECK: 1 l1 interleaved 8x8 [1x1 tiles] success 20480
// CHECK: 2 l1 block_sharded 4x8 [1x1 tiles] 2d mcast grid 8x4 per_core 1x1 in0_block_w 2 success 18432

// The bias is broadcast: it must stay interleaved, and with the matmul output in DRAM the add may
// produce any layout.
// CHECK: ttnn.add "bias1" -> tensor<128x256xbf16, #ttnn_layout2>
// CHECK: candidates: 6 legal of 6

// CHECK: ttnn.softmax "softmax" -> tensor<128x128xbf16, #ttnn_layout4>
// CHECK: candidates: 2 legal of 6
// CHECK: illegal {{.*}} output must copy the input's interleaved config, got l1 block_sharded 4x4 [1x1 tiles]

// JSON: "model_note": "estimates from ttopt's analytic device model, not measurements"
// JSON: "op": "ttnn.matmul"
// JSON: "name": "fc1"
// JSON: "terms": {
// JSON-NEXT: "compute": {{[0-9.]+}},
// JSON-NEXT: "dram": {{[0-9.]+}},
// JSON: "floor": 4958.2435000000005,
// JSON: "overlap": {{[0-9.]+}},
// JSON-NEXT: "fidelity": "HiFi2",
// JSON: "matmul_program_config": "#ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 4>

// With 1% of L1 (14981 B/core) the larger candidates run out of memory.
// CAP: usable L1 14981 B/core (cap 0.01)
// CAP: out_of_memory {{.*}} exceeds usable 14981 B

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout3 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout4 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<4x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout5 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x4x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @mlp(%x: tensor<128x256xbf16, #ttnn_layout>, %w1: tensor<256x256xbf16, #ttnn_layout1>, %b1: tensor<1x256xbf16, #ttnn_layout3>, %w2: tensor<256x128xbf16, #ttnn_layout5>) -> tensor<128x128xbf16, #ttnn_layout4> {
    %0 = "ttnn.matmul"(%x, %w1) <{transpose_a = false, transpose_b = false}> : (tensor<128x256xbf16, #ttnn_layout>, tensor<256x256xbf16, #ttnn_layout1>) -> tensor<128x256xbf16, #ttnn_layout2> loc("fc1")
    %1 = "ttnn.add"(%0, %b1) : (tensor<128x256xbf16, #ttnn_layout2>, tensor<1x256xbf16, #ttnn_layout3>) -> tensor<128x256xbf16, #ttnn_layout2> loc("bias1")
    %2 = "ttnn.relu"(%1) : (tensor<128x256xbf16, #ttnn_layout2>) -> tensor<128x256xbf16, #ttnn_layout2> loc("relu1")
    %3 = "ttnn.matmul"(%2, %w2) <{transpose_a = false, transpose_b = false}> : (tensor<128x256xbf16, #ttnn_layout2>, tensor<256x128xbf16, #ttnn_layout5>) -> tensor<128x128xbf16, #ttnn_layout4> loc("fc2")
    %4 = "ttnn.softmax"(%3) <{dimension = -1 : si32}> : (tensor<128x128xbf16, #ttnn_layout4>) -> tensor<128x128xbf16, #ttnn_layout4> loc("softmax")
    return %4 : tensor<128x128xbf16, #ttnn_layout4>
  }
}
