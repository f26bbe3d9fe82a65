// RUN: ttopt opt %S/../models/resnet.mlir --stablehlo-pipeline --argument-types="main=input,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter,parameter" --convert-to-ttir --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false optimization-level=2" | FileCheck %s

// The JAX ResNet (testdata/models/resnet.mlir) with every argument but the image a parameter: each
// HWIO conv kernel's permute to OIHW, its move to the host in row-major and its
// ttnn.prepare_conv2d_weights run once, in const-eval functions; the forward function reads the
// prepared 1x1x(in*kh*kw)xout weights and permutes no weight on the device
// (bench/const_eval.py prints the DRAM this saves per call).

// The kernel's permute is hoisted before the optimizer, as tt-mlir hoists first; its preparation
// (made by the optimizer's conv config) is hoisted after it, reading the cached permute. The
// functions' numbers follow the program order, in which the model's constants come first (hoisted
// to the front as tt-mlir's canonicalizer does).
// CHECK: func.func private @[[KP:main_const_eval_[0-9]+]](%arg0: tensor<7x7x3x16xf32, {{.*}}>) -> tensor<16x3x7x7xf32, {{.*}}> attributes {tt.function_type = "const_eval"}
// The kernel arrives on the host, row-major (it is read only by const-eval: tt-mlir's
// enable-const-eval-inputs-to-system-memory), and goes to the device for the permute.
// CHECK-NEXT: %[[D0:.*]] = "ttnn.get_device"
// CHECK-NEXT: %[[ON:.*]] = "ttnn.to_device"(%arg0, %[[D0]])
// CHECK-NEXT: %[[T:.*]] = "ttnn.to_layout"(%[[ON]])
// The permuted kernel goes back to the host row-major, where the conv's weights are prepared (tt-mlir's
// conv workaround moves a conv's weight there); the preparation reads it from the cache.
// CHECK: %[[P:.*]] = "ttnn.permute"(%[[T]]) <{permutation = array<i64: 3, 2, 0, 1>}>
// CHECK: %[[H:.*]] = "ttnn.from_device"(%[[P]])
// CHECK: %[[R:.*]] = "ttnn.to_layout"(%[[H]])
// CHECK: return %[[R]]
// CHECK: func.func private @[[WP:main_const_eval_[0-9]+]](%arg0: tensor<16x3x7x7xf32, {{.*}}>) -> tensor<1x1x147x16xf32, {{.*}}> attributes {tt.function_type = "const_eval"}
// CHECK-NEXT: %[[D:.*]] = "ttnn.get_device"
// CHECK-NEXT: "ttnn.prepare_conv2d_weights"(%arg0, %[[D]]) <{{.*}}in_channels = 3 : i32{{.*}}kernel_size = array<i32: 7, 7>{{.*}}weights_format = "OIHW"}>
// CHECK-LABEL: func.func public @main(
// CHECK: %[[K:.*]] = ttcore.load_cached(@[[KP]], [%arg32])
// CHECK: %[[W:.*]] = ttcore.load_cached(@[[WP]], [%[[K]]])
// CHECK-NOT: "ttnn.permute"(%arg
// CHECK: "ttnn.conv2d"(%{{.*}}, %[[W]], %{{.*}})
// CHECK-NOT: "ttnn.permute"(%arg
// CHECK-NOT: prepare_conv2d_weights
// CHECK: return
