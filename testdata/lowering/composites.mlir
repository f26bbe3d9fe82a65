// RUN: ttopt opt %s --split-input-file --legalize-stablehlo-composite-to-ttir | FileCheck %s

// tenstorrent.* composites straight to their TTIR op (tt-mlir's StableHLOLegalizeCompositePass).
// Attributes the rules build print as MLIR prints them (f32 0.9 is 0.899999976).

// CHECK-LABEL: func.func @norms
// CHECK: "ttir.rms_norm"(%arg0, %arg1) <{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 32>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x32xf32>, tensor<32xf32>) -> tensor<4x32xf32>
// CHECK: "ttir.layer_norm"(%arg0, %arg1, %arg1) <{normalized_shape = array<i64: 32>, operandSegmentSizes = array<i32: 1, 1, 1>}>
// CHECK-NOT: stablehlo.composite
module {
  func.func @norms(%arg0: tensor<4x32xf32>, %arg1: tensor<32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
    %0 = stablehlo.composite "tenstorrent.rms_norm" %arg0, %arg1 {composite_attributes = {epsilon = 1.000000e-05 : f32, normalized_shape = dense<32> : tensor<1xi64>}, decomposition = @impl} : (tensor<4x32xf32>, tensor<32xf32>) -> tensor<4x32xf32>
    %1 = stablehlo.composite "tenstorrent.layer_norm" %arg0, %arg1, %arg1 {composite_attributes = {normalized_shape = [32 : i64]}, decomposition = @impl3} : (tensor<4x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<4x32xf32>
    return %0, %1 : tensor<4x32xf32>, tensor<4x32xf32>
  }
  func.func private @impl(%arg0: tensor<4x32xf32>, %arg1: tensor<32xf32>) -> tensor<4x32xf32> {
    return %arg0 : tensor<4x32xf32>
  }
  func.func private @impl3(%arg0: tensor<4x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>) -> tensor<4x32xf32> {
    return %arg0 : tensor<4x32xf32>
  }
}

// -----

// A rank-3 group_norm runs as rank 4 (a trailing unit dimension) between reshapes.
// CHECK-LABEL: func.func @group_norm_rank3
// CHECK: %[[X:.*]] = "ttir.reshape"(%arg0) <{shape = [1 : i32, 64 : i32, 16 : i32, 1 : i32]}> : (tensor<1x64x16xf32>) -> tensor<1x64x16x1xf32>
// CHECK: %[[G:.*]] = "ttir.group_norm"(%[[X]], %arg1, %arg1) <{channel_dim = 1 : i64, epsilon = 9.99999974E-6 : f32, num_groups = 8 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 1>}> : (tensor<1x64x16x1xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x16x1xf32>
// CHECK: "ttir.reshape"(%[[G]]) <{shape = [1 : i32, 64 : i32, 16 : i32]}> : (tensor<1x64x16x1xf32>) -> tensor<1x64x16xf32>
module {
  func.func @group_norm_rank3(%arg0: tensor<1x64x16xf32>, %arg1: tensor<64xf32>) -> tensor<1x64x16xf32> {
    %0 = stablehlo.composite "tenstorrent.group_norm" %arg0, %arg1, %arg1 {composite_attributes = {channel_dim = 1 : i64, epsilon = 9.99999974E-6 : f32, num_groups = 8 : i64}, decomposition = @impl} : (tensor<1x64x16xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<1x64x16xf32>
    return %0 : tensor<1x64x16xf32>
  }
  func.func private @impl(%arg0: tensor<1x64x16xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>) -> tensor<1x64x16xf32> {
    return %arg0 : tensor<1x64x16xf32>
  }
}

// -----

// topk in its three forms: the result not asked for is typed as tt-mlir types it (indices i32).
// CHECK-LABEL: func.func @topk
// CHECK: %[[BV:.*]], %[[BI:.*]] = "ttir.topk"(%arg0) <{dim = -1 : i32, k = 5 : i32, largest = true, sorted = true}> : (tensor<1x40xf32>) -> (tensor<1x5xf32>, tensor<1x5xi64>)
// CHECK: %[[V:.*]], %{{.*}} = "ttir.topk"(%arg0) <{dim = 1 : i32, k = 3 : i32, largest = false, sorted = false}> : (tensor<1x40xf32>) -> (tensor<1x3xf32>, tensor<1x3xi32>)
// CHECK: %{{.*}}, %[[I:.*]] = "ttir.topk"(%arg0) <{dim = -1 : i32, k = 2 : i32, largest = true, sorted = false}> : (tensor<1x40xf32>) -> (tensor<1x2xf32>, tensor<1x2xi64>)
// CHECK: return %[[BV]], %[[BI]], %[[V]], %[[I]]
module {
  func.func @topk(%arg0: tensor<1x40xf32>) -> (tensor<1x5xf32>, tensor<1x5xi64>, tensor<1x3xf32>, tensor<1x2xi64>) {
    %0:2 = stablehlo.composite "tenstorrent.topk" %arg0 {composite_attributes = {dim = -1 : i64, k = 5 : i64, largest = true, sorted = true}, decomposition = @a} : (tensor<1x40xf32>) -> (tensor<1x5xf32>, tensor<1x5xi64>)
    %1 = stablehlo.composite "tenstorrent.topk_values" %arg0 {composite_attributes = {dim = 1 : i64, k = 3 : i64, largest = false}, decomposition = @b} : (tensor<1x40xf32>) -> tensor<1x3xf32>
    %2 = stablehlo.composite "tenstorrent.topk_indices" %arg0 {composite_attributes = {k = 2 : i64}, decomposition = @c} : (tensor<1x40xf32>) -> tensor<1x2xi64>
    return %0#0, %0#1, %1, %2 : tensor<1x5xf32>, tensor<1x5xi64>, tensor<1x3xf32>, tensor<1x2xi64>
  }
  func.func private @a(%arg0: tensor<1x40xf32>) -> (tensor<1x5xf32>, tensor<1x5xi64>) {
    %0 = stablehlo.slice %arg0 [0:1, 0:5] : (tensor<1x40xf32>) -> tensor<1x5xf32>
    %1 = stablehlo.iota dim = 1 : tensor<1x5xi64>
    return %0, %1 : tensor<1x5xf32>, tensor<1x5xi64>
  }
  func.func private @b(%arg0: tensor<1x40xf32>) -> tensor<1x3xf32> {
    %0 = stablehlo.slice %arg0 [0:1, 0:3] : (tensor<1x40xf32>) -> tensor<1x3xf32>
    return %0 : tensor<1x3xf32>
  }
  func.func private @c(%arg0: tensor<1x40xf32>) -> tensor<1x2xi64> {
    %0 = stablehlo.iota dim = 1 : tensor<1x2xi64>
    return %0 : tensor<1x2xi64>
  }
}

// -----

// gather: the index becomes ui32 (ui16/ui32 stay); argmax; the custom_call form of a gather.
// CHECK-LABEL: func.func @gather_argmax
// CHECK: %[[U:.*]] = "ttir.typecast"(%arg1) : (tensor<2x3xi32>) -> tensor<2x3xui32>
// CHECK: "ttir.gather"(%arg0, %[[U]]) <{dim = 0 : i32}> : (tensor<5x3xf32>, tensor<2x3xui32>) -> tensor<2x3xf32>
// CHECK: "ttir.argmax"(%arg0) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<5x3xf32>) -> tensor<5x1xi32>
// CHECK-NOT: typecast
// CHECK: "ttir.gather"(%arg0, %arg2) <{dim = 1 : i32}> : (tensor<5x3xf32>, tensor<5x2xui16>) -> tensor<5x2xf32>
module {
  func.func @gather_argmax(%arg0: tensor<5x3xf32>, %arg1: tensor<2x3xi32>, %arg2: tensor<5x2xui16>) -> (tensor<2x3xf32>, tensor<5x1xi32>, tensor<5x2xf32>) {
    %0 = stablehlo.composite "tenstorrent.gather" %arg0, %arg1 {composite_attributes = {dim = 0 : i64}, decomposition = @g} : (tensor<5x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
    %1 = stablehlo.composite "tenstorrent.argmax" %arg0 {composite_attributes = {dim = 1 : i64, keepdim = true}, decomposition = @m} : (tensor<5x3xf32>) -> tensor<5x1xi32>
    %2 = stablehlo.custom_call @tenstorrent.gather_dim(%arg0, %arg2) {tt.composite_attributes = {dim = 1 : i64}, tt.has_custom_sharding} : (tensor<5x3xf32>, tensor<5x2xui16>) -> tensor<5x2xf32>
    return %0, %1, %2 : tensor<2x3xf32>, tensor<5x1xi32>, tensor<5x2xf32>
  }
  func.func private @g(%arg0: tensor<5x3xf32>, %arg1: tensor<2x3xi32>) -> tensor<2x3xf32> {
    %0 = stablehlo.slice %arg0 [0:2, 0:3] : (tensor<5x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
  func.func private @m(%arg0: tensor<5x3xf32>) -> tensor<5x1xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<5x1xi32>
    return %0 : tensor<5x1xi32>
  }
}

// -----

// scaled_dot_product_attention: rank-3 operands get a unit head dimension; the mask is passed only
// when is_causal is false.
// CHECK-LABEL: func.func @sdpa
// CHECK: %[[Q:.*]] = "ttir.reshape"(%arg0) <{shape = [2 : i32, 1 : i32, 8 : i32, 16 : i32]}>
// CHECK: %[[K:.*]] = "ttir.reshape"(%arg1)
// CHECK: %[[V:.*]] = "ttir.reshape"(%arg2)
// CHECK: %[[M:.*]] = "ttir.reshape"(%arg3) <{shape = [2 : i32, 1 : i32, 8 : i32, 8 : i32]}>
// CHECK: %[[S:.*]] = "ttir.scaled_dot_product_attention"(%[[Q]], %[[K]], %[[V]], %[[M]]) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, scale = 2.500000e-01 : f32}> : {{.*}} -> tensor<2x1x8x16xbf16>
// CHECK: "ttir.reshape"(%[[S]]) <{shape = [2 : i32, 8 : i32, 16 : i32]}>
module {
  func.func @sdpa(%q: tensor<2x8x16xbf16>, %k: tensor<2x8x16xbf16>, %v: tensor<2x8x16xbf16>, %mask: tensor<2x8x8xbf16>) -> tensor<2x8x16xbf16> {
    %0 = stablehlo.composite "tenstorrent.scaled_dot_product_attention" %q, %k, %v, %mask {composite_attributes = {is_causal = false, scale = 2.500000e-01 : f64}, decomposition = @impl} : (tensor<2x8x16xbf16>, tensor<2x8x16xbf16>, tensor<2x8x16xbf16>, tensor<2x8x8xbf16>) -> tensor<2x8x16xbf16>
    return %0 : tensor<2x8x16xbf16>
  }
  func.func private @impl(%q: tensor<2x8x16xbf16>, %k: tensor<2x8x16xbf16>, %v: tensor<2x8x16xbf16>, %mask: tensor<2x8x8xbf16>) -> tensor<2x8x16xbf16> {
    return %q : tensor<2x8x16xbf16>
  }
}

// -----

// uniform -> rand (bounds from the constant operands, seed 0); adamw with f32 hyper-parameters.
// CHECK-LABEL: func.func @rand_adamw
// CHECK: "ttir.rand"() <{high = 1.000000e+00 : f32, low = -0.99999994 : f32, seed = 0 : ui32, size = [50 : i32]}> : () -> tensor<50xf32>
// CHECK: "ttir.adamw"(%arg1, %arg1, %arg1, %arg1) <{beta1 = 0.899999976 : f32, beta1_pow = 0.899999976 : f32, beta2 = 9.990000e-01 : f32, beta2_pow = 9.990000e-01 : f32, epsilon = 9.99999993E-9 : f32, lr = 1.000000e-03 : f32, stochastic_rounding = false, weight_decay = 0.00999999977 : f32}>
module {
  func.func @rand_adamw(%seed: tensor<2xui32>, %p: tensor<4x4xf32>) -> (tensor<50xf32>, tensor<4x4xf32>) {
    %lo = stablehlo.constant dense<-0.99999994> : tensor<f32>
    %hi = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.composite "tenstorrent.uniform" %seed, %lo, %hi {composite_attributes = {dtype = f32, shape = [50 : i32]}, decomposition = @u} : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<50xf32>
    %1:3 = stablehlo.composite "tenstorrent.adamw" %p, %p, %p, %p {composite_attributes = {lr = 1.000000e-03 : f32, beta1 = 0.9 : f64, beta2 = 0.999000012 : f32, beta1_pow = 0.899999976 : f32, beta2_pow = 0.999000012 : f32, epsilon = 1.000000e-08 : f32, weight_decay = 1.000000e-02 : f32}, decomposition = @a} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
    return %0, %1#0 : tensor<50xf32>, tensor<4x4xf32>
  }
  func.func private @u(%seed: tensor<2xui32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<50xf32> {
    %0 = stablehlo.broadcast_in_dim %lo, dims = [] : (tensor<f32>) -> tensor<50xf32>
    return %0 : tensor<50xf32>
  }
  func.func private @a(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>, %d: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
    return %a, %b, %c : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
  }
}

// -----

// sdy.all_slice with tt-mlir's out_sharding: one mesh_partition per mesh axis that slices.
// CHECK-LABEL: func.func @all_slice
// CHECK: %[[A:.*]] = "ttir.mesh_partition"(%arg1) <{cluster_axis = 0 : ui32, dim = 1 : si32}> : (tensor<4x32xbf16>) -> tensor<4x16xbf16>
// CHECK: "ttir.mesh_partition"(%[[A]]) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<4x16xbf16>) -> tensor<1x16xbf16>
module {
  sdy.mesh @mesh = <["model"=2, "batch"=4]>
  func.func @all_slice(%arg0: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{"batch"}, {"model"}]>] manual_axes={"model", "batch"} (%arg1: tensor<4x32xbf16>) {
      %1 = stablehlo.composite "sdy.all_slice" %arg1 {composite_attributes = {out_sharding = #sdy.sharding<@mesh, [{"batch"}, {"model"}]>}, decomposition = @s} : (tensor<4x32xbf16>) -> tensor<1x16xbf16>
      sdy.return %1 : tensor<1x16xbf16>
    } : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
    return %0 : tensor<4x32xbf16>
  }
  func.func private @s(%arg0: tensor<4x32xbf16>) -> tensor<1x16xbf16> {
    %0 = stablehlo.slice %arg0 [0:1, 0:16] : (tensor<4x32xbf16>) -> tensor<1x16xbf16>
    return %0 : tensor<1x16xbf16>
  }
}
