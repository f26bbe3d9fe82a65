"""const-eval-hoist-transform on TTNN input: what is hoisted, named, erased and kept."""

from __future__ import annotations

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline

HEAD = """#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#L = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#S = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
"""
P = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
I = "{ttcore.argument_type = #ttcore.argument_type<input>}"
T = "tensor<32x32xbf16, #L>"


def run(body: str, args: str, passes: str = "const-eval-hoist-transform") -> tuple[str, dict]:
    text = HEAD + f"module {{\n  func.func @f({args}) -> {T} {{\n{body}\n  }}\n}}\n"
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    pipeline = f"builtin.module({passes})"
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), ctx).run(module)
    return print_module(module), ctx.stats.get("const-eval-hoist-transform", {})


def test_parameter_chain_is_one_function_with_arguments_in_order() -> None:
    out, stats = run(f"""    %0 = "ttnn.multiply"(%arg2, %arg1) : ({T}, {T}) -> {T}
    %1 = "ttnn.relu"(%0) : ({T}) -> {T}
    %2 = "ttnn.add"(%arg0, %1) : ({T}, {T}) -> {T}
    return %2 : {T}""", f"%arg0: {T} {I}, %arg1: {T} {P}, %arg2: {T} {P}")
    assert stats["const-eval-functions"] == 1
    assert 'func.func private @f_const_eval_0(%arg0: tensor<32x32xbf16, #L>, %arg1: tensor<32x32xbf16, #L>) -> tensor<32x32xbf16, #L> attributes {tt.function_type = "const_eval"}' in out
    assert '"ttnn.multiply"(%arg1, %arg0)' in out  # operands keep their order; arguments are sorted by index
    assert "%0 = ttcore.load_cached(@f_const_eval_0, [%arg1, %arg2])" in out
    assert '"ttnn.add"(%arg0, %0)' in out
    assert out.count("ttnn.relu") == 1


def test_two_disconnected_subgraphs_are_two_functions() -> None:
    out, stats = run(f"""    %0 = "ttnn.relu"(%arg1) : ({T}) -> {T}
    %1 = "ttnn.neg"(%arg2) : ({T}) -> {T}
    %2 = "ttnn.add"(%arg0, %0) : ({T}, {T}) -> {T}
    %3 = "ttnn.add"(%2, %1) : ({T}, {T}) -> {T}
    return %3 : {T}""", f"%arg0: {T} {I}, %arg1: {T} {P}, %arg2: {T} {P}")
    assert stats["const-eval-functions"] == 2
    assert "load_cached(@f_const_eval_0, [%arg1])" in out and "load_cached(@f_const_eval_1, [%arg2])" in out


def test_dead_constant_chain_is_erased_and_device_dropped() -> None:
    out, stats = run(f"""    %d = "ttnn.get_device"() <{{mesh_shape = #ttnn<mesh_shape 1x1>}}> : () -> !ttnn.device
    %0 = "ttnn.zeros"(%d) <{{shape = #ttnn.shape<32x32>}}> : (!ttnn.device) -> {T}
    %1 = "ttnn.relu"(%0) : ({T}) -> {T}
    %2 = "ttnn.neg"(%arg0) : ({T}) -> {T}
    return %2 : {T}""", f"%arg0: {T} {I}")
    assert stats["dead-constants"] == 2 and stats["const-eval-functions"] == 0
    assert "zeros" not in out and "relu" not in out and "get_device" not in out and "load_cached" not in out


def test_input_reads_and_l1_results_stay() -> None:
    S = "tensor<32x32xbf16, #S>"
    out, stats = run(f"""    %0 = "ttnn.relu"(%arg1) : ({T}) -> {S}
    %1 = "ttnn.add"(%arg0, %0) : ({T}, {S}) -> {T}
    return %1 : {T}""", f"%arg0: {T} {I}, %arg1: {T} {P}")
    assert stats["const-eval-functions"] == 0 and "load_cached" not in out


def test_second_run_changes_nothing() -> None:
    body = f"""    %0 = "ttnn.relu"(%arg1) : ({T}) -> {T}
    %1 = "ttnn.add"(%arg0, %0) : ({T}, {T}) -> {T}
    return %1 : {T}"""
    once, _ = run(body, f"%arg0: {T} {I}, %arg1: {T} {P}")
    twice, stats = run(body, f"%arg0: {T} {I}, %arg1: {T} {P}", "const-eval-hoist-transform, const-eval-hoist-transform")
    assert once == twice and stats["const-eval-functions"] == 0


