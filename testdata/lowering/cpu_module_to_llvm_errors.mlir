// RUN: not ttopt opt %s --convert-cpu-module-to-llvm 2>&1 | FileCheck %s
// An op the CPU module's LLVM lowering does not take is an error at the op (the hoisting asks
// `cpu_llvm.lowerable` first, so it never moves such an op to the host).

// CHECK: cpu_module_to_llvm_errors.mlir:[[# @LINE + 6]]:14: error: 'ttir.softsign' op cannot be lowered to the LLVM dialect: the CPU lowering has no rule for this op
// CHECK-NOT: Traceback
module {
  ttcore.cpu_module {
    builtin.module {
      func.func @cpu_hoisted_const_eval_1(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {arg_ranks = [1], result_ranks = [1]} {
        %0 = "ttir.softsign"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
        return %0 : tensor<4xf32>
      }
    }
  }
}
