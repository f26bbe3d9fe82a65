"""Lines read by shape (line_readers._shape_ok, IRBuilder.line_op): a line whose text around its
SSA names was read whole before is built from that shape's template. Every such line must build,
print and fail exactly as the piecewise grammar reads it."""

from __future__ import annotations

import pytest

from tests.parse.test_fast_lines import _parse
from ttopt.ir.module import Module
from ttopt.ir.printer import PrintOptions, print_module


def _ops(m: Module) -> list[tuple]:
    return [
        (op.name, op.pos, [v.type.text for v in op.operands], [r.type.text for r in op.results],
         None if op.location is None else op.location.text, sorted(op.properties), sorted(op.attributes))
        for op in m.op.walk()
    ]  # fmt: skip


def _both(text: str) -> tuple[Module | str, Module | str]:
    fast, slow = _parse(text, True), _parse(text, False)
    if isinstance(fast, str) or isinstance(slow, str):
        assert fast == slow
        return fast, slow
    assert _ops(fast) == _ops(slow)
    for opts in (PrintOptions(), PrintOptions(debuginfo=True), PrintOptions(generic=True)):
        assert print_module(fast, opts) == print_module(slow, opts)
    return fast, slow


def _func(body: list[str]) -> str:
    lines = "\n".join("    " + b for b in body)
    return (
        "func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xi32>) -> tensor<4xf32> {\n"
        f"{lines}\n    return %arg0 : tensor<4xf32>\n  }}"
    )


def _module(body: list[str]) -> str:
    return "module {\n  " + _func(body) + "\n}\n"


ADD = "{r} = stablehlo.add {a}, {b} : tensor<4xf32>"
REPEAT = [ADD.format(r=f"%v{i}", a="%arg0" if i == 0 else f"%v{i - 1}", b="%arg1") for i in range(20)]


def test_repeated_shape_builds_each_line_with_its_names() -> None:
    fast, _ = _both(_module(REPEAT))
    assert not isinstance(fast, str)
    adds = [op for op in fast.op.walk() if op.name == "stablehlo.add"]
    assert len(adds) == 20
    assert adds[5].operands[0] is adds[4].results[0]
    assert "%5 = stablehlo.add %4, %arg1 : tensor<4xf32>" in print_module(fast)


@pytest.mark.parametrize(
    "bad, expected",
    [
        (ADD.format(r="%x", a="%nope", b="%arg1"), "in.mlir:23:24: error: use of undefined value '%nope'"),
        (ADD.format(r="%x", a="%arg2", b="%arg1"), "in.mlir:23:24: error: type mismatch: '%arg2' is 'tensor<4xi32>'"),
        (ADD.format(r="%v3", a="%arg0", b="%arg1"), "in.mlir:23:5: error: redefinition of SSA value '%v3'"),
    ],
)
def test_a_line_of_a_known_shape_fails_as_the_piecewise_reader(bad: str, expected: str) -> None:
    fast, _ = _both(_module([*REPEAT, bad]))
    assert isinstance(fast, str) and expected in fast, fast


def test_a_location_on_the_next_line_stays_with_its_op() -> None:
    body = [*REPEAT, ADD.format(r="%x", a="%arg0", b="%arg1") + '\n    loc("here")', ADD.format(r="%y", a="%x", b="%arg1")]
    fast, _ = _both(_module(body))
    assert not isinstance(fast, str)
    assert [op.location.text for op in fast.op.walk() if op.location is not None] == ['loc("here")']


def test_result_less_lines_and_names_in_strings() -> None:
    body = [
        *REPEAT,
        '%s0 = stablehlo.add %arg0, %arg1 {note = "%arg0"} : tensor<4xf32>',
        '%s1 = stablehlo.add %s0, %arg1 {note = "%arg0"} : tensor<4xf32>',
    ]
    text = "module {\n  " + _func(body).replace("return %arg0", "return %s1") + "\n}\n"
    fast, _ = _both(text)
    assert not isinstance(fast, str)
    assert print_module(fast).count('{note = "%arg0"}') == 2


def test_shapes_repeat_across_parses() -> None:
    """The lexer remembers shapes across files; the builder's templates belong to one parse."""
    first, _ = _both(_module(REPEAT))
    second, _ = _both(_module([ADD.format(r="%q", a="%arg2", b="%arg1")]))  # same shape, a wrong type here
    assert not isinstance(first, str) and isinstance(second, str)
