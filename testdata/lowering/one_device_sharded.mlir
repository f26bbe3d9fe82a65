// RUN: ttopt opt %S/../jax/layernorm.mlir --stablehlo-pipeline --convert-to-ttir --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s
// RUN: ttopt opt %S/../jax/layernorm.mlir --stablehlo-pipeline --convert-to-ttir --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=CE

// A sharded program (a 2x4 mesh) has one device: the ttnn.get_device convert-to-ttnn-ccl makes
// with the program's mesh is the one the constants read too; no second, 1x1 device is added.

// The constant comes first: TTIR constants are hoisted to the front (after that device) as
// tt-mlir's canonicalizer hoists them above the mesh_shard ops.
// CHECK-NOT: mesh_shape 1x1
// CHECK: %[[D:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 2x4>}>
// CHECK-NEXT: "ttnn.full"(%[[D]])
// CHECK-NOT: ttnn.get_device
// CHECK: "ttnn.mesh_shard"(%arg0, %[[D]])
// CHECK-NOT: ttnn.get_device
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
