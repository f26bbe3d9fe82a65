"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{ttcore.argument_type = #ttcore.argument_type<input>}], function_type = (tensor<1x1024x128x1024xf32>) -> tensor<1x1024x128x1024xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<1x1024x128x1024xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}, {"y"}]>]>, manual_axes = #sdy<manual_axes{"y", "x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}, {"y"}]>]>}> ({
    ^bb0(%arg1: tensor<1x512x128x256xf32>):
      %1 = "stablehlo.negate"(%arg1) : (tensor<1x512x128x256xf32>) -> tensor<1x512x128x256xf32>
      "sdy.return"(%1) : (tensor<1x512x128x256xf32>) -> ()
    }) : (tensor<1x1024x128x1024xf32>) -> tensor<1x1024x128x1024xf32>
    "func.return"(%0) : (tensor<1x1024x128x1024xf32>) -> ()
  }) : () -> ()
}) : () -> ()
