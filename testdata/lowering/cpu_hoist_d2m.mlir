// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-create-d2m-subgraphs=true" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-create-d2m-subgraphs=true" | ttopt opt - | FileCheck %s
// D2M subgraphs beside host const-eval: the program, its ttnn.generic ops and their kernel functions
// move into ttcore.device_module's builtin.module, and the generic's verifier finds its kernels
// there (in the innermost module holding it, not at the root).

// CHECK: ttcore.device_module {
// CHECK: "ttnn.generic"
// CHECK: func.func private @datamovement_kernel0
// CHECK: ttcore.cpu_module {
// CHECK: llvm.func @cpu_hoisted_const_eval_{{[0-9a-f]+}}_helper
module {
  func.func @f(%arg0: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
               %arg1: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
               %arg2: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xbf16> {
    %0 = "ttir.subtract"(%arg1, %arg2) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.exp"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %2 = "ttir.add"(%1, %0) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %3 = "ttir.multiply"(%2, %arg0) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %3 : tensor<32x32xbf16>
  }
}
