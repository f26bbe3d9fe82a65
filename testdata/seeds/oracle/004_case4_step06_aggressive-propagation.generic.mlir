"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "batch"=8]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>, ttcore.shard_status = #ttcore.shard_status<sharded>}], function_type = (tensor<1024x2x32x32xf32>) -> tensor<2048x1024xf32>, res_attrs = [{jax.result_info = "", sdy.sharding = #sdy.sharding<@mesh, [{"batch", ?}, {?}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<1024x2x32x32xf32>):
    %0 = "stablehlo.reshape"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch", ?}, {?}]>]>} : (tensor<1024x2x32x32xf32>) -> tensor<2048x1024xf32>
    "func.return"(%0) : (tensor<2048x1024xf32>) -> ()
  }) : () -> ()
}) : () -> ()
