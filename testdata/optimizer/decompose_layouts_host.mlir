// RUN: ttopt opt %s --ttnn-decompose-layouts | FileCheck %s

// Across the host boundary: to the host, ttnn.from_device and then the page-layout and data-type
// change on the host (bfp_bf8 tiles to bf16 rows); from the host, the change on the host first,
// then ttnn.to_device with the function's device (one is made when the function has none).
#dram = #ttnn.buffer_type<dram>
#system_memory = #ttnn.buffer_type<system_memory>
#bfp8 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bfp_bf8>, #dram>, <interleaved>>
#host_rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x64xbf16, #system_memory>>
#tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK-DAG: #ttnn_layout = #ttnn.ttnn_layout<{{.*}}memref<2x2x!ttcore.tile<32x32, bfp_bf8>, #system_memory>>
// CHECK-DAG: #ttnn_layout1 = #ttnn.ttnn_layout<{{.*}}memref<2x2x!ttcore.tile<32x32, bf16>, #system_memory>>
// CHECK-LABEL: func.func @to_host
// CHECK: %[[H:.*]] = "ttnn.from_device"(%arg0) : (tensor<64x64xbf16, #bfp8>) -> tensor<64x64xbf16, #ttnn_layout>
// CHECK-NEXT: %[[R:.*]] = "ttnn.to_layout"(%[[H]]) : (tensor<64x64xbf16, #ttnn_layout>) -> tensor<64x64xbf16, #host_rm>
// CHECK-NEXT: return %[[R]]
func.func @to_host(%arg0: tensor<64x64xbf16, #bfp8>) -> tensor<64x64xbf16, #host_rm> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x64xbf16, #bfp8>) -> tensor<64x64xbf16, #host_rm>
  return %0 : tensor<64x64xbf16, #host_rm>
}
// CHECK-LABEL: func.func @to_device
// CHECK-NEXT: %[[D:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}>
// CHECK-NEXT: %[[T:.*]] = "ttnn.to_layout"(%arg0) : (tensor<64x64xbf16, #host_rm>) -> tensor<64x64xbf16, #ttnn_layout1>
// CHECK-NEXT: %[[V:.*]] = "ttnn.to_device"(%[[T]], %[[D]]) : (tensor<64x64xbf16, #ttnn_layout1>, !ttnn.device) -> tensor<64x64xbf16, #tile>
// CHECK-NEXT: return %[[V]]
// CHECK-NOT: to_tensor_spec
func.func @to_device(%arg0: tensor<64x64xbf16, #host_rm>) -> tensor<64x64xbf16, #tile> {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<64x64xbf16, #host_rm>) -> tensor<64x64xbf16, #tile>
  return %0 : tensor<64x64xbf16, #tile>
}
