// RUN: ttopt opt %s --split-input-file --verify-diagnostics | FileCheck %s
// Shardy's checks of a collective's own axes when it reads a module: they name axes of the mesh,
// each once, and applied to the operand's sharding they give the out_sharding (jaxlib agrees).
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_not_a_suffix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{can't apply gathering axis "x" to operand sharding on dimension 0}}
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_keeps_the_prefix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{result sharding doesn't match expected sharding ["x"] on dimension 0}}
  %0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_sub_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{result sharding doesn't match expected sharding ["y":(1)2] on dimension 0}}
  %0 = sdy.all_gather [{"y":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slice_rank(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{result sharding has rank 2 but collective axes has rank 1}}
  %0 = sdy.all_slice [{"x"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slice_duplicate_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{duplicate axis ref: "x"}}
  %0 = sdy.all_slice [{"x"}, {"x"}] %arg0 out_sharding=<@mesh, [{"x"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_to_all_unknown_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{unknown axis name: "z"}}
  %0 = sdy.all_to_all [{"z"}: 1->0] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_to_all_source_order(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{overlapping source/target dimensions in all-to-all params: 0}}
  %0 = sdy.all_to_all [{"y"}: 1->0, {"x"}: 0->1] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_overlap(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{reduction axis "y" overlaps with operand dimension sharding or replicated axes}}
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_reduce_order(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{reduction axes are not ordered w.r.t. mesh}}
  %0 = sdy.all_reduce {"y", "x"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_scatter_unknown_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{unknown axis name: "q"}}
  %0 = sdy.reduce_scatter [{}, {"q"}] %arg0 out_sharding=<@mesh, [{}, {"q"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @permute_sizes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error@below {{sharded size of result doesn't match operand on dimension 0: 2 != 4}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A body argument of a manual computation has its in_sharding without the manual axes.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @manual_body_argument(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
    // expected-error@below {{can't apply gathering axis "x" to operand sharding on dimension 0}}
    %1 = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A whole axis of size 1 is gathered away like any other (valid: no diagnostic).
sdy.mesh @mesh = <["x"=1, "y"=2]>
// CHECK-LABEL: func.func @size_one_axis
// CHECK: sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]>
func.func @size_one_axis(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<32x32xf32> {
  %0 = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<32x32xf32>
  %1 = sdy.all_slice [{"y"}, {}] %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}
