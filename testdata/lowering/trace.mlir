// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-trace=true" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-trace=true" | ttopt opt | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=OFF

// enable-trace=true: the forward function's device work is captured in a trace. The weight
// product depends only on parameters, so const-eval computes it first (on the host) and its cached result is a
// device-resident trace input (a constant slot, first); the input is host-staged: the forward
// function takes it on the host and the capture function writes it into its DRAM slot. The
// traced function stores its result into an output slot with ttnn.copy and returns nothing.

// CHECK: #[[HOST:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #system_memory>>
// CHECK-LABEL: func.func private @forward_const_eval_0(
// CHECK: call @cpu_hoisted_const_eval_{{[0-9a-f]+}}(
// CHECK-LABEL: func.func private @trace_0_forward(
// CHECK-SAME: %arg0: tensor<64x64xbf16, #[[DEV:ttnn_layout[0-9]*]]> {ttcore.argument_type = #ttcore.argument_type<constant>}, %arg1: tensor<64x64xbf16, #[[DEV]]>, %arg2: tensor<64x64xbf16, #[[DEV]]>)
// CHECK-SAME: attributes {tt.function_type = "trace_main"}
// CHECK: %[[M:.*]] = "ttnn.multiply"(%arg1, %arg0)
// CHECK: %[[R:.*]] = "ttnn.relu"(%[[M]])
// CHECK: "ttnn.copy"(%[[R]], %arg2)
// CHECK: return{{$}}
// CHECK-LABEL: func.func private @allocate_slots_trace_0_forward(
// CHECK-SAME: -> (tensor<64x64xbf16, #[[DEV]]>, tensor<64x64xbf16, #[[DEV]]>, tensor<64x64xbf16, #[[DEV]]>) attributes {tt.function_type = "trace_allocate_slots"}
// CHECK: %[[D:.*]] = "ttnn.get_device"()
// CHECK-NEXT: %[[IN:.*]] = "ttnn.empty"(%[[D]]) <{shape = #ttnn.shape<64x64>}>
// CHECK-NEXT: %[[OUT:.*]] = "ttnn.empty"(%[[D]]) <{shape = #ttnn.shape<64x64>}>
// CHECK-NEXT: return %arg0, %[[IN]], %[[OUT]]
// CHECK-LABEL: func.func private @run_and_capture_trace_0_forward(
// CHECK-SAME: %arg0: tensor<64x64xbf16, #[[HOST]]>
// CHECK-SAME: -> tensor<ui32, #ttnn.trace_id> attributes {tt.function_type = "trace_run_and_capture"}
// CHECK: %[[D:.*]] = "ttnn.get_device"()
// CHECK-NEXT: "ttnn.write_tensor"(%arg0, %arg2) <{blocking = false, cq_id = 0 : ui32}>
// CHECK-NEXT: call @trace_0_forward(%arg1, %arg2, %arg3)
// CHECK-NEXT: %[[ID:.*]] = "ttnn.begin_trace_capture"(%[[D]]) <{cq_id = 0 : ui32}>
// CHECK-NEXT: call @trace_0_forward(%arg1, %arg2, %arg3)
// CHECK-NEXT: "ttnn.end_trace_capture"(%[[D]], %[[ID]]) <{cq_id = 0 : ui32}>
// CHECK-NEXT: "ttnn.execute_trace"(%[[D]], %[[ID]]) <{blocking = false, cq_id = 0 : ui32}>
// CHECK-NEXT: return %[[ID]]
// CHECK-LABEL: func.func private @execute_trace_0_forward(%arg0: tensor<ui32, #ttnn.trace_id>) attributes {tt.function_type = "trace_execute"}
// CHECK: "ttnn.execute_trace"(%{{.*}}, %arg0) <{blocking = false, cq_id = 0 : ui32}>
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %arg0: tensor<64x64xbf16, #[[HOST]]>
// CHECK: %[[D:.*]] = "ttnn.get_device"()
// CHECK: %[[C:.*]] = ttcore.load_cached(@forward_const_eval_0
// CHECK-NEXT: %[[T:.*]] = "ttnn.capture_or_execute_trace"(%[[D]], %[[C]], %arg0) <{allocate_slots_callee = @allocate_slots_trace_0_forward, capture_callee = @run_and_capture_trace_0_forward, execute_callee = @execute_trace_0_forward, operandSegmentSizes = array<i32: 1, 2, 0>}>
// CHECK-NOT: "ttnn.multiply"
// CHECK: return %[[T]]

// OFF-NOT: trace
module {
  func.func @forward(%arg0: tensor<64x64xbf16>, %arg1: tensor<64x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %arg2: tensor<64x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<64x64xbf16> {
    %0 = "ttir.matmul"(%arg1, %arg2) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %1 = "ttir.multiply"(%arg0, %0) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %2 = "ttir.relu"(%1) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
    return %2 : tensor<64x64xbf16>
  }
}
