// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | ttopt opt - | FileCheck %s
// A host result going back to the device as an element type TTNN does not hold (si64 here, i1
// likewise) is tilized on the host in the device's type (si32), the layout's dtype: the tilized
// tensor was typed si64 with an si32 layout.

// CHECK: %[[R:[0-9]+]] = call @cpu_hoisted_const_eval_{{[0-9a-f]+}}({{.*}}) {ttir.cpu_hoisted_call}
// CHECK: %[[T:[0-9]+]] = "ttnn.to_layout"(%[[R]]) : (tensor<32x32xsi32, #{{ttnn_layout[0-9]*}}>) -> tensor<32x32xsi32, #[[TILES:ttnn_layout[0-9]*]]>
// CHECK: "ttnn.to_device"(%[[T]], %{{[0-9]+}}) : (tensor<32x32xsi32, #[[TILES]]>, !ttnn.device) -> tensor<32x32xsi32,
// CHECK-NOT: si64
module {
  func.func @f(%arg0: tensor<32x32xsi64> {ttcore.argument_type = #ttcore.argument_type<input>},
               %arg1: tensor<32x32xsi64> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xsi64> {
    %0 = "ttir.neg"(%arg1) : (tensor<32x32xsi64>) -> tensor<32x32xsi64>
    %1 = "ttir.add"(%arg0, %0) : (tensor<32x32xsi64>, tensor<32x32xsi64>) -> tensor<32x32xsi64>
    return %1 : tensor<32x32xsi64>
  }
}
