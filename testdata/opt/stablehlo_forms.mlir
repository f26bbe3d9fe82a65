// RUN: ttopt opt %s | FileCheck %s
// RUN: ttopt opt %s --mlir-print-op-generic | ttopt opt | FileCheck %s
// RUN: ttopt opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// StableHLO forms as MLIR prints them (this file is jaxlib's own output): composite, custom_call
// with several results, a tuple result, api_version and a dictionary backend_config, and
// get_tuple_element, and optimization_barrier with its attributes before the operands. Each comes back byte for byte, also through the generic form.

// GENERIC: "stablehlo.composite"(%arg0) <{composite_attributes = {k = 1 : i64}, decomposition = @dec, name = "my.op", version = 1 : i32}>
// GENERIC: "stablehlo.get_tuple_element"(%arg1) <{index = 0 : i32}>
// CHECK: module {
// CHECK-NEXT: func.func @f(%arg0: tensor<4xf32>, %arg1: tuple<tensor<4xf32>, tensor<2xi32>>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = stablehlo.composite "my.op" %arg0 {composite_attributes = {k = 1 : i64}, decomposition = @dec, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1:2 = stablehlo.custom_call @foo(%arg0) {api_version = 2 : i32, backend_config = "x", has_side_effect = true} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>)
// CHECK-NEXT: %2 = stablehlo.custom_call @bar(%arg0) {api_version = 4 : i32, backend_config = {a = 1 : i64}} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT: %3 = stablehlo.get_tuple_element %arg1[0] : (tuple<tensor<4xf32>, tensor<2xi32>>) -> tensor<4xf32>
// CHECK-NEXT: %4 = stablehlo.get_tuple_element %2[1] : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
// CHECK-NEXT: %5 = stablehlo.composite "no.operands"  {decomposition = @dec2} : () -> tensor<4xf32>
// CHECK-NEXT: return %0 : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @dec(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: return %arg0 : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @dec2() -> tensor<4xf32> {
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: return %cst : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @barriers(%arg0: tensor<4xf32>, %arg1: tensor<2xi32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = stablehlo.optimization_barrier {mhlo.frontend_attributes = {x = "1"}} %arg0 : tensor<4xf32>
// CHECK-NEXT: %1:2 = stablehlo.optimization_barrier %0, %arg1 : tensor<4xf32>, tensor<2xi32>
// CHECK-NEXT: stablehlo.optimization_barrier()
// CHECK-NEXT: return %1#0 : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
module {
  func.func @f(%arg0: tensor<4xf32>, %arg1: tuple<tensor<4xf32>, tensor<2xi32>>) -> tensor<4xf32> {
    %0 = stablehlo.composite "my.op" %arg0 {composite_attributes = {k = 1 : i64}, decomposition = @dec, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %1:2 = stablehlo.custom_call @foo(%arg0) {api_version = 2 : i32, backend_config = "x", has_side_effect = true} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>)
    %2 = stablehlo.custom_call @bar(%arg0) {api_version = 4 : i32, backend_config = {a = 1 : i64}} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    %3 = stablehlo.get_tuple_element %arg1[0] : (tuple<tensor<4xf32>, tensor<2xi32>>) -> tensor<4xf32>
    %4 = stablehlo.get_tuple_element %2[1] : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %5 = stablehlo.composite "no.operands"  {decomposition = @dec2} : () -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @dec(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
  func.func private @dec2() -> tensor<4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
    return %cst : tensor<4xf32>
  }
  func.func @barriers(%arg0: tensor<4xf32>, %arg1: tensor<2xi32>) -> tensor<4xf32> {
    %0 = stablehlo.optimization_barrier {mhlo.frontend_attributes = {x = "1"}} %arg0 : tensor<4xf32>
    %1:2 = stablehlo.optimization_barrier %0, %arg1 : tensor<4xf32>, tensor<2xi32>
    stablehlo.optimization_barrier()
    return %1#0 : tensor<4xf32>
  }
}
