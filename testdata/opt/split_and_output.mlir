// RUN: ttopt opt %s --split-input-file | FileCheck %s
// RUN: ttopt opt %s --split-input-file -o %t && FileCheck %s < %t
// RUN: ttopt opt %s --split-input-file --strip-debuginfo --mlir-print-debuginfo | FileCheck %s --check-prefix=STRIP

// CHECK: func.func @first
// CHECK: // -----
// CHECK: func.func @second
// CHECK-NOT: // -----

// STRIP: stablehlo.abs %arg0 : tensor<2xf32> loc(unknown)
// STRIP-NOT: loc("
func.func @first(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.abs %a : tensor<2xf32> loc("abs")
  return %0 : tensor<2xf32>
}

// -----

func.func @second(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
