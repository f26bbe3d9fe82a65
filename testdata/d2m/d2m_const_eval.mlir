// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false optimization-level=2 enable-create-d2m-subgraphs=true" | FileCheck %s

// A chain over parameters is hoisted into its const-eval function first (tt-mlir hoists in TTIR,
// before it outlines), then outlined and compiled there: the forward function only loads it.

module {
  func.func @f(%x: tensor<64x64xbf16>, %w: tensor<64x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %b: tensor<64x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<64x64xbf16> {
    %0 = "ttir.add"(%w, %b) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %1 = "ttir.exp"(%0) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %2 = "ttir.matmul"(%x, %1) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    return %2 : tensor<64x64xbf16>
  }
}

// CHECK-LABEL: func.func private @f_const_eval_0(
// CHECK: "ttnn.generic"
// CHECK-SAME: #ttnn.compute_kernel<symbol_ref = @[[K:compute_kernel[0-9]+]]
// CHECK: "ttnn.generic"
// CHECK: return
// CHECK-LABEL: func.func @f(
// CHECK-NOT: "ttnn.generic"
// CHECK: ttcore.load_cached(@f_const_eval_0
// CHECK: "ttnn.matmul"
// CHECK-NOT: "ttnn.generic"
// CHECK: func.func private @[[K]]()
// CHECK: emitc.call_opaque "add_tiles"
// CHECK: emitc.call_opaque "exp_tile"
