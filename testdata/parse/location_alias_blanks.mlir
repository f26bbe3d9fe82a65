// RUN: ttopt opt %s --mlir-print-debuginfo | FileCheck %s
// `loc`, `(`, `#name` and `)` are four tokens to MLIR: blanks and comments may sit between them,
// and the alias may still be defined after its use. The location prints as `loc(#name)`.

// CHECK-LABEL: func.func @f
// CHECK: stablehlo.abs %arg0 : tensor<4xf32> loc(#loc1)
// CHECK: stablehlo.abs %0 : tensor<4xf32> loc(#loc1)
// CHECK: #loc1 = loc("x")
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %a : tensor<4xf32> loc(#loc1
  )
  %1 = stablehlo.abs %0 : tensor<4xf32> loc( // a comment
    #loc1)
  return %1 : tensor<4xf32>
}
#loc1 = loc("x")
