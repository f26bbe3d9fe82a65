// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-fusing-pass=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2" --verify-each | ttopt opt --ttnn-optimizer --verify-l1-budget -o %t
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="deallocate=false" | FileCheck %s --check-prefix=NODEALLOC

// TTIR -> TTNN without the optimizer (optimization-level=0): every tensor tiled, DRAM interleaved;
// one get_device for the conv; dot_general -> matmul; a broadcast read only by an elementwise op is
// its implicit broadcast; conv2d reads and writes the flattened NHWC form through reshapes, its
// input row-major (HEAD's conv workaround without the optimizer); each intermediate is deallocated
// after its last reader, arguments and results are not. The permute read by a slice and a concat
// moves below both (erase-inverse-ops).

// CHECK-DAG: #[[X:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <1x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
// CHECK: func.func @forward(%arg0: tensor<1x32x64xbf16, #[[X]]>
// CHECK-NEXT: %[[DEV:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
// CHECK-NEXT: %[[R:.*]] = "ttnn.reshape"(%arg0) <{shape = [32 : i32, 64 : i32]}>
// CHECK-NEXT: %[[MM:.*]] = "ttnn.matmul"(%[[R]], %arg1) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, transpose_a = false, transpose_b = false}>
// CHECK: %[[B:.*]] = "ttnn.reshape"(%arg2) <{shape = [1 : i32, 128 : i32]}>
// CHECK-NOT: ttnn.repeat
// CHECK-NEXT: %[[ADD:.*]] = "ttnn.add"(%[[MM]], %[[B]]) : (tensor<32x128xbf16, {{.*}}>, tensor<1x128xbf16, {{.*}}>) -> tensor<32x128xbf16
// CHECK: "ttnn.softmax"({{.*}}) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, dimension = -1 : si32, numericStable = false}>
// CHECK: "ttnn.typecast"({{.*}}) : (tensor<32x128xbf16, {{.*}}>) -> tensor<32x128xf32
// CHECK: %[[FLAT:.*]] = "ttnn.reshape"(%arg3) <{shape = [1 : i32, 1 : i32, 256 : i32, 32 : i32]}>
// CHECK-NEXT: %[[RM:.*]] = "ttnn.to_layout"(%[[FLAT]])
// CHECK: %[[CONV:.*]] = "ttnn.conv2d"(%[[RM]], %arg4, %[[DEV]]) <{batch_size = 1 : i32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, dilation = array<i32: 1, 1>, groups = 1 : i32, in_channels = 32 : i32, input_height = 16 : i32, input_width = 16 : i32, kernel_size = array<i32: 3, 3>, out_channels = 64 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>}> {{.*}} -> tensor<1x1x64x64xbf16
// CHECK: "ttnn.reshape"(%[[CONV]]) <{shape = [1 : i32, 8 : i32, 8 : i32, 64 : i32]}>
// CHECK: "ttnn.sum"({{.*}}) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, dim_arg = [1 : i32], keep_dim = false}>
// CHECK: %[[S:.*]] = "ttnn.slice_static"(%[[R]])
// CHECK: %[[C:.*]] = "ttnn.concat"(%[[S]], %[[S]]) <{dim = 1 : si32}>
// CHECK: "ttnn.permute"(%[[C]]) <{permutation = array<i64: 1, 0>}>
// CHECK: "ttnn.deallocate"
// CHECK-NOT: "ttnn.deallocate"(%arg
// CHECK: return
// NODEALLOC-NOT: ttnn.deallocate

// With ttir-fusing (enable-fusing-pass, on by default as at HEAD) the matmul and its bias add are
// one ttnn.linear reading the bias argument as it is.
// FUSED: %[[R:.*]] = "ttnn.reshape"(%arg0) <{shape = [32 : i32, 64 : i32]}>
// FUSED-NEXT: "ttnn.linear"(%[[R]], %arg1, %arg2) <{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>, transpose_a = false, transpose_b = false}> : (tensor<32x64xbf16, {{.*}}>, tensor<64x128xbf16, {{.*}}>, tensor<128xbf16, {{.*}}>) -> tensor<32x128xbf16
// FUSED-NOT: "ttnn.add"
// FUSED: "ttnn.relu"

module {
  func.func @forward(%x: tensor<1x32x64xbf16>, %w: tensor<64x128xbf16>, %b: tensor<128xbf16>, %img: tensor<1x16x16x32xbf16>, %k: tensor<64x32x3x3xbf16>) -> (tensor<32x128xf32>, tensor<1x8x8x64xbf16>, tensor<32xbf16>, tensor<64x32xbf16>) {
    %0 = "ttir.reshape"(%x) <{shape = [32 : i32, 64 : i32]}> : (tensor<1x32x64xbf16>) -> tensor<32x64xbf16>
    %1 = "ttir.dot_general"(%0, %w) <{batch_dims_lhs = array<i64>, contract_dims_lhs = array<i64: 1>, batch_dims_rhs = array<i64>, contract_dims_rhs = array<i64: 0>}> : (tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>
    %2 = "ttir.reshape"(%b) <{shape = [1 : i32, 128 : i32]}> : (tensor<128xbf16>) -> tensor<1x128xbf16>
    %3 = "ttir.broadcast"(%2) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x128xbf16>) -> tensor<32x128xbf16>
    %4 = "ttir.add"(%1, %3) : (tensor<32x128xbf16>, tensor<32x128xbf16>) -> tensor<32x128xbf16>
    %5 = "ttir.relu"(%4) : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
    %6 = "ttir.softmax"(%5) <{dimension = -1 : si32}> : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
    %7 = "ttir.typecast"(%6) : (tensor<32x128xbf16>) -> tensor<32x128xf32>
    %8 = "ttir.conv2d"(%img, %k) <{stride = array<i32: 2, 2>, padding = array<i32: 1, 1, 1, 1>, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>) -> tensor<1x8x8x64xbf16>
    %9 = "ttir.sum"(%5) <{keep_dim = false, dim_arg = [1 : i32]}> : (tensor<32x128xbf16>) -> tensor<32xbf16>
    %10 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xbf16>) -> tensor<64x32xbf16>
    %11 = "ttir.slice_static"(%10) <{begins = [0 : i32, 0 : i32], ends = [32 : i32, 32 : i32], step = [1 : i32, 1 : i32]}> : (tensor<64x32xbf16>) -> tensor<32x32xbf16>
    %12 = "ttir.concat"(%11, %11) <{dim = 0 : si32}> : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<64x32xbf16>
    return %7, %8, %9, %12 : tensor<32x128xf32>, tensor<1x8x8x64xbf16>, tensor<32xbf16>, tensor<64x32xbf16>
  }
}
