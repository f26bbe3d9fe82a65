// RUN: ttopt opt %s --split-input-file --stablehlo-to-ttir-pipeline | FileCheck %s
// RUN: not ttopt opt %s -split-input-file --pass-pipeline='builtin.module(stablehlo-to-ttir-pipeline{enable-composite-to-call=false enable-arith-to-stablehlo=true})' 2>&1 | FileCheck %s --check-prefix=NOCALL
// RUN: ttopt opt %s -split-input-file --stablehlo-to-ttir-pipeline="enable-cpu-fallback=true" | FileCheck %s --check-prefix=FALLBACK
// RUN: not ttopt opt %s --stablehlo-to-ttir-pipeline="enable-nothing=true" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// tt-mlir's stablehlo-to-ttir-pipeline: arith constants, tenstorrent.* composites to their TTIR op,
// other composites inlined from their decomposition, the compute lowering, then cse.

// With the CPU fallback (testdata/lowering/cpu_fallback.mlir), each program is in a device module.
// FALLBACK: ttcore.device_module {
// FALLBACK-NEXT: builtin.module {
// FALLBACK-NEXT: func.func @gelu_and_other
// UNKNOWN: pass 'stablehlo-to-ttir-pipeline' has no option 'enable-nothing' (options: enable-arith-to-stablehlo, enable-composite-to-call, enable-aggressive-simplification, enable-cpu-fallback)

// CHECK-LABEL: func.func @gelu_and_other
// CHECK: %[[G:.*]] = "ttir.gelu"(%arg0) {approximate = "tanh"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[C:.*]] = "ttir.cbrt"(%arg0)
// CHECK: %[[E:.*]] = "ttir.exp"(%[[C]])
// CHECK: "ttir.add"(%[[G]], %[[E]])
// CHECK-NOT: func.func private
// NOCALL: stablehlo_to_ttir_pipeline.mlir:[[# @LINE + 4]]:10: error: failed to legalize operation 'stablehlo.composite' to TTIR
module {
  func.func @gelu_and_other(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %0 = stablehlo.composite "tenstorrent.gelu_tanh" %arg0 {composite_attributes = {approximate = "tanh"}, decomposition = @gelu_impl} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %1 = stablehlo.composite "my.cbrt_exp" %arg0 {decomposition = @cbrt_exp} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %2 = stablehlo.add %0, %1 : tensor<2x2xf32>
    return %2 : tensor<2x2xf32>
  }
  func.func private @gelu_impl(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
  }
  func.func private @cbrt_exp(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %0 = stablehlo.cbrt %arg0 : tensor<2x2xf32>
    %1 = stablehlo.exponential %0 : tensor<2x2xf32>
    return %1 : tensor<2x2xf32>
  }
}

// -----

// arith.constant becomes a stablehlo constant, then a ttir.constant; cse merges the duplicate.
// CHECK-LABEL: func.func @arith_and_cse
// CHECK: %[[K:.*]] = "ttir.constant"() <{value = dense<2.000000e+00> : tensor<4xf32>}>
// CHECK-NOT: ttir.constant
// CHECK: %[[A:.*]] = "ttir.multiply"(%arg0, %[[K]])
// CHECK: "ttir.add"(%[[A]], %[[A]])
// NOCALL-LABEL: func.func @arith_and_cse
// NOCALL: "ttir.constant"
module {
  func.func @arith_and_cse(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant dense<2.000000e+00> : tensor<4xf32>
    %c1 = arith.constant dense<2.000000e+00> : tensor<4xf32>
    %0 = stablehlo.multiply %arg0, %c0 : tensor<4xf32>
    %1 = stablehlo.multiply %arg0, %c1 : tensor<4xf32>
    %2 = stablehlo.add %0, %1 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}

// -----

// A tenstorrent composite in a form the rule does not take (topk without attributes) is left for
// its decomposition, as tt-mlir's partial conversion leaves it.
// CHECK-LABEL: func.func @topk_without_attributes
// CHECK-NOT: ttir.topk
// CHECK: "ttir.neg"
module {
  func.func @topk_without_attributes(%arg0: tensor<1x8xf32>) -> tensor<1x8xf32> {
    %0 = stablehlo.composite "tenstorrent.topk_values" %arg0 {decomposition = @impl} : (tensor<1x8xf32>) -> tensor<1x8xf32>
    return %0 : tensor<1x8xf32>
  }
  func.func private @impl(%arg0: tensor<1x8xf32>) -> tensor<1x8xf32> {
    %0 = stablehlo.negate %arg0 : tensor<1x8xf32>
    return %0 : tensor<1x8xf32>
  }
}
