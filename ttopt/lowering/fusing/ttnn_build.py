"""What the TTNN-level fusions (`ttnn-fusing`) build with: result types in a template value's
layout re-laid for a new shape, new ops held aside so the cost model can price them before the
pass decides, and the ops a rewrite leaves without readers.

A pattern returns a `TTNNCandidate` (the op whose result it replaces, the ops it matched, and a
`build` that emits the replacement through a `TTNNBuilder`) or a `Rejected` reason once the op it
anchors on looks like its pattern, so `--trace` can say why a fusion was not applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.fusing.match import Rejected, producer

if TYPE_CHECKING:
    from ttopt.ir.values import Value
    from ttopt.optimizer.rewrite import LayoutAliaser

__all__ = ["Rejected", "TTNNBuilder", "TTNNCandidate"]

I32 = ScalarType("i32")
UI32 = ScalarType("ui32")


@dataclass
class TTNNCandidate:
    """A match: `build(b)` emits the replacement of `anchor`'s first result through `b`."""

    pattern: str
    anchor: Operation
    fused: str  # the fused op's name, for trace and statistics
    matched: list[Operation]
    build: Callable[[TTNNBuilder], Value]
    # Applied whatever the estimates say (a layout rewrite HEAD always makes), with this reason.
    unconditional: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class TTNNBuilder:
    """Creates TTNN ops for a candidate without inserting them; the pass puts them in front of the
    anchor, or `discard` drops them."""

    def __init__(self, aliaser: LayoutAliaser, anchor: Operation) -> None:
        self.aliaser = aliaser
        self.anchor = anchor
        self.ops: list[Operation] = []

    def type_like(self, like: Value, shape: Sequence[int]) -> TensorType:
        """A tensor of `shape` with `like`'s element type and memory (its layout re-laid)."""
        t = like.type.resolve()
        lay = layout_of(t)
        if lay is None:
            raise ValueError(f"{t.text} has no TTNN layout")
        return self.aliaser.tensor_type(TensorType(tuple(shape), t.element_type), lay.relayout(tuple(shape)))

    def emit(self, name: str, operands: list[Value], result: Any, properties: dict[str, Any] | None = None) -> Value:
        """Create `name` (results typed `result`, one type or a list) and return its first result."""
        types = list(result) if isinstance(result, (list, tuple)) else [result]
        op = Operation(name, operands, types, properties=properties or {}, location=self.anchor.location)
        op.pos = self.anchor.pos
        self.ops.append(op)
        return op.results[0]

    def permute(self, v: Value, perm: Sequence[int]) -> Value:
        """`ttnn.permute` of `v`."""
        shape = tensor_shape(v)
        return self.emit("ttnn.permute", [v], self.type_like(v, [shape[p] for p in perm]), {"permutation": DenseArrayAttr("i64", tuple(perm))})

    def reshape(self, v: Value, shape: Sequence[int], like: Value | None = None) -> Value:
        """`ttnn.reshape` of `v` (typed as `like` re-laid when given)."""
        t = self.type_like(like if like is not None else v, shape)
        return self.emit("ttnn.reshape", [v], t, {"shape": ArrayAttr(tuple(IntegerAttr(int(d), I32) for d in shape))})

    def discard(self) -> None:
        """Forget the ops built so far."""
        for op in self.ops:
            op.drop_all_references()
        self.ops = []


def layout_of(t: Any) -> TTNNLayoutAttr | None:
    """The TTNN layout of a tensor type, or None."""
    enc = getattr(t, "encoding", None)
    typed = getattr(enc.resolve(), "typed", None) if enc is not None else None
    return typed if isinstance(typed, TTNNLayoutAttr) else None


def tensor_shape(v: Value) -> tuple[int, ...]:
    """The static shape of a tensor value (ValueError otherwise)."""
    t = v.type.resolve()
    dims = getattr(t, "shape", None)
    if dims is None or not all(isinstance(d, int) and d >= 0 for d in dims):
        raise ValueError(f"{getattr(t, 'text', t)} is not a static tensor")
    return tuple(dims)


def through(v: Value, *names: str) -> Value:
    """`v` with single-input producers named `names` peeled off."""
    while True:
        op = producer(v, *names)
        if op is None or not op.operands:
            return v
        v = op.operands[0]


def chain(v: Value, *names: str) -> list[Value]:
    """`v` and every value reached by peeling producers named `names` (nearest first)."""
    out = [v]
    while True:
        op = producer(v, *names)
        if op is None or not op.operands:
            return out
        v = op.operands[0]
        out.append(v)


def ints(op: Operation, key: str) -> list[int] | None:
    """An integer array property (`begins`, `permutation`)."""
    vals = int_values(op.properties.get(key))
    return list(vals) if vals is not None else None


def dead_ops(anchor: Operation, matched: Sequence[Operation], new: Sequence[Operation]) -> list[Operation]:
    """The anchor and every matched op that no one reads once the new ops replace the anchor."""
    keep = {id(v) for o in new for v in o.operands}
    dead = {id(anchor): anchor}
    changed = True
    while changed:
        changed = False
        for o in matched:
            if id(o) in dead or o.parent is not anchor.parent or any(id(r) in keep for r in o.results):
                continue
            if all(id(u) in dead for r in o.results for u in r.uses):
                dead[id(o)] = o
                changed = True
    return list(dead.values())
