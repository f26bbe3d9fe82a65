"""The whole-op lexing paths (line_readers.op_run: FAST_GENERIC, generic_op_parts, pretty_op_parts) build
exactly what the piecewise grammar builds: the same IR, the same printed text, the same errors."""

from __future__ import annotations

from pathlib import Path
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
from ttopt.parse import lexer, line_readers
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
    # blanks and comments MLIR allows between `<` and `{`, in the dictionary, around `>`
    " < {dim = 1 : si32} >",
    " <{a = 1 // c\n}>",
    " <\r{a = 1}>",
]
ATTRS = [
    "", " {note = 1 : i64}", ' {s = "x"}', " {d = {e = 2}}", " {dim = 3 : si32}", " {a = [}",
    # comments, escapes MLIR knows and one it does not, a character it refuses, a spaced minus
    " {a = 1, // c\n b = 2}", ' {s = "\\41\\n"}', ' {s = "\\q"}', " {a\u00e9 = 1}", " {a = - 1}",
]  # fmt: skip
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
    " loc (#loc1)",
    ' loc("a\\41")',
    " // c\r    loc(#loc1)",
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
        results = draw(
            st.sampled_from(["", f"%{i} = ", f"%v{i} = ", f"%{i}:2 = ", f"%{i}, %w{i} = ", "%arg0 = ", f"%{i}  =  ", f"%{i} : 2 = ", f"%{i}\r= "])
        )
        n_out = {"": 0}.get(results, 2 if (":2" in results.replace(" ", "") or "," in results) else 1)
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
        for r in results.rstrip("= \r").replace(" : 2", "").replace(":2", "").split(","):
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
    '%21 = sdy.sharding_constraint %arg1 <@mesh, [{}, {"y"}]> : tensor<4x8xf32>',
    "%22 = sdy.sharding_constraint %0 <@mesh, [{}, {}]> {a = 1 : i64} : tensor<4x8xf32>",
    "%23 = sdy.sharding_constraint %arg1 <@mesh, [{}, {}]> : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    "%24 = sdy.sharding_constraint %nope <@mesh, [{}, {}]> : tensor<4x8xf32>",
    "%25 = sdy.sharding_constraint %2 <@mesh, [{}, {}]> : tensor<4x8xf32>",
    "%26 = sdy.sharding_constraint %arg1 <@mesh, [{}, {}> : tensor<4x8xf32>",
    "%27 = sdy.sharding_constraint %arg1 <@mesh, [{}, {}]> : tensor<4x8xf32>, tensor<4x8xf32>",
    # Unicode spaces are not blanks to the piecewise lexer: an error on both paths
    "%28 = stablehlo.compare GE,\xa0%arg1, %arg1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>",
    "%29 = stablehlo.broadcast_in_dim %arg1, dims = [0,\u20031] : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    # an op followed by what cannot follow an op: the error words the state inside the op
    "%30 = stablehlo.add %arg1, %arg1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>, tensor<4x8xf32>",
    "%31 = stablehlo.constant dense<1.0> : tensor<f32> = 3",
    "%32 = stablehlo.reduce(%arg1 init: %arg1) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>, f32",
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


@pytest.mark.parametrize("kind", ["ttnn", "stablehlo"])
@pytest.mark.parametrize("ending", ["\r", "\r\n", " // c\n", " // c\r", "\x00\n"], ids=["cr", "crlf", "comment", "comment-cr", "nul"])
def test_line_endings_and_comments_fast_equals_general(kind: str, ending: str) -> None:
    """Every line ending MLIR reads, and a comment or NUL after every line: both paths build the same
    module, and the same one as from the plain text."""
    text = restyle(generate(kind, 200, 1), "name", 1)
    edited = text.replace("\n", ending)
    assert_same(edited)
    plain, got = _parse(text, True), _parse(edited, True)
    assert not isinstance(plain, str) and not isinstance(got, str), got
    assert print_module(got, PrintOptions(debuginfo=True)) == print_module(plain, PrintOptions(debuginfo=True))


@pytest.mark.parametrize("kind", ["ttnn", "stablehlo"])
@pytest.mark.parametrize("escape", ["\\22", "\\q"])
def test_an_escape_in_a_string_is_read_piecewise(kind: str, escape: str) -> None:
    """The whole-line readers take strings without escapes: an op with one is read piecewise
    (whose patterns check each escape), and the module is the same whichever path reads the rest."""
    text = restyle(generate(kind, 200, 1), "name", 1)
    at = text.index('loc("') + 5
    edited = text[:at] + escape + text[at:]
    assert_same(edited)
    got, plain = _parse(edited, True), _parse(text, True)
    assert not isinstance(plain, str)
    if escape == "\\q":
        assert isinstance(got, str) and "error: unknown escape in string literal" in got, got
    else:
        assert not isinstance(got, str), got
        assert len(list(_ops(got))) == len(list(_ops(plain)))

