// RUN: ttopt opt %s --ttnn-common-to-runtime-pipeline | FileCheck %s
// RUN: ttopt opt %s --ttnn-common-to-runtime-pipeline | ttopt opt - | FileCheck %s
// The host functions of a ttcore.cpu_module, as HEAD's hoisting writes them, become LLVM-dialect
// functions with MLIR's memref calling convention and their `_helper` wrappers (HEAD's
// test/ttmlir/Dialect/TTNN/cpu_hoisted_const_eval checks; see docs/lowering.md). The device module
// is left alone.

// CHECK: ttcore.device_module {
// CHECK: func.func @forward
// CHECK: "ttnn.add"
// CHECK: ttcore.cpu_module {
// CHECK: builtin.module {
// CHECK: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK: llvm.func @cpu_hoisted_const_eval_0c1d2e3f(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !llvm.ptr, %arg8: !llvm.ptr, %arg9: i64, %arg10: i64, %arg11: i64, %arg12: i64, %arg13: i64) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> attributes {arg_ranks = [2, 2], func_hash = "0c1d2e3f", result_ranks = [2], tt.function_type = "forward_cpu"} {
// CHECK: "llvm.fsub"
// CHECK-NOT: ttir.
// CHECK: llvm.func @cpu_hoisted_const_eval_4a5b6c7d(
// CHECK-SAME: -> !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>
// CHECK: "llvm.call"({{.*}}) <{callee = @free
// CHECK: llvm.func @cpu_hoisted_const_eval_0c1d2e3f_helper(%arg0: !llvm.ptr) -> !llvm.ptr {
// CHECK: llvm.func @cpu_hoisted_const_eval_4a5b6c7d_helper(%arg0: !llvm.ptr) -> !llvm.ptr {
module {
  ttcore.device_module {
    builtin.module {
      func.func @forward(%arg0: tensor<32x32xbf16>, %arg1: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
        %0 = "ttnn.add"(%arg0, %arg1) <{dtype = #ttcore.supportedDataTypes<bf16>}> : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
        return %0 : tensor<32x32xbf16>
      }
    }
  }
  ttcore.cpu_module {
    builtin.module {
      func.func @cpu_hoisted_const_eval_0c1d2e3f(%arg0: tensor<32x32xf32> {bufferization.access = "read"}, %arg1: tensor<32x32xf32> {bufferization.access = "read"}) -> tensor<32x32xf32> attributes {arg_ranks = [2, 2], func_hash = "0c1d2e3f", result_ranks = [2], tt.function_type = "forward_cpu"} {
        %0 = "ttir.subtract"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
        return %0 : tensor<32x32xf32>
      }
      func.func @cpu_hoisted_const_eval_4a5b6c7d(%arg0: tensor<64x32xf32> {bufferization.access = "read"}) -> (tensor<32x64xf32>, tensor<64xf32>) attributes {arg_ranks = [2], func_hash = "4a5b6c7d", result_ranks = [2, 1], tt.function_type = "forward_cpu"} {
        %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
        %1 = "ttir.multiply"(%0, %0) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
        %2 = "ttir.sum"(%1) <{dim_arg = [0 : i32], keep_dim = false}> : (tensor<32x64xf32>) -> tensor<64xf32>
        %3 = "ttir.rsqrt"(%2) : (tensor<64xf32>) -> tensor<64xf32>
        return %0, %3 : tensor<32x64xf32>, tensor<64xf32>
      }
    }
  }
}
