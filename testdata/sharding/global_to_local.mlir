// RUN: ttopt opt %s --split-input-file --update-global-to-local-shapes | FileCheck %s
// Each chunk is also simulated on every device by tests/sharding/test_spmd_simulation.py: the local
// program must compute each device's piece of the global result.

// Slices (ref §6: upstream divided the indices). A full-range slice of a sharded dimension stays
// local; a narrowing slice gathers the dimension, slices it, and all-slices the result.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slices(%arg0: tensor<16x32xf32>) -> (tensor<16x16xf32>, tensor<8x32xf32>, tensor<16x16xf32>) {
  %0:3 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>] manual_axes={} (%arg1: tensor<16x32xf32>) {
    %1 = stablehlo.slice %arg1 [0:16, 8:24] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x32xf32>) -> tensor<16x16xf32>
    %2 = stablehlo.slice %arg1 [4:12, 0:32] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<16x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.slice %arg1 [0:16, 0:32:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<16x32xf32>) -> tensor<16x16xf32>
    sdy.return %1, %2, %3 : tensor<16x16xf32>, tensor<8x32xf32>, tensor<16x16xf32>
  } : (tensor<16x32xf32>) -> (tensor<16x16xf32>, tensor<8x32xf32>, tensor<16x16xf32>)
  return %0#0, %0#1, %0#2 : tensor<16x16xf32>, tensor<8x32xf32>, tensor<16x16xf32>
}

// CHECK-LABEL: func.func @slices
// CHECK: manual_axes={"x", "y"} (%arg1: tensor<8x8xf32>)
// CHECK-NEXT: %[[G1:.*]] = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>{{.*}} -> tensor<8x32xf32>
// CHECK-NEXT: stablehlo.slice %[[G1]] [0:8, 8:24] : (tensor<8x32xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %[[G0:.*]] = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>{{.*}} -> tensor<16x8xf32>
// CHECK-NEXT: %[[S:.*]] = stablehlo.slice %[[G0]] [4:12, 0:8] : (tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: stablehlo.composite "sdy.all_slice" %[[S]] {composite_attributes = {axis = "x", dim = 0 : i64}, decomposition = @[[F:.*]]} : (tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: stablehlo.slice %arg1 [0:8, 0:8:2] : (tensor<8x8xf32>) -> tensor<8x4xf32>
// CHECK: func.func private @[[F]](%arg0: tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %c = stablehlo.constant dense<4> : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.divide %0, %c : tensor<ui32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<4> : tensor<ui32>
// CHECK-NEXT: %2 = stablehlo.multiply %1, %c_0 : tensor<ui32>
// CHECK-NEXT: %c_1 = stablehlo.constant dense<0> : tensor<ui32>
// CHECK-NEXT: stablehlo.dynamic_slice %arg0, %2, %c_1, sizes = [4, 8] : (tensor<8x8xf32>, tensor<ui32>, tensor<ui32>) -> tensor<4x8xf32>

// -----


// sdy collectives -> StableHLO collectives; the all_reduce after a max reduction combines with
// maximum (upstream always used add); a gather's indexed dimension is gathered first; a sharded
// iota is built whole and all-sliced; a splat constant is re-emitted at the local shape.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @ops(%arg0: tensor<16x32xf32>, %arg1: tensor<4x1xi32>) -> (tensor<16xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xi32>, tensor<4x32xf32>, tensor<16x32xf32>) {
  %0:6 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"x"}]>, <@mesh, [{}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>] manual_axes={} (%a: tensor<16x32xf32>, %idx: tensor<4x1xi32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%a init: %cst) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
    %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{"x"}]> : tensor<16xf32>
    %4 = sdy.all_to_all [{"x"}: 0->1] %a out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<16x32xf32>
    %5 = sdy.all_gather [{}, {"x"}] %4 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x32xf32>
    %6 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} dense<1.500000e+00> : tensor<16x32xf32>
    %7 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<16x32xi32>
    %8 = "stablehlo.gather"(%a, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<16x32xf32>, tensor<4x1xi32>) -> tensor<4x32xf32>
    %12 = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} dense<2.000000e+00> : tensor<32x32xf32>
    %11 = stablehlo.dot_general %a, %12, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    %9 = sdy.reduce_scatter [{}, {"y"}] %11 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<16x32xf32>
    sdy.return %2, %5, %6, %7, %8, %9 : tensor<16xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xi32>, tensor<4x32xf32>, tensor<16x32xf32>
  } : (tensor<16x32xf32>, tensor<4x1xi32>) -> (tensor<16xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xi32>, tensor<4x32xf32>, tensor<16x32xf32>)
  return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : tensor<16xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xi32>, tensor<4x32xf32>, tensor<16x32xf32>
}

// CHECK-LABEL: func.func @ops
// CHECK: (%arg2: tensor<8x8xf32>, %arg3: tensor<4x1xi32>)
// CHECK: stablehlo.reduce(%arg2 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: "stablehlo.all_reduce"(%1) <{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]>
// CHECK: stablehlo.maximum
// CHECK: "stablehlo.all_to_all"(%arg2) <{{.*}}concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<8x8xf32>) -> tensor<16x4xf32>
// CHECK-NEXT: "stablehlo.all_gather"(%3) <{all_gather_dim = 1 : i64{{.*}} : (tensor<16x4xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: stablehlo.constant dense<1.500000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<16x8xi32>
// CHECK-NEXT: stablehlo.composite "sdy.all_slice" %[[IOTA]] {composite_attributes = {axis = "x", dim = 0 : i64}{{.*}} : (tensor<16x8xi32>) -> tensor<8x8xi32>
// CHECK-NEXT: %[[W:.*]] = "stablehlo.all_gather"(%arg2) <{all_gather_dim = 0 : i64{{.*}} -> tensor<16x8xf32>
// CHECK-NEXT: "stablehlo.gather"(%[[W]], %arg3) <{{.*}}slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
// CHECK: %[[P:.*]] = stablehlo.dot_general %arg2, %cst_1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: "stablehlo.reduce_scatter"(%[[P]]) <{{.*}}scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK: stablehlo.add
// CHECK: }) : (tensor<8x32xf32>) -> tensor<8x8xf32>
// CHECK: sdy.return %2, %4, %cst_0, %6, %8, %10 : tensor<8xf32>, tensor<16x8xf32>, tensor<8x8xf32>, tensor<8x8xi32>, tensor<4x8xf32>, tensor<8x8xf32>
// CHECK-NOT: sdy.sharding =

