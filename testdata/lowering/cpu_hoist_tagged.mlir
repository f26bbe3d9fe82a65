// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s

// Ops tagged ttir.should_hoist run on the host, one function per op (equal ones share it). A
// hoisted result another hoisted op reads stays on the host; it moves to the device in front of
// its first device reader, so both host results move after the second call, before the multiply.
// CHECK: func.func @forward
// CHECK: %[[M:[0-9]+]] = "ttnn.multiply"(%arg0, %arg1)
// CHECK: "ttnn.from_device"(%[[M]])
// CHECK: %[[A:[0-9]+]] = call @[[ADD:cpu_hoisted_ttir_add_[0-9a-f]+]](
// CHECK-NOT: "ttnn.to_device"
// CHECK: %[[B:[0-9]+]] = call @[[ADD]](%{{[0-9]+}}, %[[A]])
// CHECK: %[[TA:[0-9]+]] = "ttnn.to_layout"(%[[A]])
// CHECK: %[[DA:[0-9]+]] = "ttnn.to_device"(%[[TA]], %{{[0-9]+}})
// CHECK: %[[TB:[0-9]+]] = "ttnn.to_layout"(%[[B]])
// CHECK: %[[DB:[0-9]+]] = "ttnn.to_device"(%[[TB]], %{{[0-9]+}})
// CHECK: "ttnn.multiply"(%[[DA]], %[[DB]])
// CHECK-COUNT-1: func.func private @cpu_hoisted_ttir_add_
// CHECK: ttcore.cpu_module {
// CHECK: llvm.func @[[ADD]](
module {
  func.func @forward(%arg0: tensor<64x128xf32>, %arg1: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.multiply"(%arg0, %arg1) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %1 = "ttir.add"(%arg0, %0) {ttir.should_hoist} : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %2 = "ttir.add"(%arg0, %1) {ttir.should_hoist} : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %3 = "ttir.multiply"(%1, %2) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    return %3 : tensor<64x128xf32>
  }
}
