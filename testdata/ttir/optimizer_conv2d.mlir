// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-greedy-optimizer=true enable-fusing-pass=false" --mlir-print-debuginfo --verify-each | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 memory-layout-analysis-policy=DFSharding enable-fusing-pass=false" --stats - -o %t | FileCheck %s --check-prefix=DF
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 enable-fusing-pass=false" --stats - -o %t | FileCheck %s --check-prefix=L2
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 memory-layout-analysis-policy=DFSharding enable-fusing-pass=false" | ttopt opt --ttnn-optimizer --verify-l1-budget -o %t

// A conv2d block in TTIR (NHWC, OIHW weights): ttir-flatten-sliding-window puts each conv on TTNN's
// flattened 1x1x(N*H*W)xC form between reshapes and ttir-erase-inverse-ops cancels the pair between
// the convs, so the relu runs on the flat tensor; weights stay on the host, row-major, and (the
// optimizer ran) are prepared by ttnn.prepare_conv2d_weights, in the function itself: they are
// inputs here, not parameters, so nothing is const-evaluated. With the CostBased policy
// (enable-greedy-optimizer) the relu reads the first conv's height-sharded L1 output in place and
// no conversion op is inserted; optimization-level=2 uses the same policy. DFSharding (tt-mlir's
// level-2 policy, chosen by name) reshards once and spills twice. Fusing is off: with it (the
// default) each relu runs inside its conv (conv2d_config activation), and the layouts of that form
// are checked in FUSED below.
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-greedy-optimizer=true" --verify-each | FileCheck %s --check-prefix=FUSED
// FUSED: "ttnn.conv2d"({{.*}}) <{{.*}}conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, activation = <op_type = relu>{{.*}}in_channels = 64 : i32
// FUSED-NOT: "ttnn.relu"({{.*}}) : (tensor<1x28x28x64xbf16
// FUSED: "ttnn.conv2d"({{.*}})
// FUSED: return

// CHECK-DAG: #[[HOST:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 3 + d2, d3), <1x1>, memref<12288x3xbf16, #system_memory>>
// CHECK-DAG: #[[SHARDED:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 800 + d1 * 800 + d2, d3), <25x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>
// CHECK: func.func @forward(%arg0: {{.*}}, %arg1: tensor<64x64x3x3xbf16, #[[HOST]]>, %arg2: tensor<64x64x3x3xbf16, #[[HOST]]>)
// CHECK: %[[W1:.*]] = "ttnn.prepare_conv2d_weights"(%arg1, %{{.*}}) <{{.*}}weights_format = "OIHW"}> : (tensor<64x64x3x3xbf16, #[[HOST]]>, !ttnn.device) -> tensor<1x1x576x64xbf16, {{.*}}> loc("conv1_prepare_conv2d_weight")
// CHECK: %[[C1:.*]] = "ttnn.conv2d"({{.*}}, %[[W1]], {{.*}}) <{{.*}}in_channels = 64 : i32{{.*}}> {{.*}} -> tensor<1x1x784x64xbf16, #[[SHARDED]]> loc("conv1")
// CHECK-NOT: "ttnn.reshape"
// CHECK: "ttnn.relu"(%[[C1]]) : (tensor<1x1x784x64xbf16, #[[SHARDED]]>) {{.*}} loc("relu1")
// CHECK: %[[W2:.*]] = "ttnn.prepare_conv2d_weights"(%arg2, %{{.*}}) {{.*}} loc("conv2_prepare_conv2d_weight")
// CHECK: "ttnn.conv2d"({{.*}}, %[[W2]], {{.*}}) {{.*}} loc("conv2")
// CHECK: "ttnn.reshape"({{.*}}) <{shape = [1 : i32, 28 : i32, 28 : i32, 64 : i32]}> {{.*}} loc("conv2_reshape"("conv2"))
// CHECK-NOT: {{to_layout|to_memory_config}}
// CHECK: return

// L2: "memory_layout_analysis_policy": "CostBased"
// L2: "estimated_ns": 54795.2,
// L2-NEXT: "estimated_ns_before": 63144.9,
// L2: "reshards": 0,
// L2-NEXT: "spills": 0,

// DF: "memory_layout_analysis_policy": "DFSharding"
// DF: "reshards": 1,
// DF-NEXT: "spills": 2,

module {
  func.func @forward(%x: tensor<1x28x28x64xbf16>, %w1: tensor<64x64x3x3xbf16>, %w2: tensor<64x64x3x3xbf16>) -> tensor<1x28x28x64xbf16> {
    %0 = "ttir.conv2d"(%x, %w1) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x28x28x64xbf16>, tensor<64x64x3x3xbf16>) -> tensor<1x28x28x64xbf16> loc("conv1")
    %1 = "ttir.relu"(%0) : (tensor<1x28x28x64xbf16>) -> tensor<1x28x28x64xbf16> loc("relu1")
    %2 = "ttir.conv2d"(%1, %w2) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x28x28x64xbf16>, tensor<64x64x3x3xbf16>) -> tensor<1x28x28x64xbf16> loc("conv2")
    %3 = "ttir.add"(%2, %x) : (tensor<1x28x28x64xbf16>, tensor<1x28x28x64xbf16>) -> tensor<1x28x28x64xbf16> loc("residual")
    return %3 : tensor<1x28x28x64xbf16>
  }
}
