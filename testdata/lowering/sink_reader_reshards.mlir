// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 memory-layout-analysis-policy=GreedyL1Interleaved" | FileCheck %s --check-prefix=HEAD
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" | FileCheck %s --check-prefix=NOL1

// A producer read only by an op the optimizer does not place goes to L1 sharded, as tt-mlir HEAD's
// greedy optimizer puts it, and reaches the reader through the memory config the reader takes:
// ttnn.adamw one to_memory_config to DRAM interleaved; ttnn.sdpa_fw one to L1 interleaved, then
// one to DRAM interleaved (ttopt cannot tell sdpa_fw's L1 needs: the L1 tensor is spilled first).
// GreedyL1Interleaved follows HEAD's unpriced choice (HEAD prefix). CostBased, level 2's default, estimates
// the L1 producer plus its reshards slower than the producer in DRAM and keeps it there (CHECK).
module {
  // HEAD-LABEL: func.func @grad_from_add
  // HEAD: %[[ADD:[0-9]+]] = "ttnn.add"{{.*}} -> tensor<1x1x128x128xbf16, #[[SH:ttnn_layout[0-9]*]]>
  // HEAD-NEXT: %[[R:[0-9]+]] = "ttnn.to_memory_config"(%[[ADD]]) : (tensor<1x1x128x128xbf16, #[[SH]]>) -> tensor<1x1x128x128xbf16, #[[D:ttnn_layout[0-9]*]]>
  // HEAD: "ttnn.adamw"(%arg0, %[[R]], %arg3, %arg4)
  // CHECK-LABEL: func.func @grad_from_add
  // CHECK: %[[ADD:[0-9]+]] = "ttnn.add"
  // CHECK-NOT: "ttnn.to_memory_config"
  // CHECK: "ttnn.adamw"(%arg0, %[[ADD]], %arg3, %arg4)
  // NOL1-LABEL: func.func @grad_from_add
  // NOL1-NOT: "ttnn.to_memory_config"
  // NOL1: "ttnn.adamw"
  func.func @grad_from_add(%p: tensor<1x1x128x128xbf16>, %g0: tensor<1x1x128x128xbf16>, %g1: tensor<1x1x128x128xbf16>,
                           %m: tensor<1x1x128x128xbf16>, %v: tensor<1x1x128x128xbf16>) -> tensor<1x1x128x128xbf16> {
    %g = "ttir.add"(%g0, %g1) : (tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>) -> tensor<1x1x128x128xbf16>
    %0:3 = "ttir.adamw"(%p, %g, %m, %v) <{lr = 1.000000e-03 : f32, beta1 = 0.899999976 : f32, beta2 = 0.999000012 : f32,
        beta1_pow = 0.899999976 : f32, beta2_pow = 0.999000012 : f32, epsilon = 1.000000e-08 : f32, weight_decay = 1.000000e-02 : f32}>
        : (tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>)
        -> (tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>, tensor<1x1x128x128xbf16>)
    return %0#0 : tensor<1x1x128x128xbf16>
  }

  // A typecast's output follows its input in HEAD (null output hint): it stays in DRAM.
  // CHECK-LABEL: func.func @grad_from_typecast
  // CHECK: %[[T:[0-9]+]] = "ttnn.typecast"
  // CHECK-NOT: "ttnn.to_memory_config"
  // CHECK: "ttnn.adamw"(%arg0, %[[T]],
  func.func @grad_from_typecast(%p: tensor<1x1x64x64xf32>, %g: tensor<1x1x64x64xf32>, %m: tensor<1x1x64x64xf32>,
                                %v: tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32> {
    %0:3 = "ttir.adamw"(%p, %g, %m, %v) <{lr = 1.000000e-03 : f32, beta1 = 0.899999976 : f32, beta2 = 0.999000012 : f32,
        beta1_pow = 0.899999976 : f32, beta2_pow = 0.999000012 : f32, epsilon = 1.000000e-08 : f32, weight_decay = 1.000000e-02 : f32}>
        : (tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>)
        -> (tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>)
    return %0#0 : tensor<1x1x64x64xf32>
  }

  // HEAD-LABEL: func.func @query_from_subtract
  // HEAD: %[[S:[0-9]+]] = "ttnn.subtract"{{.*}} -> tensor<1x4x64x64xbf16, #[[QS:ttnn_layout[0-9]*]]>
  // HEAD-NEXT: %[[I:[0-9]+]] = "ttnn.to_memory_config"(%[[S]]) : (tensor<1x4x64x64xbf16, #[[QS]]>) -> tensor<1x4x64x64xbf16, #[[LI:ttnn_layout[0-9]*]]>
  // HEAD: %[[Q:[0-9]+]] = "ttnn.to_memory_config"(%[[I]]) : (tensor<1x4x64x64xbf16, #[[LI]]>) -> tensor<1x4x64x64xbf16, #[[QD:ttnn_layout[0-9]*]]>
  // HEAD: "ttnn.sdpa_fw"(%[[Q]], %arg2, %arg3)
  // HEAD-SAME: (tensor<1x4x64x64xbf16, #[[QD]]>,
  // CHECK-LABEL: func.func @query_from_subtract
  // CHECK: %[[S:[0-9]+]] = "ttnn.subtract"
  // CHECK-NOT: "ttnn.to_memory_config"
  // CHECK: "ttnn.sdpa_fw"(%[[S]], %arg2, %arg3)
  func.func @query_from_subtract(%q0: tensor<1x4x64x64xbf16>, %q1: tensor<1x4x64x64xbf16>, %k: tensor<1x4x64x64xbf16>,
                                 %v: tensor<1x4x64x64xbf16>) -> tensor<1x4x64x64xbf16> {
    %q = "ttir.subtract"(%q0, %q1) : (tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>) -> tensor<1x4x64x64xbf16>
    %o = "ttir.sdpa_fw"(%q, %k, %v) <{mask_type = #ttcore.attention_mask_type<causal>, dropout_probability = 0.000000e+00 : f32,
        return_intermediates = false}> : (tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>) -> tensor<1x4x64x64xbf16>
    return %o : tensor<1x4x64x64xbf16>
  }

  // Read by the sink and by another op: the producer keeps the policy's layout.
  // CHECK-LABEL: func.func @two_readers
  // CHECK-NOT: "ttnn.to_memory_config"
  // CHECK: return
  func.func @two_readers(%p: tensor<1x1x64x64xbf16>, %g0: tensor<1x1x64x64xbf16>, %m: tensor<1x1x64x64xbf16>,
                         %v: tensor<1x1x64x64xbf16>) -> (tensor<1x1x64x64xbf16>, tensor<1x1x64x64xbf16>) {
    %g = "ttir.exp"(%g0) : (tensor<1x1x64x64xbf16>) -> tensor<1x1x64x64xbf16>
    %0:3 = "ttir.adamw"(%p, %g, %m, %v) <{lr = 1.000000e-03 : f32, beta1 = 0.899999976 : f32, beta2 = 0.999000012 : f32,
        beta1_pow = 0.899999976 : f32, beta2_pow = 0.999000012 : f32, epsilon = 1.000000e-08 : f32, weight_decay = 1.000000e-02 : f32}>
        : (tensor<1x1x64x64xbf16>, tensor<1x1x64x64xbf16>, tensor<1x1x64x64xbf16>, tensor<1x1x64x64xbf16>)
        -> (tensor<1x1x64x64xbf16>, tensor<1x1x64x64xbf16>, tensor<1x1x64x64xbf16>)
    return %0#0, %g : tensor<1x1x64x64xbf16>, tensor<1x1x64x64xbf16>
  }
}
