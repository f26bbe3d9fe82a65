module {
  sdy.mesh @mesh = <["model"=1, "batch"=2]>
  func.func public @abs(%arg0: tensor<32x48x24x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>, ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<unsharded>}) -> (tensor<32x48x24x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"batch"}, {}, {}, {}]>] out_shardings=[<@mesh, [{"batch"}, {}, {}, {}]>] manual_axes={"model", "batch"} (%arg1: tensor<16x48x24x32xf32>) {
      %1 = stablehlo.abs %arg1 : tensor<16x48x24x32xf32>
      sdy.return %1 : tensor<16x48x24x32xf32>
    } : (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>
    return %0 : tensor<32x48x24x32xf32>
  }
}
