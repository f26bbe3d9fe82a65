"""The whole-op lexing paths (lexer.op_run: FAST_GENERIC, generic_op_parts, pretty_op_parts) build
exactly what the piecewise grammar builds: the same IR, the same printed text, the same errors."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bench.gen import generate
from bench.gen.locations import STYLES, restyle
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.module import Module
from ttopt.ir.operation import Operation
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.ir.values import BlockArgument, OpResult
from ttopt.parse import lexer
from ttopt.parse.parser import parse_module


def _parse(text: str, fast: bool) -> Module | str:
    """The module, or the rendered diagnostic."""
    saved = lexer.FAST_LINES
    lexer.FAST_LINES = fast
    try:
        return parse_module(text, "in.mlir")
    except Diagnostic as e:
        return e.render()
    finally:
        lexer.FAST_LINES = saved


def _ops(m: Module) -> Iterator[Operation]:
    return m.op.walk()


def _ref(v: Any, index: dict[int, int]) -> tuple:
    """A value by where it is defined (op number, result) or (block, argument), comparable across parses."""
    if isinstance(v, OpResult):
        return ("result", index[id(v.op)], v.index)
    assert isinstance(v, BlockArgument)
    return ("arg", index[id(v.block.parent.parent)] if v.block.parent is not None else -1, v.index)


def _summary(m: Module) -> list[tuple]:
    """Everything the builder decides about each op, in walk order."""
    ops = list(_ops(m))
    index = {id(op): i for i, op in enumerate(ops)}
    out = []
    for op in ops:
        out.append(
            (
                op.name,
                [_ref(v, index) for v in op.operands],
                [(r.type.text, r.name_hint, [index[id(u)] for u in r.uses]) for r in op.results],
                {k: (type(a).__name__, a.text) for k, a in op.properties.items()},
                {k: (type(a).__name__, a.text) for k, a in op.attributes.items()},
                None if op.location is None else op.location.text,
                op.pos,
                len(op.regions),
            )
        )
    aliases = [(d.kind, d.name, type(d.value).__name__, d.value.text, d.after_module, d.pos) for d in m.aliases]
    return [*out, aliases]


def assert_same_and_expected(text: str, expected: str | None) -> None:
    """Fast and general paths agree on `text`, which parses (None) or fails with `expected` first."""
    assert_same(text)
    got = _parse(text, True)
    if expected is None:
        assert not isinstance(got, str), got
    else:
        assert isinstance(got, str) and got.startswith(expected), got


def assert_same(text: str) -> None:
    fast, slow = _parse(text, True), _parse(text, False)
    if isinstance(slow, str) or isinstance(fast, str):
        assert fast == slow
        return
    assert _summary(fast) == _summary(slow)
    for opts in (PrintOptions(debuginfo=True), PrintOptions(), PrintOptions(generic=True, debuginfo=True)):
        assert print_module(fast, opts) == print_module(slow, opts)


# ---- generated op lines, including the shapes the fast regex must decline --------------------------
TYPES = ["tensor<4x8xbf16>", "tensor<4x8xbf16, #lay>", "tensor<4x8xf32>", "!alias_t", "tensor<2x!ttcore.tile<32x32, bf16>>"]
PROPS = [
    "",
    " <{dim = 1 : si32}>",
    " <{dim_arg = [1 : i32], keep_dim = true}>",
    ' <{name = "a}b{"}>',
    " <{inner = {a = 1}}>",
    " <{memory_config = #ttnn.memory_config<#dram, <interleaved>>}>",
    " <{a = 1 : i32}>=",
    " <{a = (}>",
    " <{a = 1}> ",
]
ATTRS = ["", " {note = 1 : i64}", ' {s = "x"}', " {d = {e = 2}}", " {dim = 3 : si32}", " {a = [}"]
LOCS = [
    "",
    ' loc("op_1")',
    " loc(#loc1)",
    ' loc("n"("m.py":3:4))',
    " loc(callsite(#loc1 at #loc2))",
    ' loc(fused[#loc1, "x"])',
    ' loc("a.py":1:2 to 3:4)',
    " loc(#nope)",
    " loc(callsite(#loc1 at))",
    "\n    loc(#loc2)",
    " // c\n    loc(#loc1)",
]


@st.composite
def generic_lines(draw: st.DrawFn) -> str:
    defined = ["%arg0", "%arg1", "%m#0", "%m#1"]
    lines = []
    for i in range(draw(st.integers(1, 6))):
        n_in = draw(st.integers(0, 2))
        operands = [draw(st.sampled_from([*defined, "%undef", "%m"])) for _ in range(n_in)]
        in_types = [draw(st.sampled_from(TYPES[:3])) if not o.startswith("%m") else TYPES[2] for o in operands]
        if draw(st.booleans()):
            in_types = [draw(st.sampled_from(TYPES)) for _ in range(draw(st.integers(0, 2)))]
        results = draw(st.sampled_from(["", f"%{i} = ", f"%v{i} = ", f"%{i}:2 = ", f"%{i}, %w{i} = ", "%arg0 = ", f"%{i}  =  "]))
        n_out = {"": 0}.get(results, 2 if (":2" in results or "," in results) else 1)
        if draw(st.integers(0, 9)) == 0:
            n_out = 1 - min(n_out, 1)
        out_types = [draw(st.sampled_from(TYPES)) for _ in range(n_out)]
        outs = out_types[0] if len(out_types) == 1 and draw(st.booleans()) else f"({', '.join(out_types)})"
        name = draw(st.sampled_from(["ttnn.add", "ttnn.relu", "test.op", "stablehlo.slice", "d.op with space"]))
        sep = draw(st.sampled_from([", ", ",", " , "]))
        line = (
            f'{results}"{name}"({sep.join(operands)}){draw(st.sampled_from(PROPS))}{draw(st.sampled_from(ATTRS))}'
            f" : ({', '.join(in_types)}) -> {outs}{draw(st.sampled_from(LOCS))}"
        )
        lines.append("    " + line)
        for r in results.rstrip("= ").replace(":2", "").split(","):
            if r.strip():
                defined.append(r.strip())
    body = "\n".join(lines)
    return (
        "#lay = #ttnn.buffer_type<dram>\n!alias_t = tensor<4x8xf32>\n"
        "func.func @f(%arg0: tensor<4x8xbf16>, %arg1: tensor<4x8xf32>) {\n"
        '    %m:2 = "test.two"() : () -> (tensor<4x8xf32>, tensor<4x8xf32>)\n'
        f"{body}\n"
        "    return\n"
        "}\n"
        '#loc1 = loc("m.py":1:1)\n'
        '#loc2 = loc("m.py":2:1)\n'
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generic_lines())
def test_generic_lines_fast_equals_general(text: str) -> None:
    assert_same(text)


PRETTY = [
    "%0 = stablehlo.add %arg1, %arg1 : tensor<4x8xf32>",
    "%1 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    "%2 = stablehlo.compare  GE, %arg1, %arg1,  FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>",
    "%3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>",
    "%4 = stablehlo.dot_general %arg1, %arg1, contracting_dims = [1] x [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>",
    '%5 = "ttnn.relu"(%arg1) : (tensor<4x8xf32>) -> tensor<4x8xf32>',
    "%6 = stablehlo.add %undefined, %arg1 : tensor<4x8xf32>",
    "%7 = stablehlo.reduce(%arg1 init: %arg1) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>",
    "%8 = stablehlo.reduce(%arg1 init: %arg1), (%arg1 init: %arg1) across dimensions = [] : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)",
    "%9 = stablehlo.reduce(%arg1 init: %arg1) across dimensions = [0] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8xf32>\n"
    "     reducer(%a: tensor<f32>, %b: tensor<f32>)  {\n      %s = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %s : tensor<f32>\n    }",
    "%10 = stablehlo.reduce(%arg1 init: %nope) applies stablehlo.max across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>",
    '"ttnn.deallocate"(%arg1) <{force = false}> : (tensor<4x8xf32>) -> ()',
    "stablehlo.custom_call @f(%arg1) : (tensor<4x8xf32>) -> ()",
    "stablehlo.add %arg1, %arg1 : tensor<4x8xf32>",
    'stablehlo.optimization_barrier %arg1 {a = "}"} : tensor<4x8xf32>',
    "sdy.return %arg1 : tensor<4x8xf32>",
    # type lists; and lines spelled like others up to SSA names (one template) whose operands differ
    "%11 = stablehlo.select %2, %arg1, %0 : tensor<4x8xi1>, tensor<4x8xf32>",
    "%12 = stablehlo.select %2, %arg1, %arg1 {a = 1 : i64} : tensor<4x8xi1>, tensor<4x8xf32>",
    "%13 = stablehlo.select %2, %arg1, %arg1 : tensor<4x8xi1>, tensor<4x8xf32",
    "%14 = chlo.next_after %arg1, %arg1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>",
    "%15 = stablehlo.add %2, %2 : tensor<4x8xf32>",
    "%16 = stablehlo.add %8#1, %arg1 : tensor<4x8xf32>",
    "%17 = stablehlo.add %7, %8 : tensor<4x8xf32>",
    "%0 = stablehlo.add %0, %arg1 : tensor<4x8xf32>",
    "%2 = stablehlo.compare  GE, %0, %arg1,  FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>",
    "%18 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    "%19 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>",
    "%20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PRETTY), st.sampled_from(LOCS[:6]), st.sampled_from(["\n    ", "\n\n    ", " "])), min_size=1, max_size=8),
       st.sampled_from(["return", "func.return", "return %arg1 : tensor<4x8xf32>", "stablehlo.return %arg1 : tensor<4x8xf32> loc(#loc1)"]))
@example([("%0 = stablehlo.add %arg1, %arg1 : tensor<4x8xf32>", "", " ")], "return")
def test_mixed_runs_fast_equals_general(lines: list[tuple[str, str, str]], return_line: str) -> None:
    body = "".join(sep + line + loc for line, loc, sep in lines)
    text = (
        "func.func @f(%arg1: tensor<4x8xf32>) {"
        f"{body}\n    {return_line}\n}}\n"
        '#loc1 = loc("m.py":1:1)\n#loc2 = loc("m.py":2:1)\n'
    )
    assert_same(text)


@pytest.mark.parametrize("kind", ["ttnn", "stablehlo"])
@pytest.mark.parametrize("style", [s for s in STYLES])
def test_bench_modules_fast_equals_general(kind: str, style: str) -> None:
    assert_same(restyle(generate(kind, 300, 1), style, 1))


def test_fast_path_errors_keep_their_position() -> None:
    text = 'func.func @f(%a: tensor<2xf32>) {\n  %0 = "t.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n  %1 = "t.op"(%b) : (tensor<2xf32>) -> tensor<2xf32>\n  return\n}\n'
    fast = _parse(text, True)
    assert isinstance(fast, str) and fast.startswith("in.mlir:3:15: error: use of undefined value '%b'")
    assert fast == _parse(text, False)


def test_alias_cycles_through_forward_references_are_errors() -> None:
    text = '"t.op"() : () -> () loc(#loc1)\n#loc1 = loc(fused[#loc2, "a"])\n#loc2 = loc(callsite(#loc1 at "b"))\n'
    assert _parse(text, True) == _parse(text, False)
    assert "alias '#loc1' refers to itself: #loc1 -> #loc2 -> #loc1" in str(_parse(text, True))
    ok = '"t.op"() : () -> () loc(#loc2)\n#loc2 = loc(fused[#loc1, "a"])\n#loc1 = loc("b")\n'
    assert not isinstance(_parse(ok, True), str)


_TEMPLATE_HEAD = (
    "!alias_t = tensor<4x8xf32>\n"
    "func.func @f(%arg1: tensor<4x8xf32>, %p: tensor<4x8xi1>, %q: !alias_t) {\n"
    "    %m:2 = \"test.two\"() : () -> (tensor<4x8xf32>, tensor<4x8xf32>)\n"
    "    %0 = stablehlo.add %arg1, %arg1 : tensor<4x8xf32>\n"
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("%1 = stablehlo.add %p, %p : tensor<4x8xf32>", "in.mlir:5:24: error: type mismatch"),
        ("%1 = stablehlo.add %m#1, %0 : tensor<4x8xf32>", None),
        ("%1 = stablehlo.add %m, %0 : tensor<4x8xf32>", "in.mlir:5:24: error: '%m' names 2 results"),
        ("%1 = stablehlo.add %q, %0 : tensor<4x8xf32>", None),
        ("%0 = stablehlo.add %0, %0 : tensor<4x8xf32>", "in.mlir:5:5: error: redefinition of SSA value '%0'"),
        ("%1 = stablehlo.add %0, %nope : tensor<4x8xf32>", "in.mlir:5:28: error: use of undefined value '%nope'"),
        ("%1 = stablehlo.add %0, %0 : tensor<4x8xf32> loc(callsite(#x at))", "in.mlir:5:"),
        ("%1:2 = stablehlo.add %0, %0 : tensor<4x8xf32>", None),
        ("%1 = stablehlo.add %0, %0 : tensor<4x8xf32>\n    %2 = stablehlo.add %1, %p : tensor<4x8xf32>", "in.mlir:6:28: error: type mismatch"),
    ],
)
def test_line_templates_fall_back_where_the_op_differs(line: str, expected: str | None) -> None:
    """A line spelled like an earlier one up to SSA names reuses what building that one gave, and
    only when its operands are what that one's were: any other case gives the general path's op or error."""
    text = f"{_TEMPLATE_HEAD}    {line}\n    return\n}}\n"
    assert_same_and_expected(text, expected)


@pytest.mark.parametrize(
    ("aliases", "expected"),
    [
        ('#loc1 = loc("a")\n#loc2 = loc("b")\n#loc1 = loc("c")\n', "in.mlir:5:1: error: redefinition of alias '#loc1'"),
        ('#loc1 = loc("a")\n// c\n#loc1 = loc("c")\n', "in.mlir:5:1: error: redefinition of alias '#loc1'"),
        ('#loc1 = loc(callsite(#loc2 at "x"))\n#loc2 = loc("b")\n', None),
        ('#loc1 = loc(callsite(#loc9 at "x"))\n#loc2 = loc("b")\n', "in.mlir:3:22: error: undefined alias '#loc9'"),
        ('#loc1 = loc(fused["#loc9", #loc2])\n#loc2 = loc("b")\n', None),
        ('#loc1 = loc(fused[#loc1, "b"])\n', "in.mlir:3:1: error: alias '#loc1' refers to itself"),
        # references without strings are checked in one pass (IRBuilder._check_run_refs)
        ('#loc2 = loc("b")\n#loc1 = loc(callsite(#loc3 at #loc2))\n#loc3 = loc("c")\n', None),
        ('#loc2 = loc("b")\n#loc1 = loc(callsite(#loc9 at #loc2))\n', "in.mlir:4:22: error: undefined alias '#loc9'"),
        ('#loc1 = loc(fused[#loc2, #loc1])\n#loc2 = loc("b")\n', "in.mlir:3:1: error: alias '#loc1' refers to itself"),
        (
            '#loc1 = loc(#loc3)\n#loc2 = loc("a")\n#loc3 = loc(callsite(#loc1 at #loc2))\n',
            "in.mlir:3:1: error: alias '#loc1' refers to itself: #loc1 -> #loc3 -> #loc1",
        ),
        ('#loc1 = loc("a")  #loc2 = loc(#loc1)\n#loc3 = loc("a.py":1:2 to 3:4)\n#loc4 = loc(#loc3)\n', None),
    ],
)
def test_loc_alias_runs(aliases: str, expected: str | None) -> None:
    """A run of location definitions: redefinitions, references forward and backward, gaps."""
    text = f'"t.op"() : () -> () loc(#loc1)\n\n{aliases}'
    assert_same_and_expected(text, expected)


def test_loc_alias_run_values_are_built_on_first_use() -> None:
    """A run's definitions keep their text; the LocationAttr (and its Location) exist once asked for,
    and resolve through the other aliases as eagerly built ones did."""
    from ttopt.ir.aliases import LocAliasDef
    from ttopt.parse.parser import parse_module

    text = '"t.op"() : () -> () loc(#loc3)\n#loc1 = loc("add_1"("m.py":3:4))\n#loc2 = loc("m.py":9:1)\n#loc3 = loc(callsite(#loc1 at #loc2))\n'
    module = parse_module(text, "in.mlir")
    d = module.aliases.defs["attr", "loc3"]
    assert isinstance(d, LocAliasDef) and not d[2]._values and d.is_location
    assert d.value_text == "loc(callsite(#loc1 at #loc2))" and d.pos == text.index("#loc3 =")
    op = next(o for o in module.walk() if o.name == "t.op")
    assert op.location.name == "add_1"
    assert d[2]._values and d.value is d.value and d.value.text == d.value_text
