module {
  func.func public @abs(%arg0: tensor<32x48x24x32xf32> {ttcore.argument_type = #ttcore.argument_type<input>}) -> tensor<32x48x24x32xf32> {
    %0 = stablehlo.abs %arg0 : tensor<32x48x24x32xf32>
    return %0 : tensor<32x48x24x32xf32>
  }
}
