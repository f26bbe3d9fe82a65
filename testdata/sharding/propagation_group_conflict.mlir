// RUN: ttopt opt %s --split-input-file --verify-diagnostics --basic-propagation=conservative=false | FileCheck %s

// A sharding group whose members start with different shardings (Shardy's
// syncGroupMemberShardings): a warning at the first member's op, and each member gets an open
// sharding constraint right after it that takes its place in the group and in its uses; the
// members keep their own shardings while the constraints, tied by the group, collect both.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @conflicting_members
// CHECK-NEXT: %[[EXP:.*]] = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT: %[[C0:.*]] = sdy.sharding_constraint %[[EXP]] <@mesh, [{"x", ?}, {"y", ?}]>
// CHECK-NEXT: %[[LOG:.*]] = stablehlo.log %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>}
// CHECK-NEXT: %[[C1:.*]] = sdy.sharding_constraint %[[LOG]] <@mesh, [{"x", ?}, {"y", ?}]>
// CHECK-NEXT: sdy.sharding_group %[[C0]] group_id=0
// CHECK-NEXT: sdy.sharding_group %[[C1]] group_id=0
// CHECK-NEXT: stablehlo.add %[[C0]], %[[C1]]
func.func @conflicting_members(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-warning@below {{The initial operand shardings on the sharding groups of groupID: 0 do not match}}
  %0 = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.log %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----
// A fully open replicated member does not conflict: it takes the other member's sharding.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @open_member_takes_sharding
// CHECK-NEXT: stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT: stablehlo.log %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
func.func @open_member_takes_sharding(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.exponential %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.log %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>} : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----
// When propagation changes a member, every other member gets the same sharding (Shardy's
// ShardingGroupMap): the first negate gives %0 "x" and with it %1, so %arg1's "y" finds dim 0
// taken.
sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func.func @update_sets_every_member
// CHECK-NEXT: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// CHECK-NEXT: stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
func.func @update_sets_every_member(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.negate %arg1 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
