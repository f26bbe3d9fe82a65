"""TTIR ops of constants folded into constants (tt-mlir's constant-folding `fold` methods).

* a splat `ttir.constant` is a `ttir.full` of its value (ConstantOp's canonicalization), unless
  a `full` cannot hold it: an i1 splat, or an integer outside i32 (tt-mlir normalizes those
  element types to bf16 / saturated si32 before it canonicalizes; ttopt's conversion does that
  normalization, so they stay constants here);
* `neg` of a constant is the negated constant (NegOp::fold: -x in the element type, integers
  wrapping; an integer splat of 0 stays `zeros`, a float one becomes `full` of -0.0);
* a data-movement op (`reshape`, `permute`, `broadcast`, `repeat`, `repeat_interleave`,
  `slice_static`) of a splat is the splat in the result's shape; of a non-splat constant, all but
  `broadcast` (tt-mlir folds it for splats only) move the elements.

Non-splat constants fold only up to tt-mlir's element limit (a million). The result type must be
the operand's type for `neg` (tt-mlir avoids implicit conversions in its folders).
"""

from __future__ import annotations

from math import prod

import numpy as np

from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_before
from ttopt.lowering.ttir_canonicalize.constants import (
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
from ttopt.lowering.ttir_canonicalize.edits import replace_with_value, single_input


def fold_to(op: Operation, const: Constant) -> list[Operation]:
    """`op` replaced by a materialized `const` of its result type."""
    new = materialize(op, const, op.results[0].type)
    return [new] + replace_with_value(op, new.results[0])


def splat_constant_to_full(op: Operation) -> list[Operation] | None:
    """A `ttir.constant` whose elements are all one value is a `ttir.full` of it."""
    const = constant_of(op.results[0]) if len(op.results) == 1 else None
    if const is None or not const.splat or not fits_fill(const.values[0], const.element):
        return None
    props = {"shape": DenseArrayAttr("i32", tuple(const.shape)), "fill_value": fill_attr(const.values[0], const.element)}
    new = Operation("ttir.full", [], [op.results[0].type], props, location=op.location)
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


def _moved(op: Operation, arr: np.ndarray) -> np.ndarray | None:
    """`arr` (a constant's elements in its shape) moved as the data-movement op `op` moves it."""
    name = op.name
    if name == "ttir.reshape":
        return arr.reshape(-1)
    if name == "ttir.permute":
        perm = int_values(op.properties.get("permutation"))
        return arr.transpose(perm) if perm is not None and sorted(perm) == list(range(arr.ndim)) else None
    if name == "ttir.repeat":
        dims = int_values(op.properties.get("repeat_dimensions"))
        return np.tile(arr, dims) if dims is not None and len(dims) == arr.ndim else None
    if name == "ttir.repeat_interleave":
        repeats, dim = (op.properties.get(k) for k in ("repeats", "dim"))
        r, d = getattr(repeats and repeats.resolve(), "value", None), getattr(dim and dim.resolve(), "value", None)
        if not isinstance(r, int) or not isinstance(d, int) or not -arr.ndim <= d < arr.ndim:
            return None
        return np.repeat(arr, r, axis=d)
    if name == "ttir.slice_static":
        begins, steps = (int_values(op.properties.get(k)) for k in ("begins", "step"))
        out = tensor_of(op.results[0])
        if begins is None or steps is None or out is None or not len(begins) == len(steps) == arr.ndim == len(out[1]):
            return None
        index = []
        for b, st, n, size in zip(begins, steps, out[1], arr.shape):
            b = b + size if b < 0 else b
            idx = [b + st * i for i in range(n)]
            if any(not 0 <= i < size for i in idx):
                return None
            index.append(idx)
        return arr[np.ix_(*index)] if index else arr
    return None


def fold_data_movement_constant(op: Operation) -> list[Operation] | None:
    """A data-movement op of a splat is the splat in the result's shape; a reshape, permute, repeat,
    repeat_interleave or slice of a (small) non-splat constant is the moved constant."""
    src = single_input(op)
    if src is None:
        return None
    const = constant_of(src)
    out = tensor_of(op.results[0])
    if const is None or out is None or out[0] != const.element:
        return None
    if const.splat:
        return fold_to(op, Constant(const.values, out[0], out[1]))
    if prod(out[1]) > FOLD_LIMIT:
        return None
    moved = _moved(op, np.array(const.values, dtype=object).reshape(const.shape))
    if moved is None or prod(moved.shape) != prod(out[1]):
        return None
    return fold_to(op, Constant(tuple(moved.ravel().tolist()), out[0], out[1]))
