"""The verifier's visibility rule: a value is usable after its definition in its block and in the
regions nested there, not from sibling regions, later ops, or inside isolated-from-above ops; and
checking it is linear in the module (no scope is copied per region). Linearity is shown by
counting the scope-table operations the check makes (`visibility_work`), not by timing it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.verifier import verify, visibility_work
from ttopt.parse.parser import parse_module

S = "tensor<f32>"


def _reduce(name: str, operand: str, body_use: str = "%p") -> str:
    return (
        f"  %{name} = stablehlo.reduce({operand} init: %c) across dimensions = [0] : (tensor<4xf32>, {S}) -> {S}\n"
        f"   reducer(%p: {S}, %q: {S}) {{\n    %s = stablehlo.add {body_use}, %q : {S}\n    stablehlo.return %s : {S}\n  }}\n"
    )


def _func(body: str) -> str:
    return f"func.func @f(%a: tensor<4xf32>, %x: {S}) -> {S} {{\n  %c = stablehlo.constant dense<0.0> : {S}\n{body}  return %c : {S}\n}}\n"


def _error(text: str) -> str | None:
    try:
        verify(parse_module(text, "in.mlir"))
    except Diagnostic as d:
        return d.message
    return None


@pytest.mark.parametrize("use", ["%x", "%c", "%p"])
def test_a_nested_region_sees_its_own_and_enclosing_values(use: str) -> None:
    assert _error(_func(_reduce("r", "%a", body_use=use))) is None


def _adds(module) -> list:
    return [op for op in module.walk() if op.name == "stablehlo.add"]


def test_a_value_of_a_sibling_region_or_a_later_op_is_not_visible() -> None:
    # Text cannot say this (the parser scopes names): passes can, by rewiring operands.
    m = parse_module(_func(_reduce("r", "%a") + _reduce("t", "%a") + f"  %late = stablehlo.add %c, %c : {S}\n"))
    first, second, late = _adds(m)
    second.set_operand(0, first.result)
    with pytest.raises(Diagnostic, match=r"uses a value \(from stablehlo.add\) defined where it is not visible"):
        verify(m)
    second.set_operand(0, late.result)
    with pytest.raises(Diagnostic, match="defined where it is not visible"):
        verify(m)
    second.set_operand(0, second.parent.args[0])
    verify(m)


def test_an_isolated_op_sees_nothing_from_outside() -> None:
    text = f'"x.outer"() ({{\n  %v = "x.def"() : () -> {S}\n  func.func @g() -> {S} {{\n    return %v : {S}\n  }}\n}}) : () -> ()\n'
    assert "uses a value (from x.def) defined where it is not visible" in (_error(text) or "")
    assert _error(text.replace("    return %v", f'    %w = "x.def"() : () -> {S}\n    return %w')) is None


def _args_each_reduced(n: int) -> str:
    args = ", ".join(f"%a{i}: tensor<4xf32>" for i in range(n))
    body = "".join(_reduce(f"r{i}", f"%a{i}") for i in range(n))
    return f"func.func @f({args}) -> {S} {{\n  %c = stablehlo.constant dense<0.0> : {S}\n{body}  return %c : {S}\n}}\n"


def test_many_values_and_regions_cost_linear_work() -> None:
    # n values in scope at each of n regions: copying the scope per region made n * n entries.
    small, large = (visibility_work(parse_module(_args_each_reduced(n))) for n in (500, 4000))
    assert small == (500 + 1 + 500 * 4) + 500 * 5 + 1  # each value tagged once, each operand looked up once
    assert large <= 8 * small


def _counts(module) -> tuple[int, int]:
    """(values defined inside the module's regions, operands)."""
    values = operands = 0
    for op in module.walk():
        operands += len(op.operands)
        values += sum(len(b.args) for r in op.regions for b in r.blocks)
        if op is not module.op:
            values += len(op.results)
    return values, operands


_T = "tensor<f32>"


@st.composite
def nested_modules(draw: st.DrawFn) -> str:
    """A function of generic ops whose operands are any values visible where they are used, with
    regions nested to any depth (each block argument and op result named once)."""
    n_args = draw(st.integers(0, 40))
    scopes: list[list[str]] = [[f"%a{i}" for i in range(n_args)]]
    lines: list[str] = []
    opened: list[tuple[str, list[str]]] = []  # (result name, operands) of each open region op
    counter = 0

    def pick() -> list[str]:
        visible = [v for scope in scopes for v in scope]
        if not visible:
            return []
        return [visible[i % len(visible)] for i in draw(st.lists(st.integers(0, 10_000), max_size=3))]

    def op_line(result: str, name: str, operands: list[str]) -> str:
        return f'{result} = "{name}"({", ".join(operands)}) : ({", ".join([_T] * len(operands))}) -> {_T}'

    for step in draw(st.lists(st.sampled_from(["op", "op", "open", "close"]), max_size=60)):
        counter += 1
        if step == "op":
            lines.append(op_line(f"%v{counter}", "x.op", pick()))
            scopes[-1].append(f"%v{counter}")
        elif step == "open":
            operands = pick()
            lines.append(f'%v{counter} = "x.region"({", ".join(operands)}) ({{\n^bb0(%p{counter}: {_T}):')
            opened.append((f"%v{counter}", operands))
            scopes.append([f"%p{counter}"])
        elif opened:
            result, operands = opened.pop()
            scopes.pop()
            lines.append(f'"x.yield"() : () -> ()\n}}) : ({", ".join([_T] * len(operands))}) -> {_T}')
            scopes[-1].append(result)
    while opened:
        result, operands = opened.pop()
        scopes.pop()
        lines.append(f'"x.yield"() : () -> ()\n}}) : ({", ".join([_T] * len(operands))}) -> {_T}')
    args = ", ".join(f"%a{i}: {_T}" for i in range(n_args))
    return f"func.func @f({args}) {{\n" + "\n".join(lines) + "\nreturn\n}\n"


@given(nested_modules())
def test_visibility_work_is_linear_in_values_and_operands(text: str) -> None:
    module = parse_module(text, "gen.mlir")
    verify(module)  # every use is visible by construction
    values, operands = _counts(module)
    assert visibility_work(module) == values + operands
