// RUN: ttopt opt %s --split-input-file --verify-diagnostics
// RUN: not ttopt opt %s --split-input-file 2>&1 | FileCheck %s

// A misspelt op of a registered dialect is an error at the op, in mlir-opt's words, whether or not
// ttopt defines the dialect's ops itself (it knows every name upstream defines).

// CHECK: unregistered_ops.mlir:[[# @LINE + 3]]:8: error: unregistered operation 'ttnn.relux' found in dialect ('ttnn') that does not allow unknown operations
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unregistered operation 'ttnn.relux' found in dialect ('ttnn') that does not allow unknown operations}}
  %0 = "ttnn.relux"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: unregistered_ops.mlir:[[# @LINE + 3]]:8: error: unregistered operation 'ttir.addd' found in dialect ('ttir')
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unregistered operation 'ttir.addd' found in dialect ('ttir') that does not allow unknown operations}}
  %0 = "ttir.addd"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: unregistered_ops.mlir:[[# @LINE + 3]]:8: error: unregistered operation 'stablehlo.no_such_op' found in dialect ('stablehlo')
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unregistered operation 'stablehlo.no_such_op' found in dialect ('stablehlo') that does not allow unknown operations}}
  %0 = "stablehlo.no_such_op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: unregistered_ops.mlir:[[# @LINE + 3]]:3: error: unregistered operation 'func.no_such_op' found in dialect ('func')
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unregistered operation 'func.no_such_op' found in dialect ('func') that does not allow unknown operations}}
  "func.no_such_op"(%a) : (tensor<4xf32>) -> ()
  return %a : tensor<4xf32>
}

// -----

// Ops upstream defines pass even when ttopt has no definition of its own for them.
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "ttnn.tt_lang_op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.set_dimension_size"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
