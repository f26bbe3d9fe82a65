// Source: shared/seeds/004_4528d788b7b6291b.txt, section "2.6 Case 6", block after "10. (reshard-to-collectives)" (last IR shown for this case = final state).
// Added by testdata/seeds/extract.py: the `module {` line and the closing `}`
// (the seed gives bare top-level ops). The IR lines in between are verbatim.
module {
sdy.mesh @mesh = <["x"=1, "y"=2]>
func.func public @main(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, ttcore.shard_status = #ttcore.shard_status<sharded>}) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {"x"}]>] manual_axes={} (%arg1: tensor<32x32xf32>) {
    %1 = sdy.all_gather [{"x"}, {"y"}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<32x32xf32>
    %2 = sdy.all_slice [{"y"}, {}] %1 out_sharding=<@mesh, [{"y"}, {}]> : tensor<32x32xf32>
    sdy.return %2 : tensor<32x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
}