@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('%0 = "t.op"(%arg1) :\u00a0(tensor<2xf32>) -> tensor<2xf32>', "in.mlir:2:23: error: expected a function type"),
        ('%0 = "t.op"(%arg1)\u2003: (tensor<2xf32>) -> tensor<2xf32>', "in.mlir:2:"),
        ('%0 = "t.op"(%arg1) : (tensor<2xf32>) -> tensor<2xf32>\u00a0loc("x")', "in.mlir:2:56: error: unexpected character"),
        ('%0 = "t.op"(%arg1) : (tensor<2xf32>) -> tensor<2xf32> loc(callsite("a"\u00a0at "b"))', "in.mlir:2:"),
        ('%0 = "t.op"(%arg1) : (tensor<2xf32>,\u00a0tensor<2xf32>) -> tensor<2xf32>', "in.mlir:2:"),
    ],
)
def test_unicode_spaces_are_errors_on_both_paths(line: str, expected: str) -> None:
    """MLIR's blanks are ASCII: a Unicode space the piecewise lexer refuses is refused by the
    whole-line patterns too (they once read it as `\\s`)."""
    text = f"func.func @f(%arg1: tensor<2xf32>) {{\n  {line}\n  return\n}}\n"
    assert_same_and_expected(text, expected)


def test_fast_path_errors_keep_their_position() -> None:
    text = 'func.func @f(%a: tensor<2xf32>) {\n  %0 = "t.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n  %1 = "t.op"(%b) : (tensor<2xf32>) -> tensor<2xf32>\n  return\n}\n'
    fast = _parse(text, True)
    assert isinstance(fast, str) and fast.startswith("in.mlir:3:15: error: use of undefined value '%b'")
    assert fast == _parse(text, False)


def test_alias_definitions_name_only_aliases_defined_before_them() -> None:
    """MLIR reads an alias's definition when it meets it: a forward reference (so any cycle) is an
    undefined alias at its end; only an op's whole `loc(#name)` may come before the definition."""
    text = '"t.op"() : () -> () loc(#loc1)\n#loc1 = loc(fused[#loc2, "a"])\n#loc2 = loc(callsite(#loc1 at "b"))\n'
    assert _parse(text, True) == _parse(text, False)
    assert str(_parse(text, True)).startswith("in.mlir:2:24: error: undefined symbol alias id 'loc2'")
    forward = '"t.op"() : () -> () loc(#loc2)\n#loc2 = loc(fused[#loc1, "a"])\n#loc1 = loc("b")\n'
    assert str(_parse(forward, True)).startswith("in.mlir:2:24: error: undefined symbol alias id 'loc1'")
    ok = '"t.op"() : () -> () loc(#loc2)\n#loc1 = loc("b")\n#loc2 = loc(fused[#loc1, "a"])\n'
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


_CMP = "stablehlo.compare  EQ, %0, %0, FLOAT {attrs} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>"


@pytest.mark.parametrize(
    ("first", "line", "expected"),
    [
        ("%1 = stablehlo.add %0, %0 {a = 1 : i64} : tensor<4x8xf32>", "%2 = stablehlo.add %1, %0 {a = 2 : i64, b} : tensor<4x8xf32>", None),
        ("%1 = stablehlo.add %0, %0 {a = 1 : i64} : tensor<4x8xf32>", "%2 = stablehlo.add %1, %0 {} : tensor<4x8xf32>", None),
        ("%1 = stablehlo.add %0, %0 {a = 1 : i64} : tensor<4x8xf32>", "%2 = stablehlo.add %1, %0 {a = } : tensor<4x8xf32>", "in.mlir:6:36: error: unexpected '}'"),
        ("%1 = stablehlo.add %0, %0 {a = 1 : i64} : tensor<4x8xf32>", "%2 = stablehlo.add %1, %p {a = 2 : i64} : tensor<4x8xf32>", "in.mlir:6:28: error: type mismatch"),
        ("%1 = stablehlo.add %0, %0 {a = 1 : i64} : tensor<4x8xf32>", "%2 = stablehlo.add %1, %nope {a = #x} : tensor<4x8xf32>", "in.mlir:6:"),
        # a dictionary naming an inherent attribute moves it to the properties: never from a template
        ("%1 = " + _CMP.format(attrs="{a = 1 : i64}"), "%2 = " + _CMP.format(attrs="{comparison_direction = #stablehlo<comparison_direction NE>}"), None),
        ("%1 = " + _CMP.format(attrs="{comparison_direction = #stablehlo<comparison_direction NE>}"), "%2 = " + _CMP.format(attrs="{a = 1 : i64}"), None),
        ("%1 = " + _CMP.format(attrs="{compare_type = #stablehlo<comparison_type FLOAT>}").replace(", FLOAT", ""), "%2 = " + _CMP.format(attrs="{a = 1 : i64}").replace(", FLOAT", ""), None),
        ("%1 = " + _CMP.format(attrs="{a = 1 : i64}").replace(", FLOAT", ""), "%2 = " + _CMP.format(attrs="{compare_type = #stablehlo<comparison_type FLOAT>}").replace(", FLOAT", ""), None),
    ],
)
def test_line_templates_by_attributes_fall_back_where_the_op_differs(first: str, line: str, expected: str | None) -> None:
    """A line spelled like an earlier one up to SSA names and its attribute dictionary is built from
    that one's template with its own dictionary, only when the dictionary parses and moves nothing
    to the properties: any other case gives the general path's op or error."""
    text = f"{_TEMPLATE_HEAD}    {first}\n    {line}\n    return\n}}\n"
    assert_same_and_expected(text, expected)


