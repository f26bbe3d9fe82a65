// RUN: ttopt opt %s --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --insert-memreconfig relu=0 --mlir-print-debuginfo | FileCheck %s
// RUN: ttopt opt %s --ttnn-optimizer --insert-memreconfig add=1 --override-output-layout add=block_sharded --mlir-print-debuginfo | FileCheck %s --check-prefix=OUTSIDE

// insert-memreconfig (reference §2.14): a user reshard edge. On relu's chain-input edge the solver
// computes a real reshard map (upstream leaves those maps empty); the operand already comes from a
// single-use `ttnn.to_memory_config`, so that op is retyped in place instead of adding another one
// (reference §2.10).
// CHECK: %[[T:.*]] = "ttnn.to_memory_config"(%arg0) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #[[S:ttnn_layout[0-9]+]]> loc("to_l1")
// CHECK-NEXT: "ttnn.relu"(%[[T]]) : (tensor<256x512xbf16, #[[S]]>) -> tensor<256x512xbf16, #[[S]]> loc("relu")
// CHECK-NOT: mem_reconfig

// Outside any chain (no memory-layout analysis), a user reshard converts the operand to the
// consumer's output layout: add is block sharded (the first config its partial override allows), so
// its second operand is resharded with an inserted `add_mem_reconfig`.
// OUTSIDE: %[[R:.*]] = "ttnn.to_memory_config"(%arg1) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #[[B:ttnn_layout[0-9]+]]> loc("add_mem_reconfig")
// OUTSIDE-NEXT: "ttnn.add"(%{{.*}}, %[[R]]) : (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xbf16, #[[B]]>) -> tensor<256x512xbf16, #[[B]]> loc("add")
// OUTSIDE-NEXT: return {{.*}} : tensor<256x512xbf16, #[[B]]>

#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module {
  func.func @f(%x: tensor<256x512xbf16, #ttnn_layout>, %y: tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> attributes {tt.function_type = "forward_device"} {
    %0 = "ttnn.to_memory_config"(%x) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout1> loc("to_l1")
    %1 = "ttnn.relu"(%0) : (tensor<256x512xbf16, #ttnn_layout1>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    %2 = "ttnn.gelu"(%1) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("gelu")
    %3 = "ttnn.add"(%2, %y) : (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("add")
    return %3 : tensor<256x512xbf16, #ttnn_layout>
  }
}
