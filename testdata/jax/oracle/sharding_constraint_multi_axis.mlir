module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32x32xf32>) -> (tensor<32x32xf32> {jax.result_info = "result"}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x", "y"}, {}]> : tensor<32x32xf32>
    %1 = stablehlo.sine %0 : tensor<32x32xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"y", "x"}]> : tensor<32x32xf32>
    return %2 : tensor<32x32xf32>
  }
}
