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
* a `repeat_interleave` by 1 is its input;
* a `slice_static` of a `slice_static` read by nothing else is one slice (begin b1 + s1*b2, end
  b1 + s1*(e2-1) + 1, step s1*s2);
* `reshape(permute(reshape(x)))`, the permute read only there, whose last reshape only drops n
  leading 1s the permute keeps in front is `permute(reshape(x))` at the lower rank;
* a `reverse` of a `reverse` reverses the dimensions reversed an odd number of times; a
  `reverse` of no dimensions is its input;
* a `ttnn_metal_layout_cast` of a `ttnn_metal_layout_cast` back to the first one's input type is
  that input (not when either carries a virtual grid inverse mapping);
* a `concat` of one input is that input; inputs empty along the concat dimension are dropped (all
  of them empty: the first input).

A fold that hands back an input keeps the types exact: the input's type must be the result's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttir_canonicalize.constants import tensor_of
from ttopt.lowering.ttir_canonicalize.edits import producer, replace_with_new, replace_with_value, single_input

if TYPE_CHECKING:
    from ttopt.ir.values import Value


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


def fold_repeat_interleave(op: Operation) -> list[Operation] | None:
    """A repeat_interleave by 1 is its input."""
    repeats = op.properties.get("repeats")
    repeats = repeats.resolve() if repeats is not None else None
    return _identity(op) if isinstance(repeats, IntegerAttr) and repeats.value == 1 else None


def _i32s(values: list[int]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(v, ScalarType("i32")) for v in values))


def composed_slice(first: Operation, second: Operation) -> dict[str, ArrayAttr] | None:
    """The begins, ends and step of `second(first(x))` as one slice of x (None when a range is
    empty, a step not positive, or the attributes do not fit the shapes)."""
    inner, mid = single_input(first), single_input(second)
    if inner is None or mid is None:
        return None
    b1, s1 = (int_values(first.properties.get(k)) for k in ("begins", "step"))
    b2, e2, s2 = (int_values(second.properties.get(k)) for k in ("begins", "ends", "step"))
    if b1 is None or s1 is None or b2 is None or e2 is None or s2 is None or not (len(b1) == len(s1) == len(b2) == len(e2) == len(s2)):
        return None
    outer_t, mid_t = tensor_of(inner), tensor_of(mid)
    if outer_t is None or mid_t is None:
        return None
    outer, mid_shape = outer_t[1], mid_t[1]
    if len(outer) != len(b1) or len(mid_shape) != len(b2) or any(x <= 0 for x in (*s1, *s2)):
        return None
    # Negative begins and ends count from the end of each slice's own input.
    start1 = [x + d if x < 0 else x for x, d in zip(b1, outer)]
    start2, end2 = ([x + d if x < 0 else x for x, d in zip(v, mid_shape)] for v in (b2, e2))
    if any(e <= b for b, e in zip(start2, end2)):
        return None
    return {
        "begins": _i32s([x + s * y for x, s, y in zip(start1, s1, start2)]),
        "ends": _i32s([x + s * (e - 1) + 1 for x, s, e in zip(start1, s1, end2)]),
        "step": _i32s([a * b for a, b in zip(s1, s2)]),
    }


def fold_slice(op: Operation) -> list[Operation] | None:
    """A slice of a single-reader slice is one slice."""
    src = single_input(op)
    first = producer(src, "ttir.slice_static") if src is not None else None
    inner = single_input(first) if first is not None else None
    if src is None or first is None or inner is None or len(src.uses) != 1 or len(op.operands) != 1:
        return None
    props = composed_slice(first, op)
    if props is None:
        return None
    op.properties.update(props)
    op.set_operand(0, inner)
    return [op, first]


