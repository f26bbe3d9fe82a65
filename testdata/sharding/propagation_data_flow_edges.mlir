// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(basic-propagation{conservative=false})' | FileCheck %s

// An sdy.data_flow_edge on a while result holds the sharding of that position: the function
// result's sharding reaches the while operand and the body's block argument through it, and the
// while itself gets no sdy.sharding. A position without an edge stays a barrier.
// CHECK-LABEL: func.func @while_edge
// CHECK-SAME: (%arg0: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK: %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c) : tensor<32x96xf32>, tensor<i32>
// CHECK: stablehlo.add %iterArg, %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>}
// CHECK: %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a", ?}, {"b", ?}]> : tensor<32x96xf32>
// CHECK-NEXT: %2 = sdy.data_flow_edge %0#1 : tensor<i32>
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @while_edge(%arg0: tensor<32x96xf32>) -> (tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant dense<1> : tensor<i32>
  %2 = stablehlo.constant dense<32> : tensor<i32>
  %3:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %0) : tensor<32x96xf32>, tensor<i32>
    cond {
    %6 = stablehlo.compare  LT, %iterArg_2, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %6 : tensor<i1>
  } do {
    %6 = stablehlo.add %iterArg_2, %1 : tensor<i32>
    %7 = stablehlo.add %iterArg, %iterArg : tensor<32x96xf32>
    stablehlo.return %7, %6 : tensor<32x96xf32>, tensor<i32>
  }
  %4 = sdy.data_flow_edge %3#0 : tensor<32x96xf32>
  %5 = sdy.data_flow_edge %3#1 : tensor<i32>
  return %4 : tensor<32x96xf32>
}

// -----

// A case result's edge takes the branches' returned values as sources: the sharded argument
// returned by one branch reaches the other branch's value and the function result.
// CHECK-LABEL: func.func @case_edge
// CHECK-SAME: %arg2: tensor<4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}
// CHECK-SAME: -> (tensor<4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})
// CHECK: sdy.data_flow_edge %0 sharding=<@mesh, [{"a", ?}]> : tensor<4xi64>
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @case_edge(%arg0: tensor<i32>, %arg1: tensor<4xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg2: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.case"(%arg0) ({
    stablehlo.return %arg1 : tensor<4xi64>
  }, {
    stablehlo.return %arg2 : tensor<4xi64>
  }) : (tensor<i32>) -> tensor<4xi64>
  %1 = sdy.data_flow_edge %0 : tensor<4xi64>
  return %1 : tensor<4xi64>
}
