// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | ttopt opt | FileCheck %s --check-prefix=REPARSE
// TTIR forms converted as tt-mlir HEAD's backend pipeline converts them: argmax over all or several
// dimensions, a reshape with a -1 entry, linear biases tt-metal cannot fuse, quantized types.

// REPARSE-NOT: "ttir.
// REPARSE: func.func @argmax_all

// No dim_arg: every dimension, and no `dim` attribute. argmax reads row-major (HEAD's workaround).
// CHECK-LABEL: func.func @argmax_all
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%arg0)
// CHECK: "ttnn.argmax"(%[[X]]) <{keep_dim = false}> : (tensor<2x4x32x32xf32, {{.*}}>) -> tensor<ui32,
func.func @argmax_all(%x: tensor<2x4x32x32xf32>) -> tensor<i32> {
  %0 = "ttir.argmax"(%x) <{keep_dim = false}> : (tensor<2x4x32x32xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// Two dimensions: permuted last, flattened, reduced as one, reshaped back (keep_dim). The
// permute [0, 2, 1, 3] + reshape to [2, 32, 128] is what ttir-fusing's concatenate-heads pattern
// matches, so it comes out as one ttnn.concatenate_heads.
// CHECK-LABEL: func.func @argmax_two
// CHECK: %[[R:.*]] = "ttnn.concatenate_heads"(%arg0) : (tensor<2x4x32x32xf32, {{.*}}>) -> tensor<2x32x128xf32
// CHECK: %[[RM:.*]] = "ttnn.to_layout"(%[[R]])
// CHECK: "ttnn.argmax"(%[[RM]]) <{dim = 2 : si32, keep_dim = true}> : ({{.*}}) -> tensor<2x32x1xui32
// CHECK: "ttnn.reshape"({{.*}}) <{shape = [2 : i32, 1 : i32, 32 : i32, 1 : i32]}>
func.func @argmax_two(%x: tensor<2x4x32x32xf32>) -> tensor<2x1x32x1xi32> {
  %0 = "ttir.argmax"(%x) <{dim_arg = [1 : i32, 3 : i32], keep_dim = true}> : (tensor<2x4x32x32xf32>) -> tensor<2x1x32x1xi32>
  return %0 : tensor<2x1x32x1xi32>
}

// CHECK-LABEL: func.func @reshape_inferred
// CHECK: "ttnn.reshape"(%arg0) <{shape = [2 : i32, -1 : i32, 32 : i32]}> : ({{.*}}) -> tensor<2x4x32xbf16
func.func @reshape_inferred(%x: tensor<4x2x32xbf16>) -> tensor<2x4x32xbf16> {
  %0 = "ttir.reshape"(%x) <{shape = [2 : i32, -1 : i32, 32 : i32]}> : (tensor<4x2x32xbf16>) -> tensor<2x4x32xbf16>
  return %0 : tensor<2x4x32xbf16>
}

// A row bias stays fused; a 2-D one becomes matmul + add.
// CHECK-LABEL: func.func @linear_biases
// CHECK: "ttnn.linear"(%arg0, %arg1, %arg2) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, transpose_a = false, transpose_b = false}>
// CHECK: %[[M:.*]] = "ttnn.matmul"(%arg0, %arg1) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, transpose_a = false, transpose_b = false}>
// CHECK: "ttnn.add"(%[[M]], %arg3)
func.func @linear_biases(%a: tensor<64x128xbf16>, %b: tensor<128x64xbf16>, %row: tensor<64xbf16>, %full: tensor<64x64xbf16>) -> (tensor<64x64xbf16>, tensor<64x64xbf16>) {
  %0 = "ttir.linear"(%a, %b, %row) : (tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64xbf16>) -> tensor<64x64xbf16>
  %1 = "ttir.linear"(%a, %b, %full) : (tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %0, %1 : tensor<64x64xbf16>, tensor<64x64xbf16>
}

// Scale and zero point from the type; the quantized type printed as MLIR prints it.
// CHECK-LABEL: func.func @requantize_per_axis
// CHECK: "ttnn.constant"({{.*}}) <{value = dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>}>
// CHECK: "ttnn.full"({{.*}}) <{fill_value = 0 : i32, shape = #ttnn.shape<3>}>
// CHECK: "ttnn.constant"({{.*}}) <{value = dense<[2.000000e-01, 4.000000e-01, 6.000000e-01]> : tensor<3xf32>}>
// CHECK: "ttnn.requantize"(%arg0, {{.*}}) <{axis = 1 : i32, output_dtype = #ttcore.supportedDataTypes<si32>}>
// CHECK-SAME: tensor<1x3x32x32x!quant.uniform<i32:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>,
// CHECK-SAME: -> tensor<1x3x32x32x!quant.uniform<i32:f32:1, {2.000000e-01,4.000000e-01,6.000000e-01}>,
func.func @requantize_per_axis(%x: tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.2,0.4,0.6}>> {
  %0 = "ttir.requantize"(%x) : (tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.2,0.4,0.6}>>
  return %0 : tensor<1x3x32x32x!quant.uniform<i32:f32:1, {0.2,0.4,0.6}>>
}

// Constants behind another op move to the front in reverse order (HEAD's canonicalizer).
// CHECK-LABEL: func.func @dequantize_constants_hoisted
// CHECK: "ttnn.full"({{.*}}) <{fill_value = 0 : i32
// CHECK: "ttnn.full"({{.*}}) <{fill_value = 2.000000e-02 : f32
// CHECK: "ttnn.dequantize"(%arg0, {{.*}}) <{output_dtype = #ttcore.supportedDataTypes<f32>}>
func.func @dequantize_constants_hoisted(%x: tensor<1x3x32x32x!quant.uniform<i32:f32, 2.000000e-02>>) -> tensor<1x3x32x32xf32> {
  %e = ttir.empty() : tensor<1x3x32x32xf32>
  %s = "ttir.constant"() <{value = dense<2.000000e-02> : tensor<1xf32>}> : () -> tensor<1xf32>
  %z = "ttir.constant"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = "ttir.dequantize_unrolled"(%x, %s, %z) : (tensor<1x3x32x32x!quant.uniform<i32:f32, 2.000000e-02>>, tensor<1xf32>, tensor<1xi32>) -> tensor<1x3x32x32xf32>
  return %0 : tensor<1x3x32x32xf32>
}

// conv3d: input channels padded to 32 and row-major, the weight prepared (row-major, then tiled),
// a complete default conv3d_config, the row-major result tiled for its reader.
// CHECK-LABEL: func.func @conv3d_default_config
// CHECK: %[[B:.*]] = "ttnn.reshape"(%arg2) <{shape = [1 : i32, 16 : i32]}>
// CHECK: %[[P:.*]] = "ttnn.pad"(%arg0) <{padding = array<i32: 0, 0, 0, 0, 0, 0, 0, 0, 0, 28>
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%[[P]]) : ({{.*}}) -> tensor<1x8x28x28x32xbf16
// CHECK: %[[W:.*]] = "ttnn.prepare_conv3d_weights"(%arg1, %{{.*}}) <{alignment = 32 : i32, c_in_block = 32 : i32, groups = 1 : i32}> : ({{.*}}) -> tensor<864x16xbf16
// CHECK: %[[WT:.*]] = "ttnn.to_layout"(%[[W]])
// CHECK: "ttnn.conv3d"(%[[X]], %[[WT]], %[[B]], %{{.*}}) <{batch_size = 1 : i32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = 32, c_in_block = 32, compute_with_storage_grid_size = #ttcore.grid<8x8>>, groups = 1 : i32, in_channels = 32 : i32
func.func @conv3d_default_config(%x: tensor<1x8x28x28x4xbf16>, %w: tensor<16x4x3x3x3xbf16>, %b: tensor<1x1x1x1x16xbf16>) -> tensor<1x6x26x26x16xbf16> {
  %0 = "ttir.conv3d"(%x, %w, %b) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 1 : i32, padding_mode = "zeros"}> : (tensor<1x8x28x28x4xbf16>, tensor<16x4x3x3x3xbf16>, tensor<1x1x1x1x16xbf16>) -> tensor<1x6x26x26x16xbf16>
  return %0 : tensor<1x6x26x26x16xbf16>
}

// conv3d in NCDHW: permuted to NDHWC and back.
// CHECK-LABEL: func.func @conv3d_channel_first
// CHECK: "ttnn.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 4, 1>}>
// CHECK: "ttnn.conv3d"
// CHECK: "ttnn.permute"({{.*}}) <{permutation = array<i64: 0, 4, 1, 2, 3>}>
func.func @conv3d_channel_first(%x: tensor<1x32x8x28x28xbf16>, %w: tensor<32x32x3x3x3xbf16>) -> tensor<1x32x6x26x26xbf16> {
  %0 = "ttir.conv3d"(%x, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 1 : i32, batch_dim = 0 : i64, channel_dim = 1 : i64, depth_dim = 2 : i64, height_dim = 3 : i64, width_dim = 4 : i64}> : (tensor<1x32x8x28x28xbf16>, tensor<32x32x3x3x3xbf16>) -> tensor<1x32x6x26x26xbf16>
  return %0 : tensor<1x32x6x26x26xbf16>
}

// conv1d: row-major input, bias unsqueezed to (1, 1, 1, O), conv2d's flattened result reshaped back;
// the weight and bias go to the host row-major for tt-metal to prepare (tt-mlir keeps only conv2d
// weight arguments on the host, so conv1d's moves there in the function).
// CHECK-LABEL: func.func @conv1d_bias
// CHECK: %[[BD:.*]] = "ttnn.reshape"(%arg2) <{shape = [1 : i32, 1 : i32, 1 : i32, 64 : i32]}>
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%arg0)
// CHECK: %[[WH:.*]] = "ttnn.from_device"(%arg1)
// CHECK: %[[W:.*]] = "ttnn.to_layout"(%[[WH]])
// CHECK: %[[BH:.*]] = "ttnn.from_device"(%[[BD]])
// CHECK: %[[B:.*]] = "ttnn.to_layout"(%[[BH]])
// CHECK: %[[Y:.*]] = "ttnn.conv1d"(%[[X]], %[[W]], %[[B]], %{{.*}}) <{batch_size = 1 : i32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, conv2d_config = #ttnn.conv2d_config<config_tensors_in_dram = false>, dilation = 1 : i32, groups = 1 : i32, in_channels = 64 : i32, input_length = 32 : i32, kernel_size = 3 : i32, out_channels = 64 : i32, padding = array<i32: 1, 1>, stride = 1 : i32}> : ({{.*}}) -> tensor<1x1x32x64xbf16
// CHECK: "ttnn.reshape"(%[[Y]]) <{shape = [1 : i32, 32 : i32, 64 : i32]}>
func.func @conv1d_bias(%x: tensor<1x32x64xbf16>, %w: tensor<64x64x3xbf16>, %b: tensor<1x1x64xbf16>) -> tensor<1x32x64xbf16> {
  %0 = "ttir.conv1d"(%x, %w, %b) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x32x64xbf16>, tensor<64x64x3xbf16>, tensor<1x1x64xbf16>) -> tensor<1x32x64xbf16>
  return %0 : tensor<1x32x64xbf16>
}

