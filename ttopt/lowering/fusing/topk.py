"""sort + slice of its first or last k -> top-k (HEAD's TopKFusingPattern).

A `ttir.sort` with two results, each read by at most one `ttir.slice_static` (and at least one
read), the slices alike, each keeping every dimension but the sorted one whole, with step 1, and
taking the first k (begin 0) or the last k (end at the dimension's size) along it, becomes one
`ttir.topk` of k elements along the sort's dimension: `largest` is the sort's `descending` for the
first k and its opposite for the last k, `sorted = true`; the slices' results are the top-k's.
A result the program does not read gets the slice's shape (indices si32). tt-mlir applies this
fusion without asking its op model; ttopt's cost model has no estimate of sort or top-k either,
so it is applied as HEAD applies it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import BoolAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType

if TYPE_CHECKING:
    from ttopt.ir.operation import Block

I32, SI32 = ScalarType("i32"), ScalarType("si32")


def _slice_of(v: Any) -> Operation | None | bool:
    """The one slice reading `v`; None when nothing reads it; False when something else does."""
    users = v.users
    if not users:
        return None
    if len(v.uses) != 1 or users[0].name != "ttir.slice_static":
        return False
    return users[0]


def _k(s: Operation, dim: int, shape: tuple[int, ...]) -> tuple[int, bool] | None:
    """(k, from the end) of a slice that keeps all but `dim` whole, or None."""
    begins, ends, steps = (list(int_values(s.get_attr(n)) or ()) for n in ("begins", "ends", "step"))
    if not (len(begins) == len(ends) == len(steps) == len(shape)):
        return None
    for i, n in enumerate(shape):
        if i != dim and (begins[i] != 0 or ends[i] != n or steps[i] != 1):
            return None
    if steps[dim] != 1:
        return None
    if begins[dim] == 0:
        return ends[dim], False
    if ends[dim] == shape[dim]:
        return shape[dim] - begins[dim], True
    return None


def fuse_topk(block: Block) -> int:
    """Rewrite every sort + slice pair of `block` into a top-k; how many."""
    count = 0
    out: list[Operation] = []
    gone: set[int] = set()
    for op in block.ops:
        if id(op) in gone:
            continue
        new = _fused(op) if op.name == "ttir.sort" and len(op.results) == 2 else None
        if new is None:
            out.append(op)
            continue
        topk, slices = new
        topk.parent = block
        out.append(topk)
        gone.update(id(s) for s in slices)
        count += 1
    out = [o for o in out if id(o) not in gone]
    block.ops = out
    return count


def _fused(sort: Operation) -> tuple[Operation, list[Operation]] | None:
    found = [_slice_of(r) for r in sort.results]
    if any(f is False for f in found) or all(f is None for f in found):
        return None
    slices: list[Operation | None] = [f if isinstance(f, Operation) else None for f in found]
    live = [s for s in slices if s is not None]
    if len(live) == 2 and any(live[0].get_attr(n).text != live[1].get_attr(n).text for n in ("begins", "ends", "step")):  # type: ignore[union-attr]
        return None
    x = sort.operands[0]
    shape = tuple(x.type.resolve().shape)
    dim_attr = sort.get_attr("dim")
    dim = int(getattr(dim_attr.resolve(), "value", -1)) if dim_attr is not None else -1
    dim %= len(shape)
    got = _k(live[0], dim, shape)
    if got is None:
        return None
    k, from_end = got
    desc = sort.get_attr("descending")
    descending = desc is not None and desc.text == "true"
    out_shape = tuple(k if i == dim else n for i, n in enumerate(shape))
    types = []
    for i, s in enumerate(slices):
        if s is not None:
            types.append(s.results[0].type)
        else:
            types.append(TensorType(out_shape, x.type.resolve().element_type if i == 0 else SI32))
    properties = {"dim": IntegerAttr(dim, I32), "k": IntegerAttr(k, I32), "largest": BoolAttr(descending != from_end),
                  "sorted": BoolAttr(True)}  # fmt: skip
    topk = Operation("ttir.topk", [x], types, properties=properties, location=sort.location)
    topk.pos = sort.pos
    for s, r in zip(slices, topk.results):
        if s is not None:
            s.results[0].replace_all_uses_with(r)
            s.drop_all_references()
    sort.drop_all_references()
    return topk, [s for s in live]
