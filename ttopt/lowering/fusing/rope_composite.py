"""The `ttcore.composite "rotary_embedding"` the TTIR RoPE patterns make (HEAD's
replaceWithRoPEComposite): a composite of (x, cos, sin) naming a private decomposition function
`@rotary_embedding_decomp_<N>` (marked `tt.composite_decomposition`) that computes it in TTIR ops.
`ttnn-resolve-composites` later inlines that body (where ttnn-fusing fuses it again) or, with
`composite-resolution=force-promote`, replaces the composite by `ttnn.rotary_embedding`.

The body, as HEAD builds it (multiplies broadcast cos and sin implicitly):

* cos and sin both `concat(h, h)` on the last dimension (what the complex-rotation and
  interleaved-pair patterns pass): `concat(x_lo * cos_h - x_hi * sin_h, x_hi * cos_h + x_lo * sin_h)`,
  cos_h and sin_h the first halves sliced from cos and sin;
* otherwise the rotate-half form `x * cos + concat(neg(x_hi), x_lo) * sin`.

x_lo and x_hi are x's halves on its last dimension. The function goes at the end of the module
holding the anchor; N is the first number no function of the whole file uses, so names stay unique
and the output deterministic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import FunctionType, ScalarType, TensorType, static_shape
from ttopt.lowering.fusing.match import Builder, i32_array, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.location import Location
    from ttopt.ir.values import Value

COMPOSITE = "ttcore.composite"
NAME = "rotary_embedding"
DECOMPOSITION_ATTR = "tt.composite_decomposition"
SI32 = ScalarType("si32")


def inside_decomposition(op: Operation) -> bool:
    """`op` sits in a composite's decomposition function (fusing there would recurse)."""
    f = op.parent_op
    while f is not None and f.name != "func.func":
        f = f.parent_op
    return f is not None and DECOMPOSITION_ATTR in f.attributes


def self_concat_last(v: Value) -> Value | None:
    """h when `v` is `concat(h, h)` on its last dimension (HEAD's matchSelfConcatLastDim)."""
    cat = producer(v, "ttir.concat")
    if cat is None:
        return None
    ins = inputs(cat)
    if len(ins) != 2 or ins[0] is not ins[1]:
        return None
    rank = len(shape(cat.results[0]))
    dim = getattr(cat.properties.get("dim"), "value", None)
    if not isinstance(dim, int) or (dim + rank if dim < 0 else dim) != rank - 1:
        return None
    return ins[0]


def concat_last(b: Builder, v: Value) -> Value:
    """`concat(v, v)` on the last dimension (a half-width table made full width)."""
    t = v.type.resolve()
    full = list(shape(v))
    full[-1] *= 2
    return b.emit("concat", [v, v], TensorType(tuple(full), t.element_type), dim=IntegerAttr(len(full) - 1, SI32))


def rope_composite(b: Builder, x: Value, cos: Value, sin: Value, result: Any) -> Value:
    """The composite of (x, cos, sin) before the builder's anchor, its decomposition added to the module."""
    anchor = b.anchor
    complex_form = self_concat_last(cos) is not None and self_concat_last(sin) is not None
    func = _decomposition(_free_name(anchor), anchor.location, x.type.resolve(), cos.type.resolve(), sin.type.resolve(),
                          result.resolve(), complex_form)  # fmt: skip
    out = b.emit_op(COMPOSITE, [x, cos, sin], result, composite_name=StringAttr(NAME), decomposition=SymbolRefAttr(_name(func)))
    module = _enclosing_module(anchor)
    module.regions[0].entry.append(func)
    return out


