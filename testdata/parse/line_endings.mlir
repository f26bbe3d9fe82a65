// Line ends as MLIR reads them: '\n', "\r\n" and a lone '\r' all end a line's comment and separate
// tokens; line numbers in diagnostics count '\n' only (as MLIR's SourceMgr does), so in a file of
// lone '\r's everything is on line 1.

// A CR-only file starting with a comment is the whole program, not an empty module.
// RUN: printf '// a comment\rfunc.func @f(%%a: tensor<2xf32>) -> tensor<2xf32> {\r  %%0 = "test.op"(%%a) : (tensor<2xf32>) -> tensor<2xf32>\r  return %%0 : tensor<2xf32>\r}\r' > %t && ttopt opt %t --allow-unregistered-dialect | FileCheck %s --check-prefix=CR
// CR:      func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CR-NEXT:   %0 = "test.op"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
// CR-NEXT:   return %0 : tensor<2xf32>

// A '\r' ends a comment: what follows it on the same '\n'-line is code.
// RUN: printf 'func.func @f() {\n  // a comment\r  "test.op"() : () -> ()\n  return\n}\n' > %t && ttopt opt %t --allow-unregistered-dialect | FileCheck %s --check-prefix=CR-IN-COMMENT
// CR-IN-COMMENT:      func.func @f() {
// CR-IN-COMMENT-NEXT:   "test.op"() : () -> ()
// CR-IN-COMMENT-NEXT:   return

// CRLF lines, comments included.
// RUN: printf '// c\r\nfunc.func @f() {\r\n  "test.op"() {a = 1 : i32} : () -> () // c\r\n  return\r\n}\r\n' > %t && ttopt opt %t --allow-unregistered-dialect | FileCheck %s --check-prefix=CRLF
// CRLF:      func.func @f() {
// CRLF-NEXT:   "test.op"() {a = 1 : i32} : () -> ()
// CRLF-NEXT:   return

// Positions: a lone '\r' does not start a line; "\r\n" does.
// RUN: printf 'func.func @f() {\r  %%0 = "test.op"(%%nope) : (i32) -> i32\r  return\r}\r' > %t && not ttopt opt %t --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=CR-POS
// CR-POS: :1:35: error: use of undefined value '%nope'
// RUN: printf 'func.func @f() {\r\n  %%0 = "test.op"(%%nope) : (i32) -> i32\r\n  return\r\n}\r\n' > %t && not ttopt opt %t --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=CRLF-POS
// CRLF-POS: :2:18: error: use of undefined value '%nope'