// -----


// collective_permute (upstream: unsupported): pairs from the operand and result shardings; two
// axes on one dimension gather minor axis first; a non-splat constant is built whole and sliced.
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @permute(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<4x2xf32>) {
  %0:3 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {"x"}]>, <@mesh, [{}, {}]>, <@mesh, [{"x", "y"}, {}]>] manual_axes={} (%a: tensor<8x8xf32>) {
    %1 = sdy.collective_permute %a out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
    %2 = sdy.all_to_all [{"y"}: 1->0] %a out_sharding=<@mesh, [{"x", "y"}, {}]> : tensor<8x8xf32>
    %3 = sdy.all_gather [{"x", "y"}, {}] %2 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    %c = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
    sdy.return %1, %3, %c : tensor<8x8xf32>, tensor<8x8xf32>, tensor<4x2xf32>
  } : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<4x2xf32>)
  return %0#0, %0#1, %0#2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<4x2xf32>
}

// CHECK-LABEL: func.func @permute
// CHECK: "stablehlo.collective_permute"(%arg1) <{{.*}}source_target_pairs = dense<{{\[\[}}0, 0], [2, 1], [1, 2], [3, 3]]> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: "stablehlo.all_to_all"(%arg1) <{{.*}}concat_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<4x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: "stablehlo.all_gather"(%2) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]>{{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: "stablehlo.all_gather"(%3) <{all_gather_dim = 0 : i64, {{.*}}replica_groups = dense<{{\[\[}}0, 2], [1, 3]]>{{.*}} -> tensor<8x8xf32>
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00]]> : tensor<4x2xf32>
// CHECK-NEXT: %[[X:.*]] = stablehlo.composite "sdy.all_slice" %[[C]] {composite_attributes = {axis = "x", dim = 0 : i64}{{.*}} -> tensor<2x2xf32>
// CHECK-NEXT: stablehlo.composite "sdy.all_slice" %[[X]] {composite_attributes = {axis = "y", dim = 0 : i64}{{.*}} -> tensor<1x2xf32>

// -----


// Pad, reverse, concatenate and dynamic_slice along sharded dimensions see the whole dimension;
// a dimension they do not touch stays sharded (dynamic_slice's size is cut to the local size).
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @positional(%arg0: tensor<8x16xf32>, %arg1: tensor<i32>) -> (tensor<10x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>) {
  %0:4 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, []>] out_shardings=[<@mesh, [{}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{}, {"y"}]>] manual_axes={} (%a: tensor<8x16xf32>, %i: tensor<i32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.pad %a, %cst, low = [1, 0], high = [1, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<10x16xf32>
    %2 = stablehlo.reverse %a, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
    %3 = stablehlo.concatenate %a, %2, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.dynamic_slice %a, %i, %c0, sizes = [4, 16] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
    sdy.return %1, %2, %3, %4 : tensor<10x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>
  } : (tensor<8x16xf32>, tensor<i32>) -> (tensor<10x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<10x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func.func @positional
// CHECK: %[[A:.*]] = "stablehlo.all_gather"(%arg2) <{all_gather_dim = 0 : i64{{.*}} -> tensor<8x4xf32>
// CHECK-NEXT: stablehlo.pad %[[A]], %cst, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<10x4xf32>
// CHECK-NEXT: %[[R:.*]] = stablehlo.reverse %[[A]], dims = [0] : tensor<8x4xf32>
// CHECK-NEXT: %[[RS:.*]] = stablehlo.composite {{.*}} %[[R]] {{.*}} -> tensor<4x4xf32>
// CHECK-NEXT: %[[CAT:.*]] = stablehlo.concatenate %[[A]], %[[R]], dim = 0 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
// CHECK-NEXT: stablehlo.composite {{.*}} %[[CAT]] {{.*}} -> tensor<8x4xf32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: stablehlo.dynamic_slice %[[A]], %arg3, %c, sizes = [4, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>

// -----

// Ops Shardy has no rule for (data flow, unknown custom calls) run replicated: their sharded inputs,
// including values their regions capture, are all-gathered first (as XLA's partitioner would).
// CHECK-LABEL: func.func @opaque
// CHECK: %[[W:.*]] = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64{{.*}} -> tensor<8x8xf32>
// CHECK-NEXT: stablehlo.optimization_barrier %[[W]] : tensor<8x8xf32>
// CHECK: stablehlo.while(%iterArg = %c, %iterArg_0 = %[[W]]) : tensor<i32>, tensor<8x8xf32>
// CHECK: stablehlo.add %iterArg_0, %[[W]] : tensor<8x8xf32>
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @opaque(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.optimization_barrier %arg1 : tensor<8x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg1) : tensor<i32>, tensor<8x8xf32>
    cond {
      %c_1 = stablehlo.constant dense<3> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %4 = stablehlo.add %iterArg_0, %arg1 : tensor<8x8xf32>
      stablehlo.return %3, %4 : tensor<i32>, tensor<8x8xf32>
    }
    sdy.return %1, %2#1 : tensor<8x8xf32>, tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}
