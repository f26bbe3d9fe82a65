// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(aggressive-propagation{conservative=false})' | FileCheck %s --check-prefix=AGG
// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(basic-propagation{conservative=false})' | FileCheck %s --check-prefix=BASIC
// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(aggressive-propagation{conservative=false propagation-strategy=basic})' | FileCheck %s --check-prefix=BASIC
// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(aggressive-propagation{conservative=false propagation-strategy=aggressive})' | FileCheck %s --check-prefix=AGG
// RUN: ttopt opt %s --split-input-file --pass-pipeline='builtin.module(basic-propagation)' | FileCheck %s --check-prefix=CONS

// Shardy's factor propagation (factor_propagation.py). A non-elementwise op: an axis two factors
// want goes to the factor whose source tensor comes first (lhs "z" on i beats rhs "x","z" on k,
// which keeps "x"). Basic propagation gives neither factor the contested "z".
// AGG-LABEL: func.func @conflict_lhs_first
// AGG: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {"x", ?}]>]>}
// BASIC-LABEL: func.func @conflict_lhs_first
// BASIC: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"x", ?}]>]>}
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=4]>
func.func @conflict_lhs_first(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "z"}]>}) -> tensor<16x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----
// Elementwise ops propagate sideways into an operand only what the result also takes: the
// closed result {"x"} limits %arg1 to {"x", ?} (not {"x", "y"}).
// AGG-LABEL: func.func @sideways_limited_by_result
// AGG-SAME: %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=4]>
func.func @sideways_limited_by_result(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}, %arg1: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.subtract %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----
// Projection: the minor-most factor of a reshaped dimension takes every axis left, so "z" (4)
// on 8 = 2x4 splits into "z":(1)2 for the major factor and "z":(2)2 for the minor one; and a
// single axis larger than a minor-most factor of size 2 stays whole (non-divisible, padded).
// Conservatively neither happens: no sub-axis, no non-divisible sharding.
// BASIC-LABEL: func.func @reshape_splits_axis
// BASIC: stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z":(1)2, ?}, {"z":(2)2, ?}]>]>}
// BASIC: stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z", ?}, {?}]>]>}
// CONS-LABEL: func.func @reshape_splits_axis
// CONS: stablehlo.reshape %arg0 :
// CONS: stablehlo.negate %arg1 :
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=4]>
func.func @reshape_splits_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>}, %arg1: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}]>}) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.negate %arg1 : tensor<2x4xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}
