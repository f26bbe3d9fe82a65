// RUN: not ttopt opt %s --split-input-file --apply-shardy-argument-annotations 2>&1 | FileCheck %s
// Bad input to apply-shardy-argument-annotations: each chunk is one diagnostic naming the op or argument.
// Shardings that do not fit their mesh or tensor are rejected when the module is read, in Shardy's words.

// CHECK: errors_annotations.mlir:[[# @LINE + 2]]:1: error: 'sdy.mesh' op: the module has 2 meshes (@mesh, @mesh2); ttopt supports exactly one
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @mesh2 = <["y"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// CHECK: errors_annotations.mlir:[[# @LINE + 2]]:1: error: 'func.func' op arg 0 - duplicate axis ref: "x"
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"x"}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// CHECK: errors_annotations.mlir:[[# @LINE + 3]]:8: error: 'stablehlo.negate' op result - unknown axis name: "z"
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: errors_annotations.mlir:[[# @LINE + 2]]:1: error: 'func.func' op result 0 - sharding doesn't match tensor rank: 1 != 2
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<8x8xf32>
}

// -----

// CHECK: errors_annotations.mlir:[[# @LINE + 1]]:1: error: 'sdy.mesh' op @mesh has 3 axes; tt devices are 1-D or 2-D meshes
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

// A GSPMD argument string whose device order is no layout of the mesh's axes.
// CHECK: errors_annotations.mlir:[[# @LINE + 1]]:1: error: argument #0 of @main: mhlo.sharding "{devices=[2,2]0,3,1,2}": the device order of tile [2, 2] is no layout of the mesh axes [('x', 2), ('y', 2)]
func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]0,3,1,2}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
