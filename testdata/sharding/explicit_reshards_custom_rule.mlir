// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards{conservative=false})' | FileCheck %s

// An op with a `custom` sharding rule (JAX's custom_partitioning) partitions itself: as Shardy,
// no reshards for it, though its operand and result disagree on factor i. Without `custom` the
// same rule gets a reshard.
sdy.mesh @m = <["a"=2, "b"=4]>

// CHECK-LABEL: func.func @custom_rule
// CHECK-NOT: sdy.reshard
// CHECK: return
func.func @custom_rule(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"b"}]>}) {
  %0 = stablehlo.custom_call @my_op(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}, custom>, sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"b"}]>]>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @plain_rule
// CHECK: sdy.reshard
func.func @plain_rule(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"b"}]>}) {
  %0 = stablehlo.custom_call @my_op(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}>, sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {"b"}]>]>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
