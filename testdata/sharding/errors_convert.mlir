// RUN: not ttopt opt %s --split-input-file --convert-to-ttir 2>&1 | FileCheck %s
// Bad input to convert-to-ttir: each chunk is one diagnostic naming the op.

// An open sharding reaching conversion (close-shardings did not run).
// CHECK: errors_convert.mlir:[[# @LINE + 3]]:8: error: 'sdy.manual_computation' op in_shardings[0] <@mesh, [{"x", ?}, {?}]> has an open dimension; run close-shardings before convert-to-ttir
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A sub-axis in a mesh_shard.
// CHECK: errors_convert.mlir:[[# @LINE + 3]]:8: error: 'sdy.manual_computation' op in_shardings[0] <@mesh, [{"y":(1)2}, {}]> uses the sub-axis "y":(1)2; mesh_shard supports whole mesh axes only
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y":(1)2}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<4x8xf32>
    %2 = "stablehlo.all_gather"(%1) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>}> : (tensor<4x8xf32>) -> tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A partially manual computation that shards a free axis.
// CHECK: errors_convert.mlir:[[# @LINE + 3]]:8: error: 'sdy.manual_computation' op in_shardings <@mesh, [{"x"}, {"y"}]> shards the free (non-manual) axes y; partially manual computations are supported only when free axes stay replicated
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Replica groups that follow no single mesh axis (a cluster axis is needed).
// CHECK: errors_convert.mlir:[[# @LINE + 4]]:10: error: 'stablehlo.all_to_all' op has replica groups dense<{{\[\[}}0, 4, 1, 5, 2, 6, 3, 7]]> : tensor<1x8xi64> that follow no mesh axis of the 2x4 tt mesh; TTIR collectives need a cluster axis
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<8x8xf32>) {
    %1 = "stablehlo.all_to_all"(%arg1) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 4, 1, 5, 2, 6, 3, 7]]> : tensor<1x8xi64>, split_count = 8 : i64, split_dimension = 0 : i64}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// An sdy collective that update-global-to-local-shapes did not lower.
// CHECK: errors_convert.mlir:[[# @LINE + 3]]:8: error: 'sdy.all_gather' op is left in the graph; run the stablehlo-pipeline (steps 10-11) first
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
