// RUN: not ttopt opt %s --split-input-file 2>&1 | FileCheck %s

// Each chunk is parsed on its own; every error is reported with its position in this file.

// CHECK: diagnostics.mlir:[[# @LINE + 3]]:26: error: use of undefined value '%b'
// CHECK-NOT: Traceback
func.func @undefined(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: diagnostics.mlir:[[# @LINE + 3]]:3: error: redefinition of SSA value '%0'
func.func @dup(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: diagnostics.mlir:[[# @LINE + 1]]:41: error: undefined symbol alias id 'nope'
func.func @alias(%a: tensor<2xf32, #nope>) {
  return
}

// -----

// CHECK: diagnostics.mlir:[[# @LINE + 2]]:8: error: 'ttnn.add' op expected 2 operands, but found 1
func.func @arity(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "ttnn.add"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: diagnostics.mlir:[[# @LINE + 2]]:20: error: type mismatch: '%a' is 'tensor<2xf32>' where 'ttnn.relu' expects 'tensor<4xf32>' (operand #0)
func.func @mismatch(%a: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "ttnn.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: diagnostics.mlir:[[# @LINE + 2]]:3: error: 'func.return' op returns (tensor<2xf32>) but the function's result types are (tensor<3xf32>)
func.func @bad_return(%a: tensor<2xf32>) -> tensor<3xf32> {
  return %a : tensor<2xf32>
}

// -----

// CHECK: diagnostics.mlir:[[# @LINE + 2]]:3: error: 'stablehlo.return' op must be the last operation of its block
func.func @terminator(%a: tensor<2xf32>) -> tensor<2xf32> {
  stablehlo.return %a : tensor<2xf32>
  return %a : tensor<2xf32>
}

// -----

// CHECK: diagnostics.mlir:[[# @LINE + 1]]:30: error: expected '>' to close '<', found ')'
func.func @f(%a: tensor<2xf32) {
  return
}
