// RUN: not ttopt opt %s --split-input-file --ttnn-optimizer 2>&1 | FileCheck %s

// Without a `module` op of its own (bare top-level ops, an implicit module), the error has no op
// to point at: it points at the start of the input, or of the `// -----` chunk.
// CHECK: no_forward_implicit.mlir:1:1: error: ttnn-optimizer: the module has no forward function
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----
// CHECK: no_forward_implicit.mlir:[[# @LINE]]:1: error: ttnn-optimizer: the module has no forward function
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
