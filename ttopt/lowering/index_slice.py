"""`ttir.index` (one dimension's `begin`:`end`:`step`) as the `ttir.slice_static` over every
dimension that tt-mlir's IndexOp decomposition makes of it: the indexed dimension takes the op's
range (negative bounds counted from the end), every other dimension its whole extent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import ArrayAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType, TensorType

if TYPE_CHECKING:
    from ttopt.ir.values import Value

I32 = ScalarType("i32")


def _int(op: Operation, name: str) -> int | None:
    a = op.get_attr(name)
    v = getattr(a.resolve(), "value", None) if a is not None else None
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def index_to_slice(op: Operation) -> Value | None:
    """The `ttir.slice_static` equal to a `ttir.index` (None when its attributes are not integers)."""
    x = op.operands[0]
    t = x.type.resolve()
    dim, begin, end, step = (_int(op, k) for k in ("dim", "begin", "end", "step"))
    if not isinstance(t, TensorType) or t.shape is None or any(not isinstance(s, int) for s in t.shape):
        return None
    if dim is None or begin is None or end is None or step is None:
        return None
    shape = [int(s) for s in t.shape if isinstance(s, int)]
    rank = len(shape)
    d = dim % rank
    size = shape[d]
    begins = [0] * rank
    ends = list(shape)
    steps = [1] * rank
    begins[d] = begin + size if begin < 0 else begin
    ends[d] = end + size if end < 0 else end
    steps[d] = step

    def i32s(vals: list[int]) -> ArrayAttr:
        return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in vals))

    new = Operation("ttir.slice_static", [x], [op.results[0].type], properties={"begins": i32s(begins), "ends": i32s(ends),
                    "step": i32s(steps)}, location=op.location)  # fmt: skip
    new.pos = op.pos
    block = op.parent
    block.insert(block.index(op), new)  # type: ignore[union-attr]
    return new.results[0]
