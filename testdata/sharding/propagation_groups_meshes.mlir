// RUN: ttopt opt %s --split-input-file --basic-propagation=conservative=false | FileCheck %s

// A sharding group ties its members: the sharding one member gets reaches the others, even
// across a function boundary, where no op connects them.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @first(
// CHECK-NEXT: stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
func.func @first(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<4x8xf32>
  sdy.sharding_group %0 group_id=3 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @second(
// CHECK-NEXT: stablehlo.log %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
func.func @second(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.log %arg0 : tensor<4x8xf32>
  sdy.sharding_group %0 group_id=3 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Groups that share a value are one group; members without a sharding start with the one
// sharding all others agree on (closed dims stay closed).
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @merged_groups
// CHECK-SAME: %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK: stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
func.func @merged_groups(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4x4xf32>) {
  %0 = stablehlo.constant dense<0.0> : tensor<4x4xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<4x4xf32>
  sdy.sharding_group %arg1 group_id=1 : tensor<4x4xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<4x4xf32>
  sdy.sharding_group %0 group_id=1 : tensor<4x4xf32>
  return
}

// -----

// A sharding on an empty mesh takes the mesh of the others (its closed dim stays replicated); two
// names of the same mesh are one mesh, the first name is written.
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @same = <["x"=2, "y"=2]>
sdy.mesh @empty = <[]>

// CHECK-LABEL: func.func @empty_and_renamed
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {}]>}
// CHECK-NEXT: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// CHECK-NEXT: stablehlo.add %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @empty_and_renamed(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                             %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@empty, [{?}, {}]>},
                             %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@same, [{"x", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg2 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
