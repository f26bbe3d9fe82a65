// RUN: ttopt opt %s --split-input-file --apply-shardy-argument-annotations --mesh-shape=1,8 2>/dev/null | FileCheck %s
// RUN: ttopt opt %s --split-input-file --analyze-mesh 2>/dev/null | FileCheck %s --check-prefix=ONE
// apply-shardy-argument-annotations (alias analyze-mesh): the seed's decision tree (004 §1.2.4).

// No annotations, tt argument types: batch-parallel over "batch". Inputs of the largest input rank
// get {"batch"} (closed, as in the seed); parameters/constants are closed replicated; other inputs
// stay open for propagation. Without --mesh-shape the graph is single-chip: 1x1, no shardings.
// CHECK-LABEL: module
// CHECK-NEXT: sdy.mesh @mesh = <["model"=1, "batch"=8]>
// CHECK-NEXT: func.func @tt_types(%arg0: tensor<32x3x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>, ttcore.argument_type = #ttcore.argument_type<input>}, %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>, ttcore.argument_type = #ttcore.argument_type<input>}, %arg2: tensor<3x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>, ttcore.argument_type = #ttcore.argument_type<parameter>})
// ONE: sdy.mesh @mesh = <["model"=1, "batch"=1]>
// ONE-NEXT: func.func @tt_types(%arg0: tensor<32x3x8x8xf32> {ttcore.argument_type = #ttcore.argument_type<input>}, %arg1: tensor<32x16xf32> {ttcore.argument_type = #ttcore.argument_type<input>}, %arg2: tensor<3x3xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>})
func.func @tt_types(%arg0: tensor<32x3x8x8xf32> {ttcore.argument_type = #ttcore.argument_type<input>}, %arg1: tensor<32x16xf32> {ttcore.argument_type = #ttcore.argument_type<input>}, %arg2: tensor<3x3xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x3x8x8xf32> {
  return %arg0 : tensor<32x3x8x8xf32>
}

// -----

// No annotations, no tt types: automatic analysis (largest rank, at least 4, first dim not 1).
// A first dimension the batch axis does not divide stays unsharded (with a warning).
// CHECK-LABEL: module
// CHECK-NEXT: sdy.mesh @mesh = <["model"=1, "batch"=8]>
// CHECK-NEXT: func.func @automatic(%arg0: tensor<16x3x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>}, %arg1: tensor<1x3x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}, {?}, {?}]>}, %arg2: tensor<12x3x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}, {?}, {?}]>}, %arg3: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>})
func.func @automatic(%arg0: tensor<16x3x8x8xf32>, %arg1: tensor<1x3x8x8xf32>, %arg2: tensor<12x3x8x8xf32>, %arg3: tensor<16x16xf32>) -> tensor<16x3x8x8xf32> {
  return %arg0 : tensor<16x3x8x8xf32>
}

// -----

// Partially solved: a 1-D mesh becomes 2-D (upstream's `<axis>_updated`, JAX's stablehlo.mesh
// description follows); the arguments are left alone and --mesh-shape is ignored (with a warning).
// CHECK-LABEL: module
// CHECK-NEXT: sdy.mesh @mesh = <["x_updated"=1, "x"=8]> {stablehlo.mesh = {axes = [{name = "x_updated", size = 1 : i64}, {name = "x", size = 8 : i64}]}}
// CHECK-NEXT: func.func @partial(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
sdy.mesh @mesh = <["x"=8]> {stablehlo.mesh = {axes = [{name = "x", size = 8 : i64}]}}
func.func @partial(%arg0: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<64x16xf32> {
  return %arg0 : tensor<64x16xf32>
}

// -----

// Solved (a manual_computation with manual axes): every sdy.sharding attribute goes; the
// computation's own in/out shardings and the mesh stay.
// CHECK-LABEL: module
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @solved(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
// CHECK-NEXT: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"}
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @solved(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<8x8xf32>) {
    sdy.return %arg1 : tensor<8x8xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// -----

// GSPMD strings on arguments and results: the mesh ["x"=a, "y"=b] comes from the device tiles and
// each string becomes an sdy.sharding.
// CHECK-LABEL: module
// CHECK-NEXT: sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-NEXT: func.func @gspmd(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}, %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
func.func @gspmd(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg1: tensor<8x16xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}, %arg2: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dim_replicate}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{replicated}"}) {
  return %arg0 : tensor<8x16xf32>
}
