// RUN: ttopt opt %s --pass-pipeline='builtin.module(basic-propagation{keep-sharding-rules=true})' | FileCheck %s --check-prefix=KEEP
// RUN: ttopt opt %s --pass-pipeline='builtin.module(aggressive-propagation{keep-sharding-rules=false})' | FileCheck %s --check-prefix=DROP
// RUN: ttopt opt %s --basic-propagation | FileCheck %s --check-prefix=LEAVE

// keep-sharding-rules=true writes the rule propagation used onto each op that had none and keeps
// the one the user wrote; false drops every rule (Shardy's default); not given, rules are left
// as they are.
// KEEP-LABEL: func.func @rules
// KEEP: stablehlo.multiply %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>}
// KEEP: stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([ij, k]) {i=4, j=2, k=4}>}
// DROP-LABEL: func.func @rules
// DROP-NOT: sdy.sharding_rule
// LEAVE-LABEL: func.func @rules
// LEAVE: stablehlo.multiply %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// LEAVE: sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([ij, k]) {i=4, j=2, k=4}>
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @rules(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x4xf32>
  %1 = stablehlo.negate %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k])->([ij, k]) {i=4, j=2, k=4}>} : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
