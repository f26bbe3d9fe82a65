// RUN: ttopt opt %s --basic-propagation='conservative=false keep-sharding-rules=false' | FileCheck %s

// As Shardy's propagateFuncResults, only the main function's result shardings take part
// (`@main`, or a module's only function): @helper's returned value is sharded, its result is not.
sdy.mesh @mesh = <["x"=2]>

// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>})
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = call @helper(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// CHECK-LABEL: func.func private @helper
// CHECK-SAME: -> tensor<8xf32> {
// CHECK-NEXT: stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>}
func.func private @helper(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
