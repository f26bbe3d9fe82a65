// RUN: ttopt opt %s --populate-op-sharding-rules | FileCheck %s
// RUN: ttopt opt %s --pass-pipeline='builtin.module(func.func(sdy-populate-op-sharding-rules{conservative-propagation=true}))' | FileCheck %s --check-prefix=CONS

// CHECK-LABEL: func.func @main
// CHECK: stablehlo.dot_general {{.*}}#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>
// CHECK: stablehlo.reshape {{.*}}#sdy.op_sharding_rule<([ij, k])->([i, jk]) {i=2, j=4, k=4}>
// CHECK: stablehlo.concatenate {{.*}}#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=32} need_replication={j}>
// CHECK: stablehlo.constant dense
// CHECK-NOT: sdy.sharding_rule
// CONS: stablehlo.concatenate {{.*}}#sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=8, j=1, k=1, l=1}>
func.func @main(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>, %c: tensor<8x4xf32>) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.reshape %c : (tensor<8x4xf32>) -> tensor<2x16xf32>
  %2 = stablehlo.concatenate %0, %0, dim = 1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
  %3 = stablehlo.constant dense<1.0> : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}
