// Source: shared/seeds/004_4528d788b7b6291b.txt, section "2.1 Case 1", block after "11. (update-global-to-local-shapes)".
// Added by testdata/seeds/extract.py: the `module {` line and the closing `}`
// (the seed gives bare top-level ops). The IR lines in between are verbatim.
module {
sdy.mesh @mesh = <["model"=1, "batch"=2]>
func.func public @abs(%arg0: tensor<32x48x24x32xf32> {ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<unsharded>}) -> tensor<32x48x24x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"batch"}, {}, {}, {}]>] out_shardings=[<@mesh, [{"batch", ?}, {?}, {?}, {?}]>] manual_axes={"model", "batch"} (%arg1: tensor<16x48x24x32xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<16x48x24x32xf32>
    sdy.return %1 : tensor<16x48x24x32xf32>
  } : (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>
  return %0 : tensor<32x48x24x32xf32>
}
}
