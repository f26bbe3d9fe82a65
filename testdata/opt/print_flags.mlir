// RUN: ttopt opt %s | FileCheck %s --check-prefix=DEFAULT
// RUN: ttopt opt %s --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// RUN: ttopt opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// RUN: ttopt opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: ttopt opt %s --mlir-print-op-generic | ttopt opt | FileCheck %s --check-prefix=DEFAULT

// Aliases are data: kept and re-emitted by default (including one used inside another),
// inlined with --mlir-print-local-scope; locations only with --mlir-print-debuginfo.
// DEFAULT: #dram = #ttnn.buffer_type<dram>
// DEFAULT-NEXT: #ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// DEFAULT-NOT: loc(
// DEFAULT: "ttnn.relu"(%arg0) : (tensor<32x32xbf16, #ttnn_layout>) -> tensor<32x32xbf16, #ttnn_layout>
// DEFAULT-NOT: #loc

// LOCAL-NOT: #dram =
// LOCAL: "ttnn.relu"(%arg0) : (tensor<32x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>>)

// DEBUG: "ttnn.relu"(%arg0) {{.*}} loc(#loc1)
// DEBUG: } loc(#loc2)
// DEBUG: #loc1 = loc("relu_1")
// DEBUG-NEXT: #loc2 = loc("forward")

// GENERIC: "builtin.module"() ({
// GENERIC: "func.func"() <{function_type = (tensor<32x32xbf16, #ttnn_layout>) -> tensor<32x32xbf16, #ttnn_layout>, sym_name = "forward"}> ({
// GENERIC-NEXT: ^bb0(%arg0: tensor<32x32xbf16, #ttnn_layout>):
// GENERIC: "func.return"(%0) : (tensor<32x32xbf16, #ttnn_layout>) -> ()

#dram = #ttnn.buffer_type<dram>
#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
module {
  func.func @forward(%arg0: tensor<32x32xbf16, #ttnn_layout>) -> tensor<32x32xbf16, #ttnn_layout> {
    %0 = "ttnn.relu"(%arg0) : (tensor<32x32xbf16, #ttnn_layout>) -> tensor<32x32xbf16, #ttnn_layout> loc(#loc1)
    return %0 : tensor<32x32xbf16, #ttnn_layout>
  } loc(#loc2)
}
#loc1 = loc("relu_1")
#loc2 = loc("forward")
