module {
  sdy.mesh @mesh = <["x"=1, "y"=2]>
  func.func public @main(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, ttcore.shard_status = #ttcore.shard_status<sharded>}) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {}]> : tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
