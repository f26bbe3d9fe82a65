// Source: shared/seeds/004_4528d788b7b6291b.txt, section "2.4 Case 4", block after "3. (apply-argument-shard-status)".
// Added by testdata/seeds/extract.py: the `module {` line and the closing `}`
// (the seed gives bare top-level ops). The IR lines in between are verbatim.
module {
sdy.mesh @mesh = <["x"=1, "batch"=8]>
func.func public @main(%arg0: tensor<1024x2x32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>, ttcore.shard_status = #ttcore.shard_status<sharded>}) -> (tensor<2048x1024xf32> {jax.result_info = ""}) {
  %0 = stablehlo.reshape %arg0 : (tensor<1024x2x32x32xf32>) -> tensor<2048x1024xf32>
  return %0 : tensor<2048x1024xf32>
}
}
