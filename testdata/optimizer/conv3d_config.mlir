// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" | FileCheck %s --check-prefix=HEUR
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv3d-config=table=h_out_block#2:c_in_block#32,plain=weights_dtype#bf16:c_out_block#64" | FileCheck %s --check-prefix=OVER
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=0" | FileCheck %s --check-prefix=NOOPT
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv3d-config=table=c_out_block#0" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv3d-config=missing=c_in_block#32" 2>&1 | FileCheck %s --check-prefix=NONAME

// The optimizer's conv3d_config: tt-metal's _DEFAULT_BLOCKINGS entry (128, 128, (3, 3, 3)) ->
// (C_in 128, C_out 32, T 1, H 8, W 8) replaces the conversion default of @table's conv; @plain's
// (96 -> 64) has no entry and keeps it. An override pins its keys over either, and the weights are
// prepared for the chosen c_in_block.
module {
  // HEUR-LABEL: func.func @table
  // HEUR: "ttnn.prepare_conv3d_weights"{{.*}}c_in_block = 128 : i32
  // HEUR: "ttnn.conv3d"{{.*}}conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 8, h_out_block = 8, c_out_block = 32, c_in_block = 128, compute_with_storage_grid_size = #ttcore.grid<8x8>>
  // OVER-LABEL: func.func @table
  // OVER: "ttnn.prepare_conv3d_weights"{{.*}}c_in_block = 32 : i32
  // OVER: "ttnn.conv3d"{{.*}}conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 8, h_out_block = 2, c_out_block = 32, c_in_block = 32, compute_with_storage_grid_size = #ttcore.grid<8x8>>
  // NOOPT-LABEL: func.func @table
  // NOOPT: "ttnn.conv3d"{{.*}}conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = 32, c_in_block = 32,
  func.func @table(%x: tensor<1x4x10x10x128xbf16>, %w: tensor<128x128x3x3x3xbf16>) -> tensor<1x2x8x8x128xbf16> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 1 : i32, padding_mode = "zeros"}>
        : (tensor<1x4x10x10x128xbf16>, tensor<128x128x3x3x3xbf16>) -> tensor<1x2x8x8x128xbf16> loc("table")
    return %0 : tensor<1x2x8x8x128xbf16>
  }
  // HEUR-LABEL: func.func @plain
  // HEUR: "ttnn.conv3d"{{.*}}conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = 32, c_in_block = 32,
  // OVER-LABEL: func.func @plain
  // OVER: "ttnn.conv3d"{{.*}}conv3d_config = #ttnn.conv3d_config<weights_dtype = bf16, t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = 64, c_in_block = 32,
  func.func @plain(%x: tensor<1x4x10x10x96xbf16>, %w: tensor<64x96x3x3x3xbf16>) -> tensor<1x2x8x8x64xbf16> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 1 : i32, padding_mode = "zeros"}>
        : (tensor<1x4x10x10x96xbf16>, tensor<64x96x3x3x3xbf16>) -> tensor<1x2x8x8x64xbf16> loc("plain")
    return %0 : tensor<1x2x8x8x64xbf16>
  }
}
// BAD: Error: {{.*}}--override-conv3d-config: 'table': c_out_block must be a positive integer, got '0'
// NONAME: error: {{.*}}--override-conv3d-config: no op named 'missing'
