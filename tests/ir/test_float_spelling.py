"""MLIR's spelling of float attributes (ttopt/ir/float_spelling.py), checked against known
spellings and, when jaxlib is installed, against MLIR's own printer on random values."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.ir.float_spelling import float_text


@pytest.mark.parametrize(
    "value,kind,text",
    [
        (0.9, "f32", "0.899999976"),
        (0.01, "f32", "0.00999999977"),
        (0.001, "f32", "1.000000e-03"),
        (0.1, "f32", "1.000000e-01"),
        (1e-5, "f32", "9.99999974E-6"),
        (-0.99999994, "f32", "-0.99999994"),
        (1.0, "f32", "1.000000e+00"),
        (123456.7, "f32", "123456.703"),
        (1234567.0, "f32", "0x4996B438"),  # neither form has a '.', so MLIR prints the bits
        (0.9, "f64", "9.000000e-01"),
        (0.9, "bf16", "8.984370e-01"),
        (0.0, "f32", "0.000000e+00"),
    ],
)
def test_known_spellings(value: float, kind: str, text: str) -> None:
    assert float_text(value, kind) == text


def _mlir_printer():  # pragma: no cover - depends on jaxlib being installed
    try:
        from jax._src.interpreters import mlir as jm
        from jax._src.lib.mlir import ir
    except ImportError:
        return None
    ctx = jm.make_ir_context()

    def spell(value: float, kind: str) -> str:
        with ctx, ir.Location.unknown():
            t = {"f32": ir.F32Type.get(), "f64": ir.F64Type.get(), "bf16": ir.BF16Type.get(), "f16": ir.F16Type.get()}[kind]
            return str(ir.FloatAttr.get(t, value)).rsplit(" : ", 1)[0]

    return spell


MLIR = _mlir_printer()


@pytest.mark.skipif(MLIR is None, reason="jaxlib (MLIR's printer) is not installed")
@settings(max_examples=400)
@given(st.floats(min_value=-1e30, max_value=1e30, allow_nan=False, allow_infinity=False), st.sampled_from(["f32", "f64", "bf16"]))
def test_agrees_with_mlirs_printer(value: float, kind: str) -> None:
    assert MLIR is not None
    assert float_text(value, kind) == MLIR(value, kind)
