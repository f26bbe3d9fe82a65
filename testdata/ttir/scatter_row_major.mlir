// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 verify-l1-budget=true" | FileCheck %s

// HEAD's scatter workarounds: f32 / bf16 / 32-bit integer operands go row-major (tt-metal's tiled
// int32 scatter takes at most 256 elements per axis, its f32 kernel reads row-major), the scatter
// writes a row-major result and a ttnn.to_layout tiles it again.

// CHECK-DAG: #[[RM:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1000x32xf32, #dram>, <interleaved>>
// CHECK-DAG: #[[TILED:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%arg0) {{.*}} -> tensor<1000x32xf32, #[[RM]]>
// CHECK: %[[I:.*]] = "ttnn.to_layout"(%arg1) {{.*}} -> tensor<10x32xsi32
// CHECK: %[[S:.*]] = "ttnn.to_layout"(%arg2) {{.*}} -> tensor<10x32xf32
// CHECK: %[[R:.*]] = "ttnn.scatter"(%[[X]], %[[I]], %[[S]]) <{dim = 0 : si32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> {{.*}} -> tensor<1000x32xf32, #[[RM]]>
// CHECK: "ttnn.to_layout"(%[[R]]) : (tensor<1000x32xf32, #[[RM]]>) -> tensor<1000x32xf32, #[[TILED]]>
func.func @scatter_f32(%arg0: tensor<1000x32xf32>, %arg1: tensor<10x32xi64>, %arg2: tensor<10x32xf32>) -> tensor<1000x32xf32> {
  %0 = "ttir.scatter"(%arg0, %arg1, %arg2) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> : (tensor<1000x32xf32>, tensor<10x32xi64>, tensor<10x32xf32>) -> tensor<1000x32xf32>
  return %0 : tensor<1000x32xf32>
}
