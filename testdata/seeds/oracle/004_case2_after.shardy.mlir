module {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<1x1024x128x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {"y"}]>, ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<unsharded>}) -> (tensor<1x1024x128x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {"y"}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {"x"}, {}, {"y"}]>] out_shardings=[<@mesh, [{}, {"x"}, {}, {"y"}]>] manual_axes={"y", "x"} (%arg1: tensor<1x512x128x256xf32>) {
      %1 = stablehlo.negate %arg1 : tensor<1x512x128x256xf32>
      sdy.return %1 : tensor<1x512x128x256xf32>
    } : (tensor<1x1024x128x1024xf32>) -> tensor<1x1024x128x1024xf32>
    return %0 : tensor<1x1024x128x1024xf32>
  }
}
