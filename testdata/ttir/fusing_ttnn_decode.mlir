// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=LEVEL0

// TTNN fusions HEAD validates against its op model, so they run only with the optimizer
// (optimization-level >= 1): decode RoPE, decode concat-heads, RMS norm + activation.

// A rope whose result is put in decode order (S first): the input is permuted instead and the
// rope runs in decode mode (the permute moves only the size-1 dim, so it is written as a reshape).
// ttir-fusing made the chain a rotary_embedding composite first, as HEAD does, so
// ttir-erase-inverse-ops leaves the permute below it for the decode rewrite.
// CHECK-LABEL: func.func @rope_decode
// CHECK: %[[P:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 32 : i32, 8 : i32, 64 : i32]}> : (tensor<32x8x1x64xbf16
// CHECK: %[[R:.*]] = "ttnn.rotary_embedding"(%[[P]], %arg1, %arg2) <{token_index = 0 : ui32}> : ({{.*}}) -> tensor<1x32x8x64xbf16
// CHECK: return %[[R]]
// TRACE: ttnn-fusing: rope_decode at "to_decode": applied: {{.*}}(decode layout, as HEAD always rewrites it)
// LEVEL0-LABEL: func.func @rope_decode
// LEVEL0: "ttnn.rotary_embedding"(%arg0, %arg1, %arg2) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>}> : (
// LEVEL0-NOT: token_index
func.func @rope_decode(%x: tensor<32x8x1x64xbf16>, %cos: tensor<1x1x1x64xbf16>, %sin: tensor<1x1x1x64xbf16>) -> tensor<1x32x8x64xbf16> {
  %xc = "ttir.multiply"(%x, %cos) : (tensor<32x8x1x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<32x8x1x64xbf16>
  %hi = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [32 : i32, 8 : i32, 1 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<32x8x1x64xbf16>) -> tensor<32x8x1x32xbf16>
  %nh = "ttir.neg"(%hi) : (tensor<32x8x1x32xbf16>) -> tensor<32x8x1x32xbf16>
  %lo = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [32 : i32, 8 : i32, 1 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<32x8x1x64xbf16>) -> tensor<32x8x1x32xbf16>
  %rot = "ttir.concat"(%nh, %lo) <{dim = 3 : si32}> : (tensor<32x8x1x32xbf16>, tensor<32x8x1x32xbf16>) -> tensor<32x8x1x64xbf16>
  %rs = "ttir.multiply"(%rot, %sin) : (tensor<32x8x1x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<32x8x1x64xbf16>
  %rope = "ttir.add"(%xc, %rs) : (tensor<32x8x1x64xbf16>, tensor<32x8x1x64xbf16>) -> tensor<32x8x1x64xbf16>
  %r = "ttir.permute"(%rope) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<32x8x1x64xbf16>) -> tensor<1x32x8x64xbf16> loc("to_decode")
  return %r : tensor<1x32x8x64xbf16>
}

// Negative: the rope's result is also returned, so it cannot be replaced by the decode form.
// CHECK-LABEL: func.func @rope_decode_read_twice
// CHECK-NOT: token_index
// CHECK: "ttnn.reshape"
// TRACE: ttnn-fusing: rope_decode at "twice": not applied: the rope's result has other readers
func.func @rope_decode_read_twice(%x: tensor<32x8x1x64xbf16>, %cos: tensor<1x1x1x64xbf16>, %sin: tensor<1x1x1x64xbf16>) -> (tensor<1x32x8x64xbf16>, tensor<32x8x1x64xbf16>) {
  %xc = "ttir.multiply"(%x, %cos) : (tensor<32x8x1x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<32x8x1x64xbf16>
  %hi = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [32 : i32, 8 : i32, 1 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<32x8x1x64xbf16>) -> tensor<32x8x1x32xbf16>
  %nh = "ttir.neg"(%hi) : (tensor<32x8x1x32xbf16>) -> tensor<32x8x1x32xbf16>
  %lo = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [32 : i32, 8 : i32, 1 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<32x8x1x64xbf16>) -> tensor<32x8x1x32xbf16>
  %rot = "ttir.concat"(%nh, %lo) <{dim = 3 : si32}> : (tensor<32x8x1x32xbf16>, tensor<32x8x1x32xbf16>) -> tensor<32x8x1x64xbf16>
  %rs = "ttir.multiply"(%rot, %sin) : (tensor<32x8x1x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<32x8x1x64xbf16>
  %rope = "ttir.add"(%xc, %rs) : (tensor<32x8x1x64xbf16>, tensor<32x8x1x64xbf16>) -> tensor<32x8x1x64xbf16>
  %r = "ttir.permute"(%rope) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<32x8x1x64xbf16>) -> tensor<1x32x8x64xbf16> loc("twice")
  return %r, %rope : tensor<1x32x8x64xbf16>, tensor<32x8x1x64xbf16>
}

// Decode concat-heads: [1, B, H, D] reordered to [B, H, 1, D] and collapsed to [B, H*D].
// CHECK-LABEL: func.func @concat_heads
// CHECK: %[[C:.*]] = "ttnn.nlp_concat_heads_decode"(%arg0) <{num_heads = 8 : ui32}> : (tensor<1x32x8x128xbf16, {{.*}}>) -> tensor<1x1x32x1024xbf16
// CHECK: "ttnn.reshape"(%[[C]]) <{shape = [32 : i32, 1024 : i32]}>
// CHECK-NOT: "ttnn.permute"
// TRACE: ttnn-fusing: concat_heads_decode at "heads": applied
// LEVEL0-LABEL: func.func @concat_heads
// LEVEL0-NOT: "ttnn.permute"
// LEVEL0: "ttnn.reshape"(%arg0) <{shape = [32 : i32, 1024 : i32]}>
func.func @concat_heads(%x: tensor<1x32x8x128xbf16>) -> tensor<32x1024xbf16> {
  %0 = "ttir.permute"(%x) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<1x32x8x128xbf16>) -> tensor<32x8x1x128xbf16>
  %1 = "ttir.reshape"(%0) <{shape = [32 : i32, 1024 : i32]}> : (tensor<32x8x1x128xbf16>) -> tensor<32x1024xbf16> loc("heads")
  return %1 : tensor<32x1024xbf16>
}

// Negative: a batch of 16 is not a tile multiple (tt-metal derives the output from padded shapes).
// CHECK-LABEL: func.func @concat_heads_small_batch
// CHECK-NOT: nlp_concat_heads_decode
// TRACE: ttnn-fusing: concat_heads_decode at "small": not applied: head size 128 or batch 16 is not a multiple of the tile (32)
func.func @concat_heads_small_batch(%x: tensor<1x16x8x128xbf16>) -> tensor<16x1024xbf16> {
  %0 = "ttir.permute"(%x) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<1x16x8x128xbf16>) -> tensor<16x8x1x128xbf16>
  %1 = "ttir.reshape"(%0) <{shape = [16 : i32, 1024 : i32]}> : (tensor<16x8x1x128xbf16>) -> tensor<16x1024xbf16> loc("small")
  return %1 : tensor<16x1024xbf16>
}

