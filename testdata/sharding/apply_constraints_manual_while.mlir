// RUN: ttopt opt %s --split-input-file --apply-sharding-constraints | FileCheck %s

// A manual computation's in_shardings constrain its operands: a fully closed one goes onto an
// unsharded operand; an open one does not.
// CHECK-LABEL: func.func @manual_operands
// CHECK-NEXT: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
// CHECK-NEXT: stablehlo.negate %arg1 :
// CHECK-NEXT: sdy.manual_computation
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @manual_operands(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4x8xf32>
  %1 = stablehlo.negate %arg1 : tensor<4x8xf32>
  %2 = sdy.manual_computation(%0, %1) in_shardings=[<@mesh, [{"y"}, {}]>, <@mesh, [{"y"}, {?}]>] out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"y"} (%a: tensor<2x8xf32>, %b: tensor<2x8xf32>) {
    %3 = stablehlo.multiply %a, %b : tensor<2x8xf32>
    sdy.return %3 : tensor<2x8xf32>
  } : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A manual computation operand produced by a data-flow edge keeps the edge free: a new
// constraint after the edge carries the in_sharding and every user reads it.
// CHECK-LABEL: func.func @manual_operand_on_edge
// CHECK-NEXT: %[[EDGE:.*]] = sdy.data_flow_edge %arg0 : tensor<4x8xf32>
// CHECK-NEXT: %[[C:.*]] = sdy.sharding_constraint %[[EDGE]] <@mesh, [{"x"}, {}]>
// CHECK-NEXT: stablehlo.negate %[[C]]
// CHECK-NEXT: sdy.manual_computation(%[[C]])
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @manual_operand_on_edge(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = sdy.data_flow_edge %arg0 : tensor<4x8xf32>
  %1 = stablehlo.negate %0 : tensor<4x8xf32>
  %2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<2x8xf32>) {
    sdy.return %a : tensor<2x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A while's block argument is a target of the data-flow edge on the while's result: the
// constraint moves to the top of the body and the body reads it; its unreduced axes go onto the
// edge's sharding (they do not propagate).
// CHECK-LABEL: func.func @while_block_argument
// CHECK: } do {
// CHECK-NEXT: %[[C:.*]] = sdy.sharding_constraint %iterArg <@mesh, [{"x"}, {}], unreduced={"y"}>
// CHECK-NEXT: stablehlo.multiply %[[C]], %[[C]]
// CHECK: sdy.data_flow_edge %{{.*}}#0 sharding=<@mesh, [{?}, {?}], unreduced={"y"}>
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @while_block_argument(%arg0: tensor<4x8xf32>, %arg1: tensor<i32>) -> tensor<4x8xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<4x8xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %3 = stablehlo.multiply %iterArg, %iterArg : tensor<4x8xf32>
    %2 = sdy.sharding_constraint %iterArg <@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<4x8xf32>
    stablehlo.return %3, %iterArg_0 : tensor<4x8xf32>, tensor<i32>
  }
  %1 = sdy.data_flow_edge %0#0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
