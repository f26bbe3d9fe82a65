// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline 2>&1 | FileCheck %s
// A ttcore.cpu_module whose body is not one builtin.module is rejected as HEAD's verifyModuleWrapper
// rejects it: the passes only look inside that module, so host functions written beside it would be
// left unlowered (and a second CPU module appended) instead.

// CHECK: cpu_module_wrapper_errors.mlir:[[# @LINE + 3]]:3: error: 'ttcore.cpu_module' op Expected exactly one ModuleOp but found 0
// CHECK-NOT: Traceback
module {
  ttcore.cpu_module {
    func.func @h(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      return %arg0 : tensor<4xf32>
    }
  }
}
