// RUN: ttopt opt %s | FileCheck %s
// RUN: ttopt opt %s -o %t && ttopt opt %t | diff %t -

// MLIR's file-metadata block (torch-mlir / tt-mlir constants stored as resource blobs) is kept
// as data and printed back last, in MLIR's format; `dense_resource<key>` refers into it.

// CHECK:      %cst = stablehlo.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
// CHECK:      {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       torch_tensor_2_torch.float32: "0x040000000000803F00000040",
// CHECK-NEXT:       "quoted key": "0x04000000"
// CHECK-NEXT:     }
// CHECK-NEXT:   },
// CHECK-NEXT:   external_resources: {
// CHECK-NEXT:     mlir_reproducer: {
// CHECK-NEXT:       pipeline: "builtin.module(canonicalize)",
// CHECK-NEXT:       disable_threading: false
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
module {
  func.func @main() -> tensor<2xf32> {
    %0 = stablehlo.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
{-# dialect_resources: { builtin: { torch_tensor_2_torch.float32: "0x040000000000803F00000040",
    "quoted key": "0x04000000" } },
  external_resources: { mlir_reproducer: { pipeline: "builtin.module(canonicalize)", disable_threading: false } } #-}
