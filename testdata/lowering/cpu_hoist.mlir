// RUN: ttopt opt %s --ttir-to-ttnn-common-pipeline="enable-cpu-hoisted-const-eval=true" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-common-pipeline="enable-cpu-hoisted-const-eval=false" | FileCheck %s --check-prefix=DEVICE
// RUN: ttopt opt %s --pass-pipeline='builtin.module(const-eval-hoist-transform,cpu-hoist-const-eval)' | FileCheck %s --check-prefix=TTIR

// Const-eval subgraphs run on the host in 32 bits: each becomes a function of the CPU module, called
// from its const-eval function between typecasts (the const-eval inputs arrive in system memory, so
// no ttnn.from_device) and a move back to the device. A returned constant stays on the device, and
// two functions computing the same thing share one host function (named by its hash).

// CHECK: ttcore.device_module {
// CHECK-NEXT: builtin.module attributes {ttcore.system_desc = #system_desc} {
// CHECK-NEXT: ttcore.device @default_device

// CHECK-LABEL: func.func private @scale_const_eval_0()
// CHECK-NEXT: "ttnn.get_device"
// CHECK-NEXT: "ttnn.zeros"
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @scale_const_eval_1
// CHECK-NOT: "ttnn.from_device"
// CHECK: %[[A:[0-9]+]] = "ttnn.typecast"(%arg0) : (tensor<32x32xbf16, #[[HOSTBF:ttnn_layout[0-9]*]]>) -> tensor<32x32xf32, #[[HOST:ttnn_layout[0-9]*]]>
// CHECK: %[[B:[0-9]+]] = "ttnn.typecast"(%arg1)
// CHECK: %[[R:[0-9]+]] = call @[[SUB:cpu_hoisted_const_eval_[0-9a-f]+]](%[[A]], %[[B]]) {ttir.cpu_hoisted_call} : (tensor<32x32xf32, #[[HOST]]>, tensor<32x32xf32, #[[HOST]]>) -> tensor<32x32xf32, #[[HOST]]>
// CHECK: %[[C:[0-9]+]] = "ttnn.typecast"(%[[R]]) : (tensor<32x32xf32, #[[HOST]]>) -> tensor<32x32xbf16, #[[HOSTBF]]>
// CHECK: %[[T:[0-9]+]] = "ttnn.to_layout"(%[[C]])
// CHECK: "ttnn.to_device"(%[[T]]
// CHECK-LABEL: func.func @scale(
// CHECK: ttcore.load_cached(@scale_const_eval_0, [])
// CHECK: ttcore.load_cached(@scale_const_eval_1, [%arg1, %arg2])
// CHECK-NOT: "ttnn.subtract"
// CHECK-LABEL: func.func private @shift_const_eval_0
// CHECK: call @[[SUB]](
// CHECK-LABEL: func.func @shift(
// CHECK: func.func private @[[SUB]](tensor<32x32xf32, #[[HOST]]>, tensor<32x32xf32, #[[HOST]]>) -> tensor<32x32xf32, #[[HOST]]> attributes {func_hash = "{{[0-9a-f]+}}", tt.function_type = "forward_cpu_declaration"}
// CHECK-NEXT: func.func private @cpu_hoisted_const_eval_{{[0-9a-f]+}}(tensor<8xsi32
// CHECK-NOT: func.func private @cpu_hoisted
// CHECK: ttcore.cpu_module {
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: func.func @[[SUB]](%arg0: tensor<32x32xf32> {bufferization.access = "read"}, %arg1: tensor<32x32xf32> {bufferization.access = "read"}) -> tensor<32x32xf32> attributes {arg_ranks = [2, 2], func_hash = "{{[0-9a-f]+}}", result_ranks = [2], tt.function_type = "forward_cpu"} {
// CHECK-NEXT: "ttir.subtract"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK: func.func @cpu_hoisted_const_eval_{{[0-9a-f]+}}(%arg0: tensor<8xi32> {bufferization.access = "read"}) -> tensor<8xi32>
// CHECK-NOT: func.func

// With the option false const-eval runs on the device: the program is wrapped all the same, with no CPU module beside it.
// DEVICE: ttcore.device_module {
// DEVICE: "ttnn.subtract"
// DEVICE-NOT: cpu_hoisted
// DEVICE-NOT: ttcore.cpu_module

// The hoisting alone, on TTIR, shows conversions to f32 around the call, signedness dropped in the definition.
// TTIR-LABEL: func.func private @scale_const_eval_0
// TTIR: ttir.to_layout %arg0, %{{[0-9]+}} : tensor<32x32xbf16> into tensor<32x32xf32>
// TTIR: call @cpu_hoisted_const_eval_{{[0-9a-f]+}}(%{{[0-9]+}}, %{{[0-9]+}}) {ttir.cpu_hoisted_call}
// TTIR: ttir.to_layout %{{[0-9]+}}, %{{[0-9]+}} : tensor<32x32xf32> into tensor<32x32xbf16>
// TTIR-LABEL: func.func private @scale_const_eval_1
// TTIR-NEXT: "ttir.zeros"
// TTIR-LABEL: func.func private @index_const_eval_0
// TTIR: call @[[IDX:cpu_hoisted_const_eval_[0-9a-f]+]]({{.*}}) {ttir.cpu_hoisted_call} : (tensor<8xsi32>) -> tensor<8xsi32>
// TTIR: func.func private @[[IDX]](tensor<8xsi32>) -> tensor<8xsi32>
// TTIR: ttcore.cpu_module
// TTIR: func.func @[[IDX]](%arg0: tensor<8xi32> {bufferization.access = "read"}) -> tensor<8xi32>

module {
  func.func @scale(%arg0: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
                   %arg1: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %arg2: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xbf16> {
    %0 = "ttir.subtract"(%arg1, %arg2) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.zeros"() <{shape = array<i32: 32, 32>}> : () -> tensor<32x32xbf16>
    %2 = "ttir.multiply"(%arg0, %0) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %3 = "ttir.add"(%2, %1) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %3 : tensor<32x32xbf16>
  }
  func.func @shift(%arg0: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
                   %arg1: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %arg2: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x32xbf16> {
    %0 = "ttir.subtract"(%arg1, %arg2) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.add"(%arg0, %0) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %1 : tensor<32x32xbf16>
  }
  func.func @index(%arg0: tensor<8xsi32> {ttcore.argument_type = #ttcore.argument_type<input>},
                   %arg1: tensor<8xsi32> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<8xsi32> {
    %0 = "ttir.neg"(%arg1) : (tensor<8xsi32>) -> tensor<8xsi32>
    %1 = "ttir.add"(%arg0, %0) : (tensor<8xsi32>, tensor<8xsi32>) -> tensor<8xsi32>
    return %1 : tensor<8xsi32>
  }
}
