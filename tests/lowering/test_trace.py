"""ttnn-trace-hoist-transform and the backend pipeline's enable-trace: the functions a trace makes,
their signatures, what stays in the forward function, and the errors."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline

HEAD = """#dram = #ttnn.buffer_type<dram>
#L = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
"""
P = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
T = "tensor<32x32xbf16, #L>"
DEV = '%d = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device'


def run(text: str, pipeline: str = "builtin.module(ttnn-trace-hoist-transform)") -> tuple[str, dict]:
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), ctx).run(module)
    return print_module(module), ctx.stats


def ttnn_module(body: str, args: str) -> str:
    return HEAD + f"module {{\n  func.func @f({args}) -> {T} {{\n{body}\n  }}\n}}\n"


def test_trace_functions_signatures_and_order() -> None:
    out, stats = run(ttnn_module(f"""    {DEV}
    %0 = "ttnn.add"(%arg0, %arg1) : ({T}, {T}) -> {T}
    %1 = "ttnn.relu"(%0) : ({T}) -> {T}
    return %1 : {T}""", f"%arg0: {T}, %arg1: {T} {P}"))
    assert stats["ttnn-trace-hoist-transform"]["traces"] == 1
    names = [line.split("@")[1].split("(")[0] for line in out.splitlines() if "func.func" in line]
    assert names == ["trace_0_f", "allocate_slots_trace_0_f", "run_and_capture_trace_0_f", "execute_trace_0_f", "f"]
    # The parameter is device-resident (first, its own slot); the input is host-staged.
    assert f"func.func private @trace_0_f(%arg0: {T} {P}, %arg1: {T}, %arg2: {T}) attributes {{tt.function_type = \"trace_main\"}}" in out
    assert '"ttnn.add"(%arg1, %arg0)' in out and '"ttnn.copy"(%1, %arg2)' in out
    assert f"@allocate_slots_trace_0_f(%arg0: {T} {P}) -> ({T}, {T}, {T})" in out
    assert out.count('"ttnn.empty"(%0) <{shape = #ttnn.shape<32x32>}>') == 2
    capture = out.split("@run_and_capture_trace_0_f(")[1].split("func.func")[0]
    assert capture.startswith("%arg0: tensor<32x32xbf16, #ttnn_layout>")  # the host input, in system memory
    assert "-> tensor<ui32, #ttnn.trace_id>" in capture
    ops = [ln.strip().split('"')[1] for ln in capture.splitlines() if '= "ttnn.' in ln or ln.strip().startswith('"ttnn.')]
    assert ops == ["ttnn.get_device", "ttnn.write_tensor", "ttnn.begin_trace_capture", "ttnn.end_trace_capture", "ttnn.execute_trace"]
    assert capture.count("call @trace_0_f(%arg1, %arg2, %arg3)") == 2
    forward = out.split("func.func @f(")[1]
    assert forward.startswith("%arg0: tensor<32x32xbf16, #ttnn_layout>")  # the input became a host argument
    assert ('"ttnn.capture_or_execute_trace"(%0, %arg1, %arg0) <{allocate_slots_callee = @allocate_slots_trace_0_f, '
            "capture_callee = @run_and_capture_trace_0_f, execute_callee = @execute_trace_0_f, "
            "operandSegmentSizes = array<i32: 1, 2, 0>}>") in forward  # fmt: skip
    assert "ttnn.add" not in forward and "ttnn.relu" not in forward
    assert "#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #system_memory>>" in out


def test_creation_ops_stay_outside_and_go_to_the_host() -> None:
    out, _ = run(ttnn_module(f"""    {DEV}
    %0 = "ttnn.zeros"(%d) <{{shape = #ttnn.shape<32x32>}}> : (!ttnn.device) -> {T}
    %1 = "ttnn.add"(%arg0, %0) : ({T}, {T}) -> {T}
    %2 = "ttnn.ones"(%d) <{{shape = #ttnn.shape<32x32>}}> : (!ttnn.device) -> {T}
    %3 = "ttnn.add"(%1, %2) : ({T}, {T}) -> {T}
    return %3 : {T}""", f"%arg0: {T}"))
    forward = out.split("func.func @f(")[1]
    # The ones between the traced ops moves in front of them; both are staged from the host.
    assert forward.index('"ttnn.zeros"') < forward.index('"ttnn.ones"') < forward.index('"ttnn.from_device"(%1)')
    assert '"ttnn.from_device"(%2)' in forward
    assert '"ttnn.capture_or_execute_trace"(%0, %arg0, %3, %4)' in forward
    assert "operandSegmentSizes = array<i32: 1, 3, 0>" in forward


def test_load_cached_result_is_a_constant_slot() -> None:
    text = HEAD + f"""module {{
  func.func private @f_const_eval_0(%arg0: {T}) -> {T} attributes {{tt.function_type = "const_eval"}} {{
    %0 = "ttnn.relu"(%arg0) : ({T}) -> {T}
    return %0 : {T}
  }}
  func.func @f(%arg0: {T}, %arg1: {T} {P}) -> {T} {{
    %0 = ttcore.load_cached(@f_const_eval_0, [%arg1]) : ({T}) -> {T}
    %1 = "ttnn.multiply"(%arg0, %0) : ({T}, {T}) -> {T}
    return %1 : {T}
  }}
}}
"""
    out, _ = run(text)
    assert f"@trace_0_f(%arg0: {T} {{ttcore.argument_type = #ttcore.argument_type<constant>}}, %arg1: {T}, %arg2: {T})" in out
    assert "ttcore.load_cached(@f_const_eval_0, [%arg1])" in out.split("func.func @f(")[1]
    assert "@f_const_eval_0(%arg0" in out  # const-eval functions are not traced


def test_non_traceable_op_between_traced_ops_is_an_error() -> None:
    text = HEAD + f"""module {{
  func.func private @g() -> {T} attributes {{tt.function_type = "const_eval"}} {{
    {DEV}
    %0 = "ttnn.zeros"(%d) <{{shape = #ttnn.shape<32x32>}}> : (!ttnn.device) -> {T}
    return %0 : {T}
  }}
  func.func @f(%arg0: {T}) -> {T} {{
    %0 = "ttnn.relu"(%arg0) : ({T}) -> {T}
    %1 = ttcore.load_cached(@g, []) : () -> {T}
    %2 = "ttnn.add"(%0, %1) : ({T}, {T}) -> {T}
    return %2 : {T}
  }}
}}
"""
    with pytest.raises(Diagnostic, match="'ttcore.load_cached' cannot be traced and is in the middle of the traced ops"):
        run(text)


HOST_HEAD = HEAD + """#system_memory = #ttnn.buffer_type<system_memory>
#H = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xbf16, #system_memory>>
"""
H = "tensor<32x32xbf16, #H>"


def test_host_resident_parameters_are_rejected_before_rewriting() -> None:
    # Four parameters in system memory, read in place by the trace: HEAD's error, at the function;
    # the notes name the first three and count the rest, and nothing is rewritten.
    args = ", ".join([f"%arg0: {T}"] + [f'%arg{i}: {H} {{ttcore.argument_type = #ttcore.argument_type<parameter>, ttir.name = "p{i}"}}'
                                         for i in range(1, 5)])  # fmt: skip
    body = "\n".join(f'    %{i} = "ttnn.add"({"%arg0" if i == 0 else f"%{i - 1}"}, %arg{i + 1}) : ({T}, {H}) -> {T}' for i in range(4))
    text = HOST_HEAD + f"module {{\n  func.func @f({args}) -> {T} {{\n{body}\n    return %3 : {T}\n  }}\n}}\n"
    module = parse_module(text, "t.mlir")
    before = print_module(module)
    pipeline = "builtin.module(ttnn-trace-hoist-transform)"
    with pytest.raises(Diagnostic) as err:
        PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    d = err.value
    assert d.message == "ttnn-trace-hoist-transform: Device-resident input must be on device, but found on system memory"
    assert d.pos is not None and d.pos.where() == "t.mlir:6:3"  # the function, as HEAD's funcOp.emitError
    assert d.notes == ("argument 1 (parameter 'p1') is in system memory, read as operand 1 of 'ttnn.add'",
                       "argument 2 (parameter 'p2') is in system memory, read as operand 1 of 'ttnn.add'",
                       "argument 3 (parameter 'p3') is in system memory, read as operand 1 of 'ttnn.add'",
                       "and 1 more device-resident input(s) in system memory")  # fmt: skip
    assert print_module(module) == before


def test_host_resident_const_eval_result_is_rejected() -> None:
    text = HOST_HEAD + f"""module {{
  func.func private @f_const_eval_0(%arg0: {H}) -> {H} attributes {{tt.function_type = "const_eval"}} {{
    return %arg0 : {H}
  }}
  func.func @f(%arg0: {T}, %arg1: {H} {P}) -> {T} {{
    %0 = ttcore.load_cached(@f_const_eval_0, [%arg1]) : ({H}) -> {H}
    %1 = "ttnn.multiply"(%arg0, %0) : ({T}, {H}) -> {T}
    %2 = "ttnn.add"(%0, %1) : ({H}, {T}) -> {T}
    return %2 : {T}
  }}
}}
"""
    with pytest.raises(Diagnostic) as err:
        run(text)
    assert err.value.notes == ("the result of 'ttcore.load_cached' (@f_const_eval_0) is in system memory, "
                               "read as operand 1 of 'ttnn.multiply', operand 0 of 'ttnn.add'",)  # fmt: skip


def test_function_without_device_work_is_left_alone() -> None:
    out, stats = run(ttnn_module(f"    return %arg0 : {T}", f"%arg0: {T}"))
    assert stats["ttnn-trace-hoist-transform"]["traces"] == 0
    assert "trace" not in out.replace("ttnn-trace", "")


def test_backend_pipeline_enable_trace_kv_cache_stays_on_device() -> None:
    text = """module {
  func.func @main(%arg0: tensor<1x32x64x512xbf16>, %arg1: tensor<1x32x1x512xbf16>, %arg2: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    %idx = "ttir.constant"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    "ttir.update_cache"(%arg0, %arg1, %idx) <{batch_offset = 0 : i32}> : (tensor<1x32x64x512xbf16>, tensor<1x32x1x512xbf16>, tensor<1xi32>) -> ()
    %0 = "ttir.neg"(%arg2) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %0 : tensor<32x32xbf16>
  }
}
"""
    out, _ = run(text, 'builtin.module(ttir-to-ttnn-backend-pipeline{enable-trace=true})')
    alloc = out.split("@allocate_slots_trace_0_main(")[1].split(")")[0]
    assert "{ttcore.kv_cache}" in alloc and "argument_type<constant>" in alloc  # the cache and the const-eval'd index
    forward = out.split("func.func @main(")[1].split("\n")[0]
    assert forward.startswith("%arg0: tensor<1x32x64x512xbf16, #ttnn_layout") and "{ttcore.kv_cache}" in forward


# -- property: on random programs the trace moves the forward function's compute, loses none --------
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ttopt.ir.verifier import verify  # noqa: E402

COMPUTE = ("ttnn.relu", "ttnn.neg", "ttnn.exp", "ttnn.add")


@st.composite
def programs(draw: st.DrawFn) -> str:
    """A random straight-line TTNN program over 3 arguments, each an input or a parameter."""
    kinds = [draw(st.sampled_from(["input", "parameter"])) for _ in range(3)]
    values = [f"%arg{i}" for i in range(3)]
    lines: list[str] = []
    for i in range(draw(st.integers(1, 10))):
        ins = [draw(st.sampled_from(values))] if draw(st.booleans()) else [draw(st.sampled_from(values)) for _ in range(2)]
        name = draw(st.sampled_from(COMPUTE[:3])) if len(ins) == 1 else "ttnn.add"
        lines.append(f'    %{i} = "{name}"({", ".join(ins)}) : ({", ".join([T] * len(ins))}) -> {T}')
        values.append(f"%{i}")
    lines.append(f"    return {values[-1]} : {T}")
    args = ", ".join(f"%arg{i}: {T} {{ttcore.argument_type = #ttcore.argument_type<{k}>}}" for i, k in enumerate(kinds))
    return ttnn_module("\n".join(lines), args)


@given(programs())
def test_random_programs_trace_all_forward_compute(text: str) -> None:
    hoisted, _ = run(text, "builtin.module(const-eval-hoist-transform)")
    traced, _ = run(text, "builtin.module(const-eval-hoist-transform,ttnn-trace-hoist-transform)")
    module = parse_module(traced, "again.mlir")
    verify(module)
    before = parse_module(hoisted, "before.mlir")
    left = [op for op in before.lookup_symbol("f").regions[0].entry.ops if op.name in COMPUTE]
    fwd = module.lookup_symbol("f").regions[0].entry.ops
    assert not [op for op in fwd if op.name in COMPUTE]
    assert sum(op.name == "ttnn.capture_or_execute_trace" for op in fwd) == (1 if left else 0)
    if left:
        body = [op for op in module.lookup_symbol("trace_0_f").regions[0].entry.ops if op.name in COMPUTE]
        assert [op.name for op in body] == [op.name for op in left]
    total = [op for op in module.walk() if op.name in COMPUTE]
    assert len(total) == len([op for op in before.walk() if op.name in COMPUTE])
