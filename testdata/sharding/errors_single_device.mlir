// RUN: not ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards)' 2>&1 | FileCheck %s
// Results on two different devices: an error at the op.
sdy.mesh @m = <["a"=4]>
sdy.mesh @dev2 = <[], device_ids=[2]>
sdy.mesh @dev3 = <[], device_ids=[3]>
// CHECK: errors_single_device.mlir:[[# @LINE + 2]]:10: error: 'stablehlo.custom_call': has conflicting single-device result shardings
func.func @two_devices(%arg0: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0:2 = stablehlo.custom_call @host_op(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev2, []>, <@dev3, []>]>} : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xf32>
}
