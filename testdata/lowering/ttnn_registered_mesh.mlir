// RUN: ttopt opt %s --ttcore-register-device="mesh-shape=1,2" --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttcore-register-device="mesh-shape=2,1" --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=FOLD

// Without ttcore.meshes the program's mesh is the registered ttcore.device's meshShape, as
// tt-mlir's lookupDevice reads it: the one get_device and the collectives agree on it. On a 2x1
// mesh cluster axis 1 spans one device: the all_reduce folds away (HEAD's folder).
// CHECK: "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x2>}>
// CHECK-NOT: ttnn.get_device
// CHECK: "ttnn.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}>
// FOLD: "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 2x1>}>
// FOLD-NOT: ttnn.all_reduce
// FOLD: "ttnn.add"(%arg0,
module {
  func.func @f(%arg0: tensor<1x1x32x32xbf16>) -> tensor<1x1x32x32xbf16> {
    %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x32xbf16>) -> tensor<1x1x32x32xbf16>
    %1 = "ttir.full"() <{fill_value = 1.0 : f32, shape = array<i32: 1, 1, 32, 32>}> : () -> tensor<1x1x32x32xbf16>
    %2 = "ttir.add"(%0, %1) : (tensor<1x1x32x32xbf16>, tensor<1x1x32x32xbf16>) -> tensor<1x1x32x32xbf16>
    return %2 : tensor<1x1x32x32xbf16>
  }
}
