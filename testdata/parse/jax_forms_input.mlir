// Input of jax_forms.mlir, written the way front ends do (defaults spelled out, own names).
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%a) {has_side_effect = false, backend_config = ""} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.custom_call @foo(%a) {called_computations = [@g], api_version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.custom_call @foo() : () -> tensor<4xf32>
  %3:2 = stablehlo.custom_call @"weird name"(%a, %a) {mhlo.frontend_attributes = {x = "1"}, api_version = 4 : i32, backend_config = {s = "v", k = 1 : i64}} : (tensor<4xf32>, tensor<4xf32>) -> (tuple<tensor<4xf32>>, tensor<4xf32>)
  stablehlo.custom_call @sink(%a) {has_side_effect = true} : (tensor<4xf32>) -> ()
  %k0 = arith.constant dense<1> : tensor<1xi64>
  %k1 = arith.constant 1 : i32
  %k2 = arith.constant -3 : i64
  %k3 = arith.constant 0 : index
  %k4 = arith.constant true
  %k5 = arith.constant 1.500000e+00 : f32
  %k6 = arith.constant 1 : i32
  return %1 : tensor<4xf32>
}
func.func private @g(tensor<4xf32>) -> tensor<4xf32>
