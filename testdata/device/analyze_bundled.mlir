// RUN: ttopt analyze %S/../ttnn/l1_sharded_chain.mlir | FileCheck %s
// RUN: ttopt analyze %S/../ttnn/dispatch_d2m_generic_form.mlir --max-legal-layouts 2 | FileCheck %s --check-prefix=D2M
// RUN: ttopt analyze %S/../ttnn/conv2d_resnet_stem.mlir --max-legal-layouts 2 | FileCheck %s --check-prefix=CONV

// `ttopt analyze` on the bundled TTNN samples (testdata/ttnn): the device comes from the module's
// system desc and its ttnn.tensor_l1_usage_cap (f32 0.95, printed 0.949999988 -> 1423206 bytes, reference §2.13).

// CHECK: device: wormhole_b0 (from module) (8x8 cores), usable L1 1423206 B/core (cap 0.949999988)
// CHECK: func @mlp_chain: 5 ttnn ops
// CHECK: ttnn.matmul "matmul_0" -> tensor<256x128xbf16, #ttnn_layout4>
// CHECK-NEXT: inputs: dram interleaved 1x1 [8x4 tiles]; dram interleaved 1x1 [4x4 tiles]
// CHECK-NEXT: current: l1 height_sharded 8x1 [1x4 tiles]: success, L1 peak 90112 B
// The add keeps the matmul's height-sharded spec; other sharded outputs are rejected with the rule.
// CHECK: ttnn.add "add_1"
// CHECK: candidates: 3 legal of 10
// CHECK: 2 l1 block_sharded 8x4 [1x1 tiles] illegal - - sharded output l1 block_sharded 8x4 [1x1 tiles] must use sharded operand 0's spec l1 height_sharded 8x1 [1x4 tiles]
// CHECK: ttnn.matmul "matmul_2"
// CHECK: illegal - - block-sharded first operand on 4x4 must be on the output grid 8x8
// CHECK: func @height_and_width_sharded
// CHECK: ttnn.gelu "gelu_0"
// CHECK: l1 block_sharded 6x2 [2x1 tiles] illegal - - sharded output l1 block_sharded 6x2 [2x1 tiles] needs an interleaved input or the input's identical shard spec
// CHECK: ttnn.empty "empty_1"
// CHECK-NEXT: current: -: not_implemented (no op-model rule for ttnn.empty)
// CHECK: ttnn.multiply "multiply_3"
// CHECK: illegal - - sharded output on 7 cores shrinks sharded operand 0 on 8 cores (tt-metal #34765 hang)

// D2M: ttnn.dispatch_d2m "d2m_subgraph_0" -> tensor<64x64xbf16, #ttnn_layout2>
// D2M-NEXT: inputs: l1 height_sharded 2x1 [1x2 tiles]; l1 block_sharded 2x1 [1x2 tiles]
// D2M-NEXT: current: l1 block_sharded 2x1 [1x2 tiles]: success, L1 peak {{[0-9]+}} B

// CONV: usable L1 209735 B/core (cap 0.14)
// CONV: ttnn.conv2d "conv2d_0" -> tensor<1x1x12544x64xbf16, #ttnn_layout3>
// CONV-NEXT: inputs: dram interleaved 1x1 [50176x3 elems]; system_memory - 1x1 [1344x7 elems]; system_memory - 1x1 [1x64 elems]
// CONV: candidates: 12 legal of 12
// CONV: 4 dram interleaved 1x1 [392x2 tiles] act_block_h 64 dealloc success
// CONV: ttnn.max_pool2d "max_pool2d_1"
// CONV: illegal - - max_pool2d produces interleaved outputs only
