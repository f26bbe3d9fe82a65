// RUN: ttopt opt %s --split-input-file --canonicalize | FileCheck %s
// Shardy's canonicalization patterns as canonicalize rules (ttopt/sharding/canonicalize_sdy.py).

// No-op collectives (empty axes, size-1 axes), reshard of reshard, all_slice of all_gather, and
// collectives nobody uses.
// CHECK-LABEL: func.func @collectives
// CHECK-NEXT:    %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT:    return %arg0, %0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
sdy.mesh @mesh = <["x"=1, "y"=4]>
func.func @collectives(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.all_gather [{}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  %2 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
  %3 = sdy.reshard %2 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %4 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %5 = sdy.all_slice [{"y"}, {}] %4 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  %6 = sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  return %1, %3, %5 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A manual computation whose manual axes multiply to 1 is inlined (single chip); an unused
// operand is dropped; StableHLO collectives over one-device groups stay (tt-mlir's canonicalizer
// keeps them; convert-to-ttir puts them on the size-1 mesh axis).
// CHECK-LABEL: func.func @trivial
// CHECK-NEXT:    %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
// CHECK-NEXT:    %1 = "stablehlo.all_reduce"(%0)
// CHECK:         return %1 : tensor<8x8xf32>
sdy.mesh @mesh = <["model"=1, "batch"=1]>
func.func @trivial(%arg0: tensor<8x8xf32>, %arg1: tensor<4xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"batch"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"batch"}, {}]>] manual_axes={"model", "batch"} (%arg2: tensor<8x8xf32>, %arg3: tensor<4xf32>) {
    %1 = stablehlo.abs %arg2 : tensor<8x8xf32>
    %2 = "stablehlo.all_reduce"(%1) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %3 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<8x8xf32>, tensor<4xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Manual axes of size 2: kept; only the unused operand goes.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"batch"}, {}]>] out_shardings=[<@mesh, [{"batch"}, {}]>] manual_axes={"model", "batch"} (%arg2: tensor<4x8xf32>)
sdy.mesh @mesh = <["model"=1, "batch"=2]>
func.func @kept(%arg0: tensor<8x8xf32>, %arg1: tensor<4xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"batch"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"batch"}, {}]>] manual_axes={"model", "batch"} (%arg2: tensor<4x8xf32>, %arg3: tensor<4xf32>) {
    %1 = stablehlo.abs %arg2 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<4xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
