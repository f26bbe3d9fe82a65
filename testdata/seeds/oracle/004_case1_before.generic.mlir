"builtin.module"() ({
  "func.func"() <{function_type = (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>, sym_name = "abs", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<32x48x24x32xf32>):
    %0 = "stablehlo.abs"(%arg0) : (tensor<32x48x24x32xf32>) -> tensor<32x48x24x32xf32>
    "func.return"(%0) : (tensor<32x48x24x32xf32>) -> ()
  }) : () -> ()
}) : () -> ()
