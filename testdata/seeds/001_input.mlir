// Source: shared/seeds/001_3a38d2b695216b8e.txt, section "Input IR State (After d2m-fusing Pass)".
// The function body lines are verbatim except for these minimal fixes (the seed snippet is not valid MLIR):
//  * added the `module {` / `}` wrapper and the four attribute aliases below (#l1, #layout,
//    #layout_256x64, #layout_64x64 are used but never defined in the seed; their values are
//    L1-interleaved ttnn_layouts in the syntax of ttnn-optimizer-upstream.md section 1.2;
//    #layout is reused for several shapes exactly as the seed does);
//  * every elided operand-type list `: ... ->` was replaced by the real function type
//    `: (T0, T1) -> T` built from the operand/result types the seed gives;
//  * `%empty` is never defined in the seed: added one `"ttnn.empty"` (with a `ttnn.get_device`)
//    before its use, marked `// added`.
#l1 = #ttnn.buffer_type<l1>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#layout_256x64 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#layout_64x64 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
module {
func.func @dispatch_with_matmul_producer(
    %arg0: tensor<64x128xbf16, #layout>,      // L1 interleaved
    %arg1: tensor<128x256xbf16, #layout>,     // L1 interleaved
    %arg2: tensor<256x64xbf16, #layout_256x64>, // L1 interleaved
    %arg3: tensor<64x256xbf16, #layout>) -> tensor<64x256xbf16, #layout> {

  %0 = "ttnn.matmul"(%arg0, %arg1) : (tensor<64x128xbf16, #layout>, tensor<128x256xbf16, #layout>) -> tensor<64x256xbf16, #layout>
  %1 = "ttnn.exp"(%0) : (tensor<64x256xbf16, #layout>) -> tensor<64x256xbf16, #layout>
  %2 = "ttnn.neg"(%1) : (tensor<64x256xbf16, #layout>) -> tensor<64x256xbf16, #layout>
  %3 = "ttnn.abs"(%2) : (tensor<64x256xbf16, #layout>) -> tensor<64x256xbf16, #layout>
  // After d2m-fusing: exp, neg, abs are fused into dispatch_d2m
  %device = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device  // added
  %empty = "ttnn.empty"(%device) <{shape = #ttnn.shape<64x256>}> : (!ttnn.device) -> tensor<64x256xbf16, #layout>  // added
  %dispatch = "ttnn.dispatch_d2m"(%0, %empty) : (tensor<64x256xbf16, #layout>, tensor<64x256xbf16, #layout>) -> tensor<64x256xbf16, #layout>
  %4 = "ttnn.matmul"(%dispatch, %arg2) : (tensor<64x256xbf16, #layout>, tensor<256x64xbf16, #layout_256x64>) -> tensor<64x64xbf16, #layout_64x64>
  %5 = "ttnn.matmul"(%4, %arg3) : (tensor<64x64xbf16, #layout_64x64>, tensor<64x256xbf16, #layout>) -> tensor<64x256xbf16, #layout>

  return %5 : tensor<64x256xbf16, #layout>
}
}