def reshape_permute_reshape(op: Operation) -> list[Operation] | None:
    """`reshape(permute(reshape(x)))` dropping leading 1s is `permute(reshape(x))` at the lower rank."""
    src = single_input(op)
    perm_op = producer(src, "ttir.permute") if src is not None else None
    if src is None or perm_op is None or len(src.uses) != 1:
        return None
    mid = single_input(perm_op)
    lead = producer(mid, "ttir.reshape") if mid is not None else None
    order = int_values(perm_op.properties.get("permutation"))
    lead_in = single_input(lead) if lead is not None else None
    perm_out, out, perm_in = tensor_of(src), tensor_of(op.results[0]), tensor_of(mid) if mid is not None else None
    if lead_in is None or order is None or perm_out is None or out is None or perm_in is None:
        return None
    n = len(perm_out[1]) - len(out[1])
    if n <= 0 or any(d != 1 for d in perm_out[1][:n]) or perm_out[1][n:] != out[1] or any(p >= n for p in order[:n]):
        return None
    new_order = tuple(p - n for p in order[n:])
    mid_shape = perm_in[1][n:]
    mid_t, out_t = mid.type.resolve(), op.results[0].type.resolve()  # type: ignore[union-attr]
    if not isinstance(mid_t, TensorType) or not isinstance(out_t, TensorType):
        return None
    reshape = Operation("ttir.reshape", [lead_in], [mid_t.with_shape(mid_shape)], {"shape": _i32s(list(mid_shape))},
                        location=lead.location)  # type: ignore[union-attr]
    insert_before(op, reshape)
    new_out = out_t.with_shape(tuple(mid_shape[i] for i in new_order))
    return [reshape] + replace_with_new(op, "ttir.permute", [reshape.results[0]], new_out,
                                        {"permutation": DenseArrayAttr("i64", new_order)})


def fold_concat(op: Operation) -> list[Operation] | None:
    """A one-input concat is its input; empty inputs along the concat dimension go."""
    ins = inputs(op)
    out = tensor_of(op.results[0]) if len(op.results) == 1 else None
    dim_attr = op.properties.get("dim")
    dim_attr = dim_attr.resolve() if dim_attr is not None else None
    if not ins or out is None or not isinstance(dim_attr, IntegerAttr):
        return None
    if len(ins) == 1:
        return replace_with_value(op, ins[0]) if ins[0].type == op.results[0].type else None
    dim = dim_attr.value + len(out[1]) if dim_attr.value < 0 else dim_attr.value
    shapes = [tensor_of(v) for v in ins]
    if any(s is None or not 0 <= dim < len(s[1]) for s in shapes):
        return None
    kept: list[Value] = [v for v, s in zip(ins, shapes) if s is not None and s[1][dim] != 0]
    if len(kept) == len(ins):
        return None
    if not kept:
        return replace_with_value(op, ins[0]) if ins[0].type == op.results[0].type else None
    op.set_operands(kept + list(op.operands[len(ins):]))
    return [op]


def fold_reverse(op: Operation) -> list[Operation] | None:
    """A reverse of no dimensions is its input; a reverse of a reverse reverses once."""
    src = single_input(op)
    dims = int_values(op.properties.get("dimensions"))
    if src is None or dims is None:
        return None
    if not dims:
        return _identity(op)
    first = producer(src, "ttir.reverse")
    inner = single_input(first) if first is not None else None
    inner_dims = int_values(first.properties.get("dimensions")) if first is not None else None
    if inner is None or inner_dims is None:
        return None
    rank = len(tensor_of(inner)[1]) if tensor_of(inner) is not None else 0  # type: ignore[index]
    if rank == 0:
        return None
    both = [d % rank for d in (*dims, *inner_dims)]  # -1 and rank - 1 are one dimension
    odd = sorted({d for d in both if both.count(d) % 2 == 1})
    return replace_with_new(op, "ttir.reverse", [inner], op.results[0].type, {"dimensions": DenseArrayAttr("i64", tuple(odd))})


def fold_layout_cast_round_trip(op: Operation) -> list[Operation] | None:
    """A TTNN <-> metal layout cast that undoes the cast before it is that cast's input."""
    src = single_input(op)
    first = producer(src, "ttir.ttnn_metal_layout_cast") if src is not None else None
    inner = single_input(first) if first is not None else None
    if first is None or inner is None or inner.type != op.results[0].type:
        return None
    for o in (op, first):
        if "virtual_grid_inverse_mapping" in o.properties or "virtual_grid_inverse_mapping" in o.attributes:
            return None
    return replace_with_value(op, inner)
