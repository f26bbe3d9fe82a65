// RUN: ttopt opt %s --split-input-file --verify-diagnostics | FileCheck %s

// --verify-diagnostics (as mlir-opt): each chunk's diagnostics are exactly its annotations; the
// run exits 0 and prints the chunks that succeeded.

// CHECK: func.func @ok
// CHECK-NOT: @f
// CHECK-NOT: @g

func.func @f() {
  // expected-error@+1 {{use of undefined value '%x'}}
  "test.use"(%x) : (f32) -> ()
  return
}

// -----

func.func @g() -> tensor<4xi32> {
  // expected-error@below {{requires attribute 'iota_dimension'}}
  %0 = "stablehlo.iota"() : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @ok(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
