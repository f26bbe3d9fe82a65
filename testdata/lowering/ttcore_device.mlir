// RUN: ttopt opt %s --split-input-file --ttcore-register-device --ttcore-mark-functions-as-forward | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttcore-register-device="system-desc-path=blackhole mesh-shape=1,2 mesh-topology=ring,linear" | FileCheck %s --check-prefix=MESH
// RUN: not ttopt opt %s --ttcore-register-device="system-desc-path=/tmp/system_desc.ttsys" 2>&1 | FileCheck %s --check-prefix=PATH
// RUN: ttopt opt %s --split-input-file --ttcore-register-device="system-desc-path=%S/chip_7x8.yaml" | FileCheck %s --check-prefix=FILE

// The mock wormhole_b0 system desc becomes a module attribute (aliased as tt-mlir prints it), the
// device symbol comes first in the module, public functions are tagged as forward functions.
// CHECK: #system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 8x8,
// CHECK-SAME: l1_unreserved_base = 1024,
// CHECK-SAME: [0], [1 : i32], [ 0x0x0x0]>
// CHECK: module attributes {ttcore.system_desc = #system_desc} {
// CHECK-NEXT: ttcore.device @default_device = <workerGrid = #ttcore.grid<8x8,
// CHECK-SAME: dramGrid = #ttcore.grid<1x12>
// CHECK-SAME: meshShape = , chipIds = [0]>
// CHECK: func.func @forward({{.*}}) -> tensor<32x32xbf16> attributes {tt.function_type = "forward_device"}
// CHECK: func.func private @helper
// CHECK-NOT: tt.function_type
// CHECK: }
// MESH: arch = <blackhole>, grid = 10x13
// MESH-SAME: [0, 0], [1 : i32, 1 : i32], [ 0x0x0x0,  0x0x0x1]>
// MESH: meshShape = 1x2, chipIds = [0, 1], meshTopology = [ring, linear]>
// A ttopt device file stands for tt-mlir's captured system desc: its chip 0 is registered.
// FILE: #system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <wormhole_b0>, grid = 7x8, coord_translation_offsets = 18x18, l1_size = 1499136,
// FILE-SAME: l1_unreserved_base = 101152,
// FILE: ttcore.device @default_device = <workerGrid = #ttcore.grid<7x8,
// PATH: system-desc-path: '/tmp/system_desc.ttsys' is neither a device preset (wormhole_b0, n150, blackhole) nor a file
func.func @forward(%arg0: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
  %0 = call @helper(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %0 : tensor<32x32xbf16>
}
func.func private @helper(%arg0: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
  return %arg0 : tensor<32x32xbf16>
}

// -----

// A module that has a device keeps it; a function already typed keeps its type.
// CHECK: ttcore.device @default_device = <workerGrid = #ttcore.grid<4x4>>
// CHECK-NOT: ttcore.device @
// CHECK: func.func @const_eval_0() -> tensor<2xf32> attributes {tt.function_type = "const_eval"}
module {
  ttcore.device @default_device = <workerGrid = #ttcore.grid<4x4>>
  func.func @const_eval_0() -> tensor<2xf32> attributes {tt.function_type = "const_eval"} {
    %0 = "ttir.constant"() <{value = dense<1.000000e+00> : tensor<2xf32>}> : () -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
