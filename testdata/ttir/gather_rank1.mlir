// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s

// A rank-1 gather runs as HEAD's GatherOpRank1RewritePattern leaves it: tt-metal's gather needs
// rank >= 2, so the input and index gain a leading unit dimension, the gather runs on dim + 1
// (a negative dim stays), and the [1, M] result is reshaped back. Rank 2 is unchanged.

// CHECK-LABEL: func.func @rank1
// CHECK: %[[X:.*]] = "ttnn.reshape"(%arg0) <{shape = [1 : i32, 8 : i32]}>
// CHECK: %[[I:.*]] = "ttnn.reshape"(%arg1) <{shape = [1 : i32, 3 : i32]}>
// CHECK: %[[G:.*]] = "ttnn.gather"(%[[X]], %[[I]]) <{dim = 1 : si32}> {{.*}} -> tensor<1x3xf32
// CHECK: "ttnn.reshape"(%[[G]]) <{shape = [3 : i32]}> {{.*}} -> tensor<3xf32
func.func @rank1(%arg0: tensor<8xf32>, %arg1: tensor<3xui32>) -> tensor<3xf32> {
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = 0 : i32}> : (tensor<8xf32>, tensor<3xui32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @rank1_negative_dim
// CHECK: "ttnn.gather"{{.*}}<{dim = -1 : si32}>
func.func @rank1_negative_dim(%arg0: tensor<8xf32>, %arg1: tensor<3xui32>) -> tensor<3xf32> {
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = -1 : i32}> : (tensor<8xf32>, tensor<3xui32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @rank2
// CHECK-NOT: ttnn.reshape
// CHECK: "ttnn.gather"(%arg0, %arg1) <{dim = 0 : si32}>
func.func @rank2(%arg0: tensor<5x3xbf16>, %arg1: tensor<2x3xui32>) -> tensor<2x3xbf16> {
  %0 = "ttir.gather"(%arg0, %arg1) <{dim = 0 : i32}> : (tensor<5x3xbf16>, tensor<2x3xui32>) -> tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}
