// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false deallocate=false" --mlir-print-local-scope | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false deallocate=false" | FileCheck %s --check-prefix=CONST
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="disable-workarounds=true deallocate=false enable-const-eval=false" | FileCheck %s --check-prefix=OFF

// tt-metal prepares a conv's weight and bias itself when they are on the host, row-major; a weight
// or bias computed on the device goes there first (tt-mlir's Conv2dRewritePattern, a decomposition
// workaround): ttnn.from_device, then the page-layout change on the host.
// CHECK-LABEL: func.func @forward(
// CHECK: %[[W:[0-9]+]] = "ttnn.multiply"(%arg1,
// CHECK: %[[B:[0-9]+]] = "ttnn.relu"(%arg2)
// CHECK: %[[WH:[0-9]+]] = "ttnn.from_device"(%[[W]])
// CHECK-SAME: -> tensor<64x64x3x3xbf16, #ttnn.ttnn_layout<{{.*}}memref<4096x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<system_memory>>>>
// CHECK: %[[WR:[0-9]+]] = "ttnn.to_layout"(%[[WH]])
// CHECK-SAME: -> tensor<64x64x3x3xbf16, #ttnn.ttnn_layout<{{.*}}memref<12288x3xbf16, #ttnn.buffer_type<system_memory>>>>
// CHECK: %[[BH:[0-9]+]] = "ttnn.from_device"(%[[B]])
// CHECK: %[[BR:[0-9]+]] = "ttnn.to_layout"(%[[BH]])
// CHECK: "ttnn.conv2d"(%{{[0-9]+}}, %[[WR]], %[[BR]], %{{[0-9]+}})

// With const-eval the moves are cached with the computation of the weight and the bias.
// CONST: func.func private @forward_const_eval_0(
// CONST: "ttnn.multiply"
// CONST: "ttnn.from_device"
// CONST: "ttnn.to_layout"
// CONST: return
// CONST-LABEL: func.func @forward(
// CONST-NOT: "ttnn.from_device"
// CONST: "ttnn.conv2d"

// Without the workarounds the device tensors reach the conv as they are.
// OFF-LABEL: func.func @forward(
// OFF-NOT: "ttnn.from_device"
// OFF: "ttnn.conv2d"
module {
  func.func @forward(%arg0: tensor<1x32x32x64xbf16>, %arg1: tensor<64x64x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %arg2: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<1x30x30x64xbf16> {
    %c = "ttir.constant"() <{value = dense<2.0> : tensor<64x64x3x3xbf16>}> : () -> tensor<64x64x3x3xbf16>
    %w = "ttir.multiply"(%arg1, %c) : (tensor<64x64x3x3xbf16>, tensor<64x64x3x3xbf16>) -> tensor<64x64x3x3xbf16>
    %b = "ttir.relu"(%arg2) : (tensor<1x1x1x64xbf16>) -> tensor<1x1x1x64xbf16>
    %0 = "ttir.conv2d"(%arg0, %w, %b) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}> : (tensor<1x32x32x64xbf16>, tensor<64x64x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x30x30x64xbf16>
    return %0 : tensor<1x30x30x64xbf16>
  }
}
