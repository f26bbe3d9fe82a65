// RUN: ttopt analyze %s | FileCheck %s
// RUN: ttopt analyze %s --json | FileCheck %s --check-prefix=JSON

// `ttopt analyze` prices a ttnn.conv3d with the layouts it has (module estimates do too): the
// optimizer does not place it (no op-model rule), but its estimate is tt-metal's conv3d program
// for the blocking in its conv3d_config, never 0. One-voxel blocks over 32-channel input slices
// hand partial sums to a reducer core every block (`sync`); whole-channel 8x8 blocks do not.

// CHECK: func @conv3d_blockings: 2 ttnn ops, estimated {{[0-9]+\.[0-9]+}} us with the current layouts
// CHECK: ttnn.conv3d "voxel_blocks" -> tensor<1x6x26x26x32xbf16, #o>
// CHECK-NEXT: inputs: dram interleaved 1x1 [6272x128 elems]; dram interleaved 1x1 [108x1 tiles]
// CHECK-NEXT: current: dram interleaved 1x1 [4056x32 elems]: not_implemented, {{[0-9]+}} ns (no op-model rule for ttnn.conv3d)
// CHECK-NEXT: estimate: compute {{[0-9]+}} + dram {{[0-9]+}} + noc 0 + floor 4958 + dispatch 0 + sync {{[0-9]+}} - overlap {{[0-9]+}} ns, HiFi2
// CHECK: ttnn.conv3d "tuned_blocks"
// CHECK-NEXT: inputs:
// CHECK-NEXT: current: dram interleaved 1x1 [4056x32 elems]: not_implemented, {{[0-9]+}} ns
// CHECK-NEXT: estimate: compute {{[0-9]+}} + dram {{[0-9]+}} + noc 0 + floor 4958 + dispatch 0 - overlap {{[0-9]+}} ns, HiFi4

// JSON: "op": "ttnn.conv3d"
// JSON: "status": "not_implemented"
// JSON-NEXT: "reason": "no op-model rule for ttnn.conv3d"
// JSON: "ns": {{[1-9][0-9]*\.[0-9]+}}

#dram = #ttnn.buffer_type<dram>
#x = #ttnn.ttnn_layout<(d0, d1, d2, d3, d4) -> (d0 * 6272 + d1 * 784 + d2 * 28 + d3, d4), <1x1>, memref<6272x128xbf16, #dram>, <interleaved>>
#w = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<108x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#o = #ttnn.ttnn_layout<(d0, d1, d2, d3, d4) -> (d0 * 4056 + d1 * 676 + d2 * 26 + d3, d4), <1x1>, memref<4056x32xbf16, #dram>, <interleaved>>
module {
  func.func @conv3d_blockings(%arg0: tensor<1x8x28x28x128xbf16, #x>, %arg1: tensor<3456x32xbf16, #w>, %arg2: tensor<3456x32xbf16, #w>) -> (tensor<1x6x26x26x32xbf16, #o>, tensor<1x6x26x26x32xbf16, #o>) {
    %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %1 = "ttnn.conv3d"(%arg0, %arg1, %0) <{batch_size = 1 : i32, conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = 32, c_in_block = 32, compute_with_storage_grid_size = #ttcore.grid<8x8>>, groups = 1 : i32, in_channels = 128 : i32, input_depth = 8 : i32, input_height = 28 : i32, input_width = 28 : i32, kernel_size = array<i32: 3, 3, 3>, out_channels = 32 : i32, padding = array<i32: 0, 0, 0>, padding_mode = "zeros", stride = array<i32: 1, 1, 1>}> : (tensor<1x8x28x28x128xbf16, #x>, tensor<3456x32xbf16, #w>, !ttnn.device) -> tensor<1x6x26x26x32xbf16, #o> loc("voxel_blocks")
    %2 = "ttnn.conv3d"(%arg0, %arg2, %0) <{batch_size = 1 : i32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4>, conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 8, h_out_block = 8, c_out_block = 32, c_in_block = 128, compute_with_storage_grid_size = #ttcore.grid<8x8>>, groups = 1 : i32, in_channels = 128 : i32, input_depth = 8 : i32, input_height = 28 : i32, input_width = 28 : i32, kernel_size = array<i32: 3, 3, 3>, out_channels = 32 : i32, padding = array<i32: 0, 0, 0>, padding_mode = "zeros", stride = array<i32: 1, 1, 1>}> : (tensor<1x8x28x28x128xbf16, #x>, tensor<3456x32xbf16, #w>, !ttnn.device) -> tensor<1x6x26x26x32xbf16, #o> loc("tuned_blocks")
    return %1, %2 : tensor<1x6x26x26x32xbf16, #o>, tensor<1x6x26x26x32xbf16, #o>
  }
}
