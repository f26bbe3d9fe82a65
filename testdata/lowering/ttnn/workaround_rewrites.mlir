// RUN: ttopt opt %s --split-input-file --ttnn-layout --ttnn-workaround | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttnn-layout --ttnn-workaround="ttnn-optimization-level=1" | FileCheck %s --check-prefix=OPT

// ttnn-workaround's rewrites of TTNN input (HEAD's TTNNWorkarounds), one case per split.

// The ttml SDPA kernels run in bf16: an f32 query / key / value / mask goes through a
// to_tensor_spec to bf16, the bf16 output back to f32; the f32 intermediates stay f32. From
// optimization level 1 HEAD leaves sdpa_fw to its optimizer.
// CHECK-LABEL: func.func @sdpa_fw
// CHECK: %[[Q:.*]] = "ttnn.to_tensor_spec"(%arg0) {{.*}} -> tensor<1x2x32x32xbf16
// CHECK: %[[K:.*]] = "ttnn.to_tensor_spec"(%arg1) {{.*}} -> tensor<1x2x32x32xbf16
// CHECK: %[[V:.*]] = "ttnn.to_tensor_spec"(%arg2) {{.*}} -> tensor<1x2x32x32xbf16
// CHECK: %[[M:.*]] = "ttnn.to_tensor_spec"(%arg3) {{.*}} -> tensor<1x1x32x32xbf16
// CHECK: %[[O:.*]], %[[I:.*]] = "ttnn.sdpa_fw"(%[[Q]], %[[K]], %[[V]], %[[M]]) {{.*}} -> (tensor<1x2x32x32xbf16, {{.*}}>, tensor<1x2x32x32xf32, {{.*}}>)
// CHECK-NEXT: %[[B:.*]] = "ttnn.to_tensor_spec"(%[[O]]) {{.*}} -> tensor<1x2x32x32xf32
// CHECK-NEXT: return %[[B]], %[[I]]
// OPT-LABEL: func.func @sdpa_fw
// OPT-NOT: to_tensor_spec
// OPT: return
func.func @sdpa_fw(%q: tensor<1x2x32x32xf32>, %k: tensor<1x2x32x32xf32>, %v: tensor<1x2x32x32xf32>, %m: tensor<1x1x32x32xf32>) -> (tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>) {
  %0, %1 = "ttnn.sdpa_fw"(%q, %k, %v, %m) <{mask_type = #ttcore.attention_mask_type<arbitrary>, dropout_probability = 0.000000e+00 : f32, return_intermediates = true}> : (tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x1x32x32xf32>) -> (tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>)
  return %0, %1 : tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>
}

// -----

// sdpa_bw at every level: the five data operands bf16, a bf16 intermediates operand to f32, the
// three gradients computed in bf16 and cast back.
// CHECK-LABEL: func.func @sdpa_bw
// CHECK-COUNT-5: "ttnn.to_tensor_spec"(%arg{{[0-4]}}) {{.*}} -> tensor<1x2x32x32xbf16
// CHECK: %[[I:.*]] = "ttnn.to_tensor_spec"(%arg5) {{.*}} -> tensor<1x2x32x32xf32
// CHECK: "ttnn.sdpa_bw"({{.*}}, %[[I]]) {{.*}} -> (tensor<1x2x32x32xbf16, {{.*}}>, tensor<1x2x32x32xbf16, {{.*}}>, tensor<1x2x32x32xbf16, {{.*}}>)
// CHECK-COUNT-3: "ttnn.to_tensor_spec"(%grad_{{[a-z]+}}) {{.*}} -> tensor<1x2x32x32xf32
// OPT-LABEL: func.func @sdpa_bw
// OPT-COUNT-9: "ttnn.to_tensor_spec"
// OPT-NOT: to_tensor_spec
// OPT: return
func.func @sdpa_bw(%g: tensor<1x2x32x32xf32>, %o: tensor<1x2x32x32xf32>, %q: tensor<1x2x32x32xf32>, %k: tensor<1x2x32x32xf32>, %v: tensor<1x2x32x32xf32>, %i: tensor<1x2x32x32xbf16>) -> (tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>) {
  %0, %1, %2 = "ttnn.sdpa_bw"(%g, %o, %q, %k, %v, %i) <{mask_type = #ttcore.attention_mask_type<causal>, dropout_probability = 0.000000e+00 : f32}> : (tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x2x32x32xbf16>) -> (tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>)
  return %0, %1, %2 : tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>, tensor<1x2x32x32xf32>
}

// -----

// A linear whose bias is not one row of output features: tt-metal's fused kernel would add only
// its first row, so it becomes matmul + add, a reshape to the linear's shape (the add's is
// [1, 32, 32]) and the activation as its own op. A row bias stays fused.
// CHECK-LABEL: func.func @linear_bias
// CHECK: %[[M:.*]] = "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = true}> {{.*}} -> tensor<32x32xbf16
// CHECK: %[[A:.*]] = "ttnn.add"(%[[M]], %arg2) {{.*}} -> tensor<1x32x32xbf16
// CHECK: %[[R:.*]] = "ttnn.reshape"(%[[A]]) <{shape = [32 : i32, 32 : i32]}> {{.*}} -> tensor<32x32xbf16
// CHECK: %[[S:.*]] = "ttnn.relu"(%[[R]]) {{.*}} -> tensor<32x32xbf16
// CHECK: "ttnn.linear"(%arg0, %arg1, %arg3) <{activation = "relu", transpose_a = false, transpose_b = true}>
// CHECK-NOT: ttnn.matmul
// CHECK: return %[[S]]
func.func @linear_bias(%a: tensor<32x128xbf16>, %w: tensor<32x128xbf16>, %bias: tensor<1x32x32xbf16>, %row: tensor<1x32xbf16>) -> (tensor<32x32xbf16>, tensor<32x32xbf16>) {
  %0 = "ttnn.linear"(%a, %w, %bias) <{activation = "relu", transpose_a = false, transpose_b = true}> : (tensor<32x128xbf16>, tensor<32x128xbf16>, tensor<1x32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttnn.linear"(%a, %w, %row) <{activation = "relu", transpose_a = false, transpose_b = true}> : (tensor<32x128xbf16>, tensor<32x128xbf16>, tensor<1x32xbf16>) -> tensor<32x32xbf16>
  return %0, %1 : tensor<32x32xbf16>, tensor<32x32xbf16>
}

// -----

// tt-metal's gather needs rank >= 2: a rank-1 input and index gain a leading unit dim, the gather
// runs on dim + 1 and its result is reshaped back. An si32 index is first clamped and cast to
// ui32 (its negative lanes read NaN through the where), and the ui32 index is what gets reshaped.
// CHECK-LABEL: func.func @gather_rank1
// CHECK: %[[U:.*]] = "ttnn.to_tensor_spec"(%{{.*}}) {{.*}} -> tensor<8xui32
// CHECK: %[[X:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 40 : i32]}> {{.*}} -> tensor<1x40xf32
// CHECK: %[[I:.*]] = "ttnn.reshape"(%[[U]]) <{shape = [1 : i32, 8 : i32]}> {{.*}} -> tensor<1x8xui32
// CHECK: %[[G:.*]] = "ttnn.gather"(%[[X]], %[[I]]) <{dim = 1 : si32}> {{.*}} -> tensor<1x8xf32
// CHECK: %[[B:.*]] = "ttnn.reshape"(%[[G]]) <{shape = [8 : i32]}> {{.*}} -> tensor<8xf32
// CHECK: "ttnn.where"(%{{.*}}, %{{.*}}, %[[B]])
// CHECK: %[[X2:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 40 : i32]}>
// CHECK: %[[I2:.*]] = "ttnn.reshape"(%arg2) <{shape = [1 : i32, 8 : i32]}>
// CHECK: "ttnn.gather"(%[[X2]], %[[I2]]) <{dim = -1 : si32}>
// CHECK: "ttnn.gather"(%arg3, %arg4) <{dim = 0 : si32}>
func.func @gather_rank1(%x: tensor<40xf32>, %i: tensor<8xsi32>, %u: tensor<8xui32>, %x2: tensor<40x4xf32>, %u2: tensor<8x4xui32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8x4xf32>) {
  %0 = "ttnn.gather"(%x, %i) <{dim = 0 : si32}> : (tensor<40xf32>, tensor<8xsi32>) -> tensor<8xf32>
  %1 = "ttnn.gather"(%x, %u) <{dim = -1 : si32}> : (tensor<40xf32>, tensor<8xui32>) -> tensor<8xf32>
  %2 = "ttnn.gather"(%x2, %u2) <{dim = 0 : si32}> : (tensor<40x4xf32>, tensor<8x4xui32>) -> tensor<8x4xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8x4xf32>
}

// -----

// An embedding table of rank > 4 (its leading dims 1) is reshaped to 4-D before the embedding; the
// operand workarounds then make that row-major.
// CHECK-LABEL: func.func @embedding_weight
// CHECK: %[[R:.*]] = "ttnn.reshape"(%arg1) <{shape = [1 : i32, 1 : i32, 64 : i32, 32 : i32]}> {{.*}} -> tensor<1x1x64x32xbf16
// CHECK: %[[W:.*]] = "ttnn.to_tensor_spec"(%[[R]])
// CHECK: "ttnn.embedding"(%{{.*}}, %[[W]])
// CHECK-NOT: "ttnn.reshape"
// CHECK: "ttnn.to_tensor_spec"(%arg2)
// CHECK-NOT: "ttnn.reshape"
// CHECK: return
func.func @embedding_weight(%i: tensor<1x32xui32>, %w: tensor<1x1x1x64x32xbf16>, %w4: tensor<1x1x64x32xbf16>) -> (tensor<1x32x32xbf16>, tensor<1x32x32xbf16>) {
  %0 = "ttnn.embedding"(%i, %w) : (tensor<1x32xui32>, tensor<1x1x1x64x32xbf16>) -> tensor<1x32x32xbf16>
  %1 = "ttnn.embedding"(%i, %w4) : (tensor<1x32xui32>, tensor<1x1x64x32xbf16>) -> tensor<1x32x32xbf16>
  return %0, %1 : tensor<1x32x32xbf16>, tensor<1x32x32xbf16>
}

// -----

// tt-metal's SDPA reads a head dim of whole tiles: query, key and value are zero-padded from 40
// to 64 along it and the result sliced back; the mask and the unaligned sequence (tt-metal pads
// that itself) stay as they are. Without a scale the op gets 1/sqrt(40): the kernel's default
// would read the padded 64 (HEAD leaves it unset). A head dim of whole tiles is left alone.
// CHECK-LABEL: func.func @sdpa_head_dim
// CHECK: %[[Q:.*]] = "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 0, 0, 0, 0, 0, 24>, use_multicore = true, value = 0.000000e+00 : f32}> {{.*}} -> tensor<1x2x20x64xbf16
// CHECK: %[[K:.*]] = "ttnn.pad"(%arg1) {{.*}} -> tensor<1x2x20x64xbf16
// CHECK: %[[V:.*]] = "ttnn.pad"(%arg2) {{.*}} -> tensor<1x2x20x64xbf16
// CHECK: %[[S:.*]] = "ttnn.scaled_dot_product_attention"(%[[Q]], %[[K]], %[[V]], %arg3) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, scale = 0.158113882 : f32}> {{.*}} -> tensor<1x2x20x64xbf16
// CHECK: %[[C:.*]] = "ttnn.slice_static"(%[[S]]) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 2 : i32, 20 : i32, 40 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> {{.*}} -> tensor<1x2x20x40xbf16
// CHECK-NOT: ttnn.pad
// CHECK: "ttnn.scaled_dot_product_attention"(%arg4, %arg4, %arg4)
// CHECK-NOT: ttnn.slice_static
// CHECK: return %[[C]]
func.func @sdpa_head_dim(%q: tensor<1x2x20x40xbf16>, %k: tensor<1x2x20x40xbf16>, %v: tensor<1x2x20x40xbf16>, %m: tensor<1x1x20x20xbf16>, %x: tensor<1x2x20x64xbf16>) -> (tensor<1x2x20x40xbf16>, tensor<1x2x20x64xbf16>) {
  %0 = "ttnn.scaled_dot_product_attention"(%q, %k, %v, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, is_causal = false}> : (tensor<1x2x20x40xbf16>, tensor<1x2x20x40xbf16>, tensor<1x2x20x40xbf16>, tensor<1x1x20x20xbf16>) -> tensor<1x2x20x40xbf16>
  %1 = "ttnn.scaled_dot_product_attention"(%x, %x, %x) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, is_causal = true}> : (tensor<1x2x20x64xbf16>, tensor<1x2x20x64xbf16>, tensor<1x2x20x64xbf16>) -> tensor<1x2x20x64xbf16>
  return %0, %1 : tensor<1x2x20x40xbf16>, tensor<1x2x20x64xbf16>
}

// -----

// A decode mask of one head is repeated to the query's 8 heads (the kernel broadcasts the mask's
// batch, not its heads); a mask with the heads already is left alone.
// CHECK-LABEL: func.func @decode_mask_heads
// CHECK: %[[M:.*]] = "ttnn.repeat"(%arg3) <{repeat_dims = #ttnn.shape<1x1x8x1>}> {{.*}} -> tensor<4x1x8x64xbf16
// CHECK: "ttnn.scaled_dot_product_attention_decode"(%arg0, %arg1, %arg2, %[[M]])
// CHECK-NOT: ttnn.repeat
// CHECK: "ttnn.scaled_dot_product_attention_decode"(%arg0, %arg1, %arg2, %arg4)
func.func @decode_mask_heads(%q: tensor<1x4x8x64xbf16>, %k: tensor<4x8x64x64xbf16>, %v: tensor<4x8x64x64xbf16>, %m: tensor<4x1x1x64xbf16>, %m8: tensor<4x1x8x64xbf16>) -> (tensor<1x4x8x64xbf16>, tensor<1x4x8x64xbf16>) {
  %0 = "ttnn.scaled_dot_product_attention_decode"(%q, %k, %v, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, is_causal = false, scale = 0.125 : f32}> : (tensor<1x4x8x64xbf16>, tensor<4x8x64x64xbf16>, tensor<4x8x64x64xbf16>, tensor<4x1x1x64xbf16>) -> tensor<1x4x8x64xbf16>
  %1 = "ttnn.scaled_dot_product_attention_decode"(%q, %k, %v, %m8) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, is_causal = false, scale = 0.125 : f32}> : (tensor<1x4x8x64xbf16>, tensor<4x8x64x64xbf16>, tensor<4x8x64x64xbf16>, tensor<4x1x8x64xbf16>) -> tensor<1x4x8x64xbf16>
  return %0, %1 : tensor<1x4x8x64xbf16>, tensor<1x4x8x64xbf16>
}
