"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}], function_type = (tensor<32x32xf32>) -> tensor<32x32xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<32x32xf32>):
    %0 = "sdy.sharding_constraint"(%arg0) <{sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%0) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()
