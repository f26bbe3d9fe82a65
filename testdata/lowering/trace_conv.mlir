// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-trace=true" 2>&1 | FileCheck %s --check-prefix=O0
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-trace=true optimization-level=1" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-trace=true optimization-level=1" | ttopt opt | FileCheck %s

// enable-trace=true on a conv whose weight and bias are parameters.
//
// Without the optimizer the conv keeps its weight and bias on the host (row-major) and prepares
// them itself on every call. They are parameters, so they would be device-resident trace inputs,
// read in place by the replayed trace, and a host tensor cannot be read that way. The pass rejects
// the program with tt-mlir's error, at the function, and the notes say which inputs and why.

// O0: trace_conv.mlir:[[# @LINE + 28]]:3: error: ttnn-trace-hoist-transform: Device-resident input must be on device, but found on system memory
// O0-NEXT: func.func @forward(
// O0-NEXT: ^
// O0-NEXT: note: argument 1 (parameter 'conv.weight') is in system memory, read as the weight of 'ttnn.conv2d'
// O0-NEXT: note: argument 2 (parameter 'conv.bias') is in system memory, read as the bias of 'ttnn.conv2d'
// O0-NEXT: note: without the optimizer a conv2d keeps its weight and bias on the host {{.*}} from optimization-level=1 they are prepared once, on the device, in const-eval
// O0-NOT: error

// From optimization-level=1 the weight and bias are prepared once, in const-eval, on the device:
// the trace reads the cached results as constant slots, and only the activation is host-staged.
// CHECK-LABEL: func.func private @forward_const_eval_0(
// CHECK: "ttnn.prepare_conv2d_weights"
// CHECK-LABEL: func.func private @forward_const_eval_1(
// CHECK: "ttnn.prepare_conv2d_bias"
// CHECK-LABEL: func.func private @trace_0_forward(
// CHECK-SAME: %arg0: tensor<1x1x288x32xbf16, #[[W:ttnn_layout[0-9]*]]> {ttcore.argument_type = #ttcore.argument_type<constant>}, %arg1: tensor<1x1x1x32xbf16, #[[B:ttnn_layout[0-9]*]]> {ttcore.argument_type = #ttcore.argument_type<constant>}, %arg2: tensor<1x16x16x32xbf16, #[[X:ttnn_layout[0-9]*]]>, %arg3: tensor<1x16x16x32xbf16, #[[X]]>)
// CHECK: "ttnn.conv2d"(%{{.*}}, %arg0, %arg1, %{{.*}})
// CHECK: "ttnn.copy"(%{{.*}}, %arg3)
// CHECK-LABEL: func.func private @allocate_slots_trace_0_forward(
// CHECK: return %arg0, %arg1,
// CHECK-LABEL: func.func @forward(
// CHECK: %[[W0:.*]] = ttcore.load_cached(@forward_const_eval_0, [%arg1])
// CHECK-NEXT: %[[B0:.*]] = ttcore.load_cached(@forward_const_eval_1, [%arg2])
// CHECK-NEXT: %[[D:.*]] = "ttnn.get_device"()
// CHECK-NEXT: %[[T:.*]] = "ttnn.capture_or_execute_trace"(%[[D]], %[[W0]], %[[B0]], %arg0)
// CHECK-NOT: "ttnn.conv2d"
// CHECK: return %[[T]]
module {
  func.func @forward(%x: tensor<1x16x16x32xbf16>, %w: tensor<32x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "conv.weight"}, %b: tensor<1x1x1x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "conv.bias"}) -> tensor<1x16x16x32xbf16> {
    %0 = "ttir.conv2d"(%x, %w, %b) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<32x32x3x3xbf16>, tensor<1x1x1x32xbf16>) -> tensor<1x16x16x32xbf16>
    %1 = "ttir.relu"(%0) : (tensor<1x16x16x32xbf16>) -> tensor<1x16x16x32xbf16>
    return %1 : tensor<1x16x16x32xbf16>
  }
}
