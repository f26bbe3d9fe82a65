// RUN: ttopt opt %s --basic-propagation='conservative=false keep-sharding-rules=false' | FileCheck %s

// keep-sharding-rules=false drops the rules propagation used, but not a custom rule (the op's
// only rule, as Shardy's removeShardingRules).
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @custom_kept
// CHECK: stablehlo.custom_call @kernel(%arg0)
// CHECK-SAME: sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>
// CHECK-NEXT: stablehlo.negate
// CHECK-NOT: sdy.sharding_rule
// CHECK: return
func.func @custom_kept(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @kernel(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