_ADD = "%1 = stablehlo.add %0, %0 {a = 1 : i64} : tensor<4x8xf32>"
_BCAST = "%1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<2x4x8xf32>"


@pytest.mark.parametrize(
    ("first", "line", "expected"),
    [
        (_ADD, "%2 = stablehlo.add %p, %p {a = 2 : i64} : tensor<4x8xi1>", None),
        (_ADD, "%2 = stablehlo.add %q, %q {b} : !alias_t", None),
        (_ADD, "%2 = stablehlo.add %p, %0 {a = 2 : i64} : tensor<4x8xi1>", "in.mlir:6:28: error: type mismatch"),
        (_ADD, "%2 = stablehlo.add %0, %0 {a = 2 : i64} : tensor<4x8xf32>, tensor<4x8xf32>", "in.mlir:6:47: error: cannot read 2 type(s)"),
        (_ADD, "%2 = stablehlo.add %0, %0 {a = 2 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>", None),
        (_ADD, "%2 = stablehlo.add %0, %0 {a = 2 : i64} : tensor<4x8xfoo>", "in.mlir:6:"),
        (_ADD, "%2 = stablehlo.add %0, %0 {a = 2 : i64} : !nope", "in.mlir:6:"),
        (_ADD.replace(" {a = 1 : i64}", ""), "%2 = stablehlo.add %p, %p : tensor<4x8xi1>", None),
        (_BCAST, "%2 = stablehlo.broadcast_in_dim %p, dims = [0, 1] : (tensor<4x8xi1>) -> tensor<2x4x8xi1>", None),
        (_BCAST, "%2 = stablehlo.broadcast_in_dim %p, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<2x4x8xi1>", "in.mlir:6:"),
        ("%1 = stablehlo.select %p, %0, %0 : tensor<4x8xi1>, tensor<4x8xf32>", "%2 = stablehlo.select %p, %p, %p : tensor<4x8xi1>, tensor<4x8xi1>", None),
        ("%1 = " + _CMP.format(attrs=""), "%2 = " + _CMP.format(attrs="").replace("tensor<4x8xf32>", "tensor<4x8xi1>").replace("%0", "%p"), None),
        ("%1 = stablehlo.dot_general %0, %0, contracting_dims = [1] x [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>",
         "%2 = stablehlo.dot_general %p, %p, contracting_dims = [1] x [1] : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x4xi1>", None),
    ],
)
def test_line_templates_by_types_fall_back_where_the_op_differs(first: str, line: str, expected: str | None) -> None:
    """A line spelled like an earlier one up to SSA names, its attribute dictionary and its types
    (a family whose properties do not depend on the types) is built from that one's template with
    its own dictionary and the types its format reads: any other case gives the general path's op
    or error."""
    text = f"{_TEMPLATE_HEAD}    {first}\n    {line}\n    return\n}}\n"
    assert_same_and_expected(text, expected)


