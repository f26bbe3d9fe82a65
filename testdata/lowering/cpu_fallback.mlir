// RUN: ttopt opt %s --stablehlo-to-ttir-pipeline="enable-cpu-fallback=true" | FileCheck %s
// RUN: ttopt opt %s --ttcore-wrap-device-module --cpu-hoist-non-lowerable-shlo-ops | FileCheck %s --check-prefix=HOIST
// RUN: ttopt opt %s --stablehlo-to-ttir-pipeline="enable-cpu-fallback=true" --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=LLVM
// RUN: ttopt opt %s --stablehlo-to-ttir-pipeline="enable-cpu-fallback=true" --ttir-to-ttnn-backend-pipeline | ttopt opt - | FileCheck %s --check-prefix=LLVM
// RUN: not ttopt opt %s --stablehlo-to-ttir-pipeline 2>&1 | FileCheck %s --check-prefix=NOFALLBACK

// tt-mlir's CPU fallback: the StableHLO ops of its allow-list (einsum, dynamic_update_slice) move
// to host functions of a ttcore.cpu_module, the rest converts to TTIR in a ttcore.device_module.
// The backend lowers the host functions to the LLVM dialect (einsum as permute / reshape / matmul loops,
// dynamic_update_slice as a copy and a window store at the clamped start indices).

// CHECK: ttcore.device_module {
// CHECK-NEXT: builtin.module {
// CHECK-LABEL: func.func @mixed
// CHECK: "ttir.add"
// CHECK: %[[E:.*]] = call @cpu_hoisted_stablehlo_einsum_[[EH:[0-9a-f]+]]({{.*}}) {ttir.cpu_hoisted_call} : (tensor<2x32x64xf32>, tensor<2x48x64xf32>) -> tensor<2x48x32xf32>
// CHECK: %[[B:.*]] = ttir.to_layout %arg3, {{.*}} : tensor<8x48xbf16> into tensor<8x48xf32>
// CHECK: ttir.to_layout %arg4, {{.*}} : tensor<i64> into tensor<i32>
// CHECK: %[[D:.*]] = call @cpu_hoisted_stablehlo_dynamic_update_slice_[[DH:[0-9a-f]+]]({{.*}}) {ttir.cpu_hoisted_call} : (tensor<8x48xf32>, tensor<2x48xf32>, tensor<i32>, tensor<i32>) -> tensor<8x48xf32>
// CHECK: ttir.to_layout %[[D]], {{.*}} : tensor<8x48xf32> into tensor<8x48xbf16>
// CHECK: func.func private @cpu_hoisted_stablehlo_einsum_[[EH]](tensor<2x32x64xf32>, tensor<2x48x64xf32>) -> tensor<2x48x32xf32> attributes {func_hash = "[[EH]]{{[0-9a-f]*}}", tt.function_type = "forward_cpu_declaration"}
// CHECK: func.func private @cpu_hoisted_stablehlo_dynamic_update_slice_[[DH]](
// CHECK-NOT: stablehlo.
// CHECK: ttcore.cpu_module {
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: func.func @cpu_hoisted_stablehlo_einsum_[[EH]](%arg0: tensor<2x32x64xf32> {bufferization.access = "read"}, %arg1: tensor<2x48x64xf32> {bufferization.access = "read"}) -> tensor<2x48x32xf32> attributes {arg_ranks = [3, 3], func_hash = "[[EH]]{{[0-9a-f]*}}", result_ranks = [3], tt.function_type = "forward_cpu"}
// CHECK-NEXT: stablehlo.einsum %arg0, %arg1, config = "bij,bkj->bki"
// CHECK: func.func @cpu_hoisted_stablehlo_dynamic_update_slice_[[DH]](%arg0: tensor<8x48xf32> {{.*}}, %arg1: tensor<2x48xf32> {{.*}}, %arg2: tensor<i32> {{.*}}, %arg3: tensor<i32> {{.*}})
// CHECK-NEXT: stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 : (tensor<8x48xf32>, tensor<2x48xf32>, tensor<i32>, tensor<i32>) -> tensor<8x48xf32>

// HOIST-LABEL: func.func @mixed
// HOIST: stablehlo.add
// HOIST: call @cpu_hoisted_stablehlo_einsum_
// HOIST: call @cpu_hoisted_stablehlo_dynamic_update_slice_
// HOIST: ttcore.cpu_module
// HOIST: stablehlo.einsum
// HOIST: stablehlo.dynamic_update_slice

// LLVM: ttcore.device_module {
// LLVM: call @cpu_hoisted_stablehlo_einsum_
// LLVM: ttcore.cpu_module {
// LLVM-NOT: stablehlo.
// LLVM-NOT: ttir.
// LLVM: llvm.func @cpu_hoisted_stablehlo_einsum_{{[0-9a-f]+}}(
// LLVM-SAME: -> !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
// LLVM: "llvm.fmul"
// LLVM: "llvm.fadd"
// LLVM: llvm.func @cpu_hoisted_stablehlo_dynamic_update_slice_{{[0-9a-f]+}}(
// The start index: sign-extended, clamped to [0, 8 - 2], times the row stride 48.
// LLVM: "llvm.sext"({{.*}}) : (i32) -> i64
// LLVM: "llvm.icmp"({{.*}}) <{predicate = 2 : i64}>
// LLVM: "llvm.select"
// LLVM: "llvm.icmp"({{.*}}) <{predicate = 4 : i64}>
// LLVM: "llvm.select"
// LLVM: "llvm.mul"
// LLVM: llvm.func @cpu_hoisted_stablehlo_einsum_{{[0-9a-f]+}}_helper(%arg0: !llvm.ptr) -> !llvm.ptr
// LLVM: llvm.func @cpu_hoisted_stablehlo_dynamic_update_slice_{{[0-9a-f]+}}_helper(%arg0: !llvm.ptr) -> !llvm.ptr

// Without the fallback, tt-mlir's conversion has no pattern for einsum: an error at the op.
// NOFALLBACK: cpu_fallback.mlir:[[# @LINE + 4]]:10: error: failed to legalize operation 'stablehlo.einsum' to TTIR
module {
  func.func @mixed(%arg0: tensor<2x32x64xf32>, %arg1: tensor<2x32x64xf32>, %arg2: tensor<2x48x64xf32>, %arg3: tensor<8x48xbf16>, %arg4: tensor<i64>) -> (tensor<2x48x32xf32>, tensor<8x48xbf16>) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<2x32x64xf32>
    %1 = "stablehlo.einsum"(%0, %arg2) {einsum_config = "bij,bkj->bki"} : (tensor<2x32x64xf32>, tensor<2x48x64xf32>) -> tensor<2x48x32xf32>
    %2 = stablehlo.constant dense<1.0> : tensor<2x48xbf16>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.dynamic_update_slice %arg3, %2, %arg4, %c : (tensor<8x48xbf16>, tensor<2x48xbf16>, tensor<i64>, tensor<i64>) -> tensor<8x48xbf16>
    return %1, %3 : tensor<2x48x32xf32>, tensor<8x48xbf16>
  }
}
