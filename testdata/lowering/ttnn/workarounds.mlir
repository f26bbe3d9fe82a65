// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false disable-workarounds=true" | FileCheck %s --check-prefix=OFF

// ttnn-workaround: operands a kernel does not take are typecast before the op, and a result
// computed in another data type is typecast back after it.
// CHECK-LABEL: func.func @tanh_f32
// CHECK: %[[IN:.*]] = "ttnn.typecast"(%arg0) : (tensor<64x128xf32, {{.*}}) -> tensor<64x128xbf16
// CHECK: %[[T:.*]] = "ttnn.tanh"(%[[IN]]) : (tensor<64x128xbf16, {{.*}}) -> tensor<64x128xbf16
// CHECK: "ttnn.typecast"(%[[T]]) : (tensor<64x128xbf16, {{.*}}) -> tensor<64x128xf32
// OFF-LABEL: func.func @tanh_f32
// OFF-NOT: ttnn.typecast
// OFF: "ttnn.tanh"(%arg0) : (tensor<64x128xf32
func.func @tanh_f32(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.tanh"(%arg0) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// argmax reads row-major and writes row-major ui32 indices; sort ui16 indices below 65535 padded elements.
// CHECK-LABEL: func.func @indices
// CHECK: %[[X:.*]] = "ttnn.to_layout"(%arg0) : (tensor<64x64xf32, #[[TILE:[a-z_0-9]+]]>) -> tensor<64x64xf32, #[[RM:[a-z_0-9]+]]>
// CHECK: %[[A:.*]] = "ttnn.argmax"(%[[X]]) <{dim = 1 : si32, keep_dim = false}> : (tensor<64x64xf32, #[[RM]]>) -> tensor<64xui32
// CHECK: %[[T:.*]] = "ttnn.to_layout"(%[[A]]) : (tensor<64xui32, {{.*}}) -> tensor<64xui32
// CHECK: "ttnn.typecast"(%[[T]]) : (tensor<64xui32, {{.*}}) -> tensor<64xsi32
// CHECK: %[[V:[a-z_0-9]+]], %[[I:[a-z_0-9]+]] = "ttnn.sort"(%arg1) {{.*}} -> (tensor<64x128xbf16, {{.*}}>, tensor<64x128xui16
// CHECK: "ttnn.typecast"(%[[I]]) : (tensor<64x128xui16, {{.*}}) -> tensor<64x128xsi32
func.func @indices(%arg0: tensor<64x64xf32>, %arg1: tensor<64x128xbf16>) -> (tensor<64xi32>, tensor<64x128xbf16>, tensor<64x128xi32>) {
  %0 = "ttir.argmax"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<64x64xf32>) -> tensor<64xi32>
  %1, %2 = "ttir.sort"(%arg1) : (tensor<64x128xbf16>) -> (tensor<64x128xbf16>, tensor<64x128xi32>)
  return %0, %1, %2 : tensor<64xi32>, tensor<64x128xbf16>, tensor<64x128xi32>
}

// prod runs in bf16; integer reductions in f32.
// CHECK-LABEL: func.func @reductions
// CHECK: "ttnn.typecast"(%arg0) : (tensor<32x64xf32, {{.*}}) -> tensor<32x64xbf16
// CHECK: "ttnn.prod"
// CHECK: "ttnn.typecast"(%arg1) : (tensor<32x64xsi32, {{.*}}) -> tensor<32x64xf32
// CHECK: "ttnn.sum"{{.*}} : (tensor<32x64xf32
func.func @reductions(%arg0: tensor<32x64xf32>, %arg1: tensor<32x64xi32>) -> (tensor<32xf32>, tensor<32xi32>) {
  %0 = "ttir.prod"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<32xf32>
  %1 = "ttir.sum"(%arg1) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<32x64xi32>) -> tensor<32xi32>
  return %0, %1 : tensor<32xf32>, tensor<32xi32>
}
