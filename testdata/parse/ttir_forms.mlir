// RUN: ttopt opt %s | FileCheck %s
// RUN: ttopt opt %s -o %t && ttopt opt %t | diff %t -
// RUN: ttopt opt %s --mlir-print-op-generic | ttopt opt | FileCheck %s
// RUN: ttopt opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// TTIR / TTCore custom assembly as tt-mlir prints it (TTIROps.td, TTCoreOps.td): to_layout with
// and without hostInfo, load_cached with one, several and no results, ttnn_metal_layout_cast,
// and tensor.empty as a destination. Spellings MLIR accepts but never prints are
// read and printed canonically: spaced shapes and spaced per-axis quantization parameters.

// GENERIC: "ttcore.load_cached"(%arg0, %arg1) <{callee = @f_const_eval_0}> : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
// GENERIC: "ttir.to_layout"(%4, %5) <{layout = #host}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// GENERIC: "ttir.ttnn_metal_layout_cast"(%8) : (tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout>) -> tensor<32x32xf32>

// CHECK-LABEL: func.func @f(
// CHECK-NEXT: %0 = ttcore.load_cached(@f_const_eval_0, [%arg0, %arg1]) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
// CHECK-NEXT: %1:2 = ttcore.load_cached(@f_const_eval_1, [%arg0, %arg1]) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> (tensor<32x32xbf16>, tensor<32x32xbf16>)
// CHECK-NEXT: %2 = ttcore.load_cached(@f_const_eval_2, []) : () -> tensor<32x32xbf16>
// CHECK-NEXT: %3 = tensor.empty() : tensor<32x32xf32>
// CHECK-NEXT: %4 = ttir.to_layout %0, %3 : tensor<32x32xbf16> into tensor<32x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT: %5 = ttir.empty() : tensor<32x32xf32>
// CHECK-NEXT: %6 = ttir.to_layout %4, %5 : tensor<32x32xf32> into tensor<32x32xf32> hostInfo = #host -> tensor<32x32xf32>
// CHECK-NEXT: %7 = ttir.empty() : tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout>
// CHECK-NEXT: %8 = ttir.to_layout %6, %7 : tensor<32x32xf32> into tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout> {note = 1 : i64} -> tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout>
// CHECK-NEXT: %9 = ttir.ttnn_metal_layout_cast %8 : tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<32x32xf32>
// CHECK-NEXT: return %9 : tensor<32x32xf32>

// CHECK-LABEL: func.func @canonical_spellings(
// CHECK-SAME: %arg0: tensor<3x!quant.uniform<i32:f32:0, {2.000000e-02:10,1.000000e-02:20,5.000000e-03:30}>>, %arg1: tensor<64x31xbf16>)
// CHECK-NEXT: %0 = "ttir.dequantize"(%arg0) : (tensor<3x!quant.uniform<i32:f32:0, {2.000000e-02:10,1.000000e-02:20,5.000000e-03:30}>>) -> tensor<3xf32>
// CHECK-NEXT: %1 = "ttir.abs"(%arg1) : (tensor<64x31xbf16>) -> tensor<64x31xbf16>

#host = #ttcore.memory_space<system>
#layout = #ttcore.metal_layout<logical_shape = 32x32, dim_alignments = 32x32, collapsed_intervals = dense<[[0, -1]]> : tensor<1x2xi64>, l1, sharded>
module {
  func.func @f(%arg0: tensor<32x32xbf16>, %arg1: tensor<32x32xbf16>) -> tensor<32x32xf32> {
    %0 = ttcore.load_cached(@f_const_eval_0, [%arg0, %arg1]) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1:2 = ttcore.load_cached(@f_const_eval_1, [%arg0, %arg1]) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> (tensor<32x32xbf16>, tensor<32x32xbf16>)
    %2 = ttcore.load_cached(@f_const_eval_2, []) : () -> (tensor<32x32xbf16>)
    %3 = tensor.empty() : tensor<32x32xf32>
    %4 = ttir.to_layout %0, %3 : tensor<32x32xbf16> into tensor<32x32xf32> -> tensor<32x32xf32>
    %5 = ttir.empty() : tensor<32x32xf32>
    %6 = ttir.to_layout %4, %5 : tensor<32x32xf32> into tensor<32x32xf32> hostInfo = #host -> tensor<32x32xf32>
    %7 = ttir.empty() : tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout>
    %8 = ttir.to_layout %6, %7 : tensor<32x32xf32> into tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout> {note = 1} -> tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout>
    %9 = ttir.ttnn_metal_layout_cast %8 : tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #layout> -> tensor<32x32xf32>
    return %9 : tensor<32x32xf32>
  }
  func.func @canonical_spellings(%arg0: tensor<3x!quant.uniform<i32:f32:0, {2.000000e-02:10, 1.000000e-02:20, 5.000000e-03:30}>>, %arg1: tensor<64 x 31 x bf16>) -> tensor<64x31xbf16> {
    %0 = "ttir.dequantize"(%arg0) : (tensor<3x!quant.uniform<i32:f32:0, {2.000000e-02:10,1.000000e-02:20,5.000000e-03:30}>>) -> tensor<3xf32>
    %1 = "ttir.abs"(%arg1) : (tensor<64x31xbf16>) -> tensor<64 x 31 x bf16>
    return %1 : tensor<64x31xbf16>
  }
}