// RMS norm + relu: one fused op with the activation named.
// CHECK-LABEL: func.func @norm_relu
// CHECK: "ttnn.dit_rms_norm_unary_fused"(%arg0, %arg1) <{activation = "relu", epsilon = 9.99999974E-6 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}>
// CHECK-NOT: "ttnn.relu"
// TRACE: ttnn-fusing: rms_norm_activation at "act": applied
func.func @norm_relu(%x: tensor<32x512xbf16>, %w: tensor<512xbf16>) -> tensor<32x512xbf16> {
  %0 = "ttir.rms_norm"(%x, %w) <{normalized_shape = array<i64: 512>, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x512xbf16>, tensor<512xbf16>) -> tensor<32x512xbf16>
  %1 = "ttir.relu"(%0) : (tensor<32x512xbf16>) -> tensor<32x512xbf16> loc("act")
  return %1 : tensor<32x512xbf16>
}

// RMS norm + silu on one tile row: the fused op would run the accurate silu (~1860 cycles a
// tile) for all 16 tiles on the norm's one core, where silu's own program spreads them over 16.
// CHECK-LABEL: func.func @norm_silu_one_row
// CHECK: "ttnn.rms_norm"
// CHECK: "ttnn.silu"
// CHECK-NOT: dit_rms_norm_unary_fused
// TRACE: ttnn-fusing: rms_norm_activation at "silu_act": not applied: the fused op is estimated slower: ttnn.dit_rms_norm_unary_fused {{.*}} us vs 2 ops (rms_norm, silu)
func.func @norm_silu_one_row(%x: tensor<32x512xbf16>, %w: tensor<512xbf16>) -> tensor<32x512xbf16> {
  %0 = "ttir.rms_norm"(%x, %w) <{normalized_shape = array<i64: 512>, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x512xbf16>, tensor<512xbf16>) -> tensor<32x512xbf16>
  %1 = "ttir.silu"(%0) : (tensor<32x512xbf16>) -> tensor<32x512xbf16> loc("silu_act")
  return %1 : tensor<32x512xbf16>
}

// Negative: the norm is also returned, so the activation cannot move into it.
// CHECK-LABEL: func.func @norm_read_twice
// CHECK: "ttnn.rms_norm"
// CHECK: "ttnn.relu"
// CHECK-NOT: dit_rms_norm_unary_fused
// TRACE: ttnn-fusing: rms_norm_activation at "twice_act": not applied: the rms_norm result has other readers
func.func @norm_read_twice(%x: tensor<32x512xbf16>, %w: tensor<512xbf16>) -> (tensor<32x512xbf16>, tensor<32x512xbf16>) {
  %0 = "ttir.rms_norm"(%x, %w) <{normalized_shape = array<i64: 512>, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x512xbf16>, tensor<512xbf16>) -> tensor<32x512xbf16>
  %1 = "ttir.relu"(%0) : (tensor<32x512xbf16>) -> tensor<32x512xbf16> loc("twice_act")
  return %0, %1 : tensor<32x512xbf16>, tensor<32x512xbf16>
}
