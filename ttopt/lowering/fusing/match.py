"""What the fusing patterns read from TTIR: producers by name, single uses, splat constants behind
layout ops, shapes. Each pattern returns a `Candidate` (what it would build and from which ops) or
a `Rejected` reason once the op it anchors on looks like its pattern, so `--trace` can say why a
fusion was not applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, FloatAttr, IntegerAttr
from ttopt.ir.float_spelling import float_text, round_to
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType, TensorType, Type
from ttopt.lowering.dense_values import splat_value

if TYPE_CHECKING:
    from ttopt.ir.values import Value

I32 = ScalarType("i32")
F32 = ScalarType("f32")
LAYOUT_OPS = ("ttir.reshape", "ttir.broadcast", "ttir.typecast")
CREATION_OPS = ("ttir.full", "ttir.zeros", "ttir.ones", "ttir.constant")


@dataclass
class Rejected:
    """The anchor looked like the pattern, but a precondition failed."""

    pattern: str
    anchor: Operation
    reason: str


@dataclass
class Candidate:
    """A match: `build(b)` emits the replacement of `anchor`'s result through the builder `b`."""

    pattern: str
    anchor: Operation
    fused: str  # the fused op's name, for trace and statistics
    build: Callable[[Builder], Value]
    note: str = ""
    # Ops after the anchor whose results the fusion replaces too: `build` then returns one value
    # per op of [anchor, *also], and the new ops go before the anchor.
    also: list[Operation] = field(default_factory=list)
    # False: applied whatever the estimates say (a fusion its own switch asks for, as HEAD applies it).
    cost_checked: bool = True


class Builder:
    """Creates TTIR ops for a candidate without inserting them, so the cost of the replacement can
    be read before deciding; the pass then puts them in front of the anchor (or right after the op
    `emit_after` names), or `discard` drops them."""

    def __init__(self, anchor: Operation, positions: dict[int, int] | None = None) -> None:
        self.anchor = anchor
        self.ops: list[Operation] = []
        # id(op) -> its place in the block (new ops take their anchor's): what comes before the anchor
        self.positions = positions if positions is not None else {}
        # id(new op) -> the block op it goes right after; new ops not listed go in front of the anchor
        self.after: dict[int, Operation] = {}
        # (value, narrowed): once the fusion is applied, the value's other readers read `narrowed`
        # widened back to the value's type (HEAD's revertTypecastFolding rounds them so too)
        self.rounded: list[tuple[Value, Value]] = []

    def emit_after(self, op: Operation, name: str, operands: list[Value], result: Type, **properties: Any) -> Value:
        """A `ttir.<name>` op right after `op` (a block op, or a new op placed after one), at its location."""
        v = self.emit(name, operands, result, **properties)
        new = self.ops[-1]
        new.location = op.location
        self.after[id(new)] = self.after.get(id(op), op)
        return v

    def emit(self, name: str, operands: list[Value], result: Type, **properties: Any) -> Value:
        """A `ttir.<name>` op before the anchor."""
        return self.emit_op(f"ttir.{name}", operands, result, **properties)

    def emit_op(self, name: str, operands: list[Value], result: Type, **properties: Any) -> Value:
        """An op of any dialect (`ttcore.composite`) before the anchor."""
        op = Operation(name, operands, [result], properties=dict(sorted(properties.items())), location=self.anchor.location)
        op.pos = self.anchor.pos
        self.ops.append(op)
        return op.results[0]

    def reshape(self, v: Value, shape: tuple[int, ...]) -> Value:
        """`v` reshaped; an equal reshape of `v` already before the anchor is reused (what CSE,
        which HEAD runs after fusing, makes of the gamma reshapes of every rms_norm)."""
        t = v.type.resolve()
        if tuple(t.shape) == tuple(shape):
            return v
        block = self.anchor.parent
        want = TensorType(tuple(shape), t.element_type, t.encoding).text
        here = self.positions.get(id(self.anchor))
        for u in v.uses:  # (a value with many readers: no distinct-users list per call)
            if u.name != "ttir.reshape" or u.parent is not block or here is None:
                continue
            if self.positions.get(id(u), here) < here and u.results[0].type.resolve().text == want:
                return u.results[0]
        return self.emit("reshape", [v], TensorType(tuple(shape), t.element_type, t.encoding), shape=i32_array(shape))

    def discard(self) -> None:
        for op in self.ops:
            op.drop_all_references()
        self.ops = []


@dataclass
class Matched:
    """Ops a pattern matched, in the order it met them (for statistics)."""

    ops: list[Operation] = field(default_factory=list)


def i32_array(values: Any) -> ArrayAttr:
    """`[a : i32, b : i32, ...]`."""
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


