// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline="mesh-shape=1,2" | FileCheck %s
// RUN: not ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline="mesh-shape=2,4" 2>&1 | FileCheck %s --check-prefix=MISMATCH

// TTIR without ttcore.meshes takes its mesh from mesh-shape (tt-mlir's determineMeshShape): the
// program is one for a 1x2 mesh. A module that has a mesh must agree with mesh-shape.
// CHECK: module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>}
// CHECK: "ttnn.add"
module {
  func.func @f(%a: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.add"(%a, %a) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.multiply"(%0, %a) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %1 : tensor<32x32xbf16>
  }
}

// -----

// MISMATCH: error: ttir-to-ttnn-backend-pipeline: mesh-shape 2x4 does not match the program: the module's mesh is 1x2
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @g(%a: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.add"(%a, %a) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.multiply"(%0, %a) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %1 : tensor<32x32xbf16>
  }
}
