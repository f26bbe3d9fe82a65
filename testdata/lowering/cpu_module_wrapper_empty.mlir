// RUN: not ttopt opt %s 2>&1 | FileCheck %s
// An empty ttcore.device_module is HEAD's "Expected exactly one block" (verifyModuleWrapper counts ops).

// CHECK: cpu_module_wrapper_empty.mlir:[[# @LINE + 2]]:3: error: 'ttcore.device_module' op Expected exactly one block
module {
  ttcore.device_module {
  }
}
