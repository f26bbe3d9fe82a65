// Source: shared/seeds/004_4528d788b7b6291b.txt, section "2.2 Case 2", block after "example" (input graph).
// Added by testdata/seeds/extract.py: the `module {` line and the closing `}`
// (the seed gives bare top-level ops). The IR lines in between are verbatim.
module {
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func public @main(%arg0: tensor<1x1024x128x1024xf32>) -> (tensor<1x1024x128x1024xf32>) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {"x"}, {}, {"y"}]>] out_shardings=[<@mesh, [{}, {"x"}, {}, {"y"}]>] manual_axes={"y", "x"} (%arg1: tensor<1x512x128x256xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<1x512x128x256xf32>
    sdy.return %1 : tensor<1x512x128x256xf32>
  } : (tensor<1x1024x128x1024xf32>) -> tensor<1x1024x128x1024xf32>
  return %0 : tensor<1x1024x128x1024xf32>
}
}
