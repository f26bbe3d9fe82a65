// RUN: not ttopt opt %s --split-input-file --update-global-to-local-shapes 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not ttopt opt %s --split-input-file --convert-to-ttir 2>&1 | FileCheck %s --check-prefix=TTIR
// The collectives reshard-to-collectives{conservative=false} creates over sub-axes (Shardy's route)
// have no TTIR/TTNN lowering: a diagnostic naming the op, never a crash. The first three chunks
// are for update-global-to-local-shapes (inside manual computations), the last three for
// convert-to-ttir (which takes no sdy collective: step 11 lowers them).

// LOCAL: errors_sub_axis_collectives.mlir:[[# @LINE + 4]]:10: error: 'sdy.all_slice' op uses the sub-axis "y":(1)2; collectives over sub-axes are not supported
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"y":(1)2}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = sdy.all_slice [{"y":(1)2}, {}] %arg1 out_sharding=<@mesh, [{"y":(1)2}, {}]> : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// LOCAL: errors_sub_axis_collectives.mlir:[[# @LINE + 4]]:10: error: 'sdy.all_to_all' op uses the sub-axis "y":(1)2; collectives over sub-axes are not supported
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y":(1)2}, {}]>] out_shardings=[<@mesh, [{}, {"y":(1)2}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = sdy.all_to_all [{"y":(1)2}: 0->1] %arg1 out_sharding=<@mesh, [{}, {"y":(1)2}]> : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// LOCAL: errors_sub_axis_collectives.mlir:[[# @LINE + 4]]:10: error: 'sdy.collective_permute' op uses the sub-axis "y":(2)2; collectives over sub-axes are not supported
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"y":(2)2}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = sdy.collective_permute %arg1 out_sharding=<@mesh, [{"y":(2)2}, {}]> : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// TTIR: errors_sub_axis_collectives.mlir:[[# @LINE + 3]]:8: error: 'sdy.all_slice' op is left in the graph; run the stablehlo-pipeline (steps 10-11) first
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_slice [{"y":(1)2}, {}] %arg0 out_sharding=<@mesh, [{"y":(1)2}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// TTIR: errors_sub_axis_collectives.mlir:[[# @LINE + 3]]:8: error: 'sdy.all_to_all' op is left in the graph; run the stablehlo-pipeline (steps 10-11) first
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_to_all [{"y":(1)2}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y":(1)2}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// TTIR: errors_sub_axis_collectives.mlir:[[# @LINE + 3]]:8: error: 'sdy.collective_permute' op is left in the graph; run the stablehlo-pipeline (steps 10-11) first
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y":(2)2}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
