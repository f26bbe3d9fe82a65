module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1, "batch"=8]> {stablehlo.mesh = {axes = [{name = "x", size = 1 : i64}, {name = "batch", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<8x4x32xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}, %arg1: tensor<32x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x4x64xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32xbf16>, tensor<32x64xbf16>) -> tensor<8x4x64xf32>
    %1 = stablehlo.convert %0 : (tensor<8x4x64xf32>) -> tensor<8x4x64xbf16>
    return %1 : tensor<8x4x64xbf16>
  }
}
