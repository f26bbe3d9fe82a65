// RUN: not ttopt opt %s --split-input-file 2>&1 | FileCheck %s

// Symbol tables, calls and type aliases are checked as MLIR checks them.

// CHECK: verify_symbols.mlir:[[# @LINE + 4]]:1: error: 'func.func' op redefinition of symbol named 'f'
func.func @f() {
  return
}
func.func @f() {
  return
}

// -----

// CHECK: verify_symbols.mlir:[[# @LINE + 1]]:1: error: 'func.func' op symbol declaration cannot have public visibility
func.func @decl(tensor<2xf32>) -> tensor<2xf32>

// -----

// A private declaration is fine, and so is a call to it with matching types.
// CHECK-NOT: error: {{.*}}@ok_decl
func.func private @ok_decl(tensor<2xf32>) -> tensor<2xf32>
func.func @ok_call(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @ok_decl(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK: verify_symbols.mlir:[[# @LINE + 2]]:3: error: 'func.call' op 'nope' does not reference a valid function
func.func @caller() {
  call @nope() : () -> ()
  return
}

// -----

// CHECK: verify_symbols.mlir:[[# @LINE + 3]]:8: error: 'func.call' op operand type mismatch: expected operand type tensor<2xf32>, but provided tensor<3xf32> for operand number 0
func.func private @g(tensor<2xf32>) -> tensor<2xf32>
func.func @bad_call(%a: tensor<3xf32>) -> tensor<2xf32> {
  %0 = call @g(%a) : (tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// An alias names only aliases defined before it (MLIR), so a cycle is an undefined alias.
// CHECK: verify_symbols.mlir:[[# @LINE + 1]]:17: error: undefined symbol alias id 'b'
!a = tensor<4x!b>
!b = tensor<4x!a>
func.func @cycle(%arg0: !a) -> !a {
  return %arg0 : !a
}

// -----

// CHECK: verify_symbols.mlir:[[# @LINE + 1]]:18: error: undefined symbol alias id 'self'
#self = [1, #self]
func.func @self_cycle() attributes {x = #self} {
  return
}
