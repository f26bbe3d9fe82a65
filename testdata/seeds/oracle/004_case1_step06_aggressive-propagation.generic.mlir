"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["model"=1, "batch"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>, ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<unsharded>}], function_type = (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch", ?}, {?}, {?}, {?}]>}], sym_name = "abs", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<32x48x24x32xf32>):
    %0 = "stablehlo.abs"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch", ?}, {?}, {?}, {?}]>]>} : (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>
    "func.return"(%0) : (tensor<32x48x24x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()