@pytest.mark.parametrize(
    ("aliases", "expected"),
    [
        ('#loc1 = loc("a")\n#loc2 = loc("b")\n#loc1 = loc("c")\n', "in.mlir:5:1: error: redefinition of attribute alias id 'loc1'"),
        ('#loc1 = loc("a")\n// c\n#loc1 = loc("c")\n', "in.mlir:5:1: error: redefinition of attribute alias id 'loc1'"),
        # a definition may name only aliases defined before it (MLIR's words and positions: the
        # end of the reference); an op's whole `loc(#loc1)` may come first
        ('#loc1 = loc(callsite(#loc2 at "x"))\n#loc2 = loc("b")\n', "in.mlir:3:27: error: undefined symbol alias id 'loc2'"),
        ('#loc1 = loc(callsite(#loc9 at "x"))\n#loc2 = loc("b")\n', "in.mlir:3:27: error: undefined symbol alias id 'loc9'"),
        ('#loc1 = loc(fused["#loc9", #loc2])\n#loc2 = loc("b")\n', "in.mlir:3:33: error: undefined symbol alias id 'loc2'"),
        ('#loc2 = loc("b")\n#loc1 = loc(fused["#loc9", #loc2])\n', None),
        ('#loc1 = loc(fused[#loc1, "b"])\n', "in.mlir:3:24: error: undefined symbol alias id 'loc1'"),
        # references without strings are checked in one pass (IRBuilder._check_run_refs)
        ('#loc2 = loc("b")\n#loc1 = loc(callsite(#loc3 at #loc2))\n#loc3 = loc("c")\n', "in.mlir:4:27: error: undefined symbol alias id 'loc3'"),
        ('#loc2 = loc("b")\n#loc3 = loc("c")\n#loc1 = loc(callsite(#loc3 at #loc2))\n', None),
        ('#loc2 = loc("b")\n#loc1 = loc(callsite(#loc9 at #loc2))\n', "in.mlir:4:27: error: undefined symbol alias id 'loc9'"),
        ('#loc1 = loc(fused[#loc2, #loc1])\n#loc2 = loc("b")\n', "in.mlir:3:24: error: undefined symbol alias id 'loc2'"),
        ('#loc1 = loc(#loc3)\n#loc2 = loc("a")\n#loc3 = loc(callsite(#loc1 at #loc2))\n', "in.mlir:3:18: error: undefined symbol alias id 'loc3'"),
        ('#m = 1 : i32\n#loc1 = loc(callsite(#m at "x"))\n', "in.mlir:4:25: error: expected location attribute, but got1 : i32"),
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


# ---- generic lines sharing their tail (IRBuilder.tail_templates: one build per op name and tail) ----
TAILS = [
    " : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    " {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    " <{dim = 1 : si32}> {note = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>",
    " : (tensor<4x8xbf16>) -> tensor<4x8xf32>",
    " : (!alias_t) -> !alias_t",
    " : () -> tensor<4x8xf32>",
    " : (tensor<4x8xf32>) -> ()",
    " : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)",
    ' <{s = "x loc(#loc1)"}> : (tensor<4x8xf32>) -> tensor<4x8xf32>',
    " : (tensor<4x8xf32>) -> !ttnn.device",
]
# What may end a line: locations (`loc(` inside a string, a tab before it, none at all, on the next
# line), a comment, a carriage return, another op on the same line, something else.
ENDS = [
    "",
    " loc(#loc1)",
    ' loc("a loc(#loc2)")',
    ' loc(callsite("f"("m.py":1:2) at #loc2))',
    "\tloc(#loc1)",
    "loc(#loc1)",
    " loc(#loc1) // c",
    " // c",
    "\r",
    " loc(#loc1)\r",
    "\r\n",
    " loc(#loc1)\r\n",
    " // c\r",
    " loc (#loc1)",
    "\x00",
    "\n      loc(#loc2)",
    " loc(#loc1)  ",
    " loc(#loc1 at)",
    # what follows the op on its line (an error, or not): the run must end as the piecewise path would
    " (",
    " foo",
    " %x",
    " stablehlo.add",
    " ^bb",
    ' "s"',
    " }",
]


@st.composite
def shared_tail_lines(draw: st.DrawFn) -> str:
    tails = draw(st.lists(st.sampled_from(TAILS), min_size=1, max_size=3, unique=True))
    lines = []
    for i in range(draw(st.integers(1, 8))):
        results = draw(st.sampled_from(["", f"%{i} = ", f"%{i} = ", "%0 = ", "%arg1 = ", f"%{i}:2 = "]))
        n_in = draw(st.integers(0, 2))
        operands = [draw(st.sampled_from(["%arg0", "%arg1", "%arg1", "%0", "%1", "%m", "%m#1", "%undef", "%q"])) for _ in range(n_in)]
        name = draw(st.sampled_from(["test.op", "stablehlo.slice", "ttnn.relu"]))
        sep = draw(st.sampled_from([", ", ",", " , "]))
        line = f'{results}"{name}"({sep.join(operands)}){draw(st.sampled_from(tails))}{draw(st.sampled_from(ENDS))}'
        lines.append(draw(st.sampled_from(["\n    ", "\n    ", " ", "\n\n    "])) + line)
    return (
        "!alias_t = tensor<4x8xf32>\n"
        "func.func @f(%arg0: tensor<4x8xbf16>, %arg1: tensor<4x8xf32>, %q: !alias_t) {\n"
        '    %m:2 = "test.two"() : () -> (tensor<4x8xf32>, tensor<4x8xf32>)'
        f"{''.join(lines)}\n"
        "    return\n"
        "}\n"
        '#loc1 = loc("m.py":1:1)\n'
        '#loc2 = loc("m.py":2:1)\n'
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shared_tail_lines())
def test_shared_tail_lines_fast_equals_general(text: str) -> None:
    assert_same(text)


_TAIL_HEAD = (
    "!alias_t = tensor<4x8xf32>\n"
    "func.func @f(%arg0: tensor<4x8xbf16>, %arg1: tensor<4x8xf32>, %q: !alias_t) {\n"
    '    %m:2 = "test.two"() : () -> (tensor<4x8xf32>, tensor<4x8xf32>)\n'
    '    %0 = "test.op"(%arg1) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)\n'
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('%1 = "test.op"(%0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', None),
        ('%1 = "test.op"(%arg0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', "in.mlir:5:20: error: type mismatch"),
        ('%1 = "test.op"(%q) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', None),
        ('%1 = "test.op"(%m#1) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', None),
        ('%1 = "test.op"(%m) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', "in.mlir:5:20: error: '%m' names 2 results"),
        ('%1 = "test.op"(%nope) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', "in.mlir:5:20: error: use of undefined value '%nope'"),
        ('%0 = "test.op"(%0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', "in.mlir:5:5: error: redefinition of SSA value '%0'"),
        ('"test.op"(%0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', "in.mlir:5:5: error: 'test.op' is written with 0 result(s)"),
        ('%1 = "test.op"(%0, %0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', "in.mlir:5:10: error: 'test.op' has 2 operand(s)"),
        ('%1 = "test.op"() {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', "in.mlir:5:10: error: 'test.op' has 0 operand(s)"),
        ('%1:2 = "test.op"(%0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', "in.mlir:5:12: error: 'test.op' is written with 2 result(s)"),
        ('%1 = "test.op"(%0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#nope)', "in.mlir:5:102: error: operation location alias was never defined"),
        ('%1 = "test.op"(%0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1 at)', "in.mlir:5:"),
        # the same tail under another name: stablehlo.slice declares start_indices a property
        ('%1 = "stablehlo.slice"(%0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)', None),
    ],
)
def test_tail_templates_fall_back_where_the_op_differs(line: str, expected: str | None) -> None:
    """A generic line written with the name and tail of an earlier one reuses what building that
    tail gave, and only when its operands and results fit it: any other case gives the general
    path's op or error."""
    text = f'{_TAIL_HEAD}    {line}\n    return\n}}\n#loc1 = loc("m.py":1:1)\n'
    assert_same_and_expected(text, expected)


def test_tail_templates_keep_per_op_dictionaries() -> None:
    """Ops built from one template get their own dictionaries (passes edit them per op), and the
    op name decides which written attributes become properties."""
    text = f'{_TAIL_HEAD}    %1 = "test.op"(%0) {{start_indices = array<i64: 0, 0>}} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc(#loc1)\n'
    text += '    %2 = "stablehlo.slice"(%0) {start_indices = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
    text += '    return\n}\n#loc1 = loc("m.py":1:1)\n'
    m = _parse(text, True)
    assert not isinstance(m, str), m
    ops = [op for op in _ops(m) if op.name in ("test.op", "stablehlo.slice")]
    a, b, c = ops
    assert a.attributes is not b.attributes and a.properties is not b.properties
    assert list(a.attributes) == ["start_indices"] and not a.properties
    assert list(c.properties) == ["start_indices"] and not c.attributes


# ---- fast_pretty_op_parts reads exactly what general_pretty_op_parts reads ----------------------------
_SP = ["", " ", "  ", "\n      ", " // c\n ", "\xa0", "\r", "\x00", " // c\r ", "\x0c"]
_PRETTY_TYPES = [
    "tensor<4x8xf32>", "tensor<4x8xf32, #enc>", "tensor<4x?xf32>", "!alias_t", "!a.b-c", "f32", "tensor<4x!q.t<1>>",
    "tensor<4x->", "tensor<4xf32>=", "tensor<4x[xf32>", 'tensor<4x"s">', "tensor.x<4>", "(tensor<2xf32>) -> f32",
]  # fmt: skip
_PRETTY_TYPE_SPECS = [
    "tensor<4x8xf32>", "(tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>", "(tensor<4x8xf32>) -> (f32, !alias_t)",
    "tensor<4x8xi1>, tensor<4x8xf32>", "f32, f32 -> f32", "(tensor<4x!q.t<1>>) -> f32", "(tensor<4x8xf32>) ->",
]  # fmt: skip
_PRETTY_HEADS = [
    "stablehlo.add %a, %b", "stablehlo.add %a,%b", "stablehlo.add %a , %b , %c", "stablehlo.add %a, %b, %c, %d",
    "stablehlo.add %a#1, %b", "stablehlo.add %a, %b // c\n , %c", "stablehlo.add %a,", "stablehlo.add", "stablehlo.add %",
    "stablehlo.broadcast_in_dim %a, dims = [0, 1]", "stablehlo.broadcast_in_dim %a, dims = []", "stablehlo.iota dim = 0",
    'stablehlo.pad %a, %b, low = [0], high = [1], interior = [0], x = -1, y = W, z = "s"', "stablehlo.transpose %a, dims = [1 , 0],",
    "stablehlo.compare  GE, %a, %b,  FLOAT", "stablehlo.compare EQ, %a, %b", "stablehlo.compare EQ %a",
    "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGH]",
    "stablehlo.dot_general %a, %b, batching_dims = [0] x [0]", "stablehlo.dot_general %a, %b, algorithm = <x>",
    "stablehlo.reduce(%a init: %b) applies stablehlo.add across dimensions = [1]", "sdy.sharding_constraint %a <@m, [{}]>",
]  # fmt: skip
_CONSTANTS = [
    "dense<1.000000e+00>", "dense<-1.5e-03>", "dense<[1, -2]>", "dense<[[1, 2], [3, 4]]>", "dense<[[[1]]]>", "dense<0x7F>",
    'dense<"0x00">', "dense<1->", "dense<1>=", "{a = 1} dense<1>", "dense_resource<r>", "1 : i32", "dense<(1)>",
]  # fmt: skip
_PRETTY_ATTRS = ["", "{a = 1 : i64}", '{s = "}"}', "{d = {e = #x<[{}]>}}", "{a = [}", "{a = 1}>"]
_PRETTY_LOCS = ["", "loc(#loc1)", 'loc("a"("f.py":1:2))', "loc(callsite(#loc1 at #loc2))", 'loc("a.py":1:2 to 3:4)', "loc(", "loc(#l) loc(#m)"]


@st.composite
def pretty_lines(draw: st.DrawFn) -> str:
    """One custom-form op line (valid or not), with odd spacing and comments between its pieces."""
    sp = lambda: draw(st.sampled_from(_SP))  # noqa: E731
    result = draw(st.sampled_from(["%0 = ", "%r =", "%0:2 = ", "%a, %b = ", "", "%0 == "]))
    if draw(st.integers(0, 3)) == 0:
        body = f"stablehlo.constant{sp()}{draw(st.sampled_from(_CONSTANTS))}{sp()}:{sp()}{draw(st.sampled_from(_PRETTY_TYPES))}"
    else:
        attrs = draw(st.sampled_from(_PRETTY_ATTRS))
        if draw(st.booleans()):
            spec = draw(st.sampled_from(_PRETTY_TYPE_SPECS))
        else:
            spec = f"{sp()},{sp()}".join(draw(st.lists(st.sampled_from(_PRETTY_TYPES), min_size=1, max_size=3)))
        body = f"{draw(st.sampled_from(_PRETTY_HEADS))}{sp()}{attrs}{sp()}:{sp()}{spec}"
    tail = draw(st.sampled_from(["\n", " // end\n", "\n  // next\n", ", x\n", " -> y\n", ""]))
    return f"  {result}{body}{sp()}{draw(st.sampled_from(_PRETTY_LOCS))}{tail}  %9 = x"


@settings(max_examples=2000, deadline=None)
@given(pretty_lines())
@example("  %0 = stablehlo.add %a, %b : tensor<4xf32> // c\n , tensor<4xf32>\n")
@example("  %0 = stablehlo.add %a, %b : tensor<4xf32> // c\n loc(#loc1)\n")
@example("  %0 = stablehlo.constant dense<1> : tensor<4x->\n")
def test_fast_pretty_parts_equal_general(line: str) -> None:
    """Where the fast reader takes a line it gives the general reader's parts and end (both may raise
    ScanError only in the general one, which the fast one then leaves to it)."""
    fast = line_readers.fast_pretty_op_parts(line, 2)
    if fast is None:
        return
    assert fast == line_readers.general_pretty_op_parts(line, 2)


@pytest.mark.parametrize(
    "line",
    [
        "%0 = stablehlo.add %a, %b : tensor<4xf32> loc(#loc1)",
        "stablehlo.return %a : tensor<4xf32>",
        "%0 = stablehlo.select %p, %a, %b {x = 1} : tensor<4xi1>, tensor<4xf32>",
        "%0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<4xf32>) -> tensor<2x4xf32>",
        '%0 = stablehlo.compare  GE, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1> loc("x")',
        "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>",
        "%0 = stablehlo.constant dense<[[1.0, -2.0]]> : tensor<1x2xf32> loc(callsite(#loc1 at #loc2))",
    ],
)
def test_fast_pretty_parts_take_the_common_lines(line: str) -> None:
    """The shapes JAX prints most are read by the fast reader (else the equivalence test above is vacuous)."""
    fast = line_readers.fast_pretty_op_parts(line, 0)
    assert fast is not None and fast == line_readers.general_pretty_op_parts(line, 0)


def test_trailing_comma_after_operands_is_an_error_on_both_paths() -> None:
    text = "func.func @f(%arg1: tensor<4x8xf32>) {\n    %0 = stablehlo.add %arg1, : tensor<4x8xf32>\n    return\n}\n"
    assert_same_and_expected(text, "in.mlir:2:31: error: unexpected ':'; expected an SSA value")


_REDUCE_HEAD = "func.func @f(%arg1: tensor<4x8xf32>, %c: tensor<f32>) {\n"
_REDUCE = (
    "%0 = stablehlo.reduce(%arg1 init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
    "     reducer(%a: tensor<f32>, %b: tensor<f32>)"
)
_REDUCER_BODY = " {\n      %s = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %s : tensor<f32>\n    }"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        ((), None),
        (("%b: tensor<f32>", '%b: tensor<f32> loc("x")'), None),
        (("%a: tensor<f32>,", "%a: tensor<f32> loc(#loc1),"), None),
        (("init: %c", "init: %nope"), "in.mlir:2:39: error: use of undefined value '%nope'"),
        (("%a: tensor<f32>,", "%a: tensor<f32,"), "in.mlir:3:45: error: expected '>' to close '<', found ')'"),
        (("%a: tensor<f32>,", "%a: tensor<i8>,"), "in.mlir:4:26: error: type mismatch: '%a' is 'tensor<i8>'"),
        (("%a: tensor<f32>,", "%a: tensor<f32> loc(callsite(#loc1 at)),"), "in.mlir:3:51: error: unexpected ')'"),
        (("%a, %b :", "%a, %zz :"), "in.mlir:4:30: error: use of undefined value '%zz'"),
        (("[1] :", "[1] {note = 1 : i64} :"), None),
        (("[1] :", "[1] {note = } :"), "in.mlir:2:75: error: unexpected '}'"),
        (("across", "applies stablehlo.add across"), None),
        (("across", "// c\n across"), None),
        ((" : (", " // c\n : ("), None),
        (("reducer(", "reducer( // c\n"), None),
        (("%a: tensor<f32>,", "%a: tensor<f32> {x = 1},"), "in.mlir:3:30: error: block arguments take no attribute dictionary"),
        (("[1]", "[]"), None),
        (("[1]", "[-1, 99999999999999999999999]"), "in.mlir:2:68: error: integer value too large"),  # as MLIR (int64)
        (("[1]", "[1,]"), "in.mlir:2:66: error: unexpected ']'; expected an integer"),
        (("-> tensor<4xf32>", "-> tensor<4xf32>, tensor<f32>"), "in.mlir:2:116: error: unexpected ','"),
        (("(tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>", "tensor<4x8xf32>, tensor<f32>"), "in.mlir:2:69: error: cannot read 2 type(s)"),
        (("%arg1 init", "%c init"), "in.mlir:2:27: error: type mismatch: '%c' is 'tensor<f32>'"),
        (("%b: tensor<f32>", "%a: tensor<f32>"), "in.mlir:3:31: error: redefinition of SSA value '%a'"),
        (("%a: tensor<f32>", "%a : !t"), "in.mlir:3:21: error: undefined symbol alias id 't'"),
        (("%a: tensor<f32>", "%a: (f32) -> f32"), "in.mlir:4:26: error: type mismatch: '%a' is '(f32) -> f32'"),
    ],
)
def test_reduce_headers_as_one_token(edit: tuple, expected: str | None) -> None:
    """A reduce written with a `reducer` body reads its header as one token: the same op, block
    arguments and errors (at the same place, in the same order) as token by token."""
    op = _REDUCE + _REDUCER_BODY
    op = op.replace(*edit) if edit else op
    text = f"{_REDUCE_HEAD}    {op} loc(#loc2)\n    return\n}}\n" + '#loc1 = loc("m.py":1:1)\n#loc2 = loc("m.py":2:1)\n'
    assert_same_and_expected(text, expected)


