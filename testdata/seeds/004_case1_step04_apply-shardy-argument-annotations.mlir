// Source: shared/seeds/004_4528d788b7b6291b.txt, section "2.1 Case 1", block after "4. (apply-shardy-argument-annotations)".
// Added by testdata/seeds/extract.py: the `module {` line and the closing `}`
// (the seed gives bare top-level ops). The IR lines in between are verbatim.
module {
sdy.mesh @mesh = <["model"=1, "batch"=2]>
func.func public @abs(%arg0: tensor<32x48x24x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>, ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<unsharded>}) -> tensor<32x48x24x32xf32> {
  %0 = stablehlo.abs %arg0 : tensor<32x48x24x32xf32>
  return %0 : tensor<32x48x24x32xf32>
}
}