def test_reparses() -> None:
    out, _ = run(f"""    %0 = "ttnn.relu"(%arg1) : ({T}) -> {T}
    %1 = "ttnn.add"(%arg0, %0) : ({T}, {T}) -> {T}
    return %1 : {T}""", f"%arg0: {T} {I}, %arg1: {T} {P}")
    assert print_module(parse_module(out, "again.mlir")) == out


# -- property: on random programs, nothing hoistable is left and no live op is lost ------------------
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ttopt.ir.verifier import verify  # noqa: E402

UNARY = ("relu", "neg", "exp")


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, str, int]:
    """A random straight-line program over 3 arguments (each input or parameter); how many of its
    ops must stay: the live ones (reaching the return), the ones reading an input (only dead
    constants are erased), and whatever those read."""
    kinds = [draw(st.sampled_from(["input", "parameter"])) for _ in range(3)]
    values = [f"%arg{i}" for i in range(3)]
    lines: list[str] = []
    deps: dict[str, set[int]] = {v: set() for v in values}
    on_input: dict[str, bool] = {f"%arg{i}": k == "input" for i, k in enumerate(kinds)}
    for i in range(draw(st.integers(1, 12))):
        ins = [draw(st.sampled_from(values))] if draw(st.booleans()) else [draw(st.sampled_from(values)) for _ in range(2)]
        name = f"ttnn.{draw(st.sampled_from(UNARY))}" if len(ins) == 1 else "ttnn.add"
        lines.append(f'    %{i} = "{name}"({", ".join(ins)}) : ({", ".join([T] * len(ins))}) -> {T}')
        deps[f"%{i}"] = {i}.union(*(deps[a] for a in ins))
        on_input[f"%{i}"] = any(on_input[a] for a in ins)
        values.append(f"%{i}")
    ret = draw(st.sampled_from(values[3:]))
    lines.append(f"    return {ret} : {T}")
    kept = set(deps[ret]).union(*(deps[v] for v in values[3:] if on_input[v]))
    args = ", ".join(f"%arg{i}: {T} {{ttcore.argument_type = #ttcore.argument_type<{k}>}}" for i, k in enumerate(kinds))
    return "\n".join(lines), args, len(kept)


@given(programs())
def test_random_programs_erase_only_dead_constants_and_leave_nothing_hoistable(prog: tuple[str, str, int]) -> None:
    body, args, kept = prog
    out, stats = run(body, args)
    module = parse_module(out, "again.mlir")
    verify(module)
    compute = [op for op in module.walk() if op.name.startswith("ttnn.")]
    assert len(compute) == kept  # dead parameter-only ops are erased, nothing else is lost
    fwd = module.lookup_symbol("f")
    assert fwd is not None
    params = {a for a, d in zip(fwd.regions[0].entry.args, args.split("%arg")[1:]) if "parameter" in d}
    for op in fwd.regions[0].entry.ops:
        if op.name.startswith("ttnn."):
            assert not all(v in params for v in op.operands), op.name  # it would have been hoisted


def test_each_const_eval_function_gets_its_own_copy_of_the_device_it_reads() -> None:
    out, stats = run(f"""    %d = "ttnn.get_device"() <{{mesh_shape = #ttnn<mesh_shape 1x1>}}> : () -> !ttnn.device
    %e = "ttnn.get_device"() <{{mesh_shape = #ttnn<mesh_shape 1x2>}}> : () -> !ttnn.device
    %0 = "ttnn.full"(%d) <{{fill_value = 1.000000e+00 : f32, shape = #ttnn.shape<32x32>}}> : (!ttnn.device) -> {T}
    %1 = "ttnn.full"(%e) <{{fill_value = 2.000000e+00 : f32, shape = #ttnn.shape<32x32>}}> : (!ttnn.device) -> {T}
    %2 = "ttnn.add"(%arg0, %0) : ({T}, {T}) -> {T}
    %3 = "ttnn.add"(%2, %1) : ({T}, {T}) -> {T}
    return %3 : {T}""", f"%arg0: {T} {I}")
    assert stats["const-eval-functions"] == 2
    module = parse_module(out, "again.mlir")
    verify(module)
    for name, mesh in (("f_const_eval_0", "1x1"), ("f_const_eval_1", "1x2")):
        fn = module.lookup_symbol(name)
        assert fn is not None
        ops = fn.regions[0].entry.ops
        assert ops[0].name == "ttnn.get_device" and f"mesh_shape {mesh}" in print_module(module).split(f"@{name}")[1].split("return")[0]
        assert ops[1].operands[0] is ops[0].results[0]
    fwd = module.lookup_symbol("f")
    assert fwd is not None and not any(op.name == "ttnn.get_device" for op in fwd.regions[0].entry.ops)


