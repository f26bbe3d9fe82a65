// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-implicit-broadcast-folding-pass=false" | FileCheck %s --check-prefix=NOFOLD
// RUN: ttopt opt %s --ttir-to-ttnn-common-pipeline="enable-implicit-broadcast-folding-pass=false" | FileCheck %s --check-prefix=NOFOLD

// The backend pipeline folds a broadcast read only by elementwise ops into their implicit
// broadcast; enable-implicit-broadcast-folding-pass=false keeps it a ttnn.repeat, as HEAD's common
// pipeline runs TTIRImplicitBroadcastFold only under that option. When every operand was a folded
// broadcast the op computes their implicit shape and a ttnn.repeat brings it to the result's.

// CHECK-LABEL: func.func @one_side
// CHECK-NOT: ttnn.repeat
// CHECK: "ttnn.multiply"(%arg0, %arg1) : (tensor<1x16x32xf32, {{.*}}>, tensor<1x1x32xf32, {{.*}}>) -> tensor<1x16x32xf32
// NOFOLD-LABEL: func.func @one_side
// NOFOLD: %[[R:.*]] = "ttnn.repeat"(%arg1) <{repeat_dims = #ttnn.shape<1x16x1>}>
// NOFOLD: "ttnn.multiply"(%arg0, %[[R]])
func.func @one_side(%arg0: tensor<1x16x32xf32>, %arg1: tensor<1x1x32xf32>) -> tensor<1x16x32xf32> {
  %0 = "ttir.broadcast"(%arg1) <{broadcast_dimensions = array<i64: 1, 16, 1>}> : (tensor<1x1x32xf32>) -> tensor<1x16x32xf32>
  %1 = "ttir.multiply"(%arg0, %0) : (tensor<1x16x32xf32>, tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  return %1 : tensor<1x16x32xf32>
}

// CHECK-LABEL: func.func @both_sides
// CHECK: %[[A:.*]] = "ttnn.add"(%arg0, %arg1) : (tensor<1x128xf32, {{.*}}>, tensor<1x128xf32, {{.*}}>) -> tensor<1x128xf32
// CHECK: "ttnn.repeat"(%[[A]]) <{repeat_dims = #ttnn.shape<784x1>}> : (tensor<1x128xf32, {{.*}}>) -> tensor<784x128xf32
// NOFOLD-LABEL: func.func @both_sides
// NOFOLD-COUNT-2: "ttnn.repeat"
// NOFOLD: "ttnn.add"{{.*}} -> tensor<784x128xf32
func.func @both_sides(%arg0: tensor<1x128xf32>, %arg1: tensor<1x128xf32>) -> tensor<784x128xf32> {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 784, 1>}> : (tensor<1x128xf32>) -> tensor<784x128xf32>
  %1 = "ttir.broadcast"(%arg1) <{broadcast_dimensions = array<i64: 784, 1>}> : (tensor<1x128xf32>) -> tensor<784x128xf32>
  %2 = "ttir.add"(%0, %1) : (tensor<784x128xf32>, tensor<784x128xf32>) -> tensor<784x128xf32>
  return %2 : tensor<784x128xf32>
}
