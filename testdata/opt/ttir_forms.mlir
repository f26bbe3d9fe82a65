// RUN: ttopt opt %s | FileCheck %s
// RUN: ttopt opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: ttopt opt %s --mlir-print-op-generic | ttopt opt | FileCheck %s

// ttir.empty in the custom form tt-mlir's own tests write (issue 17 §1); other TTIR ops stay generic.

// CHECK: %0 = ttir.empty() : tensor<32x32xf32>
// CHECK-NEXT: %1 = "ttir.atan2"(%arg0, %arg1, %0) : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// GENERIC: %0 = "ttir.empty"() : () -> tensor<32x32xf32>
func.func @atan2(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = ttir.empty() : tensor<32x32xf32>
  %1 = "ttir.atan2"(%arg0, %arg1, %0) : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}
