// RUN: ttopt opt %s --split-input-file --close-shardings | FileCheck %s --check-prefix=CLOSE
// RUN: ttopt opt %s --split-input-file --wrap-under-manual-computation 2>&1 | FileCheck %s --check-prefix=WRAP

// close-shardings: every sharding closes ({"x", ?} -> {"x"}, {?} -> {}), priorities stay,
// replicated={...} goes; attributes that are already closed keep their text.
// CLOSE-LABEL: func.func @open
// CLOSE-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CLOSE-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {}]>})
// CLOSE-NEXT: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CLOSE-NEXT: sdy.sharding_constraint %0 <@mesh, [{"x"}, {}]>
// CLOSE-NEXT: sdy.all_gather [{"x"}, {}] %1 out_sharding=<@mesh, [{}, {}]>
// WRAP: close_and_wrap.mlir:[[# @LINE + 3]]:1: warning: argument #1 of @open has no sdy.sharding; using the open replicated <@mesh, [{?}]>
// WRAP-LABEL: func.func @open
// WRAP: %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x", ?}, {?}], replicated={"y"}>, <@mesh, [{?}]>] out_shardings=[<@mesh, [{"x", ?}p1, {?}]>] manual_axes={} (%arg2: tensor<8x8xf32>, %arg3: tensor<4xf32>) {
func.func @open(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}], replicated={"y"}>}, %arg1: tensor<4xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {?}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>} : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x", ?}, {?}]> : tensor<8x8xf32>
  %2 = sdy.all_gather [{"x"}, {}] %1 out_sharding=<@mesh, [{}, {?}]> : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
sdy.mesh @mesh = <["x"=2, "y"=4]>

// -----

// wrap-under-manual-computation: a result without a sharding gets the open replicated one (not
// written back); an argument without one gets it written back.
// WRAP-LABEL: func.func @defaults
// WRAP-SAME: (%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}) -> (tensor<8xf32>, tensor<f32>)
// WRAP-NEXT: %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}]>] out_shardings=[<@mesh, [{?}]>, <@mesh, []>] manual_axes={} (%arg1: tensor<8xf32>) {
// WRAP-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// WRAP-NEXT: sdy.return %arg1, %cst : tensor<8xf32>, tensor<f32>
// WRAP-NEXT: } : (tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>)
// WRAP-NEXT: return %0#0, %0#1 : tensor<8xf32>, tensor<f32>
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @defaults(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  return %arg0, %cst : tensor<8xf32>, tensor<f32>
}
