// RUN: ttopt opt %s --ttnn-rm-layout-propagation --mlir-print-debuginfo | FileCheck %s

// A row-major integer input loses the to_tensor_spec that only tiles it; the reshape keeps
// row-major (its result is retyped), as does the typecast (ui32, the program's type: no
// conversion); the typecast reaches the return, which wants tiled: a to_tensor_spec before it.
// The add does not take row-major: propagation stops there (no fixup, the op model covers the
// add). An argument not typed input is left alone.
#dram = #ttnn.buffer_type<dram>
#rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xsi32, #dram>, <interleaved>>
#tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
#tile2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x1x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
#utile2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x1x!ttcore.tile<32x32, u32>, #dram>, <interleaved>>

// CHECK-LABEL: func.func @main
// CHECK-NOT: "ttnn.to_tensor_spec"(%arg0)
// CHECK: %[[R:.*]] = "ttnn.reshape"(%arg0) {{.*}} -> tensor<64x32xsi32, #[[RMR:ttnn_layout[0-9]*]]> loc("r")
// CHECK: %[[T:.*]] = "ttnn.typecast"(%[[R]]) {{.*}} -> tensor<64x32xui32, #[[RMT:ttnn_layout[0-9]*]]> loc("t")
// CHECK: "ttnn.add"(%[[R]], %[[R]]) : (tensor<64x32xsi32, #[[RMR]]>, tensor<64x32xsi32, #[[RMR]]>) -> tensor<64x32xsi32, #tile2>
// CHECK: %[[BACK:.*]] = "ttnn.to_tensor_spec"(%[[T]]) : (tensor<64x32xui32, #[[RMT]]>) -> tensor<64x32xui32, #utile2> loc("ret_return_conversion"("ret"))
// CHECK: return %[[BACK]], %{{.*}} :
func.func @main(%arg0: tensor<32x64xsi32, #rm> {ttcore.argument_type = #ttcore.argument_type<input>}) -> (tensor<64x32xui32, #utile2>, tensor<64x32xsi32, #tile2>) attributes {tt.function_type = "forward_device"} {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #tile>
  %1 = "ttnn.reshape"(%0) <{shape = [64 : i32, 32 : i32]}> : (tensor<32x64xsi32, #tile>) -> tensor<64x32xsi32, #tile2> loc("r")
  %2 = "ttnn.typecast"(%1) <{dtype = #ttcore.supportedDataTypes<u32>}> : (tensor<64x32xsi32, #tile2>) -> tensor<64x32xui32, #utile2> loc("t")
  %3 = "ttnn.add"(%1, %1) : (tensor<64x32xsi32, #tile2>, tensor<64x32xsi32, #tile2>) -> tensor<64x32xsi32, #tile2>
  return %2, %3 : tensor<64x32xui32, #utile2>, tensor<64x32xsi32, #tile2> loc("ret")
}

// CHECK-LABEL: func.func @not_input
// CHECK: "ttnn.to_tensor_spec"(%arg0)
func.func @not_input(%arg0: tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #tile> attributes {tt.function_type = "forward_device"} {
  %0 = "ttnn.to_tensor_spec"(%arg0) : (tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #tile>
  return %0 : tensor<32x64xsi32, #tile>
}
