// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s

// A user's sdy.sharding_rule is checked for structure (one mapping per operand and result, one
// entry per dimension, defined factors), not for factor sizes that multiply to the dimension:
// Shardy's verifier (verifyShardingRuleMapping at a0277a83) computes the product and never
// compares it, and its own lit tests write such rules (reshape.mlir). Before, ttopt rejected the
// module, so every other function in the file failed with it.
sdy.mesh @m = <["a"=2]>

// CHECK-LABEL: func.func @sizes_not_checked
// CHECK: stablehlo.custom_call @foo(%arg0)
// CHECK-SAME: {i=3, j=4}
// CHECK: return
func.func @sizes_not_checked(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=3, j=4}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @next_function_still_runs
// CHECK: sdy.reshard %arg0 <@m, [{}]>
func.func @next_function_still_runs(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) {
  return %arg0 : tensor<8xf32>
}