def run_host_inputs(text: str) -> tuple[str, dict]:
    module = parse_module(HEAD + text, "t.mlir")
    ctx = PassContext()
    pipeline = "builtin.module(ttnn-const-eval-inputs-to-system-memory)"
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), ctx).run(module)
    return print_module(module), ctx.stats.get("ttnn-const-eval-inputs-to-system-memory", {})


def test_const_eval_only_arguments_arrive_on_the_host() -> None:
    out, stats = run_host_inputs(f"""module {{
  func.func private @f_const_eval_0(%arg0: {T}, %arg1: {T}) -> {T} attributes {{tt.function_type = "const_eval"}} {{
    %0 = "ttnn.subtract"(%arg0, %arg1) : ({T}, {T}) -> {T}
    return %0 : {T}
  }}
  func.func @f(%arg0: {T} {I}, %arg1: {T} {P}, %arg2: {T} {P}) -> {T} {{
    %0 = ttcore.load_cached(@f_const_eval_0, [%arg1, %arg2]) : ({T}, {T}) -> {T}
    %1 = "ttnn.add"(%arg0, %0) : ({T}, {T}) -> {T}
    return %1 : {T}
  }}
}}
""")
    assert stats["host-arguments"] == 2
    host = "tensor<32x32xbf16, #ttnn_layout>"
    assert "#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xbf16, #system_memory>>" in out
    assert f"@f_const_eval_0(%arg0: {host}, %arg1: {host}) -> {T}" in out
    ce = out.split("@f_const_eval_0(")[1].split("func.func")[0]
    ops = [ln.strip() for ln in ce.splitlines() if "=" in ln and '"ttnn.' in ln]
    # Each argument goes to the device and is tiled, the last one first (each lands after the device).
    assert ops[0].startswith('%0 = "ttnn.get_device"()')
    assert ops[1].startswith('%1 = "ttnn.to_device"(%arg1, %0)') and ops[2].startswith('%2 = "ttnn.to_layout"(%1)')
    assert ops[3].startswith('%3 = "ttnn.to_device"(%arg0, %0)') and ops[4].startswith('%4 = "ttnn.to_layout"(%3)')
    assert ops[5].startswith('%5 = "ttnn.subtract"(%4, %2)')
    assert f"func.func @f(%arg0: {T} {I}, %arg1: {host} {P}, %arg2: {host} {P})" in out


def test_argument_read_outside_const_eval_stays_on_the_device() -> None:
    out, stats = run_host_inputs(f"""module {{
  func.func private @f_const_eval_0(%arg0: {T}) -> {T} attributes {{tt.function_type = "const_eval"}} {{
    %0 = "ttnn.relu"(%arg0) : ({T}) -> {T}
    return %0 : {T}
  }}
  func.func @f(%arg0: {T} {P}) -> {T} {{
    %0 = ttcore.load_cached(@f_const_eval_0, [%arg0]) : ({T}) -> {T}
    %1 = "ttnn.add"(%arg0, %0) : ({T}, {T}) -> {T}
    return %1 : {T}
  }}
}}
""")
    assert stats["host-arguments"] == 0 and "system_memory" not in out and "to_device" not in out


def test_host_transfer_inside_const_eval_folds_away() -> None:
    out, stats = run_host_inputs(f"""#sys = #ttnn.buffer_type<system_memory>
#H = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #sys>>
#R = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xbf16, #sys>>
module {{
  func.func private @f_const_eval_0(%arg0: {T}) -> tensor<32x32xbf16, #R> attributes {{tt.function_type = "const_eval"}} {{
    %0 = "ttnn.from_device"(%arg0) : ({T}) -> tensor<32x32xbf16, #H>
    %1 = "ttnn.to_layout"(%0) : (tensor<32x32xbf16, #H>) -> tensor<32x32xbf16, #R>
    %2 = "ttnn.relu"(%1) : (tensor<32x32xbf16, #R>) -> tensor<32x32xbf16, #R>
    return %2 : tensor<32x32xbf16, #R>
  }}
  func.func @f(%arg0: {T} {P}) -> tensor<32x32xbf16, #R> {{
    %0 = ttcore.load_cached(@f_const_eval_0, [%arg0]) : ({T}) -> tensor<32x32xbf16, #R>
    return %0 : tensor<32x32xbf16, #R>
  }}
}}
""")
    assert stats["host-arguments"] == 1
    ce = out.split("@f_const_eval_0(")[1].split("func.func")[0]
    assert "from_device" not in ce and "to_layout" not in ce and "to_device" not in ce
    assert '"ttnn.relu"(%arg0)' in ce
