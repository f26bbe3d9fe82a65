// RUN: not ttopt opt %s --split-input-file 2>&1 | FileCheck %s

// Token errors are MLIR's (mlir/lib/AsmParser/Lexer.cpp), at the line and column MLIR gives (jaxlib).

// CHECK: token_errors.mlir:[[# @LINE + 2]]:21: error: unknown escape in string literal
func.func @f() {
  "test.op"() {s = "\q"} : () -> ()
  return
}

// -----

// CHECK: token_errors.mlir:[[# @LINE + 2]]:35: error: expected '"' in string literal
func.func @f() {
  "test.op"() {s = "ab} : () -> ()
  return
}

// -----

// CHECK: token_errors.mlir:[[# @LINE + 2]]:3: error: invalid SSA name
func.func @f() {
  %é = "test.op"() : () -> i32
  return
}

// -----

// CHECK: token_errors.mlir:[[# @LINE + 2]]:21: error: @ identifier expected to start with letter or '_'
func.func @f() {
  "test.op"() {a = @1} : () -> ()
  return
}

// -----

// CHECK: token_errors.mlir:[[# @LINE + 2]]:14: error: unexpected character
func.func @f() {
  "test.op"() {a = 1} : () -> ()
  return
}

// -----

// CHECK: token_errors.mlir:[[# @LINE + 2]]:3: error: empty operation name is invalid
func.func @f() {
  ""() : () -> ()
  return
}

// -----

// CHECK: token_errors.mlir:[[# @LINE + 2]]:6: error: expected named operation to have at least 1 result
func.func @f() {
  %0:0 = "test.op"() : () -> ()
  return
}
