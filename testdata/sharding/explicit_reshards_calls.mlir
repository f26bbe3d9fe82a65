// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s

// A call that was not inlined: each operand is resharded to the callee's argument sharding
// right after it is defined (before, it was resharded to replicated, and the callee then read a
// replicated value as if sharded). A function result without a sharding is replicated: a sharded
// value returned there is resharded (Shardy reshards to the fully closed sharding).
sdy.mesh @m = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @to_callee_sharding
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@m, [{"b"}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: %1 = call @callee(%0)
// CHECK-NEXT: %2 = stablehlo.negate %1
// CHECK-NEXT: %3 = sdy.reshard %2 <@m, [{}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: return %3
func.func @to_callee_sharding(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>}) -> tensor<8x4xf32> {
  %0 = call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}]>]>} : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func private @callee
// CHECK-NEXT: stablehlo.abs %arg0
// CHECK-NEXT: return
func.func private @callee(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}]>}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}]>]>} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// The reshard for a value defined in the body comes right after its definition.
// CHECK-LABEL: func.func @after_definition
// CHECK-NEXT: %0 = stablehlo.negate %arg0
// CHECK-NEXT: %1 = sdy.reshard %0 <@m, [{"b"}, {}]> : tensor<8x4xf32>
// CHECK-NEXT: %2 = stablehlo.abs %0
// CHECK-NEXT: %3 = call @callee(%1)
func.func @after_definition(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a"}, {}]>]>} : tensor<8x4xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a"}, {}]>]>} : tensor<8x4xf32>
  %2 = call @callee(%0) {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"b"}, {}]>]>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
