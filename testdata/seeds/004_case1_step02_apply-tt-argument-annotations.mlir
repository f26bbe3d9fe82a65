// Source: shared/seeds/004_4528d788b7b6291b.txt, section "2.1 Case 1", block after "2. (apply-tt-argument-annotations)".
// Added by testdata/seeds/extract.py: the `module {` line and the closing `}`
// (the seed gives bare top-level ops). The IR lines in between are verbatim.
module {
func.func public @abs(%arg0: tensor<32x48x24x32xf32> {ttcore.argument_type = #ttcore.argument_type<input>}) -> tensor<32x48x24x32xf32> {
  %0 = stablehlo.abs %arg0 : tensor<32x48x24x32xf32>
  return %0 : tensor<32x48x24x32xf32>
}
}