_APPLIES = "%{r} = stablehlo.reduce(%arg1 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>"


@pytest.mark.parametrize(
    ("last", "expected"),
    [
        (_APPLIES.format(r=3), None),
        (_APPLIES.format(r=3) + ' loc("x")', None),
        (_APPLIES.format(r=3) + " loc(#loc1)", None),
        (_APPLIES.format(r=3) + "\n     reducer(%a: tensor<f32>, %b: tensor<f32>)" + _REDUCER_BODY, None),
        (_APPLIES.format(r=3).replace("%c", "%d"), "in.mlir:5:39: error: use of undefined value '%d'"),
        (_APPLIES.format(r=3).replace("%c", "%arg1"), "in.mlir:5:39: error: type mismatch"),
        (_APPLIES.format(r=0), "in.mlir:5:5: error: redefinition of SSA value '%0'"),
    ],
)
def test_reduce_applies_lines_by_shape(last: str, expected: str | None) -> None:
    """`reduce ... applies` lines are read by shape and built from a template, each op with a body
    of its own: the same ops, bodies (their locations the op's) and errors as token by token, also
    when a `reducer` follows a line of a shape read whole before (the grammar then reads it)."""
    lines = [_APPLIES.format(r=0), _APPLIES.format(r=1) + " loc(#loc1)", _APPLIES.format(r=2), last]
    body = "".join(f"    {line}\n" for line in lines)
    text = f"{_REDUCE_HEAD}{body}    return\n}}\n" + '#loc1 = loc("m.py":1:1)\n'
    assert_same_and_expected(text, expected)


