// RUN: ttopt opt %s --basic-propagation='conservative=false keep-sharding-rules=false' | FileCheck %s

// Data-flow edges of a manual computation (as Shardy's import adds them): the edge on the block
// argument meets the operand with the in_sharding's manual axes ("x") in front and keeps only
// the free ones; the edge on the result meets the returned value without the manual axes and
// gets the out_sharding's back. The in/out shardings themselves stay as written.
// CHECK-LABEL: func.func @manual_edges
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>}
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y", ?}]>})
// CHECK-NEXT: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>]
// CHECK-NEXT: %[[E1:.*]] = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {"y", ?}]>
// CHECK-NEXT: stablehlo.negate %[[E1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"y", ?}]>]>}
// CHECK: sdy.data_flow_edge %0 sharding=<@mesh, [{"x", ?}, {"y", ?}]>
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @manual_edges(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %1 = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {?}]> : tensor<4x8xf32>
    %2 = stablehlo.negate %1 : tensor<4x8xf32>
    sdy.return %2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
