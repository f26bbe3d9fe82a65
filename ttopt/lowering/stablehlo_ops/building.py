"""What the per-family lowerings need beyond `Lowering.emit`: TTIR ops of several results, splat
constants, types, I32 arrays and reshapes, and tracing a value back through the shape-only ops the lowering has already rewritten
(an iota reached through reshapes and broadcasts, a constant through typecasts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import ArrayAttr, Attribute, DenseElementsAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.ir.values import OpResult
from ttopt.lowering.dense_values import DenseValueError, flat_values, float_text

if TYPE_CHECKING:
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

# Ops that change a value's shape or type but not which element it came from.
SHAPE_ONLY = frozenset({
    "stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.convert",
    "ttir.reshape", "ttir.broadcast", "ttir.typecast", "ttir.permute",
})  # fmt: skip
I32 = ScalarType("i32")
CONSTANTS = frozenset({"stablehlo.constant", "ttir.constant", "arith.constant"})


def emit_results(low: Lowering, name: str, operands: list[Value], result_types: list[Any], **properties: Attribute) -> list[Value]:
    """A `ttir.<name>` op of several results before the op being lowered; its results."""
    anchor = low.anchor
    assert anchor is not None
    op = Operation(f"ttir.{name}", operands, result_types, properties=dict(sorted(properties.items())), location=anchor.location)
    return list(low.place(op).results)


def splat(low: Lowering, t: Any, value: float | int) -> Value:
    """A `ttir.constant` of type `t` holding `value` in every element."""
    element = t.resolve().element_type.resolve().text
    body = float_text(float(value), element) if element in ("f16", "bf16", "f32", "f64") else str(int(value))
    return low.emit("constant", [], t, value=DenseElementsAttr(body, t))


def defining(v: Value) -> Operation | None:
    """The op that defines `v` (None for a block argument)."""
    return v.op if isinstance(v, OpResult) else None


def source_op(v: Value, through: frozenset[str] = SHAPE_ONLY) -> Operation | None:
    """The first op behind `v` that is not one of `through` (None for a block argument)."""
    op = defining(v)
    while op is not None and op.name in through and op.operands:
        op = defining(op.operands[0])
    return op


def constant_splat(v: Value) -> Any:
    """The one value of the splat constant `v` comes from through shape-only ops, else None."""
    op = source_op(v)
    if op is None or op.name not in CONSTANTS:
        return None
    attr = op.properties.get("value") or op.attributes.get("value")
    a = attr.resolve() if attr is not None else None
    if not isinstance(a, DenseElementsAttr) or not a.is_splat:
        return None
    t = a.type.resolve()
    try:
        return flat_values(a, t.element_type.resolve().text, (1,))[0]
    except (DenseValueError, AttributeError):
        return None


def iota_dimension(v: Value) -> int | None:
    """The dimension along which `v` counts 0, 1, 2, ... (an iota, possibly reshaped, broadcast,
    permuted or converted), or None when it is not such a tensor."""
    chain: list[Operation] = []
    op = defining(v)
    while op is not None and op.name in SHAPE_ONLY and op.operands:
        chain.append(op)
        op = defining(op.operands[0])
    if op is None or op.name not in ("stablehlo.iota", "ttir.arange"):
        return None
    if op.name == "ttir.arange" and (_int(op, "start") != 0 or _int(op, "step") != 1):
        return None
    d = _int(op, "iota_dimension" if op.name == "stablehlo.iota" else "arange_dimension")
    shape = _shape(op.results[0])
    for c in reversed(chain):
        if d is None:
            return None
        d, shape = _follow(c, d, shape)
    return d


def _int(op: Operation, key: str) -> int | None:
    a = op.properties.get(key) or op.attributes.get(key)
    v = getattr(a.resolve(), "value", None) if a is not None else None
    return v if isinstance(v, int) else None


def _shape(v: Value) -> tuple[int, ...]:
    return tuple(v.type.resolve().shape)


def _follow(op: Operation, d: int, shape: tuple[int, ...]) -> tuple[int | None, tuple[int, ...]]:
    """Where the counting dimension `d` of `op`'s operand (of `shape`) is in its result."""
    out = _shape(op.results[0])
    ints = lambda key: list(int_values(op.properties.get(key) or op.attributes.get(key)) or ())  # noqa: E731
    if op.name in ("stablehlo.convert", "ttir.typecast"):
        return d, out
    if op.name == "ttir.permute":
        perm = ints("permutation")
        return (perm.index(d) if d in perm else None), out
    if op.name == "ttir.broadcast":
        factors = ints("broadcast_dimensions")
        return (d if d < len(factors) and factors[d] == 1 else None), out
    if op.name == "stablehlo.broadcast_in_dim":
        dims = ints("broadcast_dimensions")
        if d >= len(dims) or out[dims[d]] != shape[d]:
            return None, out
        return dims[d], out
    # a reshape keeps the count only when every other dimension is 1 on both sides
    n = shape[d]
    if out == shape:
        return d, out
    if all(s == 1 for i, s in enumerate(shape) if i != d):
        sized = [i for i, s in enumerate(out) if s != 1]
        if len(sized) == 1 and out[sized[0]] == n:
            return sized[0], out
        if n == 1 and not sized:
            return 0, out
    return None, out


def i32_array(values: Any) -> ArrayAttr:
    """`[1 : i32, 2 : i32]` (TTIR's I32ArrayAttr)."""
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


def tensor(shape: Any, element: Any, like: Any = None) -> TensorType:
    """A ranked tensor type (the encoding of `like`, when given)."""
    return TensorType(tuple(int(d) for d in shape), element, getattr(like, "encoding", None))


def shape_of(v: Value) -> tuple[int, ...]:
    """The static shape of a value (the lowering has checked every shape is static)."""
    return tuple(v.type.resolve().shape)


def element(v: Value) -> Any:
    """The element type of a tensor value."""
    return v.type.resolve().element_type.resolve()


def reshape_always(low: Lowering, v: Value, shape: tuple[int, ...]) -> Value:
    """A `ttir.reshape`, emitted even when the shape does not change (as tt-mlir's lowerings do)."""
    return low.emit("reshape", [v], tensor(shape, element(v), v.type.resolve()), shape=i32_array(shape))
