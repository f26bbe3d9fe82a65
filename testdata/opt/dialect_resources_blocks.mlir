// RUN: ttopt opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: ttopt opt %s --allow-unregistered-dialect -o %t && ttopt opt %t --allow-unregistered-dialect | diff %t -

// MLIR reads any number of `{-# ... #-}` blocks, and a section, group or key given again adds to
// (a key: replaces) what came before. They print back as one block, as mlir-opt prints them.

// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       a: "0x0400000002000000",
// CHECK-NEXT:       b: "0x0400000003000000"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
// CHECK-NOT:  {-#
{-# dialect_resources: { builtin: { a: "0x0400000001000000" } } #-}
module {
  "test.op"() {a = dense_resource<a> : tensor<1xi32>, b = dense_resource<b> : tensor<1xi32>} : () -> ()
}
{-# dialect_resources: { builtin: { b: "0x0400000003000000" } } #-}
{-#
  // a comment, as anywhere else
  dialect_resources: { builtin: { a: "0x0400000002000000" } }
#-}
