// RUN: not ttopt opt %s --verify-diagnostics 2>&1 | FileCheck %s

// The source line shown under a real error is input text, never a diagnostic: an expected error
// that only that line spells out is reported as not produced (exit 1).

// CHECK: verify_diagnostics_echo.mlir:[[# @LINE + 3]]:1: error: expected error "no pass emits this" was not produced
func.func @g() -> tensor<4xi32> {
  // expected-error@+2 {{requires attribute 'iota_dimension'}}
  // expected-error@+1 {{no pass emits this}}
  %0 = "stablehlo.iota"() {note = "verify_diagnostics_echo.mlir:10:3: error: no pass emits this"} : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
