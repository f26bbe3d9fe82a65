// RUN: not ttopt opt %s --ttnn-optimizer 2>&1 | FileCheck %s

// CHECK: no_forward.mlir:[[# @LINE + 1]]:1: error: ttnn-optimizer: the module has no forward function (no func.func with tt.function_type = "forward_device", and no public func.func with a body)
module {
  func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
