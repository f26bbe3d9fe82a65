// RUN: not ttopt opt %s --split-input-file --ttnn-optimizer 2>&1 | FileCheck %s

// A system desc outside the device model's documented limits (docs/device-model.md, "Limits": at
// most 64 cores per grid axis, 64 MiB of L1, 64 DRAM channels of at most 1 TiB) is rejected before
// anything is sized from it (a 100000x100000 grid used to take >6 GB), and every error about a
// system desc carries the line:col of the attribute: of the bad field when known, of the alias
// definition or of the inline attribute otherwise.

// CHECK: system_desc_limits.mlir:[[# @LINE + 2]]:116: error: ttnn-optimizer: ttcore.system_desc: grid 100000x100000 exceeds the device model's limit of 64 cores per axis
// CHECK-NEXT: {{.*}}[{arch = <wormhole_b0>, grid = 100000x100000, l1_size
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 100000x100000, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, l1_unreserved_base = 1024}], [0], [1 : i32], [ 0x0x0x0]>
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {ttcore.system_desc = #system_desc} {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
    return %0 : tensor<64x64xbf16, #ttnn_layout>
  }
}

// -----

// Inline (no alias): the position is inside the module's attribute dictionary.
// CHECK: system_desc_limits.mlir:[[# @LINE + 4]]:{{[0-9]+}}: error: ttnn-optimizer: ttcore.system_desc: l1_size 1099511627776 exceeds the device model's limit of 67108864
// CHECK-NEXT: {{.*}}l1_size = 1099511627776,
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {ttcore.system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, l1_size = 1099511627776, num_dram_channels = 12, dram_channel_size = 1073741824, l1_unreserved_base = 1024}], [0], [1 : i32], [ 0x0x0x0]>} {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
    return %0 : tensor<64x64xbf16, #ttnn_layout>
  }
}

// -----

// CHECK: system_desc_limits.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: ttnn-optimizer: ttcore.system_desc: num_dram_channels 100000 exceeds the device model's limit of 64
// CHECK-NEXT: {{.*}}num_dram_channels = 100000,
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, l1_size = 1499136, num_dram_channels = 100000, dram_channel_size = 1073741824, l1_unreserved_base = 1024}], [0], [1 : i32], [ 0x0x0x0]>
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {ttcore.system_desc = #system_desc} {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
    return %0 : tensor<64x64xbf16, #ttnn_layout>
  }
}

// -----

// A malformed system desc (here a duplicate field) is positioned at the offending field too.
// CHECK: system_desc_limits.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: ttnn-optimizer: ttcore.system_desc: duplicate chip descriptor field 'grid'
// CHECK-NEXT: {{.*}}grid = 8x8, grid = 4x4,
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8, grid = 4x4, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, l1_unreserved_base = 1024}], [0], [1 : i32], [ 0x0x0x0]>
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {ttcore.system_desc = #system_desc} {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
    return %0 : tensor<64x64xbf16, #ttnn_layout>
  }
}

// -----

// The module's L1 budget attributes are positioned too.
// CHECK: system_desc_limits.mlir:[[# @LINE + 4]]:20: error: ttnn-optimizer: module attribute ttnn.tensor_l1_usage_cap must be in (0, 1], got 7.0
// CHECK-NEXT: module attributes {ttnn.tensor_l1_usage_cap = 7.0 : f32} {
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {ttnn.tensor_l1_usage_cap = 7.0 : f32} {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
    return %0 : tensor<64x64xbf16, #ttnn_layout>
  }
}

// -----

// CHECK: system_desc_limits.mlir:[[# @LINE + 4]]:20: error: ttnn-optimizer: module attribute ttnn.l1_const_eval_usage must be a non-negative integer, got -5
// CHECK-NEXT: module attributes {ttnn.l1_const_eval_usage = -5 : i64} {
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {ttnn.l1_const_eval_usage = -5 : i64} {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
    return %0 : tensor<64x64xbf16, #ttnn_layout>
  }
}

// -----

// CHECK: system_desc_limits.mlir:[[# @LINE + 4]]:20: error: ttnn-optimizer: ttnn.l1_const_eval_usage 100000000000000 exceeds the 1498112 B of L1 per core
// CHECK-NEXT: module attributes {ttnn.l1_const_eval_usage = 100000000000000 : i64} {
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module attributes {ttnn.l1_const_eval_usage = 100000000000000 : i64} {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #ttnn_layout>
    return %0 : tensor<64x64xbf16, #ttnn_layout>
  }
}