def producer(v: Value | None, *names: str) -> Operation | None:
    """The op defining `v` when its name is one of `names`."""
    op = getattr(v, "op", None)
    return op if op is not None and op.name in names else None


def through(v: Value, *names: str) -> Value:
    """`v` with producers named `names` (single-input ops) peeled off."""
    while True:
        op = producer(v, *names)
        if op is None:
            return v
        v = inputs(op)[0]


def one_use(v: Value) -> bool:
    """Read by exactly one operand slot."""
    return len(v.uses) == 1


def users(v: Value) -> int:
    """Distinct users."""
    return len(v.users)


class NotStatic(Exception):
    """A value the patterns read is not a tensor of static shape: no pattern applies there."""


def shape(v: Value) -> tuple[int, ...]:
    """The static shape of a tensor value (NotStatic otherwise)."""
    t = v.type.resolve()
    dims = getattr(t, "shape", None)
    if dims is None or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims):
        raise NotStatic(getattr(t, "text", str(t)))
    return tuple(dims)


def element(v: Value) -> str:
    """The element type's spelling (`bf16`, `f32`)."""
    return v.type.resolve().element_type.resolve().text


def splat(v: Value) -> float | None:
    """The value every element of `v` has when `v` is a creation op behind reshapes, broadcasts and
    typecasts: `ttir.full`, `zeros`, `ones`, or a splat `ttir.constant` (as HEAD's getSplatConstantValue)."""
    op = getattr(through(v, *LAYOUT_OPS), "op", None)
    if op is None:
        return None
    if op.name == "ttir.zeros":
        return 0.0
    if op.name == "ttir.ones":
        return 1.0
    if op.name == "ttir.full":
        value = getattr(op.properties.get("fill_value"), "value", None)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if op.name == "ttir.constant":
        attr = op.properties.get("value")
        t = op.results[0].type.resolve()
        try:
            value = splat_value(attr, t.element_type.resolve().text) if attr is not None else None
        except Exception:  # an undecodable constant is simply not a splat we can read
            return None
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    return None


def near(value: float | None, expected: float, rel: float = 1.5e-3) -> bool:
    """`value` within `rel` of `expected` (HEAD's checkFloatIsNear tolerance by default)."""
    if value is None:
        return False
    if expected == 0:
        return abs(value) <= rel
    return abs(value / expected - 1.0) <= rel


def reduce_dims(op: Operation) -> list[int] | None:
    """A reduction's dimensions, normalised to be non-negative (None: all dimensions)."""
    from ttopt.ir.properties import int_values

    dims = int_values(op.properties.get("dim_arg"))
    if dims is None:
        return None
    rank = len(shape(inputs(op)[0]))
    return [d % rank for d in dims]


def keep_dim(op: Operation) -> bool:
    """A reduction's keep_dim."""
    return bool(getattr(op.properties.get("keep_dim"), "value", False))


def reduced_along(v: Value, name: str) -> tuple[Operation, Value, int] | None:
    """`v` = reduction `name` of x over one dimension, with keep_dim or followed by the reshape that
    restores the reduced dimension as 1 (HEAD's ReductionWithReshapePattern form), possibly behind a
    broadcast back to the full shape (a max also behind `maximum(., -inf)`, an identity): (the reduction, x, the dimension)."""
    v = through(v, "ttir.broadcast")
    r = producer(v, "ttir.reshape")
    if r is not None:
        v = inputs(r)[0]
    identity = producer(v, "ttir.maximum") if name == "ttir.max" else None
    if identity is not None:
        a, b = inputs(identity)[:2]
        v = b if splat(a) == float("-inf") else a if splat(b) == float("-inf") else v
    red = producer(v, name)
    if red is None:
        return None
    x = inputs(red)[0]
    dims = reduce_dims(red)
    if not shape(x) or dims is None or len(dims) != 1:
        return None
    d = dims[0]
    want = tuple(1 if i == d else s for i, s in enumerate(shape(x)))
    got = shape(red.results[0]) if keep_dim(red) else shape(r.results[0]) if r is not None else None
    if got != want:
        return None
    return red, x, d


def f32_attr(value: float) -> FloatAttr:
    """`value` as an f32 attribute spelled as MLIR prints it (`9.99999997E-7 : f32`)."""
    v = round_to(float(value), "f32")
    return FloatAttr(v, F32, text=f"{float_text(v, 'f32')} : f32")


def where(op: Operation) -> str:
    """How a trace names an op: its location name, else its line, else its op name."""
    name = getattr(op.location, "name", None)
    if name:
        return f'"{name}"'
    pos = op.pos
    if pos is not None and getattr(pos, "source", None) is not None:
        line, _ = pos.source.line_col(pos.offset)
        return f"line {line}"
    return op.name
