// RUN: not ttopt opt %s --split-input-file --pass-pipeline='builtin.module(apply-sharding-constraints, aggressive-propagation, insert-explicit-reshards, reshard-to-collectives)' 2>&1 | FileCheck %s
// Malformed sdy attribute bodies reaching the Shardy passes directly (without the stablehlo
// pipeline's step 4 checks): a positioned error, not an AttrError escaping a pass.

// CHECK: errors_shardy_bodies.mlir:[[# @LINE + 1]]:1: error: 'sdy.mesh' op invalid mesh: expected an axis size at offset 5, got '-1]'
sdy.mesh @mesh = <["x"=-1]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: errors_shardy_bodies.mlir:[[# @LINE + 2]]:1: error: 'func.func' op invalid sdy.sharding: expected ',' after the mesh
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: errors_shardy_bodies.mlir:[[# @LINE + 3]]:8: error: 'sdy.sharding_constraint' op sharding doesn't match tensor rank: 2 != 1
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A mesh too large to list its devices (collectives name every device of their groups).
// CHECK: errors_shardy_bodies.mlir:[[# @LINE + 1]]:1: error: 'sdy.mesh': the mesh has 18446744073709551614 devices; reshard-to-collectives lowers reshards on meshes of at most 1048576
sdy.mesh @mesh = <["x"=0x7fffffffffffffff, "y"=2]>
func.func @main(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<32x32xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
