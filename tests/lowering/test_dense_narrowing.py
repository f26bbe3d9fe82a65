"""dense_values.narrowed_body: a constant re-spelled in the element type TTNN holds it in."""

from __future__ import annotations

import time

from ttopt.ir.attributes import DenseElementsAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.dense_values import narrowed_body


def _dense(body: str, shape: tuple[int, ...], element: str) -> DenseElementsAttr:
    return DenseElementsAttr(body, TensorType(shape, ScalarType(element)))


def test_a_huge_splat_is_converted_once_and_stays_a_splat() -> None:
    shape = (8, 12, 384, 384)  # BERT's attention mask: 14M elements
    t0 = time.perf_counter()
    body = narrowed_body(_dense("0xFFF0000000000000", shape, "f64"), "f64", "f32", shape)
    assert body == "0xFF800000"  # -inf as f32
    assert time.perf_counter() - t0 < 1.0


def test_splat_i64_hex_saturates_to_i32() -> None:
    assert narrowed_body(_dense("0x7FFFFFFFFFFFFFFF", (4,), "i64"), "i64", "i32", (4,)) == "2147483647"
    assert narrowed_body(_dense("-1", (2, 2), "i64"), "i64", "i32", (2, 2)) == "-1"


def test_element_lists_keep_their_shape() -> None:
    assert narrowed_body(_dense("[[1, 5000000000], [-3, 0x10]]", (2, 2), "i64"), "i64", "i32", (2, 2)) == "[[1, 2147483647], [-3, 16]]"
    assert narrowed_body(_dense("[true, false]", (2,), "i1"), "i1", "bf16", (2,)) == "[1.000000e+00, 0.000000e+00]"
