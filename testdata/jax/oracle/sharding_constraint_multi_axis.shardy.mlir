module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<32x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>}) {
    %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<32x32xf32>
    %1 = sdy.collective_permute %0 out_sharding=<@mesh, [{"y", "x"}, {}]> : tensor<32x32xf32>
    %2 = sdy.all_to_all [{"y", "x"}: 0->1] %1 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<32x32xf32>
    return %2 : tensor<32x32xf32>
  }
}
