// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards{conservative=false})' | FileCheck %s

// A target with unreduced axes the value lacks takes them without moving data (Shardy's
// insertUnreducedCollectives): replicated axes by sdy.replicated_to_unreduced, axes sharded at
// the minor end of a dimension the target drops by sdy.sharded_to_unreduced, any other
// dimension change by an sdy.reshard first. Unreduced sub-axes count as parts of their axis.
sdy.mesh @m = <["a"=2, "b"=4]>

// CHECK-LABEL: func.func @replicated_at_return
// CHECK-NEXT: %0 = sdy.replicated_to_unreduced {"b"} %arg0 out_sharding=<@m, [{"a"}, {}], unreduced={"b"}> : tensor<8x8xf32>
// CHECK-NEXT: return %0
func.func @replicated_at_return(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}], unreduced={"b"}>}) {
  return %arg0 : tensor<8x8xf32>
}

// The result stays unreduced: the function result is unreduced on "b":(2)2 too.
// CHECK-LABEL: func.func @sharded_reshard
// CHECK-NEXT: %0 = sdy.sharded_to_unreduced [{}, {"b":(2)2}] %arg0 out_sharding=<@m, [{"a"}, {"b":(1)2}], unreduced={"b":(2)2}> : tensor<8x8xf32>
// CHECK-NEXT: return %0
func.func @sharded_reshard(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {"b":(1)2}], unreduced={"b":(2)2}>}) {
  %0 = sdy.reshard %arg0 <@m, [{"a"}, {"b":(1)2}], unreduced={"b":(2)2}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Dim 1 drops its minor "a" (sharded_to_unreduced); "b" is replicated (replicated_to_unreduced).
// CHECK-LABEL: func.func @both
// CHECK-NEXT: %0 = sdy.replicated_to_unreduced {"b"} %arg0 out_sharding=<@m, [{}, {"a"}], unreduced={"b"}> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.sharded_to_unreduced [{}, {"a"}] %0 out_sharding=<@m, [{}, {}], unreduced={"a", "b"}> : tensor<8x8xf32>
// CHECK-NEXT: return %1
func.func @both(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"a"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"a", "b"}>}) {
  return %arg0 : tensor<8x8xf32>
}

// Dim 0 changes from "b" to "a", which no unreduced op does: a reshard first.
// CHECK-LABEL: func.func @reshard_first
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@m, [{"a"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT: %1 = sdy.replicated_to_unreduced {"b"} %0 out_sharding=<@m, [{"a"}, {}], unreduced={"b"}> : tensor<8x8xf32>
// CHECK-NEXT: return %1
func.func @reshard_first(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"b"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}, {}], unreduced={"b"}>}) {
  return %arg0 : tensor<8x8xf32>
}

// Unreduced "b":(1)2 kept by a target unreduced on all of "b": no all_reduce, the rest of "b" is
// replicated-to-unreduced.
// CHECK-LABEL: func.func @sub_axis_kept
// CHECK-NEXT: %0 = sdy.replicated_to_unreduced {"b":(2)2} %arg0 out_sharding=<@m, [{}, {}], unreduced={"b"}> : tensor<8x8xf32>
// CHECK-NEXT: return %0
func.func @sub_axis_kept(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"b":(1)2}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"b"}>}) {
  return %arg0 : tensor<8x8xf32>
}

// A reduction over "a" and "b":(1)2 whose result keeps "b" unreduced all_reduces only "a"; the
// reshard to the result's dimension sharding keeps "b" unreduced.
// CHECK-LABEL: func.func @reduce_keeps_sub_axis
// CHECK: %[[R:.*]] = stablehlo.reduce
// CHECK-SAME: unreduced={"b"}
// CHECK: %[[AR:.*]] = sdy.all_reduce {"a"} %[[R]] out_sharding=<@m, [{}], unreduced={"b"}> : tensor<8xf32>
// CHECK-NEXT: return %[[AR]]
func.func @reduce_keeps_sub_axis(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"a", "b":(1)2}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"b"}>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}], unreduced={"b"}>]>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