def test_multi_input_reduce_header() -> None:
    text = (
        f"{_REDUCE_HEAD}    %0:2 = stablehlo.reduce(%arg1 init: %c), (%arg1 init: %c) across dimensions = [0, 1]"
        " : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)\n"
        "     reducer(%a: tensor<f32>, %b: tensor<f32>) (%a2: tensor<f32>, %b2: tensor<f32>) {\n"
        "      %s = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %s, %a2 : tensor<f32>, tensor<f32>\n    }\n"
        "    return\n}\n"
    )
    assert_same_and_expected(text, None)


_MANUAL_HEAD = 'sdy.mesh @mesh = <["x"=2, "y"=4]>\nfunc.func @f(%arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {\n'
_MANUAL = (
    '%0 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<2x8xf32>) {\n'
    "      %s = stablehlo.add %a, %a : tensor<2x8xf32>\n      sdy.return %s : tensor<2x8xf32>\n    } : (tensor<4x8xf32>) -> tensor<4x8xf32>"
)


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        ((), None),
        (("(%a: tensor<2x8xf32>)", '(%a: tensor<2x8xf32> loc("x"))'), None),
        (("(%a: tensor<2x8xf32>)", "(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>)"), None),
        (("manual_axes=", "manual_axes ="), None),
        (("in_shardings=", "in_shardings = // c\n"), None),
        (("} : (", "} {note = 1 : i64} : ("), None),
        (("(%arg1)", "( %arg1 )"), None),
        (("(%arg1)", "(%nope)"), "in.mlir:3:33: error: use of undefined value '%nope'"),
        (("(%arg1)", "(%arg1, %arg1)"), "in.mlir:3:10: error: 'sdy.manual_computation' has 2 operand(s) but its type lists 1"),
        (("(%a: tensor<2x8xf32>)", "()"), "in.mlir:4:26: error: use of undefined value '%a'"),
        (("(%a: tensor<2x8xf32>)", "(%a: tensor<2x8xf32> {x = 1})"), "in.mlir:3:152: error: block arguments take no attribute dictionary"),
        (("(%a: tensor<2x8xf32>)", "(%a: tensor<i8>)"), "in.mlir:4:26: error: type mismatch: '%a' is 'tensor<i8>'"),
        (("(%a: tensor<2x8xf32>)", "(%a: tensor<2x8xf32> loc(callsite(#loc1 at)))"), "in.mlir:3:173: error: unexpected ')'"),
        (('manual_axes={"x"}', 'manual_axes={"x"'), "in.mlir:9:1: error: unexpected '#loc1'; expected '('"),
        (("in_shardings", "in_shardingz"), "in.mlir:3:40: error: unexpected 'in_shardingz'; expected 'in_shardings'"),
        (("] out_shardings", "], out_shardings"), "in.mlir:3:75: error: unexpected ','; expected 'out_shardings'"),
        (("(%a: tensor<2x8xf32>)", "(%a: tensor<2x8xf32>,)"), "in.mlir:3:152: error: unexpected ')'; expected an SSA value"),
        (("%a, %a", "%a, %zz"), "in.mlir:4:30: error: use of undefined value '%zz'"),
        (("(%a: tensor<2x8xf32>)", "(%a: tensor<2x8xf32>) (%b: f32)"), "in.mlir:3:153: error: unexpected '('; expected ':', '{'"),
        (("(%a: tensor<2x8xf32>)", "(%a: (f32) -> f32)"), "in.mlir:4:26: error: type mismatch: '%a' is '(f32) -> f32'"),
        (('manual_axes={"x"}', 'manual_axes=[{"x"}]'), "in.mlir:3:125: error: unexpected '['; expected an axis list"),
    ],
)
def test_manual_computation_headers_as_one_token(edit: tuple, expected: str | None) -> None:
    """sdy.manual_computation reads its header as one token: the same op, block arguments and
    errors (same place, same order) as token by token."""
    op = _MANUAL.replace(*edit) if edit else _MANUAL
    text = f"{_MANUAL_HEAD}    {op}\n    return %0 : tensor<4x8xf32>\n}}\n" + '#loc1 = loc("m.py":1:1)\n'
    assert_same_and_expected(text, expected)


