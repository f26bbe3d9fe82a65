// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-const-eval=false" | FileCheck %s --check-prefix=OFF
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false" | ttopt opt | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false enable-const-eval-inputs-to-system-memory=false" | FileCheck %s --check-prefix=DEV

// const-eval (enable-const-eval, on by default as in tt-mlir): what reads only parameter and
// constant arguments (ttcore.argument_type) or constants moves to a private
// @<func>_const_eval_<N>, called through ttcore.load_cached at the start of the function. The
// subtract of two parameters is one subgraph, the full another (with its own copy of the device;
// one element, as its only reader, the multiply, broadcasts it: ttir-fold-full-to-scalar);
// the add of the input and a parameter stays, the input arriving row-major in DRAM and tiled in
// the function (tt-mlir's TTNNLayout); the zeros nobody reads is erased. The parameters
// read only by const-eval arrive on the host, row-major (enable-const-eval-inputs-to-system-memory,
// default true as in tt-mlir): the const-eval function moves each to the device (to_device, then
// to_layout to tiles), the last argument first, as tt-mlir inserts them.

// The full comes first: TTIR constants are hoisted to the front of the function before the
// conversion, as tt-mlir's canonicalizer does.
// CHECK-LABEL: func.func private @forward_const_eval_0()
// CHECK-NEXT: %[[D:.*]] = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}>
// CHECK-NEXT: %[[F:.*]] = "ttnn.full"(%[[D]])
// CHECK-NEXT: return %[[F]]
// CHECK-LABEL: func.func private @forward_const_eval_1(
// CHECK-SAME: %arg0: tensor<32x32xbf16, #[[HOST:ttnn_layout[0-9]*]]>, %arg1: tensor<32x32xbf16, #[[HOST]]>) -> tensor<32x32xbf16, #[[TILE:ttnn_layout[0-9]*]]> attributes {tt.function_type = "const_eval"}
// CHECK-NEXT: %[[D0:.*]] = "ttnn.get_device"()
// CHECK-NEXT: %[[ON1:.*]] = "ttnn.to_device"(%arg1, %[[D0]])
// CHECK-NEXT: %[[T1:.*]] = "ttnn.to_layout"(%[[ON1]]) : (tensor<32x32xbf16, #{{ttnn_layout[0-9]*}}>) -> tensor<32x32xbf16, #[[TILE]]>
// CHECK: %[[ON0:.*]] = "ttnn.to_device"(%arg0, %[[D0]])
// CHECK-NEXT: %[[T0:.*]] = "ttnn.to_layout"(%[[ON0]])
// CHECK: %[[S:.*]] = "ttnn.subtract"(%[[T0]], %[[T1]])
// CHECK: return %[[S]]
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %arg1: tensor<32x32xbf16, #[[TILE]]> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %arg2: tensor<32x32xbf16, #[[HOST]]> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %arg3: tensor<32x32xbf16, #[[HOST]]>
// CHECK-NEXT: %[[C1:.*]] = ttcore.load_cached(@forward_const_eval_0, []) : () -> tensor<1x1xbf16, #[[TILE]]>
// CHECK-NEXT: %[[C0:.*]] = ttcore.load_cached(@forward_const_eval_1, [%arg2, %arg3]) : (tensor<32x32xbf16, #[[HOST]]>, tensor<32x32xbf16, #[[HOST]]>) -> tensor<32x32xbf16, #[[TILE]]>
// CHECK-NEXT: %[[IN:.*]] = "ttnn.to_layout"(%arg0) : (tensor<32x32xbf16, #[[RM:ttnn_layout[0-9]*]]>) -> tensor<32x32xbf16, #[[TILE]]>
// CHECK-NEXT: %[[A:.*]] = "ttnn.add"(%[[IN]], %arg1)
// CHECK: %[[B:.*]] = "ttnn.add"(%[[A]], %[[C0]])
// CHECK: "ttnn.multiply"(%[[B]], %[[C1]])
// CHECK-NOT: ttnn.zeros
// CHECK-NOT: ttnn.get_device

// With enable-const-eval-inputs-to-system-memory=false the arguments stay tiled in DRAM.
// DEV-LABEL: func.func private @forward_const_eval_1(
// DEV-SAME: %arg0: tensor<32x32xbf16, #[[DT:ttnn_layout[0-9]*]]>, %arg1: tensor<32x32xbf16, #[[DT]]>) -> tensor<32x32xbf16, #[[DT]]> attributes {tt.function_type = "const_eval"}
// DEV-NEXT: %[[S:.*]] = "ttnn.subtract"(%arg0, %arg1)
// DEV-NEXT: return %[[S]]
// DEV-LABEL: func.func @forward(
// DEV: ttcore.load_cached(@forward_const_eval_1, [%arg2, %arg3]) : (tensor<32x32xbf16, #[[DT]]>, tensor<32x32xbf16, #[[DT]]>) -> tensor<32x32xbf16, #[[DT]]>

// Without const-eval the subgraphs stay in the function; the dead zeros is erased all the same.
// OFF-NOT: load_cached
// OFF-NOT: const_eval
// OFF-NOT: ttnn.zeros
// OFF: "ttnn.get_device"
// OFF-NOT: ttnn.zeros
// OFF: "ttnn.full"
// OFF-NOT: ttnn.zeros
// OFF: "ttnn.subtract"(%arg2, %arg3)

// CHECK-LABEL: func.func @inputs_only(
// CHECK-NOT: load_cached
// CHECK: "ttnn.add"(%arg0, %arg1)
module {
  func.func @forward(%arg0: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>}, %arg1: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %arg2: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %arg3: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xbf16> {
    %0 = "ttir.add"(%arg0, %arg1) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.subtract"(%arg2, %arg3) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %2 = "ttir.add"(%0, %1) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %3 = "ttir.zeros"() <{shape = array<i32: 32, 32>}> : () -> tensor<32x32xbf16>
    %4 = "ttir.full"() <{shape = array<i32: 32, 32>, fill_value = 2.0 : f32}> : () -> tensor<32x32xbf16>
    %5 = "ttir.multiply"(%2, %4) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %5 : tensor<32x32xbf16>
  }
  // Arguments without an argument type are inputs: nothing to hoist.
  func.func @inputs_only(%arg0: tensor<32x32xbf16>, %arg1: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.add"(%arg0, %arg1) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %0 : tensor<32x32xbf16>
  }
}
