"""TTIR ops that do nothing for their attributes, folded to their input (tt-mlir's AvgPool2dOp,
MaxPool2dOp, ScatterOp and MeshShardOp folders).

* `avg_pool2d` / `max_pool2d` with kernel, stride and dilation all 1 and no padding;
* `scatter` whose index or source tensor has no elements;
* `mesh_shard` whose shard shape multiplies to 1 (not a replicate shard).

The input must have the result's type.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.lowering.ttir_canonicalize.constants import tensor_of
from ttopt.lowering.ttir_canonicalize.edits import replace_with_value

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value


def _to(op: Operation, value: Value) -> list[Operation] | None:
    return replace_with_value(op, value) if value.type == op.results[0].type else None


def _ints(a: Attribute | None, count: int) -> tuple[int, ...] | None:
    """A pool attribute's integers: one integer stands for all `count` (getPairOfInteger)."""
    r = a.resolve() if a is not None else None
    if isinstance(r, IntegerAttr):
        return (r.value,) * count
    vals = int_values(r)
    return vals if vals is not None and len(vals) == count else None


def fold_identity_pool(op: Operation) -> list[Operation] | None:
    """A 1x1 pool with stride and dilation 1 and no padding is its input."""
    ins = inputs(op)
    if len(ins) != 1 or len(op.results) != 1:
        return None
    kernel, stride, dilation = (_ints(op.properties.get(k), 2) for k in ("kernel", "stride", "dilation"))
    padding = _ints(op.properties.get("padding"), 4)
    if kernel is None or stride is None or dilation is None or padding is None:
        return None
    if any(v != 1 for v in kernel + stride + dilation) or any(v != 0 for v in padding):
        return None
    return _to(op, ins[0])


def fold_empty_scatter(op: Operation) -> list[Operation] | None:
    """A scatter of no elements is its input."""
    ins = inputs(op)
    if len(ins) != 3 or len(op.results) != 1:
        return None
    shapes = [tensor_of(v) for v in ins[1:]]
    if not any(s is not None and prod(s[1]) == 0 for s in shapes):
        return None
    return _to(op, ins[0])


def fold_unit_mesh_shard(op: Operation) -> list[Operation] | None:
    """A mesh_shard over one device (shard shape of volume 1), not a replicate one, is its input."""
    ins = inputs(op)
    shape = int_values(op.properties.get("shard_shape"))
    kind = op.properties.get("shard_type")
    if len(ins) != 1 or len(op.results) != 1 or shape is None or prod(shape) != 1 or kind is None:
        return None
    if "replicate" in kind.resolve().canonical():
        return None
    return _to(op, ins[0])