# ---- every bundled file: most are below FAST_MIN_CHARS, so the CLI reads them with the piecewise
# grammar; the whole-op paths must build the same from them ------------------------------------------
_TESTDATA = Path(__file__).resolve().parents[2] / "testdata"
_CHUNKS = [
    pytest.param(chunk, id=f"{path.relative_to(_TESTDATA)}#{i}")
    for path in sorted(_TESTDATA.rglob("*.mlir"))
    for i, chunk in enumerate(path.read_text().split("// -----"))
]


def test_the_size_threshold_picks_the_whole_op_paths_for_large_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    assert lexer.FAST_LINES is None  # chosen by the input's size unless a test forces it
    calls: list[int] = []

    def counting(text: str, pos: int, cr: bool) -> Any:
        calls.append(pos)
        return line_readers.op_run(text, pos, cr)

    monkeypatch.setattr(lexer, "op_run", counting)
    line = '  %{i} = "ttnn.relu"(%arg0) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>\n'
    body = "".join(line.format(i=i) for i in range(lexer.FAST_MIN_CHARS // 60))
    assert len(body) >= lexer.FAST_MIN_CHARS
    small = "func.func @f(%arg0: tensor<4x8xbf16>) {\n" + line.format(i=0) + "  return\n}\n"
    large = "func.func @f(%arg0: tensor<4x8xbf16>) {\n" + body + "  return\n}\n"
    parse_module(small, "small.mlir")
    assert calls == []
    parse_module(large, "large.mlir")
    assert calls


def test_a_run_is_not_sought_again_where_one_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a run stopped at an op it does not read (a reduce with a `reducer` body), the lexer
    reads that op piecewise without asking op_run again; the module is the general path's."""
    ops = "".join(f"    %x{i} = stablehlo.add %arg1, %arg1 : tensor<4x8xf32>\n" for i in range(3))
    text = f"{_REDUCE_HEAD}{ops}    {_REDUCE}{_REDUCER_BODY}\n{ops.replace('%x', '%y')}    return\n}}\n"
    assert_same(text)
    calls: list[int] = []
    general = line_readers.general_pretty_op_parts

    def counting(text: str, pos: int) -> Any:
        calls.append(pos)
        return general(text, pos)

    monkeypatch.setattr(line_readers, "general_pretty_op_parts", counting)
    _parse(text, True)
    assert text.index("%0 = stablehlo.reduce") in calls and len(calls) == len(set(calls))


@pytest.mark.parametrize("text", _CHUNKS)
def test_bundled_files_parse_alike_on_both_paths(text: str) -> None:
    assert_same(text)
