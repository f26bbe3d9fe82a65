module {
  sdy.mesh @mesh = <["x"=1, "y"=2]>
  func.func public @main(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, ttcore.shard_status = #ttcore.shard_status<sharded>}) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"y"}, {"x"}]>] manual_axes={} (%arg1: tensor<32x32xf32>) {
      %1 = sdy.reshard %arg1 <@mesh, [{}, {}]> : tensor<32x32xf32>
      %2 = sdy.reshard %1 <@mesh, [{"y"}, {"x"}]> : tensor<32x32xf32>
      sdy.return %2 : tensor<32x32xf32>
    } : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
