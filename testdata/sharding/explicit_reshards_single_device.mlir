// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards)' | FileCheck %s

// An op whose result is on a maximal (single-device) mesh runs on that device: operands go there
// through replicated on the global mesh, results come back the same way (Shardy's
// processSingleDeviceOperation). Before, such ops were left alone with sharded operands.
sdy.mesh @m = <["a"=4]>
sdy.mesh @dev2 = <[], device_ids=[2]>
sdy.mesh @dev3 = <[], device_ids=[3]>

// CHECK-LABEL: func.func @on_device
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@m, [{}]> : tensor<16xf32>
// CHECK-NEXT: %1 = sdy.reshard %0 <@dev2, []> : tensor<16xf32>
// CHECK-NEXT: %2 = sdy.reshard %arg1 <@dev2, []> : tensor<16xf32>
// CHECK-NEXT: %3 = stablehlo.custom_call @host_op(%1, %2) {sdy.sharding = #sdy.sharding_per_value<[<@dev2, []>]>}
// CHECK-NEXT: %4 = sdy.reshard %3 <@m, [{}]> : tensor<16xf32>
// CHECK-NEXT: %5 = sdy.reshard %4 <@m, [{"a"}]> : tensor<16xf32>
// CHECK-NEXT: return %5
func.func @on_device(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>})
    -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>}) {
  %0 = stablehlo.custom_call @host_op(%arg0, %arg1) {sdy.sharding = #sdy.sharding_per_value<[<@dev2, []>]>} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
