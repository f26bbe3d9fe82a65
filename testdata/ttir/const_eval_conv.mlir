// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false optimization-level=1 enable-fusing-conv2d-with-multiply-pattern=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 enable-fusing-conv2d-with-multiply-pattern=false" | FileCheck %s --check-prefix=O2
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=O0
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2" | ttopt opt --ttnn-optimizer --verify-l1-budget -o %t
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" | FileCheck %s --check-prefix=FOLD

// A ResNet-like block whose conv weights, bias and batch-norm scale are parameters / constants.
// With the optimizer (optimization-level >= 1, where tt-mlir's TTNNPrepareConv2dWeightsAndBias
// runs) each conv's weight gets a ttnn.prepare_conv2d_weights (OIHW, host row-major in, the
// 1x1x(in*kh*kw)xout DRAM tile tensor conv2d reads out) and its bias a ttnn.prepare_conv2d_bias,
// and because they read only parameters they run once, in const-eval functions: the block reads
// the prepared tensors through ttcore.load_cached. The scale's reshape is hoisted too; the scale,
// read only by const-eval, arrives on the host (row-major) and const-eval moves it to the device
// (tt-mlir's enable-const-eval-inputs-to-system-memory, default true).

// CHECK-LABEL: func.func private @block_const_eval_0(
// CHECK-SAME: %arg0: tensor<64xbf16, #[[SCALE_HOST:ttnn_layout[0-9]*]]>
// CHECK-NEXT: %[[D0:.*]] = "ttnn.get_device"
// CHECK-NEXT: %[[ON_DEV:.*]] = "ttnn.to_device"(%arg0, %[[D0]])
// CHECK-NEXT: %[[TILED:.*]] = "ttnn.to_layout"(%[[ON_DEV]])
// CHECK: "ttnn.reshape"(%[[TILED]])
// CHECK-LABEL: func.func private @block_const_eval_1(
// CHECK-SAME: %arg0: tensor<64x64x3x3xbf16, #[[HOST:ttnn_layout[0-9]*]]>) -> tensor<1x1x576x64xbf16, #[[PW:ttnn_layout[0-9]*]]> attributes {tt.function_type = "const_eval"}
// CHECK-NEXT: %[[D:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}>
// CHECK-NEXT: %[[W:.*]] = "ttnn.prepare_conv2d_weights"(%arg0, %[[D]]) <{batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16{{.*}}>, {{.*}}has_bias = true, in_channels = 64 : i32, input_dtype = #ttcore.supportedDataTypes<bf16>, input_height = 28 : i32, input_memory_config = #ttnn.memory_config<{{.*}}>, input_tensor_layout = #ttnn.layout<tile>, input_width = 28 : i32, kernel_size = array<i32: 3, 3>, out_channels = 64 : i32, output_dtype = #ttcore.supportedDataTypes<bf16>, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>, weights_format = "OIHW"}> : (tensor<64x64x3x3xbf16, #[[HOST]]>, !ttnn.device) -> tensor<1x1x576x64xbf16, #[[PW]]>
// CHECK-NEXT: return %[[W]]
// CHECK-LABEL: func.func private @block_const_eval_2(
// CHECK: "ttnn.prepare_conv2d_bias"(%arg0, %{{.*}}) <{{.*}}> : (tensor<1x1x1x64xbf16, {{.*}}>, !ttnn.device) -> tensor<1x1x1x64xbf16,
// CHECK-LABEL: func.func private @block_const_eval_3(
// CHECK: "ttnn.prepare_conv2d_weights"(%arg0, %{{.*}}) <{{.*}}has_bias = false
// CHECK-LABEL: func.func @block(
// CHECK-NEXT: %[[S:.*]] = ttcore.load_cached(@block_const_eval_0, [%arg4])
// CHECK-NEXT: %[[W1:.*]] = ttcore.load_cached(@block_const_eval_1, [%arg1])
// CHECK-NEXT: %[[B1:.*]] = ttcore.load_cached(@block_const_eval_2, [%arg2])
// CHECK-NEXT: %[[W2:.*]] = ttcore.load_cached(@block_const_eval_3, [%arg3])
// CHECK-NEXT: %[[DEV:.*]] = "ttnn.get_device"
// CHECK-NOT: prepare_conv2d
// CHECK: "ttnn.conv2d"(%{{.*}}, %[[W1]], %[[B1]], %[[DEV]])
// CHECK-NOT: prepare_conv2d
// CHECK: "ttnn.conv2d"(%{{.*}}, %[[W2]], %[[DEV]])
// CHECK: "ttnn.multiply"(%{{.*}}, %[[S]])

// With DFSharding the schedule (and so the numbering) differs; the weights are still prepared once.
// O2: %[[W:.*]] = ttcore.load_cached(@block_const_eval_{{[0-9]+}}, [%arg1])
// O2-NOT: prepare_conv2d
// O2: "ttnn.conv2d"(%{{.*}}, %[[W]], 

// From optimization-level=1 (as tt-mlir) the constant multiply after the second conv folds into
// its weight: const-eval scales the weight once, moves it to the host (the conv's weight goes there,
// as tt-mlir's conv workaround has it) and prepares it, and the prepared weight is read from the cache.
// FOLD-LABEL: func.func @block(
// FOLD: %[[SCALED:.*]] = ttcore.load_cached(@block_const_eval_0, [%arg3, %arg4])
// FOLD: %[[HOST:.*]] = ttcore.load_cached(@block_const_eval_{{[0-9]+}}, [%[[SCALED]]])
// FOLD: %[[W2:.*]] = ttcore.load_cached(@block_const_eval_{{[0-9]+}}, [%[[HOST]]])
// FOLD-NOT: "ttnn.multiply"
// FOLD: "ttnn.conv2d"(%{{.*}}, %[[W2]], %{{.*}})
// FOLD-NOT: "ttnn.multiply"
// FOLD: return

// Without the optimizer tt-mlir's conv2d prepares its own weights: nothing to hoist but the reshape.
// O0-NOT: prepare_conv2d
// O0-LABEL: func.func @block(
// O0: "ttnn.conv2d"(%{{.*}}, %arg1, %arg2, %{{.*}})
module {
  func.func @block(%x: tensor<1x28x28x64xbf16> {ttcore.argument_type = #ttcore.argument_type<input>}, %w1: tensor<64x64x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %b1: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %w2: tensor<64x64x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %s: tensor<64xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<1x28x28x64xbf16> {
    %0 = "ttir.conv2d"(%x, %w1, %b1) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x28x28x64xbf16>, tensor<64x64x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x28x28x64xbf16> loc("conv1")
    %1 = "ttir.relu"(%0) : (tensor<1x28x28x64xbf16>) -> tensor<1x28x28x64xbf16> loc("relu1")
    %2 = "ttir.conv2d"(%1, %w2) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x28x28x64xbf16>, tensor<64x64x3x3xbf16>) -> tensor<1x28x28x64xbf16> loc("conv2")
    %3 = "ttir.reshape"(%s) <{shape = [1 : i32, 1 : i32, 1 : i32, 64 : i32]}> : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16> loc("scale")
    %4 = "ttir.multiply"(%2, %3) : (tensor<1x28x28x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x28x28x64xbf16> loc("bn")
    %5 = "ttir.add"(%4, %x) : (tensor<1x28x28x64xbf16>, tensor<1x28x28x64xbf16>) -> tensor<1x28x28x64xbf16> loc("residual")
    return %5 : tensor<1x28x28x64xbf16>
  }
}
