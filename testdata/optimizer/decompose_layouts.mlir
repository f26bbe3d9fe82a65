// RUN: ttopt opt %s --ttcore-register-device --ttnn-decompose-layouts | FileCheck %s

// A page-layout change is one ttnn.to_layout; a memory change one ttnn.to_memory_config; both: the
// tilize first, in the input's memory, then the move; equal layouts: the op goes away.
#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x64xbf16, #dram>, <interleaved>>
#tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l1tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
// CHECK-LABEL: func.func @main
// CHECK: %[[A:.*]] = "ttnn.to_layout"(%arg0) : (tensor<64x64xbf16, #rm>) -> tensor<64x64xbf16, #tile>
// CHECK: %[[B:.*]] = "ttnn.to_memory_config"(%[[A]]) : (tensor<64x64xbf16, #tile>) -> tensor<64x64xbf16, #l1tile>
// CHECK: %[[C:.*]] = "ttnn.to_layout"(%arg0) : (tensor<64x64xbf16, #rm>) -> tensor<64x64xbf16, #tile>
// CHECK: %[[D:.*]] = "ttnn.to_memory_config"(%[[C]]) : (tensor<64x64xbf16, #tile>) -> tensor<64x64xbf16, #l1tile>
// CHECK: "ttnn.add"(%[[B]], %[[D]])
// CHECK-NOT: to_tensor_spec
func.func @main(%arg0: tensor<64x64xbf16, #rm>) -> tensor<64x64xbf16, #l1tile> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x64xbf16, #rm>) -> tensor<64x64xbf16, #tile>
  %1 = "ttnn.to_tensor_spec"(%0) : (tensor<64x64xbf16, #tile>) -> tensor<64x64xbf16, #l1tile>
  %2 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x64xbf16, #rm>) -> tensor<64x64xbf16, #l1tile>
  %3 = "ttnn.to_tensor_spec"(%2) : (tensor<64x64xbf16, #l1tile>) -> tensor<64x64xbf16, #l1tile>
  %4 = "ttnn.add"(%1, %3) : (tensor<64x64xbf16, #l1tile>, tensor<64x64xbf16, #l1tile>) -> tensor<64x64xbf16, #l1tile>
  return %4 : tensor<64x64xbf16, #l1tile>
}
