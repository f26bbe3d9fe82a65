"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, ttcore.shard_status = #ttcore.shard_status<sharded>}], function_type = (tensor<32x32xf32>) -> tensor<32x32xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<32x32xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>, manual_axes = #sdy<manual_axes{}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>}> ({
    ^bb0(%arg1: tensor<32x32xf32>):
      %1 = "sdy.all_gather"(%arg1) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"x"}, {"y"}]>, out_sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
      %2 = "sdy.all_slice"(%1) <{out_sharding = #sdy.sharding<@mesh, [{"y"}, {}]>, slicing_axes = #sdy<list_of_axis_ref_lists[{"y"}, {}]>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
      "sdy.return"(%2) : (tensor<32x32xf32>) -> ()
    }) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%0) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()
