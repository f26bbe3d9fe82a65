// RUN: not ttopt opt %s --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

// A missing or unexpected diagnostic fails the run (exit 1), each reported at its line.

// CHECK: verify_diagnostics_mismatch.mlir:[[# @LINE + 3]]:1: error: expected error "no such message" was not produced
// CHECK: verify_diagnostics_mismatch.mlir:[[# @LINE + 3]]:1: error: unexpected error: 'stablehlo.iota' op requires attribute 'iota_dimension'
func.func @g() -> tensor<4xi32> {
  // expected-error@below {{no such message}}
  %0 = "stablehlo.iota"() : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK: verify_diagnostics_mismatch.mlir:[[# @LINE + 2]]:1: error: expected warning "never emitted" was not produced
func.func @ok(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning@+1 {{never emitted}}
  return %a : tensor<4xf32>
}
