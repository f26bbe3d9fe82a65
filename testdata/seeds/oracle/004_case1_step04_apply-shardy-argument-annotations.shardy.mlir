module {
  sdy.mesh @mesh = <["model"=1, "batch"=2]>
  func.func public @abs(%arg0: tensor<32x48x24x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>, ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<unsharded>}) -> (tensor<32x48x24x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>}) {
    %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}, {}]>]>} : tensor<32x48x24x32xf32>
    return %0 : tensor<32x48x24x32xf32>
  }
}
