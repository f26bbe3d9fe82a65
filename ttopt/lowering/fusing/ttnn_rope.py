"""Rotary position embedding (RoPE) as one `ttnn.rotary_embedding` (tt-mlir's RoPE fusing), on the
TTNN ops `convert-ttir-to-ttnn` makes of the TTIR chain, or `ttnn-resolve-composites` of a TTIR
RoPE composite's body (fusing/ttir_rope.py):

| pattern | anchor | form |
|---|---|---|
| rope | `ttnn.add` | `x * cos + rotate_half(x) * sin`, rotate_half(x) = `concat(neg(x[D/2:]), x[:D/2])` on D |
| rope_expanded | `ttnn.concat` | `concat(x[:D/2] * cos_h - x[D/2:] * sin_h, x[D/2:] * cos_h + x[:D/2] * sin_h)`; cos and sin become `concat(cos_h, cos_h)` |
| rope_decode | `ttnn.permute` (S first) or the reshape `[B, H, 1, D] -> [1, B, H, D]` of a rope's result | the input permuted to decode order and a decode-mode rope (`token_index = 0`) |

Preconditions, as HEAD: multiplies and the add commute; x, cos and sin may sit behind typecasts and
permutes (and cos, sin behind a repeat). The two slices are complementary halves of one dimension
of one source, the second half negated and first in the concat. An axis analysis labels x's
dimensions B, H, S, D and propagates them to the root: the sliced and concatenated dimension must be
D, elementwise operands must agree (size-1 dimensions broadcast), and the root must be a
permutation of BHSD (a permute restoring it follows the rope when it is not the identity). cos and
sin must have at least x's sequence length (dim -2): the kernel indexes them per position and does
not broadcast. Where HEAD leaves the rest to its op model's validation, ttopt checks what
tt-metal's RotaryEmbedding validation asks of the tables: [1, 1, S, D], one table for every batch
row and head, so a per-user table ([B, 1, 1, D] decode positions, or the [B, S, 1, D] table of a
[B, S, H, D] layout) leaves the chain unfused. A multiply or add in f32 gives the rope
`fp32_dest_acc_en`. The expanded form refuses cos and sin that are complementary halves of one
packed tensor.

Decode (only with op constraints, HEAD's optimizer-gated TTNN fusing): the rope has no token
index, its result is read only by the layout op, its input is [B, H, 1, D] and its cos has one
position. An RMS norm read only by the rope is re-emitted on the permuted input when the
permutation keeps the last dimension (the norm normalizes it); any other norm behind the input
refuses the rewrite.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DialectAttr, IntegerAttr
from ttopt.lowering.fusing.match import one_use, producer
from ttopt.lowering.fusing.ttnn_build import (
    UI32,
    Rejected,
    TTNNBuilder,
    TTNNCandidate,
    chain,
    ints,
    tensor_shape,
    through,
)

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

TMS = ("ttnn.typecast", "ttnn.permute")
B, H, S, D = range(4)


# -- axis analysis ---------------------------------------------------------------------------------
class _Shape:
    __slots__ = ("axes", "bcast")

    def __init__(self, axes: list[int], bcast: list[bool]) -> None:
        self.axes = axes
        self.bcast = bcast

    def compatible(self, o: _Shape) -> bool:
        if len(self.axes) != len(o.axes):
            return False
        return all(a == b or x or y for a, b, x, y in zip(self.axes, o.axes, self.bcast, o.bcast))

    def merge(self, o: _Shape) -> _Shape:
        axes = [b if x and not y else a for a, b, x, y in zip(self.axes, o.axes, self.bcast, o.bcast)]
        return _Shape(axes, [x and y for x, y in zip(self.bcast, o.bcast)])


class _Analyzer:
    """Propagates B, H, S, D labels from x, cos and sin to the root (HEAD's RoPEAnalyzer)."""

    def __init__(self, x: Value, cos: Value, sin: Value) -> None:
        self.x, self.cos, self.sin = x, cos, sin
        self.cache: dict[int, _Shape | None] = {}

    def solve(self, v: Value) -> _Shape | None:
        key = id(v)
        if key not in self.cache:
            self.cache[key] = None  # a cycle cannot happen in SSA; this only guards re-entry
            self.cache[key] = self._solve(v)
        return self.cache[key]

    def _solve(self, v: Value) -> _Shape | None:
        if v is self.x:
            return _Shape([B, H, S, D], [False] * 4)
        if v is self.cos or v is self.sin:
            shape = tensor_shape(v)
            return _Shape([B, H, S, D], [d == 1 for d in shape] if len(shape) == 4 else [False] * 4)
        op = getattr(v, "op", None)
        if op is None:
            return None
        name = op.name
        if name in ("ttnn.add", "ttnn.subtract", "ttnn.multiply"):
            a, b = self.solve(op.operands[0]), self.solve(op.operands[1])
            return a.merge(b) if a is not None and b is not None and a.compatible(b) else None
        if name == "ttnn.concat":
            if len(op.operands) != 2:
                return None
            a, b = self.solve(op.operands[0]), self.solve(op.operands[1])
            dim = _attr_int(op, "dim")
            if a is None or b is None or not a.compatible(b) or dim is None or not 0 <= dim < len(a.axes) or a.axes[dim] != D:
                return None
            return a.merge(b)
        if name == "ttnn.slice_static":
            a = self.solve(op.operands[0])
            if a is None:
                return None
            for i, (n, m) in enumerate(zip(tensor_shape(op.operands[0]), tensor_shape(op.results[0]))):
                if n != m and a.axes[i] != D:
                    return None
            return a
        if name in ("ttnn.neg", "ttnn.typecast", "ttnn.repeat"):
            return self.solve(op.operands[0])
        if name == "ttnn.permute":
            a = self.solve(op.operands[0])
            perm = ints(op, "permutation")
            if a is None or perm is None or len(perm) != len(a.axes) or any(not 0 <= p < len(a.axes) for p in perm):
                return None
            return _Shape([a.axes[p] for p in perm], [a.bcast[p] for p in perm])
        return None


def _attr_int(op: Operation, key: str) -> int | None:
    a = op.properties.get(key)
    v = getattr(a.resolve(), "value", None) if a is not None else None
    return int(v) if isinstance(v, int) and not isinstance(v, bool) else None


def _table(v: Value) -> bool:
    """A cos / sin the kernel takes: [1, 1, S, D] (tt-metal's RotaryEmbedding validation)."""
    shape = tensor_shape(v)
    return len(shape) == 4 and shape[0] == 1 and shape[1] == 1


def _valid_inputs(root: Value, xs: list[Value], coss: list[Value], sins: list[Value]) -> tuple[Value, Value, Value, list[int]] | None:
    """The first (x, cos, sin) candidate whose labels reach the root as a permutation of BHSD."""
    for x in xs:
        for c in coss:
            for s in sins:
                if len(tensor_shape(x)) != 4 or not (_table(c) and _table(s)):
                    continue  # the kernel's operands are [B, H, S, D] and [1, 1, S, D] tables
                try:
                    res = _Analyzer(x, c, s).solve(root)
                except ValueError:  # a dynamic shape on the way
                    res = None
                if res is not None and sorted(res.axes) == [B, H, S, D]:
                    return x, c, s, list(res.axes)
    return None


# -- structure -------------------------------------------------------------------------------------
def _slice_dim(op: Operation) -> tuple[int, int, int, int] | None:
    """(dim, begin, end, size) of a slice cutting exactly one dimension with step 1."""
    begins, ends, steps = ints(op, "begins"), ints(op, "ends"), ints(op, "step")
    shape = tensor_shape(op.operands[0])
    if begins is None or ends is None or steps is None or not len(begins) == len(ends) == len(steps) == len(shape):
        return None
    cut = [i for i in range(len(shape)) if not (begins[i] == 0 and ends[i] == shape[i] and steps[i] == 1)]
    if len(cut) != 1 or steps[cut[0]] != 1:
        return None
    d = cut[0]
    return d, begins[d], ends[d], shape[d]


def _half(op: Operation) -> tuple[int, str] | None:
    """(dim, "first" | "second") for a slice taking one half of an even dimension."""
    s = _slice_dim(op)
    if s is None:
        return None
    d, b, e, n = s
    if n % 2:
        return None
    if (b, e) == (0, n // 2):
        return d, "first"
    if (b, e) == (n // 2, n):
        return d, "second"
    return None


def common_ancestor(a: Value, b: Value) -> Value | None:
    """The first value both TM chains (typecasts, permutes) reach."""
    seen = {id(v) for v in chain(a, *TMS)}
    return next((v for v in chain(b, *TMS) if id(v) in seen), None)


def _rotate_half_source(v: Value) -> tuple[Value, list[Operation]] | None:
    """x for `concat(neg(x[D/2:]), x[:D/2])`, with the ops matched."""
    cat = producer(through(v, *TMS), "ttnn.concat")
    if cat is None or len(cat.operands) != 2:
        return None
    peeled = []
    for operand in cat.operands:
        u = through(operand, *TMS)
        neg = producer(u, "ttnn.neg")
        if neg is not None:
            u = through(neg.operands[0], *TMS)
        sl = producer(u, "ttnn.slice_static")
        if sl is None:
            return None
        peeled.append((neg, sl))
    (neg0, sl0), (neg1, sl1) = peeled
    if (neg0 is None) == (neg1 is None):
        return None
    source = common_ancestor(sl0.operands[0], sl1.operands[0])
    if source is None or tensor_shape(sl0.operands[0]) != tensor_shape(sl1.operands[0]):
        return None
    h0, h1 = _half(sl0), _half(sl1)
    if h0 is None or h1 is None or h0[0] != h1[0] or neg0 is None or h0[1] != "second" or h1[1] != "first":
        return None
    return source, [o for o in (cat, neg0, sl0, sl1) if o is not None]


def _f32(*ops: Operation) -> bool:
    return any(o.results[0].type.resolve().element_type.resolve().text == "f32" for o in ops)


def _compute_config(f32: bool) -> Any:
    return DialectAttr("ttnn.device_compute_kernel_config", "fp32_dest_acc_en = true") if f32 else None


def _seq_ok(x: Value, cos: Value) -> bool:
    xs, cs = tensor_shape(x), tensor_shape(cos)
    return len(xs) < 2 or len(cs) < 2 or cs[-2] >= xs[-2]


def _rope_build(anchor: Operation, x: Value, cos: Value, sin: Value, perm: list[int], f32: bool, halves: bool = False) -> Any:
    def build(b: TTNNBuilder) -> Value:
        c, s = cos, sin
        if halves:
            dim = _attr_int(anchor, "dim") or 0
            full = list(tensor_shape(cos))
            full[dim] *= 2
            c = b.emit("ttnn.concat", [cos, cos], b.type_like(cos, full), {"dim": anchor.properties["dim"]})
            full = list(tensor_shape(sin))
            full[dim] *= 2
            s = b.emit("ttnn.concat", [sin, sin], b.type_like(sin, full), {"dim": anchor.properties["dim"]})
        props: dict[str, Any] = {}
        cfg = _compute_config(f32)
        if cfg is not None:
            props["compute_config"] = cfg
        y = b.emit("ttnn.rotary_embedding", [x, c, s], x.type, props)
        if perm != sorted(perm):
            from ttopt.ir.attributes import DenseArrayAttr

            y = b.emit("ttnn.permute", [y], anchor.results[0].type, {"permutation": DenseArrayAttr("i64", tuple(perm))})
        return y

    return build


def match_rotate_half(add: Operation) -> TTNNCandidate | Rejected | None:
    """`x * cos + rotate_half(x) * sin` at its add."""
    muls = [producer(through(v, *TMS), "ttnn.multiply") for v in add.operands[:2]]
    if any(m is None for m in muls):
        return None
    found = None
    for i, mul in enumerate(muls):
        assert mul is not None
        for j in (0, 1):
            rh = _rotate_half_source(mul.operands[j])
            if rh is not None:
                found = (mul, muls[1 - i], rh, mul.operands[1 - j])
                break
        if found:
            break
    if found is None:
        return None
    sin_mul, cos_mul, (x_src, rot_ops), sin = found
    assert cos_mul is not None
    lhs, rhs = (common_ancestor(v, x_src) for v in cos_mul.operands[:2])
    if (lhs is None) == (rhs is None):
        return Rejected("rope", add, "the cos branch does not multiply the rotated x by exactly one other operand")
    x = lhs if lhs is not None else rhs
    cos = cos_mul.operands[1] if lhs is not None else cos_mul.operands[0]
    assert x is not None
    picked = _valid_inputs(add.results[0], chain(x, *TMS, "ttnn.repeat"), chain(cos, *TMS, "ttnn.repeat"), chain(sin, *TMS, "ttnn.repeat"))
    if picked is None:
        return Rejected("rope", add, "x, cos and sin do not resolve to batch, heads, sequence, head-dim axes at the add with [1, 1, S, D] tables")
    px, pc, ps, perm = picked
    if not _seq_ok(px, pc):
        return Rejected("rope", add, f"cos/sin hold {tensor_shape(pc)[-2]} positions, fewer than x's {tensor_shape(px)[-2]} (the kernel does not broadcast them)")
    matched = [sin_mul, cos_mul, *rot_ops]
    return TTNNCandidate("rope", add, "ttnn.rotary_embedding", matched, _rope_build(add, px, pc, ps, perm, _f32(cos_mul, sin_mul, add)))


def _mul_slice(mul: Operation) -> tuple[Operation, Value] | None:
    a, b = (producer(through(v, *TMS), "ttnn.slice_static") for v in mul.operands[:2])
    if a is not None and b is None:
        return a, mul.operands[1]
    if b is not None and a is None:
        return b, mul.operands[0]
    return None


def _same_embedding(a: Value, b: Value) -> bool:
    return a is b or common_ancestor(a, b) is not None


def match_expanded(cat: Operation) -> TTNNCandidate | Rejected | None:
    """`concat(x1 * cos_h - x2 * sin_h, x2 * cos_h + x1 * sin_h)` at its concat."""
    if len(cat.operands) != 2:
        return None
    sub = producer(through(cat.operands[0], *TMS), "ttnn.subtract")
    add = producer(through(cat.operands[1], *TMS), "ttnn.add")
    if sub is None or add is None:
        return None
    muls = [producer(through(v, *TMS), "ttnn.multiply") for v in (*sub.operands[:2], *add.operands[:2])]
    if any(m is None for m in muls):
        return None
    parts = [_mul_slice(m) for m in muls if m is not None]
    if any(p is None for p in parts):
        return None
    (s0, e0), (s1, e1), (a0, f0), (a1, f1) = parts  # type: ignore[misc]
    source: Value | None = s0.operands[0]
    for sl in (s1, a0, a1):
        source = common_ancestor(through(source, *TMS), through(sl.operands[0], *TMS)) if source is not None else None
    if source is None:
        return Rejected("rope_expanded", cat, "the four halves do not slice one tensor")
    halves = [_half(s) for s in (s0, s1, a0, a1)]
    if any(h is None for h in halves) or len({h[0] for h in halves if h is not None}) != 1:
        return Rejected("rope_expanded", cat, "the slices are not halves of one dimension")
    kinds = [h[1] for h in halves if h is not None]
    if kinds[0] != "first" or kinds[1] != "second":
        return Rejected("rope_expanded", cat, "the subtract is not x1 * cos - x2 * sin")
    cos, sin = e0, e1
    if _packed(cos, sin):
        return Rejected("rope_expanded", cat, "cos and sin are halves of one packed tensor")
    if kinds[2:] == ["second", "first"]:
        ok = _same_embedding(f0, cos) and _same_embedding(f1, sin)
    elif kinds[2:] == ["first", "second"]:
        ok = _same_embedding(f0, sin) and _same_embedding(f1, cos)
    else:
        ok = False
    if not ok:
        return Rejected("rope_expanded", cat, "the add is not x2 * cos + x1 * sin")
    picked = _valid_inputs(cat.results[0], chain(source, *TMS, "ttnn.repeat"), chain(cos, *TMS, "ttnn.repeat"), chain(sin, *TMS, "ttnn.repeat"))
    if picked is None:
        return Rejected("rope_expanded", cat, "x, cos and sin do not resolve to batch, heads, sequence, head-dim axes at the concat with [1, 1, S, D] tables")
    px, pc, ps, perm = picked
    if not _seq_ok(px, pc):
        return Rejected("rope_expanded", cat, "cos/sin hold fewer positions than x (the kernel does not broadcast them)")
    matched = [sub, add, *(m for m in muls if m is not None), s0, s1, a0, a1]
    f32 = _f32(sub, add, *(m for m in muls if m is not None))
    return TTNNCandidate("rope_expanded", cat, "ttnn.rotary_embedding", matched, _rope_build(cat, px, pc, ps, perm, f32, halves=True))


def _packed(a: Value, b: Value) -> bool:
    sa = producer(through(a, *TMS, "ttnn.reshape"), "ttnn.slice_static")
    sb = producer(through(b, *TMS, "ttnn.reshape"), "ttnn.slice_static")
    if sa is None or sb is None or common_ancestor(through(sa.operands[0], *TMS), through(sb.operands[0], *TMS)) is None:
        return False
    ha, hb = _half(sa), _half(sb)
    return ha is not None and hb is not None and ha[0] == hb[0] and ha[1] != hb[1]


# -- decode ----------------------------------------------------------------------------------------
DECODE_PERM = (2, 0, 1, 3)


def _decode_rope(v: Value) -> tuple[Operation, Operation | None] | None:
    rope = producer(v, "ttnn.rotary_embedding")
    if rope is not None:
        return rope, None
    cast = producer(v, "ttnn.typecast")
    if cast is not None and one_use(cast.results[0]):
        rope = producer(cast.operands[0], "ttnn.rotary_embedding")
        if rope is not None:
            return rope, cast
    return None


def match_decode(layout: Operation) -> TTNNCandidate | Rejected | None:
    """A rope whose result goes to decode order (S first): the decode-mode rope on permuted input."""
    found = _decode_rope(layout.operands[0])
    if found is None:
        return None
    rope, cast = found
    if layout.name == "ttnn.permute":
        perm = ints(layout, "permutation")
        if perm is None or len(perm) != 4 or perm[0] != 2:
            return None
    else:
        ins, out = tensor_shape(layout.operands[0]), tensor_shape(layout.results[0])
        if len(ins) != 4 or ins[2] != 1 or out != (1, ins[0], ins[1], ins[3]):
            return None
        perm = list(DECODE_PERM)
    if "token_index" in rope.properties:
        return None
    if not one_use(rope.results[0]):
        return Rejected("rope_decode", layout, "the rope's result has other readers")
    x = rope.operands[0]
    xs = tensor_shape(x)
    if len(xs) != 4 or xs[2] != 1:
        return Rejected("rope_decode", layout, "the rope's input is not [B, H, 1, D]")
    norm = producer(x, "ttnn.rms_norm")
    fold = norm is not None and one_use(norm.results[0]) and perm[-1] == 3
    if not fold:
        norm = None
        behind = getattr(through(x, "ttnn.typecast", "ttnn.permute", "ttnn.reshape", "ttnn.repeat"), "op", None)
        if behind is not None and behind.name in ("ttnn.rms_norm", "ttnn.distributed_rms_norm"):
            return Rejected("rope_decode", layout, "an RMS norm behind the rope's input that cannot move through the permute")
    cos = rope.operands[1]
    if tensor_shape(cos)[-2] != 1:
        return Rejected("rope_decode", layout, "cos/sin hold more than one position")

    def build(b: TTNNBuilder) -> Value:
        if norm is not None:
            p = b.permute(norm.operands[0], perm)
            src = b.emit("ttnn.rms_norm", [p, *norm.operands[1:]], b.type_like(norm.results[0], tensor_shape(p)), dict(norm.properties))
        else:
            src = b.permute(x, perm)
        props: dict[str, Any] = {"token_index": IntegerAttr(0, UI32)}
        if "compute_config" in rope.properties:
            props["compute_config"] = rope.properties["compute_config"]
        y = b.emit("ttnn.rotary_embedding", [src, rope.operands[1], rope.operands[2]], src.type, props)
        if y.type.resolve().text != layout.results[0].type.resolve().text:
            y = b.emit("ttnn.typecast", [y], layout.results[0].type, {})
        return y

    matched = [rope, *([cast] if cast is not None else []), *([norm] if norm is not None else [])]
    return TTNNCandidate("rope_decode", layout, "ttnn.rotary_embedding", matched, build,
                         unconditional="decode layout, as HEAD always rewrites it")  # fmt: skip
