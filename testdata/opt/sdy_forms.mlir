// RUN: ttopt opt %s | FileCheck %s
// RUN: ttopt opt %s --mlir-print-op-generic | ttopt opt | FileCheck %s

// sdy.named_computation in its custom form, with and without shardings; this file's
// module is jaxlib's own print of it (tests/parse/test_oracle_forms.py compares byte for byte).

// CHECK: module {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2]>
// CHECK-NEXT: func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
// CHECK-NEXT: %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] (%arg1: tensor<8x2xi32>) {
// CHECK-NEXT: %2 = stablehlo.multiply %arg1, %arg1 : tensor<8x2xi32>
// CHECK-NEXT: sdy.return %2 : tensor<8x2xi32>
// CHECK-NEXT: } : (tensor<8x2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: %1 = sdy.named_computation<"bar">(%0) (%arg1: tensor<8x2xi32>) {
// CHECK-NEXT: sdy.return %arg1 : tensor<8x2xi32>
// CHECK-NEXT: } : (tensor<8x2xi32>) -> tensor<8x2xi32>
// CHECK-NEXT: return %1 : tensor<8x2xi32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
    %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] (%arg1: tensor<8x2xi32>) {
      %2 = stablehlo.multiply %arg1, %arg1 : tensor<8x2xi32>
      sdy.return %2 : tensor<8x2xi32>
    } : (tensor<8x2xi32>) -> tensor<8x2xi32>
    %1 = sdy.named_computation<"bar">(%0) (%arg1: tensor<8x2xi32>) {
      sdy.return %arg1 : tensor<8x2xi32>
    } : (tensor<8x2xi32>) -> tensor<8x2xi32>
    return %1 : tensor<8x2xi32>
  }
}
