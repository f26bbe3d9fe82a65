// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --override-output-layout nosuch=l1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --override-output-layout relu=l1:foo 2>&1 | FileCheck %s --check-prefix=PART
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --override-output-layout relu 2>&1 | FileCheck %s --check-prefix=NOEQ
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --override-output-layout relu=l1:dram 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --override-output-layout relu=system_memory 2>&1 | FileCheck %s --check-prefix=NOLEGAL
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --insert-memreconfig relu=7 2>&1 | FileCheck %s --check-prefix=OPERAND
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --insert-memreconfig relu=a 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --override-conv2d-config relu=nokey#1 2>&1 | FileCheck %s --check-prefix=CONVKEY
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --tensor-l1-usage-cap 1.5 2>&1 | FileCheck %s --check-prefix=CAP
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --device nosuch 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --max-legal-layouts -1 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --mlir-print-debuginfo 2>&1 | FileCheck %s --check-prefix=UNMODELLED
// RUN: ttopt opt %s --allow-unregistered-dialect --ttnn-optimizer --memory-layout-analysis-enabled --memory-layout-analysis-policy DFSharding --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTES

// Bad input gives an MLIR-style error naming the option and the offending part, never a traceback.
// Option values that are wrong whatever the input are usage errors (`Error:`, exit 2, see
// tests/optimizer/test_option_contract.py); those that depend on the input are errors (exit 1).
// UNKNOWN: error: ttnn-optimizer: --override-output-layout: no op named 'nosuch' in the forward functions (op names: frob, gather, gelu, relu)
// PART: Error: ttnn-optimizer: --override-output-layout: 'relu': unknown part 'foo' (expected a grid like 8x8, a buffer dram/l1/system_memory/l1_small/trace
// NOEQ: Error: ttnn-optimizer: --override-output-layout: expected NAME=VALUE, got 'relu'
// TWICE: Error: ttnn-optimizer: --override-output-layout: 'relu' gives the buffer twice ('dram')
// NOLEGAL: error: ttnn-optimizer: --override-output-layout: no legal layout of 'relu' (ttnn.relu) matches 'relu=system_memory'
// OPERAND: error: ttnn-optimizer: --insert-memreconfig: 'relu' has 1 operand(s), no operand 7
// INDEX: Error: ttnn-optimizer: --insert-memreconfig: 'relu': operand indices must be integers, got 'a'
// CONVKEY: Error: ttnn-optimizer: --override-conv2d-config: 'relu': unknown key 'nokey'
// CAP: Error: ttnn-optimizer: --tensor-l1-usage-cap must be in (0, 1], got 1.5
// DEVICE: Error: ttnn-optimizer: --device: unknown device preset 'nosuch'
// MAX: Error: ttnn-optimizer: --max-legal-layouts must be >= 0, got -1

// Ops the op model does not know (a CCL op, another dialect's op, a multi-result op), an operand
// with no ttnn layout (a non-TTNN producer) and a dynamic shape: those ops keep their layouts; the
// rest is optimized around them. (A TTNN *result* without a layout is an error: no_layout.mlir.)
// UNMODELLED: "ttnn.relu"(%arg0) {{.*}} -> tensor<256x512xbf16, #ttnn_layout1> loc("relu")
// UNMODELLED-NEXT: %[[S:.*]] = "ttnn.to_memory_config"{{.*}} loc("relu_spill")
// UNMODELLED-NEXT: "ttnn.all_gather"(%[[S]]) {{.*}} -> tensor<256x512xbf16, #ttnn_layout> loc("gather")
// UNMODELLED-NEXT: "mydialect.frob"{{.*}} -> tensor<256x512xbf16, #ttnn_layout> loc("frob")
// UNMODELLED: "ttnn.sort"
// UNMODELLED: "ttnn.neg"(%arg1) : (tensor<256x512xf32>) -> tensor<256x512xf32, #ttnn_layout_f32>
// UNMODELLED: "ttnn.exp"(%arg2) : (tensor<?x512xbf16, #ttnn_layout>) -> tensor<?x512xbf16, #ttnn_layout>
// NOTES: gather {{.*}} no op-model rule for ttnn.all_gather
// NOTES: frob {{.*}} no op-model rule for mydialect.frob
// NOTES: neg#5 {{.*}} an operand has no ttnn layout
// NOTES: exp#6 {{.*}} dynamic result shape

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#ttnn_layout_f32 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#ttnn_layout_u16 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, u16>, #dram>, <interleaved>>
module {
  func.func @f(%x: tensor<256x512xbf16, #ttnn_layout>, %y: tensor<256x512xf32>, %z: tensor<?x512xbf16, #ttnn_layout>) -> (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xui16, #ttnn_layout_u16>) {
    %0 = "ttnn.relu"(%x) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("relu")
    %1 = "ttnn.all_gather"(%0) <{all_gather_dim = 1 : si32, cluster_axis = 0 : ui32}> : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("gather")
    %2 = "mydialect.frob"(%1) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("frob")
    %3 = "ttnn.gelu"(%2) : (tensor<256x512xbf16, #ttnn_layout>) -> tensor<256x512xbf16, #ttnn_layout> loc("gelu")
    %4:2 = "ttnn.sort"(%3) : (tensor<256x512xbf16, #ttnn_layout>) -> (tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xui16, #ttnn_layout_u16>)
    %5 = "ttnn.neg"(%y) : (tensor<256x512xf32>) -> tensor<256x512xf32, #ttnn_layout_f32>
    %6 = "ttnn.exp"(%z) : (tensor<?x512xbf16, #ttnn_layout>) -> tensor<?x512xbf16, #ttnn_layout>
    return %4#0, %4#1 : tensor<256x512xbf16, #ttnn_layout>, tensor<256x512xui16, #ttnn_layout_u16>
  }
}
