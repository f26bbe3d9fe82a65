"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["model"=1, "batch"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}, {}]>, ttcore.argument_type = #ttcore.argument_type<input>, ttcore.shard_status = #ttcore.shard_status<unsharded>}], function_type = (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch", ?}, {?}, {?}, {?}]>}], sym_name = "abs", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<32x48x24x32xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}, {}]>]>, manual_axes = #sdy<manual_axes{}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"batch", ?}, {?}, {?}, {?}]>]>}> ({
    ^bb0(%arg1: tensor<32x48x24x32xf32>):
      %1 = "stablehlo.abs"(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch", ?}, {?}, {?}, {?}]>]>} : (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>
      "sdy.return"(%1) : (tensor<32x48x24x32xf32>) -> ()
    }) : (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>
    "func.return"(%0) : (tensor<32x48x24x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()
