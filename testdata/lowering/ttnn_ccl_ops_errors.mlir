// RUN: not ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline 2>&1 | FileCheck %s

// A collective without an attribute tt-mlir's TTIR op requires is an error at the op, in its verifier's words.
// CHECK: ttnn_ccl_ops_errors.mlir:[[# @LINE + 5]]:14: error: 'ttir.all_reduce' op requires attribute 'cluster_axis'
module @tp attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  ttcore.device_module {
    builtin.module @tp {
      func.func @main(%arg0: tensor<32x128xbf16>) -> tensor<32x128xbf16> {
        %0 = "ttir.all_reduce"(%arg0) <{reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
        return %0 : tensor<32x128xbf16>
      }
    }
  }
}

// -----

// distributed_rms_norm's segments must match its operands.
// CHECK: ttnn_ccl_ops_errors.mlir:[[# @LINE + 5]]:14: error: 'ttir.distributed_rms_norm' op operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'
module @tp attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  ttcore.device_module {
    builtin.module @tp {
      func.func @main(%arg0: tensor<32x128xbf16>, %arg1: tensor<128xbf16>) -> tensor<32x128xbf16> {
        %0 = "ttir.distributed_rms_norm"(%arg0, %arg1) <{cluster_axis = 1 : ui32, epsilon = 1.000000e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<32x128xbf16>, tensor<128xbf16>) -> tensor<32x128xbf16>
        return %0 : tensor<32x128xbf16>
      }
    }
  }
}
