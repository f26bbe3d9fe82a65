// RUN: not ttopt opt %s --split-input-file --apply-tt-argument-annotations --argument-types='main=input' 2>&1 | FileCheck %s
// RUN: not ttopt opt %s --split-input-file --apply-tt-argument-annotations --argument-types='main=weight' 2>&1 | FileCheck %s --check-prefix=BADTYPE
// Bad --argument-types.

// BADTYPE: Error: apply-tt-argument-annotations: --argument-types: unknown argument type 'weight' for function 'main' (expected input, parameter, constant)

// A public function the map leaves out.
// CHECK: errors_argument_types.mlir:[[# @LINE + 5]]:1: error: 'func.func' op @other is missing from --argument-types (given: main); list the type of each of its 1 argument(s)
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @other(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @other(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: errors_argument_types.mlir:[[# @LINE + 1]]:1: error: 'func.func' op @main has 2 argument(s) but --argument-types gives 1 type(s)
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: error: --argument-types names function @main, which is not in the module (functions: @f)
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
