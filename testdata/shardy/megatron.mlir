// RUN: ttopt opt %s --pass-pipeline='builtin.module(sdy-apply-sharding-constraints, sdy-aggressive-propagate, sdy-sharding-constraint-to-reshard, sdy-insert-explicit-reshards, sdy-reshard-to-collectives)' | FileCheck %s

// Megatron MLP: column-parallel W1, row-parallel W2 -> exactly one all_reduce over "model".
// CHECK-LABEL: func.func @main
// CHECK: stablehlo.dot_general {{.*}}<@mesh, [{"batch", ?}, {"model", ?}]>
// CHECK: stablehlo.tanh
// CHECK: %[[D:.*]] = stablehlo.dot_general
// CHECK-NEXT: sdy.all_reduce {"model"} %[[D]] out_sharding=<@mesh, [{"batch", ?}, {?}]>
// CHECK-NOT: sdy.all_
// CHECK: return
sdy.mesh @mesh = <["batch"=2, "model"=4]>
func.func @main(%x: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}, %w1: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %w2: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}) {
  %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
  %1 = stablehlo.tanh %0 : tensor<16x128xf32>
  %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<16x128xf32>, tensor<128x32xf32>) -> tensor<16x32xf32>
  return %2 : tensor<16x32xf32>
}
