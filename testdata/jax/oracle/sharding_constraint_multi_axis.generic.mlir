"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<32x32xf32>) -> tensor<32x32xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<32x32xf32>):
    %0 = "sdy.sharding_constraint"(%arg0) <{sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %1 = "stablehlo.sine"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = "sdy.sharding_constraint"(%1) <{sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%2) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
