// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --insert-memreconfig relu=0 --mlir-print-debuginfo | FileCheck %s

// A reshard on an operand that comes from a single-use `ttnn.to_layout` which moves the tensor
// from DRAM to L1 (an older revision's spelling; tt-mlir HEAD's verifier allows to_layout only
// page-layout and dtype changes): the conversion is reused, as a `ttnn.to_memory_config` at the
// same location, not retyped into another illegal to_layout.
// CHECK-NOT: ttnn.to_layout
// CHECK: %[[T:.*]] = "ttnn.to_memory_config"(%arg0) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #[[S:ttnn_layout[0-9]+]]> loc("to_l1")
// CHECK-NEXT: "ttnn.relu"(%[[T]]) : (tensor<256x512xbf16, #[[S]]>) -> tensor<256x512xbf16, #[[S]]> loc("relu")
// CHECK-NOT: ttnn.to_layout
// CHECK-NOT: mem_reconfig

#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module {
  func.func @f(%x: tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.to_layout"(%x) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout1> loc("to_l1")
    %1 = "ttnn.relu"(%0) : (tensor<256x512xbf16, #ttnn_layout1>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    %2 = "ttnn.gelu"(%1) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("gelu")
    return %2 : tensor<256x512xbf16, #ttnn_layout>
  }
}
