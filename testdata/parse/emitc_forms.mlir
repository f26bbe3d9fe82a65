// RUN: ttopt opt %s | FileCheck %s
// RUN: ttopt opt %s -o %t && ttopt opt %t | diff %t -
// RUN: ttopt opt %s --mlir-print-op-generic | ttopt opt | FileCheck %s
// RUN: ttopt opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// EmitC as tt-mlir's kernels print it (issue 17 §1): emitc.expression bodies (emitc is the
// default dialect inside, so `yield` / `add` are short; the operand list leaves two spaces when
// empty), noinline, literal, verbatim with and without args, call_opaque with args.

// GENERIC: "emitc.expression"() ({
// GENERIC: "emitc.yield"(%6) : (i32) -> ()
// GENERIC: }) : () -> i32
// GENERIC: "emitc.expression"(%arg0, %0) <{do_not_inline}> ({
// GENERIC: "emitc.literal"() <{value = "get_compile_time_arg_val(0)"}> {ttkernel.cb_ctarg_idx = 0 : i32} : () -> !emitc.opaque<"::tt::CB">
// GENERIC: "emitc.verbatim"(%2) <{value = "CircularBuffer cb_ctarg_0({});"}> : (!emitc.opaque<"::tt::CB">) -> ()
// GENERIC: "emitc.call_opaque"(%0, %1) <{args = [1 : index, 0 : index], callee = "foo", template_args = [i32]}> : (i32, i32) -> i32

// CHECK:      %0 = emitc.expression  : () -> i32 {
// CHECK-NEXT:   %5 = "emitc.constant"() <{value = 1 : i32}> : () -> i32
// CHECK-NEXT:   %6 = add %5, %5 : (i32, i32) -> i32
// CHECK-NEXT:   yield %6 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %1 = emitc.expression %arg0, %0 noinline : (i32, i32) -> i32 {
// CHECK-NEXT:   %5 = mul %arg0, %0 : (i32, i32) -> i32
// CHECK-NEXT:   yield %5 : i32
// CHECK-NEXT: }
// CHECK-NEXT: %2 = emitc.literal "get_compile_time_arg_val(0)" {ttkernel.cb_ctarg_idx = 0 : i32} : !emitc.opaque<"::tt::CB">
// CHECK-NEXT: emitc.verbatim "CircularBuffer cb_ctarg_0({});" args %2 : !emitc.opaque<"::tt::CB">
// CHECK-NEXT: emitc.verbatim "f({}, {});" args %0, %1 : i32, i32
// CHECK-NEXT: emitc.verbatim "barrier();"
// CHECK-NEXT: %3 = emitc.call_opaque "foo"(%0, %1) {args = [1 : index, 0 : index], template_args = [i32]} : (i32, i32) -> i32
// CHECK-NEXT: emitc.call_opaque "bar"() : () -> ()
// CHECK-NEXT: %4 = emitc.add %3, %1 : (i32, i32) -> i32
// CHECK-NEXT: return %4 : i32

module {
  func.func @f(%arg0: i32) -> i32 {
    %0 = emitc.expression  : () -> i32 {
      %5 = "emitc.constant"() <{value = 1 : i32}> : () -> i32
      %6 = emitc.add %5, %5 : (i32, i32) -> i32
      emitc.yield %6 : i32
    }
    %1 = emitc.expression %arg0, %0 noinline : (i32, i32) -> i32 {
      %5 = mul %arg0, %0 : (i32, i32) -> i32
      yield %5 : i32
    }
    %2 = emitc.literal "get_compile_time_arg_val(0)" {ttkernel.cb_ctarg_idx = 0 : i32} : !emitc.opaque<"::tt::CB">
    emitc.verbatim "CircularBuffer cb_ctarg_0({});" args %2 : !emitc.opaque<"::tt::CB">
    emitc.verbatim "f({}, {});" args %0, %1 : i32, i32
    emitc.verbatim "barrier();"
    %3 = emitc.call_opaque "foo"(%0, %1) {args = [1 : index, 0 : index], template_args = [i32]} : (i32, i32) -> i32
    emitc.call_opaque "bar"() : () -> ()
    %4 = emitc.add %3, %1 : (i32, i32) -> i32
    return %4 : i32
  }
}
