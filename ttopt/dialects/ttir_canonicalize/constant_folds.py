"""TTIR ops of constants folded into constants (tt-mlir's constant-folding `fold` methods).

* a splat `ttir.constant` is a `ttir.full` of its value (ConstantOp's canonicalization), unless
  a `full` cannot hold it: an i1 splat, or an integer outside i32 (tt-mlir normalizes those
  element types to bf16 / saturated si32 before it canonicalizes; ttopt's conversion does that
  normalization, so they stay constants here);
* `neg` of a constant is the negated constant (NegOp::fold: -x in the element type, integers
  wrapping; an integer splat of 0 stays `zeros`, a float one becomes `full` of -0.0);
* `reshape` of a constant is the constant in the new shape; `broadcast`, `repeat`, `permute` of
  a splat are the splat in the result shape; `permute` of a small non-splat constant permutes it.

Non-splat constants fold only up to tt-mlir's element limit (a million). The result type must be
the operand's type for `neg` (tt-mlir avoids implicit conversions in its folders).
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

import numpy as np

from ttopt.dialects.ttir_canonicalize.constants import (
    FOLD_LIMIT,
    Constant,
    constant_of,
    fill_attr,
    fits_fill,
    is_float,
    materialize,
    tensor_of,
    wrap,
)
from ttopt.dialects.ttir_canonicalize.edits import replace_with_value, single_input
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.properties import int_values

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation


def fold_to(op: Operation, const: Constant) -> list[Operation]:
    """`op` replaced by a materialized `const` of its result type."""
    new = materialize(op, const, op.results[0].type)
    return [new] + replace_with_value(op, new.results[0])


def splat_constant_to_full(op: Operation) -> list[Operation] | None:
    """A `ttir.constant` whose elements are all one value is a `ttir.full` of it."""
    const = constant_of(op.results[0]) if len(op.results) == 1 else None
    if const is None or not const.splat or not fits_fill(const.values[0], const.element):
        return None
    from ttopt.ir.operation import Operation as Op
    from ttopt.ir.rewriter import insert_before

    props = {"shape": DenseArrayAttr("i32", tuple(const.shape)), "fill_value": fill_attr(const.values[0], const.element)}
    new = Op("ttir.full", [], [op.results[0].type], props, location=op.location)
    insert_before(op, new)
    return [new] + replace_with_value(op, new.results[0])


def fold_neg(op: Operation) -> list[Operation] | None:
    """`neg` of a constant is the negated constant."""
    src = single_input(op)
    if src is None or src.type != op.results[0].type:
        return None
    const = constant_of(src)
    if const is None:
        return None
    if is_float(const.element):
        values = tuple(-float(v) for v in const.values)
    else:
        values = tuple(wrap(-int(v), const.element) for v in const.values)
    return fold_to(op, Constant(values, const.element, const.shape))


def fold_splat_data_movement(op: Operation) -> list[Operation] | None:
    """A reshape of a constant, or a broadcast / repeat / permute of a splat (a small non-splat
    permute too), is a constant in the result's shape."""
    src = single_input(op)
    if src is None:
        return None
    const = constant_of(src)
    out = tensor_of(op.results[0])
    if const is None or out is None or out[0] != const.element:
        return None
    if const.splat:
        return fold_to(op, Constant(const.values, out[0], out[1]))
    if op.name == "ttir.reshape" and prod(out[1]) == len(const.values):
        return fold_to(op, Constant(const.values, out[0], out[1]))
    perm = int_values(op.properties.get("permutation")) if op.name == "ttir.permute" else None
    if perm is None or sorted(perm) != list(range(len(const.shape))) or prod(out[1]) > FOLD_LIMIT:
        return None
    arr = np.array(const.values, dtype=object).reshape(const.shape).transpose(perm)
    if tuple(arr.shape) != out[1]:
        return None
    return fold_to(op, Constant(tuple(arr.ravel().tolist()), out[0], out[1]))
