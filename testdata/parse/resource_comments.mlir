// RUN: ttopt opt %s | FileCheck %s
// RUN: ttopt opt %s -o %t && ttopt opt %t | diff %t -

// tt-mlir's tests annotate resource blobs with comments inside `{-# ... #-}`; they are read
// past (MLIR's lexer skips them) and not printed back.

// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       dense_attr: "0x0200000000400040"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}

module {
  func.func @f() -> tensor<2xbf16> {
    %0 = stablehlo.constant dense_resource<dense_attr> : tensor<2xbf16>
    return %0 : tensor<2xbf16>
  }
}
{-#
    dialect_resources: {
        builtin: {
            // two bfloat16 values, both 2.0 ("0x0040" each, after the 4-byte alignment header)
            dense_attr: "0x0200000000400040" // trailing comment
        }
    }
#-}