// ttcore.composite: each replaced by its decomposition's body; the private decomposition goes.
// CHECK-LABEL: func.func @composites
// CHECK: %[[A:.*]] = "ttnn.add"(%arg0, %arg1)
// CHECK: "ttnn.multiply"(%[[A]], %arg0)
// CHECK: %[[B:.*]] = "ttnn.add"(%arg1, %arg0)
// CHECK: "ttnn.multiply"(%[[B]], %arg1)
// CHECK-NOT: ttcore.composite
// CHECK-NOT: @decomposition
func.func @composites(%a: tensor<32x32xbf16>, %b: tensor<32x32xbf16>) -> (tensor<32x32xbf16>, tensor<32x32xbf16>) {
  %0 = "ttcore.composite"(%a, %b) <{composite_name = "op_a", decomposition = @decomposition, composite_attributes = {}}> : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttcore.composite"(%b, %a) <{composite_name = "op_b", decomposition = @decomposition, composite_attributes = {}}> : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %0, %1 : tensor<32x32xbf16>, tensor<32x32xbf16>
}
func.func private @decomposition(%x: tensor<32x32xbf16>, %y: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
  %0 = "ttir.add"(%x, %y) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.multiply"(%0, %x) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %1 : tensor<32x32xbf16>
}

// sdpa_fw in f32: data operands typecast to bf16 for the ttml kernel, the output back to f32, the
// intermediates f32; multi-result ops print HEAD's result names.
// CHECK-LABEL: func.func @sdpa_forward_f32
// CHECK: %[[Q:.*]] = "ttnn.typecast"(%arg0) : ({{.*}}) -> tensor<1x8x64x64xbf16
// CHECK: %[[K:.*]] = "ttnn.typecast"(%arg1)
// CHECK: %[[V:.*]] = "ttnn.typecast"(%arg2)
// CHECK: %output, %intermediates = "ttnn.sdpa_fw"(%[[Q]], %[[K]], %[[V]]) <{dropout_probability = 0.000000e+00 : f32, mask_type = #ttcore.attention_mask_type<causal>, return_intermediates = true}>
// CHECK-SAME: -> (tensor<1x8x64x64xbf16, {{.*}}>, tensor<1x8x64x32xf32
// CHECK: "ttnn.typecast"(%output) : ({{.*}}) -> tensor<1x8x64x64xf32
func.func @sdpa_forward_f32(%q: tensor<1x8x64x64xf32>, %k: tensor<1x8x64x64xf32>, %v: tensor<1x8x64x64xf32>) -> (tensor<1x8x64x64xf32>, tensor<1x8x64x32xf32>) {
  %o, %i = "ttir.sdpa_fw"(%q, %k, %v) <{mask_type = #ttcore.attention_mask_type<causal>, dropout_probability = 0.000000e+00 : f32, return_intermediates = true}> : (tensor<1x8x64x64xf32>, tensor<1x8x64x64xf32>, tensor<1x8x64x64xf32>) -> (tensor<1x8x64x64xf32>, tensor<1x8x64x32xf32>)
  return %o, %i : tensor<1x8x64x64xf32>, tensor<1x8x64x32xf32>
}
