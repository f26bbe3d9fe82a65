// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(op-priority-propagation{conservative=false keep-sharding-rules=false})' | FileCheck %s --check-prefix=OP
// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(user-priority-propagation{conservative=false keep-sharding-rules=false})' | FileCheck %s --check-prefix=USER
// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(aggressive-propagation{conservative=false keep-sharding-rules=false})' | FileCheck %s --check-prefix=AGG

// Op priorities: the single-use negate passes the result's "x" on dim 1 back to the dot before
// the dot (not pass-through, propagated from the third op priority on) sees the lhs's "x" on
// dim 0. Plain aggressive propagation lets the dot decide first.
// OP-LABEL: func.func @op_priority
// OP-SAME: %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}]>}
// OP-NEXT: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
// AGG-LABEL: func.func @op_priority
// AGG-NEXT: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @op_priority(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}, %arg1: tensor<8x16xf32>) -> (tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %1 = stablehlo.negate %0 : tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}

// -----

// User priorities: "y" (p0) on the add's result propagates first, while %arg0's "x" (p1) waits
// as a closed, replicated dimension; when p1 runs, "x" comes back and finds dim 0 taken. The
// priorities are gone from the output. Without them the conflict leaves %arg1 unsharded.
// USER-LABEL: func.func @user_priority
// USER-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}
// USER-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}
// USER-NEXT: stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}, {?}]>]>}
// AGG-LABEL: func.func @user_priority
// AGG-SAME: %arg1: tensor<8x8xf32>)
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @user_priority(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {?}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}p0, {?}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
