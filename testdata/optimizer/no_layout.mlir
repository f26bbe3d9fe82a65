// RUN: not ttopt opt %s --split-input-file --ttnn-optimizer 2>&1 | FileCheck %s
// RUN: ttopt opt %s --split-input-file | FileCheck %s --check-prefix=PLAIN

// The optimizer needs every TTNN result to be a ranked tensor with a #ttnn.ttnn_layout (tt-mlir's
// layout pass adds them): anything else is an error at the op, never an internal error and never
// a silently invented layout. Without the optimizer such IR is valid and printed back.

// CHECK: no_layout.mlir:[[# @LINE + 6]]:10: error: 'ttnn.relu' op result 0 is an unranked tensor (tensor<*xbf16>); ttnn-optimizer needs ranked TTNN tensors
// PLAIN: "ttnn.relu"(%arg0) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<*xbf16>
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<*xbf16> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<*xbf16> loc("relu")
    return %0 : tensor<*xbf16>
  }
}

// -----

// CHECK: no_layout.mlir:[[# @LINE + 6]]:10: error: 'ttnn.matmul' op result 0 (tensor<64x64xbf16>) has no #ttnn.ttnn_layout encoding; ttnn-optimizer needs the layout of every TTNN result
// PLAIN: "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}> : (tensor<64x64xbf16, #ttnn_layout>, tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16>
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>, %w: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.matmul"(%x, %w) <{transpose_a = false, transpose_b = false}> : (tensor<64x64xbf16, #ttnn_layout>, tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16> loc("fc1")
    %1 = "ttnn.relu"(%0) : (tensor<64x64xbf16>) -> tensor<64x64xbf16> loc("relu")
    return %1 : tensor<64x64xbf16>
  }
}

// -----

// A result encoding that is not a TTNN layout.
// CHECK: no_layout.mlir:[[# @LINE + 6]]:10: error: 'ttnn.relu' op result 0 encoding "sharded" is not a #ttnn.ttnn_layout
// PLAIN: "ttnn.relu"(%arg0) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, "sharded">
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, "sharded"> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, "sharded">
    return %0 : tensor<64x64xbf16, "sharded">
  }
}

// -----

// An operand whose encoding is not a TTNN layout (no encoding at all is accepted).
// CHECK: no_layout.mlir:[[# @LINE + 5]]:10: error: 'ttnn.relu' op operand 0 encoding "sharded" is not a #ttnn.ttnn_layout
#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%x: tensor<64x64xbf16, "sharded">) -> tensor<64x64xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%x) : (tensor<64x64xbf16, "sharded">) -> tensor<64x64xbf16, #ttnn_layout>
    return %0 : tensor<64x64xbf16, #ttnn_layout>
  }
}
