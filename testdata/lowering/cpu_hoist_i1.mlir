// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s
// RUN: ttopt opt %s --pass-pipeline='builtin.module(const-eval-hoist-transform,cpu-hoist-const-eval)' | FileCheck %s --check-prefix=TTIR
// A boolean const-eval input reaches the host as i32, as HEAD's getCPUCompatibleElementType makes any
// signless integer (i1 included) i32: the device holds booleans as bf16, so an i1 host argument would
// have been handed a bf16 buffer (the declaration typed bf16 against an i1 definition).

// TTIR: ttir.to_layout %arg0, %{{[0-9]+}} : tensor<32x32xi1> into tensor<32x32xi32>
// TTIR: call @cpu_hoisted_const_eval_{{[0-9a-f]+}}({{.*}}) {ttir.cpu_hoisted_call} : (tensor<32x32xi32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// TTIR: func.func @cpu_hoisted_const_eval_{{[0-9a-f]+}}(%arg0: tensor<32x32xi32> {bufferization.access = "read"}

// CHECK: %[[COND:[0-9]+]] = "ttnn.typecast"(%arg0) : (tensor<32x32xbf16, #{{ttnn_layout[0-9]*}}>) -> tensor<32x32xsi32, #[[HOSTI:ttnn_layout[0-9]*]]>
// CHECK: call @cpu_hoisted_const_eval_{{[0-9a-f]+}}(%[[COND]], {{.*}}) {ttir.cpu_hoisted_call} : (tensor<32x32xsi32, #[[HOSTI]]>,
// CHECK: func.func private @cpu_hoisted_const_eval_{{[0-9a-f]+}}(tensor<32x32xsi32, #[[HOSTI]]>, tensor<32x32xf32,
// CHECK: ttcore.cpu_module
// CHECK: "llvm.icmp"
// CHECK: "llvm.select"
module {
  func.func @f(%arg0: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
               %arg1: tensor<32x32xi1> {ttcore.argument_type = #ttcore.argument_type<constant>},
               %arg2: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
               %arg3: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x32xbf16> {
    %0 = "ttir.where"(%arg1, %arg2, %arg3) : (tensor<32x32xi1>, tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.add"(%arg0, %0) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %1 : tensor<32x32xbf16>
  }
}
