"""The ttnn.matmul verifier agrees with NumPy's matmul shape rule."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.dialects.ttnn_verify_matmul import matmul_result_shape
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.testing.examples import examples


def _t(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "bf16>"


def _module(a: tuple[int, ...], b: tuple[int, ...], out: tuple[int, ...], ta: bool = False, tb: bool = False) -> str:
    props = f"<{{transpose_a = {str(ta).lower()}, transpose_b = {str(tb).lower()}}}>"
    return (
        f"func.func @f(%a: {_t(a)}, %b: {_t(b)}) -> {_t(out)} {{\n"
        f'  %0 = "ttnn.matmul"(%a, %b) {props} : ({_t(a)}, {_t(b)}) -> {_t(out)}\n'
        f"  return %0 : {_t(out)}\n}}\n"
    )


def _ok(a, b, out, ta=False, tb=False) -> bool:
    try:
        verify(parse_module(_module(a, b, out, ta, tb), "m.mlir"))
    except Diagnostic:
        return False
    return True


def _swap(s: tuple[int, ...], flag: bool) -> tuple[int, ...]:
    return (*s[:-2], s[-1], s[-2]) if flag and len(s) > 1 else s


dims = st.sampled_from([1, 2, 3, 32])
shapes = st.lists(dims, min_size=1, max_size=4).map(tuple)


@settings(max_examples=examples(150), deadline=None)
@given(shapes, shapes, st.booleans(), st.booleans())
def test_matmul_verifier_matches_numpy(a: tuple[int, ...], b: tuple[int, ...], ta: bool, tb: bool) -> None:
    try:
        want = np.matmul(np.zeros(_swap(a, ta)), np.zeros(_swap(b, tb))).shape
    except ValueError:
        want = None
    if want is None:
        # NumPy rejects it: so must the verifier, whatever result type is written.
        assert not _ok(a, b, (1,), ta, tb)
        return
    want = want or (1,)  # tt-mlir writes a vector-vector product as tensor<1>: TTNN has no rank-0 tensors
    assert _ok(a, b, want, ta, tb)
    assert not _ok(a, b, (*want, 7), ta, tb)
    if want:
        assert not _ok(a, b, (*want[:-1], want[-1] + 1), ta, tb)


def _linear(bias: tuple[int, ...], out: tuple[int, ...]) -> str:
    return (
        f"func.func @f(%a: {_t((32, 64))}, %b: {_t((64, 16))}, %c: {_t(bias)}) -> {_t(out)} {{\n"
        f'  %0 = "ttnn.linear"(%a, %b, %c) <{{transpose_a = false, transpose_b = false}}> : '
        f"({_t((32, 64))}, {_t((64, 16))}, {_t(bias)}) -> {_t(out)}\n"
        f"  return %0 : {_t(out)}\n}}\n"
    )


@pytest.mark.parametrize(
    ("bias", "out", "ok"),
    [
        ((16,), (32, 16), True),
        ((1, 1, 16), (1, 32, 16), True),  # broadcast(a @ b, bias), as tt-mlir's LinearOp allows
        ((1, 1, 16), (32, 16), True),  # the bias is one tile high: tt-metal's fused kernel keeps a @ b's shape
        ((2, 64, 16), (32, 16), False),  # two tiles high: only the broadcast shape 2x64x16 would do
        ((2, 64, 16), (2, 64, 16), False),  # 64 does not broadcast with 32
        ((8,), (32, 16), False),
    ],
)
def test_linear_result_is_the_broadcast_with_its_bias(bias: tuple[int, ...], out: tuple[int, ...], ok: bool) -> None:
    try:
        verify(parse_module(_linear(bias, out), "m.mlir"))
    except Diagnostic:
        assert not ok
        return
    assert ok


def test_issue_example_is_rejected_at_the_op() -> None:
    with pytest.raises(Diagnostic) as e:
        verify(parse_module(_module((64, 64), (64, 64), (128, 32)), "m.mlir"))
    assert e.value.render().startswith("m.mlir:2:8: error: 'ttnn.matmul' op Output shape dimension[0](128) doesn't match")


def test_unranked_operand_is_not_checked() -> None:
    m = parse_module(
        "func.func @f(%a: tensor<*xbf16>, %b: tensor<64x64xbf16>) -> tensor<*xbf16> {\n"
        '  %0 = "ttnn.matmul"(%a, %b) : (tensor<*xbf16>, tensor<64x64xbf16>) -> tensor<*xbf16>\n'
        "  return %0 : tensor<*xbf16>\n}\n",
        "m.mlir",
    )
    verify(m)
    assert matmul_result_shape(next(op for op in m.op.walk() if op.name == "ttnn.matmul")) is None
