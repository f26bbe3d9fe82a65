// RUN: ttopt opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: ttopt opt %s --allow-unregistered-dialect -o %t && ttopt opt %t --allow-unregistered-dialect | diff %t -

// A comment may sit wherever MLIR's lexer allows a blank: between any two tokens, inside attribute
// dictionaries, dense literals, types, function types, operand lists, locations and dialect
// attribute bodies. MLIR drops comments, and so does ttopt.
// CHECK-NOT: note{{[0-9]}}

#loc1 = loc( // note1
  "m.py":1:2)
// CHECK-LABEL: func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
func.func @f(%a: tensor<2x // note2
                 f32>) -> tensor<2xf32> {
  // CHECK-NEXT: %0 = "test.op"(%arg0) {a = 1 : i32, b = dense<[1,
  %0 // note3
     = "test.op"(%a // note4
     ) {a = 1 : i32, // note5
        b = dense<[1, // note6, with a bracket >
                   2]> : tensor<2xi32>,
        c = #ttcore.grid<1x1 // note7
        >} : (tensor<2xf32> // note8
             ) -> tensor<2xf32> loc(#loc1)
  // CHECK: %1 = stablehlo.add %0, %0 : tensor<2xf32>
  %1 = stablehlo.add %0, // note9 "with a quote
       %0 : tensor<2xf32>
  // CHECK-NEXT: %2 = "test.op"() {s = "// not a comment"} : () -> tensor<2xf32>
  %2 = "test.op"() {s = "// not a comment"} : () -> tensor<2xf32>
  // CHECK-NEXT: return %1 : tensor<2xf32>
  return %1 : tensor<2xf32> // note10
}
// CHECK-NOT: note{{[0-9]}}
