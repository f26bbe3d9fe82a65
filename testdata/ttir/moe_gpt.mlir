// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="mesh-shape=1,4" | FileCheck %s

// ttir.moe_gpt lowers one to one to ttnn.moe_gpt: the six operands, the attributes, five results
// (the routing metadata, then the two staging buffers).
// CHECK-LABEL: func.func @moe
// CHECK: %[[R:.*]]:5 = "ttnn.moe_gpt"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5)
// CHECK-SAME: cluster_axis = 0 : ui32, hidden_size = 2880 : ui32, output_height_shard_dim = 4 : ui32, output_width_shard_dim = 3 : ui32
// CHECK-SAME: -> (tensor<1x16xui32, {{.*}}>, tensor<1x512xui32, {{.*}}>, tensor<4x129xui32, {{.*}}>, tensor<12x2x32x2880xbf16, {{.*}}>, tensor<12x2x32x2880xbf16, {{.*}}>)
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
  func.func @moe(%x: tensor<128x2880xbf16>, %i: tensor<128x4xui16>, %s: tensor<128x4xbf16>, %m: tensor<1x16xui16>, %a: tensor<12x1x4x4x2880x128xbf16>, %b: tensor<12x1x4x2x2880x128xbf16>) -> (tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>) {
    %0, %1, %2, %3, %4 = "ttir.moe_gpt"(%x, %i, %s, %m, %a, %b) <{output_height_shard_dim = 4 : ui32, output_width_shard_dim = 3 : ui32, hidden_size = 2880 : ui32, cluster_axis = 0 : ui32}> : (tensor<128x2880xbf16>, tensor<128x4xui16>, tensor<128x4xbf16>, tensor<1x16xui16>, tensor<12x1x4x4x2880x128xbf16>, tensor<12x1x4x2x2880x128xbf16>) -> (tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>, tensor<12x2x32x2880xbf16>, tensor<12x2x32x2880xbf16>)
    return %0, %1, %2 : tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>
  }
}
