// RUN: ttopt opt %s --ttcore-register-device --ttcore-mark-functions-as-forward --ttnn-greedy-l1-spill-management --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttcore-register-device --ttcore-mark-functions-as-forward --ttnn-greedy-l1-spill-management | python %S/../../bench/ttnn_ods_check.py - | FileCheck %s --check-prefix=ODS
// RUN: ttopt opt %s --ttcore-register-device --ttcore-mark-functions-as-forward --ttnn-optimizer=memory-layout-analysis-enabled=false --trace 2>&1 | FileCheck %s --check-prefix=KEEP

// Budget: 0.14 x 1498112 B = 209735 B per core (tt-mlir's wormhole desc). Every 2048x1024 bf16 L1
// tensor is 2048 tiles over 64 banks: 64 KiB per core. relu of one peaks at 136 KiB (in, out, CBs).
//
// @view: p forks into relu r1 and the view reshape v (read again by r3). At r1 the live buffers
// are p (shared with v) and t: 64 KiB besides r1's own input, 136 + 64 = 200 KiB fits.
// @copy: the same with a reshape that moves data: v is a buffer of its own, 136 + 128 KiB does not
// fit at r1, and v (next read by r3, the farthest use) goes to DRAM right after the reshape.

// CHECK-DAG: #[[DRAM:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<128x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>

// CHECK-LABEL: func.func @view
// CHECK-NOT: ttnn.to_memory_config
// CHECK: return

// CHECK-LABEL: func.func @copy
// CHECK: %[[V:.*]] = "ttnn.reshape"
// CHECK-NEXT: %[[S:.*]] = "ttnn.to_memory_config"(%[[V]]) : (tensor<4096x512xbf16, #c2>) -> tensor<4096x512xbf16, #[[DRAM]]> loc("v_spill")
// CHECK: "ttnn.relu"
// CHECK: "ttnn.relu"
// CHECK: "ttnn.relu"(%[[S]]) : (tensor<4096x512xbf16, #[[DRAM]]>) -> tensor<4096x512xbf16, #c2> loc("r3")
// CHECK-NOT: ttnn.to_memory_config

// ODS: 0 violation(s)

// Without memory-layout analysis every op would take its first legal config (DRAM interleaved),
// estimated slower than this input already placed in L1: the input is kept, aliases included.
// KEEP: note: @view: the first legal configs are estimated slower than the input: input kept
// KEEP: note: @copy: the first legal configs are estimated slower than the input: input kept
// KEEP-NOT: #ttnn_layout
// KEEP-LABEL: func.func @copy
// KEEP: "ttnn.relu"(%1) : (tensor<4096x512xbf16, #c2>) -> tensor<4096x512xbf16, #c2>
// KEEP-NOT: ttnn.to_memory_config

#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#d2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x32x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#l3 = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 2048 + d1, d2), <1x1>, memref<64x32x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#c2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<128x16x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module attributes {ttnn.tensor_l1_usage_cap = 1.400000e-01 : f32} {
  func.func @view(%a: tensor<2048x1024xbf16, #d2>, %b: tensor<2048x1024xbf16, #d2>, %c: tensor<2048x1024xbf16, #d2>, %d: tensor<2048x1024xbf16, #d2>)
      -> (tensor<2048x1024xbf16, #l2>, tensor<2048x1024xbf16, #l2>, tensor<1x2048x1024xbf16, #l3>) {
    %p = "ttnn.add"(%a, %b) : (tensor<2048x1024xbf16, #d2>, tensor<2048x1024xbf16, #d2>) -> tensor<2048x1024xbf16, #l2> loc("p")
    %v = "ttnn.reshape"(%p) <{shape = [1 : i32, 2048 : i32, 1024 : i32]}> : (tensor<2048x1024xbf16, #l2>) -> tensor<1x2048x1024xbf16, #l3> loc("v")
    %t = "ttnn.add"(%c, %d) : (tensor<2048x1024xbf16, #d2>, tensor<2048x1024xbf16, #d2>) -> tensor<2048x1024xbf16, #l2> loc("t")
    %r1 = "ttnn.relu"(%p) : (tensor<2048x1024xbf16, #l2>) -> tensor<2048x1024xbf16, #l2> loc("r1")
    %r2 = "ttnn.relu"(%t) : (tensor<2048x1024xbf16, #l2>) -> tensor<2048x1024xbf16, #l2> loc("r2")
    %r3 = "ttnn.relu"(%v) : (tensor<1x2048x1024xbf16, #l3>) -> tensor<1x2048x1024xbf16, #l3> loc("r3")
    return %r1, %r2, %r3 : tensor<2048x1024xbf16, #l2>, tensor<2048x1024xbf16, #l2>, tensor<1x2048x1024xbf16, #l3>
  }
  func.func @copy(%a: tensor<2048x1024xbf16, #d2>, %b: tensor<2048x1024xbf16, #d2>, %c: tensor<2048x1024xbf16, #d2>, %d: tensor<2048x1024xbf16, #d2>)
      -> (tensor<2048x1024xbf16, #l2>, tensor<2048x1024xbf16, #l2>, tensor<4096x512xbf16, #c2>) {
    %p = "ttnn.add"(%a, %b) : (tensor<2048x1024xbf16, #d2>, tensor<2048x1024xbf16, #d2>) -> tensor<2048x1024xbf16, #l2> loc("p")
    %v = "ttnn.reshape"(%p) <{shape = [4096 : i32, 512 : i32]}> : (tensor<2048x1024xbf16, #l2>) -> tensor<4096x512xbf16, #c2> loc("v")
    %t = "ttnn.add"(%c, %d) : (tensor<2048x1024xbf16, #d2>, tensor<2048x1024xbf16, #d2>) -> tensor<2048x1024xbf16, #l2> loc("t")
    %r1 = "ttnn.relu"(%p) : (tensor<2048x1024xbf16, #l2>) -> tensor<2048x1024xbf16, #l2> loc("r1")
    %r2 = "ttnn.relu"(%t) : (tensor<2048x1024xbf16, #l2>) -> tensor<2048x1024xbf16, #l2> loc("r2")
    %r3 = "ttnn.relu"(%v) : (tensor<4096x512xbf16, #c2>) -> tensor<4096x512xbf16, #c2> loc("r3")
    return %r1, %r2, %r3 : tensor<2048x1024xbf16, #l2>, tensor<2048x1024xbf16, #l2>, tensor<4096x512xbf16, #c2>
  }
}
