"builtin.module"() <{sym_name = "jit_f"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "batch"=8]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 1 : i64}, {name = "batch", size = 8 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}], function_type = (tensor<8x4x32xbf16>, tensor<32x64xbf16>) -> tensor<8x4x64xbf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x4x32xbf16>, %arg1: tensor<32x64xbf16>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x4x32xbf16>, tensor<32x64xbf16>) -> tensor<8x4x64xf32>
    %1 = "stablehlo.convert"(%0) : (tensor<8x4x64xf32>) -> tensor<8x4x64xbf16>
    "func.return"(%1) : (tensor<8x4x64xbf16>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
