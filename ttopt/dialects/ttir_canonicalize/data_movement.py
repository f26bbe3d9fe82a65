"""TTIR data-movement folds (tt-mlir's ReshapeOp, PermuteOp, TransposeOp, BroadcastOp, RepeatOp and
SliceStaticOp folders and patterns).

* a `reshape` to its input's type is its input; a `reshape` of a `reshape` reshapes the first
  one's input;
* a `permute` that keeps the order (or only moves size-1 dimensions among themselves) is its
  input; a `permute` of a `permute` permutes the first one's input by the composed order (not a
  permute marked `decomposed`, which was split on purpose);
* a `transpose` is the `permute` swapping its two dimensions (negative ones counted from the end);
* a `broadcast` by all-1 dimensions is its input;
* a `repeat` by all-1 dimensions is its input; a `repeat` of a `repeat` read by nothing else
  repeats by the products;
* a `slice_static` of a `slice_static` read by nothing else is one slice (begin b1 + s1*b2, end
  b1 + s1*(e2-1) + 1, step s1*s2).

A fold that hands back an input keeps the types exact: the input's type must be the result's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir_canonicalize.constants import tensor_of
from ttopt.dialects.ttir_canonicalize.edits import producer, replace_with_new, replace_with_value, single_input
from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation


def _identity(op: Operation) -> list[Operation] | None:
    src = single_input(op)
    if src is None or src.type != op.results[0].type:
        return None
    return replace_with_value(op, src)


def fold_reshape(op: Operation) -> list[Operation] | None:
    """An identity reshape goes; a reshape of a reshape reads the first one's input."""
    src = single_input(op)
    if src is None:
        return None
    if src.type == op.results[0].type:
        return replace_with_value(op, src)
    first = producer(src, "ttir.reshape")
    inner = single_input(first) if first is not None else None
    if first is None or inner is None or len(op.operands) != 1:
        return None
    op.set_operand(0, inner)
    return [op, first]


def fold_permute(op: Operation) -> list[Operation] | None:
    """An identity permute goes; a permute of a permute composes."""
    src = single_input(op)
    order = int_values(op.properties.get("permutation"))
    info = tensor_of(src) if src is not None else None
    if src is None or order is None or info is None or len(order) != len(info[1]):
        return None
    shape = info[1]
    moved = [i for i, p in enumerate(order) if p != i]
    if all(shape[i] == 1 and shape[order[i]] == 1 for i in moved) and src.type == op.results[0].type:
        return replace_with_value(op, src)
    if "decomposed" in op.attributes:
        return None
    first = producer(src, "ttir.permute")
    inner_order = int_values(first.properties.get("permutation")) if first is not None else None
    inner = single_input(first) if first is not None else None
    if first is None or inner is None or inner_order is None or len(inner_order) != len(order) or len(op.operands) != 1:
        return None
    op.properties["permutation"] = DenseArrayAttr("i64", tuple(inner_order[i] for i in order))
    op.set_operand(0, inner)
    return [op, first]


def transpose_to_permute(op: Operation) -> list[Operation] | None:
    """A transpose is the permute swapping its two dimensions."""
    src = single_input(op)
    info = tensor_of(src) if src is not None else None
    d0, d1 = (op.properties.get(k) for k in ("dim0", "dim1"))
    d0, d1 = (d.resolve() if d is not None else None for d in (d0, d1))
    if src is None or info is None or not isinstance(d0, IntegerAttr) or not isinstance(d1, IntegerAttr):
        return None
    rank = len(info[1])
    a, b = (d.value + rank if d.value < 0 else d.value for d in (d0, d1))
    if not (0 <= a < rank and 0 <= b < rank):
        return None
    order = list(range(rank))
    order[a], order[b] = order[b], order[a]
    return replace_with_new(op, "ttir.permute", [src], op.results[0].type, {"permutation": DenseArrayAttr("i64", tuple(order))})


def fold_broadcast(op: Operation) -> list[Operation] | None:
    """A broadcast by all-1 dimensions is its input."""
    dims = int_values(op.properties.get("broadcast_dimensions"))
    return _identity(op) if dims is not None and all(d == 1 for d in dims) else None


def fold_repeat(op: Operation) -> list[Operation] | None:
    """An all-1 repeat goes; a repeat of a single-reader repeat repeats by the products."""
    dims = int_values(op.properties.get("repeat_dimensions"))
    src = single_input(op)
    if dims is None or src is None:
        return None
    if all(d == 1 for d in dims):
        return _identity(op)
    first = producer(src, "ttir.repeat")
    inner = single_input(first) if first is not None else None
    inner_dims = int_values(first.properties.get("repeat_dimensions")) if first is not None else None
    if first is None or inner is None or inner_dims is None or len(inner_dims) != len(dims):
        return None
    if len(src.uses) != 1 or len(op.operands) != 1:
        return None
    op.properties["repeat_dimensions"] = DenseArrayAttr("i64", tuple(a * b for a, b in zip(inner_dims, dims)))
    op.set_operand(0, inner)
    return [op, first]


def _i32s(values: list[int]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(v, ScalarType("i32")) for v in values))


def fold_slice(op: Operation) -> list[Operation] | None:
    """A slice of a single-reader slice is one slice."""
    src = single_input(op)
    first = producer(src, "ttir.slice_static") if src is not None else None
    inner = single_input(first) if first is not None else None
    if src is None or first is None or inner is None or len(src.uses) != 1 or len(op.operands) != 1:
        return None
    b1, s1 = (int_values(first.properties.get(k)) for k in ("begins", "step"))
    b2, e2, s2 = (int_values(op.properties.get(k)) for k in ("begins", "ends", "step"))
    if b1 is None or s1 is None or b2 is None or e2 is None or s2 is None or not (len(b1) == len(s1) == len(b2) == len(e2) == len(s2)):
        return None
    props = {
        "begins": _i32s([x + s * y for x, s, y in zip(b1, s1, b2)]),
        "ends": _i32s([x + s * (e - 1) + 1 for x, s, e in zip(b1, s1, e2)]),
        "step": _i32s([a * b for a, b in zip(s1, s2)]),
    }
    op.properties.update(props)
    op.set_operand(0, inner)
    return [op, first]
