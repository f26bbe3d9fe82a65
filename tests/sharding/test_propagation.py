"""Propagation: per-factor decisions, modes, the worklist, bad input."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.sharding.factors import get_sharding_attr
from ttopt.sharding.propagation import AggressivePropagation, BasicPropagation

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'


def _run(text: str, **opts) -> tuple:
    m = parse_module(MESH + text)
    ctx = PassContext()
    (BasicPropagation if opts.pop("basic", False) else AggressivePropagation)(**opts).run(m, ctx)
    return m, ctx


def _shardings(m) -> list[str | None]:
    out = []
    for op in m.walk():
        if op.name.startswith("stablehlo."):
            a = get_sharding_attr(op.results[0])
            out.append(a.op_text() if a else None)
    return out


def test_forward_and_backward_through_dot() -> None:
    m, ctx = _run(
        'func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {\n'
        "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n"
        "  %1 = stablehlo.negate %0 : tensor<8x32xf32>\n"
        '  %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {"y"}]> : tensor<8x32xf32>\n'
        "  return %2 : tensor<8x32xf32>\n}\n"
    )
    assert _shardings(m) == ['<@mesh, [{"x", ?}, {"y", ?}]>', '<@mesh, [{"x", ?}, {"y", ?}]>']
    # Backward into the open argument %b: the rhs free factor j gets "y".
    assert '%arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"y", ?}]>}' in print_module(m)
    assert ctx.stats["aggressive-propagation"]["updates"] >= 3


def test_closed_dims_and_replicated_axes_block() -> None:
    m, _ = _run(
        'func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}], replicated={"y"}>}) -> tensor<8x16xf32> {\n'
        "  %0 = stablehlo.add %a, %b : tensor<8x16xf32>\n"
        "  return %0 : tensor<8x16xf32>\n}\n"
    )
    text = print_module(m)
    assert '%arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}], replicated={"y"}>}' in text
    assert _shardings(m) == ['<@mesh, [{"x", ?}, {"y", ?}]>']


def test_conservative_never_creates_sub_axes() -> None:
    src = (
        'func.func @main(%a: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<16xf32> {\n'
        "  %0 = stablehlo.reshape %a : (tensor<2x8xf32>) -> tensor<16xf32>\n"
        "  return %0 : tensor<16xf32>\n}\n"
    )
    # "y"=4 does not divide the size-2 dim: the projection splits it, the result needs a sub-axis.
    m, _ = _run(src, conservative=True)
    assert _shardings(m) == [None]
    m, _ = _run(src, conservative=False)
    assert _shardings(m) == ['<@mesh, [{"y":(1)2, ?}]>']


@pytest.mark.parametrize("conservative", [True, False])
def test_merged_dim_ends_at_a_factor_that_is_not_fully_sharded(conservative: bool) -> None:
    # 4x16x64 on [{"x"}, {"y"}, {}] -> 64x64: the merged dim is factors i=4 ("x"=2 shards half of
    # it) and j=16. "y" on j cannot be written after a partly sharded i ([{"x", "y"}] would read
    # back as i={"x", "y":(1)2}), so the result is [{"x"}, {}] in both modes, as in Shardy.
    m, _ = _run(
        'func.func @main(%a: tensor<4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) -> tensor<64x64xf32> {\n'
        "  %0 = stablehlo.reshape %a : (tensor<4x16x64xf32>) -> tensor<64x64xf32>\n"
        "  return %0 : tensor<64x64xf32>\n}\n",
        conservative=conservative,
    )
    assert _shardings(m) == ['<@mesh, [{"x", ?}, {?}]>']


def test_aggressive_resolves_conflict_basic_does_not() -> None:
    src = (
        'func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x32xf32> {\n'
        "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>\n"
        "  return %0 : tensor<8x32xf32>\n}\n"
    )
    m, _ = _run(src)
    # rhs (512 elements) is larger than lhs (128): its factor j wins "x".
    assert _shardings(m) == ['<@mesh, [{?}, {"x", ?}]>']


def test_unknown_ops_are_skipped_with_a_trace_note() -> None:
    from ttopt.passes.context import Trace

    m = parse_module(MESH + (
        'func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {\n'
        '  %0 = "my.op"(%a) : (tensor<8xf32>) -> tensor<8xf32>\n'
        "  %1 = stablehlo.abs %0 : tensor<8xf32>\n"
        "  return %1 : tensor<8xf32>\n}\n"
    ))

    class Rec(Trace):
        def __init__(self) -> None:
            super().__init__(True)
            self.lines: list = []

        def print(self, *r) -> None:
            self.lines.extend(str(x) for x in r)

    ctx = PassContext(trace=Rec())
    AggressivePropagation().run(m, ctx)
    assert any("skip my.op: no sharding rule" in line for line in ctx.trace.lines)
    assert _shardings(m) == [None]


@pytest.mark.parametrize(
    ("sharding", "message"),
    [
        ('[{"z"}]', 'unknown axis "z"'),
        ('[{"x", "x"}]', 'axis "x" is used more than once'),
        ('[{"x"}, {}]', "has 2 dimension shardings but the tensor has rank 1"),
        ('[{"x"}]', None),
    ],
)
def test_bad_shardings_are_diagnostics_naming_the_op(sharding: str, message: str | None) -> None:
    src = (
        "func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
        f"  %0 = stablehlo.abs %a {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, {sharding}>]>}} : tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n}\n"
    )
    if message is None:
        _run(src)
        return
    with pytest.raises(Diagnostic) as e:
        _run(src)
    assert "'stablehlo.abs'" in e.value.message and message in e.value.message
    assert e.value.pos is not None and e.value.render().splitlines()[0].endswith(e.value.message)


def test_worklist_is_near_linear() -> None:
    n = 400
    lines = [f"  %{i + 1} = stablehlo.negate %{i} : tensor<8x8xf32>" for i in range(n)]
    src = (
        'func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {\n'
        "  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>\n" + "\n".join(lines) + f"\n  return %{n} : tensor<8x8xf32>\n}}\n"
    )
    m, ctx = _run(src)
    stats = ctx.stats["aggressive-propagation"]
    assert stats["visits"] <= 6 * (n + 2)
    assert _shardings(m)[-1] == '<@mesh, [{"x", ?}, {"y", ?}]>'