# -- the decomposition function --------------------------------------------------------------------
class _Body:
    """Appends TTIR ops to a function body."""

    def __init__(self, block: Block, location: Location | None) -> None:
        self.block = block
        self.location = location

    def op(self, name: str, operands: list[Value], result: TensorType, **properties: Any) -> Value:
        o = Operation(f"ttir.{name}", operands, [result], properties=dict(sorted(properties.items())), location=self.location)
        self.block.append(o)
        return o.results[0]

    def slice_last(self, v: Value, dims: tuple[int, ...], begin: int, end: int, out: TensorType) -> Value:
        """`v[..., begin:end]` of a tensor of shape `dims`, typed `out`."""
        rank = len(dims)
        return self.op("slice_static", [v], out, begins=i32_array((0,) * (rank - 1) + (begin,)), ends=i32_array((*dims[:-1], end)),
                       step=i32_array([1] * rank))  # fmt: skip


def _halved(t: TensorType) -> TensorType:
    dims = static_shape(t)
    return TensorType((*dims[:-1], dims[-1] // 2), t.element_type)


def _decomposition(name: str, location: Location | None, x_t: TensorType, cos_t: TensorType, sin_t: TensorType,
                   out_t: TensorType, complex_form: bool) -> Operation:  # fmt: skip
    block = Block([x_t, cos_t, sin_t])
    body = _Body(block, location)
    x, cos, sin = block.args
    dims = static_shape(x_t)
    half, half_t = dims[-1] // 2, _halved(x_t)
    last = IntegerAttr(len(dims) - 1, SI32)
    x_lo = body.slice_last(x, dims, 0, half, half_t)
    x_hi = body.slice_last(x, dims, half, dims[-1], half_t)
    if complex_form:
        # HEAD slices sin with cos's bounds (the two tables have one shape wherever the form matched).
        cos_dims = static_shape(cos_t)
        cos_h = body.slice_last(cos, cos_dims, 0, cos_dims[-1] // 2, _halved(cos_t))
        sin_h = body.slice_last(sin, cos_dims, 0, cos_dims[-1] // 2, _halved(sin_t))
        first = body.op("subtract", [body.op("multiply", [x_lo, cos_h], half_t), body.op("multiply", [x_hi, sin_h], half_t)], half_t)
        second = body.op("add", [body.op("multiply", [x_hi, cos_h], half_t), body.op("multiply", [x_lo, sin_h], half_t)], half_t)
        result = body.op("concat", [first, second], out_t, dim=last)
    else:
        rotated = body.op("concat", [body.op("neg", [x_hi], half_t), x_lo], x_t, dim=last)
        x_cos = body.op("multiply", [x, cos], out_t)
        rot_sin = body.op("multiply", [rotated, sin], out_t)
        result = body.op("add", [x_cos, rot_sin], out_t)
    block.append(Operation("func.return", [result], [], location=location))
    return Operation("func.func", properties={
        "function_type": TypeAttr(FunctionType((x_t, cos_t, sin_t), (out_t,))),
        "sym_name": StringAttr(name),
        "sym_visibility": StringAttr("private"),
    }, attributes={DECOMPOSITION_ATTR: UnitAttr()}, regions=[Region([block])], location=location)  # fmt: skip


# -- names -----------------------------------------------------------------------------------------
def _name(func: Operation) -> str:
    return str(getattr(func.properties.get("sym_name"), "value", ""))


def _enclosing_module(op: Operation) -> Operation:
    m = op.parent_op
    while m is not None and m.name != "builtin.module":
        m = m.parent_op
    if m is None:
        raise ValueError("the op is not inside a module")
    return m


def _free_name(op: Operation) -> str:
    """`rotary_embedding_decomp_<N>`, N the first number no function of the file has taken."""
    root = op
    while root.parent_op is not None:
        root = root.parent_op
    taken: set[str] = set()
    stack = [root]
    while stack:  # functions only: their bodies are not searched
        o = stack.pop()
        if o.name == "func.func":
            taken.add(_name(o))
            continue
        for region in o.regions:
            for block in region.blocks:
                stack.extend(block.ops)
    n = 0
    while f"{NAME}_decomp_{n}" in taken:
        n += 1
    return f"{NAME}_decomp_{n}"
