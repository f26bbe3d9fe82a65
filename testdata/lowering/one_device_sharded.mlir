// RUN: ttopt opt %S/../jax/layernorm.mlir --stablehlo-pipeline --convert-to-ttir --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s
// RUN: ttopt opt %S/../jax/layernorm.mlir --stablehlo-pipeline --convert-to-ttir --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=CE

// A sharded program (a 2x4 mesh) has one device: the ttnn.get_device with the program's mesh is
// the one the constants and the mesh_shard's ttnn.aggregate_tensor read; no second, 1x1 device is
// added. The pre-sharded arguments are read as they are (HEAD has no identity mesh_shard).

// The constant comes first: TTIR constants are hoisted to the front (after that device), as
// tt-mlir's canonicalizer hoists them.
// CHECK-NOT: mesh_shape 1x1
// CHECK: func.func public @main(%arg0: tensor<8x64xf32
// CHECK-NEXT: %[[D:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 2x4>}>
// CHECK-NEXT: "ttnn.full"(%[[D]])
// CHECK-NOT: ttnn.get_device
// CHECK: "ttnn.aggregate_tensor"(%{{.*}}, %[[D]]) <{composer_config = #ttnn.mesh_composer_config<dims = [0 : i32, 1 : i32], mesh_shape_override = [2 : ui32, 1 : ui32]>}>
// CHECK-SAME: -> tensor<16x64xf32
// CHECK: return

// With const-eval the constants move to const-eval functions, each with its copy of the device
// (as tt-mlir duplicates get_device into them); the program still has one device, on the mesh.
// CE-NOT: mesh_shape 1x1
// CE-LABEL: func.func private @main_const_eval_0()
// CE-NEXT: %[[D0:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 2x4>}>
// CE-NEXT: "ttnn.full"(%[[D0]])
// CE-LABEL: func.func public @main(
// CE-NOT: mesh_shape 1x1
// CE: "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 2x4>}>
// CE-NOT: ttnn.get_device
// CE-NOT: mesh_shape 1x1
// CE: return
