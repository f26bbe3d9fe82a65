// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1 override-conv2d-config=conv_a=act_block_h_override#64:deallocate_activation#false" | FileCheck %s

// The conv lowers with an input and an output reshape that keep the conv's location name; the
// override is looked up from the conv (as tt-mlir looks each conv's own name up), so it reaches it.
// CHECK: "ttnn.reshape"
// CHECK: "ttnn.conv2d"{{.*}}conv2d_config = #ttnn.conv2d_config<{{.*}}deallocate_activation = false{{.*}}act_block_h_override = 64
// CHECK: "ttnn.reshape"
module {
  func.func @forward(%arg0: tensor<1x16x16x32xbf16>, %arg1: tensor<32x32x3x3xbf16>) -> tensor<1x16x16x32xbf16> {
    %0 = "ttir.conv2d"(%arg0, %arg1) <{stride = array<i32: 1, 1>, padding = array<i32: 1, 1>, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<32x32x3x3xbf16>) -> tensor<1x16x16x32xbf16> loc("conv_a")
    return %0 : tensor<1x16x16x32xbf16>
  }
}
