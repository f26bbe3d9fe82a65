// Source: shared/seeds/004_4528d788b7b6291b.txt, section "2.3 Case 3", block after "2. (apply-tt-argument-annotations)".
// Added by testdata/seeds/extract.py: the `module {` line and the closing `}`
// (the seed gives bare top-level ops). The IR lines in between are verbatim.
module {
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func public @main(%arg0: tensor<8192x784xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, ttcore.argument_type = #ttcore.argument_type<input>}, %arg1: tensor<784x16384xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>, ttcore.argument_type = #ttcore.argument_type<parameter>}) -> (tensor<8192x16384xf32> {jax.result_info = ""}) {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg2: tensor<4096x196xf32>, %arg3: tensor<196x16384xf32>) {
    %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4096x196xf32>, tensor<196x16384xf32>) -> tensor<4096x16384xf32>
    %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %3 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }) : (tensor<4096x16384xf32>) -> tensor<4096x16384xf32>
    sdy.return %2 : tensor<4096x16384xf32>
  } : (tensor<8192x784xf32>, tensor<784x16384xf32>) -> tensor<8192x16384xf32>
  return %0 : tensor<8192x16384xf32>
}
}
