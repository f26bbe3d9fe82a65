// RUN: ttopt opt %s | diff <(sed -n '/^module {/,$p' %s) -
// RUN: ttopt opt %s --mlir-print-op-generic | ttopt opt | diff <(sed -n '/^module {/,$p' %s) -
// RUN: ttopt opt %S/jax_forms_input.mlir | diff <(sed -n '/^module {/,$p' %s) -

// jaxlib's own printing of jax_forms_input.mlir (tests/parse/test_oracle_forms.py re-derives it):
// custom_call drops properties at their defaults (api_version = 1, has_side_effect = false) in
// pretty form only; arith.constant names its results %cN_T / %cN (index) / %true / %cst.
module {
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @foo(%arg0) {backend_config = ""} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.custom_call @foo(%arg0) {called_computations = [@g]} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @foo() : () -> tensor<4xf32>
    %3:2 = stablehlo.custom_call @"weird name"(%arg0, %arg0) {api_version = 4 : i32, backend_config = {k = 1 : i64, s = "v"}, mhlo.frontend_attributes = {x = "1"}} : (tensor<4xf32>, tensor<4xf32>) -> (tuple<tensor<4xf32>>, tensor<4xf32>)
    stablehlo.custom_call @sink(%arg0) {has_side_effect = true} : (tensor<4xf32>) -> ()
    %cst = arith.constant dense<1> : tensor<1xi64>
    %c1_i32 = arith.constant 1 : i32
    %c-3_i64 = arith.constant -3 : i64
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %cst_0 = arith.constant 1.500000e+00 : f32
    %c1_i32_1 = arith.constant 1 : i32
    return %1 : tensor<4xf32>
  }
  func.func private @g(tensor<4xf32>) -> tensor<4xf32>
}
