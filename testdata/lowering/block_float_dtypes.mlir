// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="experimental-kv-cache-dtype=bfp_bf8 experimental-weight-dtype=bfp_bf8" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="experimental-weight-dtype=bfp_bf4" | FileCheck %s --check-prefix=BF4
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=OFF
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="experimental-kv-cache-dtype=bfp_bf2" 2>&1 | FileCheck %s --check-prefix=BAD

// The argument fill_cache writes is a KV cache ({ttcore.kv_cache}, always marked); with
// experimental-kv-cache-dtype it is stored as bfp_bf8 tiles (the tensor's element type is the
// tile, as tt-mlir's type factory makes it) and what is written into it is cast first (after the
// fill_cache workaround pads its 3 rows to a whole tile). The parameter-only matmul weight is cast
// in const-eval (bfp_bf4: on the host).

// CHECK: #[[CACHE:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}memref<64x16x!ttcore.tile<32x32, bfp_bf8>, #dram>, <interleaved>>
// CHECK-LABEL: func.func private @forward_const_eval_0(
// CHECK: "ttnn.typecast"
// CHECK-SAME: -> tensor<64x64x!ttcore.tile<32x32, bfp_bf8>
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %arg0: tensor<1x32x64x512x!ttcore.tile<32x32, bfp_bf8>, #[[CACHE]]> {ttcore.kv_cache}
// CHECK: %[[W:.*]] = ttcore.load_cached(@forward_const_eval_0, [%arg3])
// CHECK: %[[PAD:.*]] = "ttnn.pad"(%arg1)
// CHECK: %[[CAST:.*]] = "ttnn.typecast"(%[[PAD]])
// CHECK-SAME: -> tensor<1x32x32x512x!ttcore.tile<32x32, bfp_bf8>
// CHECK: "ttnn.fill_cache"(%arg0, %[[CAST]])
// CHECK: "ttnn.matmul"(%arg2, %[[W]])

// BF4-LABEL: func.func private @forward_const_eval_0(
// BF4: "ttnn.from_device"
// BF4: "ttnn.typecast"
// BF4-SAME: -> tensor<64x64x!ttcore.tile<32x32, bfp_bf4>
// BF4: "ttnn.to_device"
// BF4-LABEL: func.func @forward(
// BF4-SAME: %arg0: tensor<1x32x64x512xbf16, {{.*}}> {ttcore.kv_cache}

// OFF-NOT: !ttcore.tile<32x32, bfp_
// OFF-NOT: typecast

// BAD: experimental-kv-cache-dtype
module {
  func.func @forward(%arg0: tensor<1x32x64x512xbf16>, %arg1: tensor<1x32x3x512xbf16>, %arg2: tensor<64x64xbf16>, %arg3: tensor<64x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<64x64xbf16> {
    "ttir.fill_cache"(%arg0, %arg1) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xbf16>, tensor<1x32x3x512xbf16>) -> ()
    %0 = "ttir.matmul"(%arg2, %arg3) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    return %0 : tensor<64x64xbf16>
  }
}
