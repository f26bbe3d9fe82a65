"""matmul(softmax(scale(Q @ K^T) [+ mask]), V) -> `ttir.scaled_dot_product_attention` (HEAD's
TTIR SDPAFusingPattern, its canonical form).

Preconditions, as HEAD: the attention matmul has no transposes and reads a single-use softmax over
the last dimension (through one typecast); the scores are `linear(Q, K^T, bias = mask)`,
`add(scale(matmul(Q, K^T)), mask)` or `scale(matmul(Q, K^T))`, where scale is a multiply or divide
by a splat constant on Q, on K (either side of the transpose) or on the scores, never both before
and after the matmul; K^T is `transpose_b`, a last-two-dimension `ttir.transpose`, or a permute
swapping the last two dimensions; beyond HEAD, K^T may be any permute of X (canonicalize composes
K's own permute into the transpose, which HEAD's pattern then misses): K is rebuilt as X permuted
by that order with its last two entries swapped (cse merges it with an equal Q or V); Q, K, V are rank 4 with one head size, K and V agree on batch,
heads and sequence, Q's heads are a multiple of K's; a mask is [1|B, 1|Hq, Sq, Sk]; K and V have
one type, and Q the result's. The op gets `is_causal = false` and the scale found (1.0 without one).
A NaN-safety `where(row_cond, 0, softmax)` between the softmax and the attention matmul (a
fully-masked row would make the softmax NaN) is kept when it zeroes whole query rows (its condition,
before one broadcast, is rank 4 with a last dimension of 1): zeroing rows of the weights zeroes the
same output rows, so it is re-applied on the fused op's output, with the predicate rebuilt from the
mask (`max(mask, -1) == -inf`, which frees the score matmul) or, without a mask, dropped when it
reads the scores (only a mask can bring -inf). Heads folded into the batch (3-D matmuls on
`[B*H, S, D]` reshapes of 4-D Q, K^T, V, the scores unfolded to 4-D for the softmax and folded back
for the attention matmul, as some frontends emit them) are matched through those reshapes: the op
runs on the 4-D tensors and its result is folded to the attention matmul's 3-D shape (HEAD reaches
the same op at the TTNN level once its TM commuting has removed the reshapes around the softmax,
and unsqueezes the 3-D Q, K, V to [1, B*H, S, D]). K and V expanded from Hkv to Hq heads by the same
head-dim `repeat_interleave` (each under at most one typecast) are fed un-expanded, the cast
re-applied on the smaller tensor, as HEAD's GQA peeling does (the op handles Hkv < Hq). An
attention sink as a softmax-padding column (HEAD's form: the scores concatenated along the kv axis
with a [.., 1] column broadcast from one logit per query head, the softmax taken over both, and a
slice dropping exactly that last column before the attention matmul) becomes the op's
`attention_sink`, the [1, Hq, 1, 1] tensor under at most one broadcast: the op's softmax counts the
sink in its denominator and its weights leave it out, which is what the concat / slice computed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, FloatAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import F32, Builder, Candidate, Rejected, f32_attr, i32_array, one_use, producer, shape, splat

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "sdpa"


def _flag(op: Operation, key: str) -> bool:
    return bool(getattr(op.properties.get(key), "value", False))


def _peel_cast(v: Value) -> Value:
    p = producer(v, "ttir.typecast")
    return inputs(p)[0] if p is not None else v


def _peel_scale(v: Value) -> tuple[Value, float | None]:
    """v = y * c or y / c with c a splat constant: (y, the factor)."""
    m = producer(v, "ttir.multiply")
    if m is not None:
        a, b = inputs(m)[:2]
        if splat(b) is not None:
            return a, splat(b)
        if splat(a) is not None:
            return b, splat(a)
    d = producer(v, "ttir.div")
    if d is not None:
        a, b = inputs(d)[:2]
        c = splat(b)
        if c:
            return a, 1.0 / c
    return v, None


def _transposed_input(v: Value) -> Value | None:
    t = producer(v, "ttir.transpose")
    if t is not None:
        rank = len(shape(inputs(t)[0]))
        dims = sorted(getattr(t.properties.get(k), "value", 0) % rank for k in ("dim0", "dim1"))
        return inputs(t)[0] if dims == [rank - 2, rank - 1] else None
    p = producer(v, "ttir.permute")
    if p is not None:
        perm = list(int_values(p.properties.get("permutation")) or ())
        r = len(perm)
        if r >= 2 and perm[: r - 2] == list(range(r - 2)) and perm[r - 2 :] == [r - 1, r - 2]:
            return inputs(p)[0]
    return None


def _gqa(v: Value) -> tuple[Value, Operation | None, int] | None:
    """v = repeat_interleave(x) over the heads dimension (dim 1), under at most one typecast:
    (x, the typecast or None, the repeats)."""
    cast = producer(v, "ttir.typecast")
    rep = producer(inputs(cast)[0] if cast is not None else v, "ttir.repeat_interleave")
    if rep is None:
        return None
    x = inputs(rep)[0]
    rank = len(shape(x))
    dim = getattr(rep.properties.get("dim"), "value", None)
    repeats = getattr(rep.properties.get("repeats"), "value", None)
    if not isinstance(dim, int) or not isinstance(repeats, int) or rank == 0 or dim % rank != 1:
        return None
    return x, cast, repeats


def _merged(v: Value) -> Value | None:
    """v = reshape(x) folding x's [B, H, S, D] into [B*H, S, D] (heads as the batch): x, else None."""
    return _heads_reshape(v, fold=True)


def _split(v: Value) -> Value | None:
    """v = reshape(x) unfolding x's [B*H, S, D] into [B, H, S, D]: x, else None."""
    return _heads_reshape(v, fold=False)


def _heads_reshape(v: Value, fold: bool) -> Value | None:
    """The input x of v = reshape(x) between [B, H, S, D] and [B*H, S, D] (x the 4-D side if `fold`)."""
    r = producer(v, "ttir.reshape")
    if r is None:
        return None
    x = inputs(r)[0]
    four, three = (shape(x), shape(v)) if fold else (shape(v), shape(x))
    return x if len(four) == 4 and len(three) == 3 and four[0] * four[1] == three[0] and four[2:] == three[1:] else None


def _drops_last_column(op: Operation) -> bool:
    """A `slice_static` keeping all of its input but the last column (unit steps)."""
    src = shape(inputs(op)[0])
    begins, ends, steps = (int_values(op.properties.get(k)) for k in ("begins", "ends", "step"))
    if not src or begins is None or ends is None or steps is None or not len(begins) == len(ends) == len(steps) == len(src):
        return False
    want = src[:-1] + (src[-1] - 1,)
    return all(b == 0 for b in begins) and all(st == 1 for st in steps) and tuple(ends) == want


def _sink_column(scores: Value) -> tuple[Value, Value] | str:
    """scores = concat(chain, column) over the last dimension with column = broadcast([1, Hq, 1, 1]):
    (chain, the [1, Hq, 1, 1] sink), else why not."""
    cat = producer(scores, "ttir.concat")
    ins = inputs(cat) if cat is not None else []
    if cat is None or len(ins) != 2:
        return "the padded softmax input is not a concat of the scores and one column"
    rank = len(shape(scores))
    if getattr(cat.properties.get("dim"), "value", None) not in (rank - 1, -1):
        return "the sink column is not concatenated along the kv axis"
    col = ins[1]
    if len(shape(col)) != 4 or shape(col)[-1] != 1:
        return "the sink column is not a rank-4 [.., 1] tensor"
    bc = producer(col, "ttir.broadcast")
    sink = inputs(bc)[0] if bc is not None else col
    ss, heads = shape(sink), shape(scores)[1]
    if ss != (1, heads, 1, 1):
        return f"the sink {list(ss)} is not one logit per query head [1, {heads}, 1, 1]"
    return _peel_cast(ins[0]), sink


def _composed_key(v: Value) -> tuple[Value, tuple[int, ...]] | None:
    """K^T as one permute of X whose order is not K's last-two swap alone (canonicalize composes
    K's own permute into the transpose): (X, the order that gives K from X)."""
    p = producer(v, "ttir.permute")
    perm = tuple(int_values(p.properties.get("permutation")) or ()) if p is not None else ()
    if p is None or len(perm) < 2:
        return None
    return inputs(p)[0], (*perm[:-2], perm[-1], perm[-2])


def _scores(chain: Value, attention: Operation) -> tuple[Value, Value, bool, Value | None, float | None] | None:
    """(Q raw, K raw, K already transposed, mask, post-scale) of the score chain.

    A chain computed in 3-D with the heads folded into the batch (`[B*H, Sq, Sk]`, unfolded to 4-D
    for the softmax) gives its operands back unfolded: Q, K^T and a mask must then each be a
    fold of a 4-D tensor."""
    inner = _split(chain)
    if inner is not None:
        found = _scores(inner, attention)
        if found is None:
            return None
        q3, k3, kt, mask3, post = found
        q4, k4 = _merged(q3), _merged(k3)
        mask4 = _merged(mask3) if mask3 is not None else None
        if q4 is None or k4 is None or (mask3 is not None and mask4 is None):
            return None
        return q4, k4, kt, mask4, post
    lin = producer(chain, "ttir.linear")
    if lin is not None:
        ins = inputs(lin)
        if _flag(lin, "transpose_a") or len(ins) < 3:
            return None
        return ins[0], ins[1], _flag(lin, "transpose_b"), ins[2], None
    add = producer(chain, "ttir.add")
    pairs = [(inputs(add)[0], inputs(add)[1]), (inputs(add)[1], inputs(add)[0])] if add is not None else [(chain, None)]
    for cand, mask in pairs:
        stripped, post = _peel_scale(cand)
        inner = _split(stripped)  # a 3-D score matmul unfolded before its 4-D scale / mask
        mm = producer(inner if inner is not None else stripped, "ttir.matmul")
        if mm is None or mm is attention or _flag(mm, "transpose_a"):
            continue
        q, k = inputs(mm)[0], inputs(mm)[1]
        if inner is not None:
            q4, k4 = _merged(q), _merged(k)
            if q4 is None or k4 is None:
                continue
            q, k = q4, k4
        return q, k, _flag(mm, "transpose_b"), mask, post
    return None


def match(attention: Operation) -> Candidate | Rejected | None:
    """The attention matmul of softmax(scores) and V."""
    if _flag(attention, "transpose_a") or _flag(attention, "transpose_b"):
        return None
    probs, v = inputs(attention)[:2]
    folded = len(shape(attention.results[0])) == 3
    if folded:  # heads folded into the batch: the softmax and V are unfolded 4-D tensors
        probs4, v4 = _merged(probs), _merged(v)
        if probs4 is None or v4 is None:
            return None
        probs, v = probs4, v4
    probs = _peel_cast(probs)
    pad_slice = producer(probs, "ttir.slice_static")
    pad_slice = pad_slice if pad_slice is not None and _drops_last_column(pad_slice) else None
    if pad_slice is not None:  # the softmax-padding column of an attention sink is dropped here
        probs = _peel_cast(inputs(pad_slice)[0])
    row_cond = None
    guard = producer(probs, "ttir.where")
    if guard is not None:
        c, zero, data = inputs(guard)[:3]
        bc = producer(c, "ttir.broadcast")
        c = inputs(bc)[0] if bc is not None else c
        cs = shape(c)
        if len(cs) == 4 and cs[-1] == 1 and splat(zero) == 0.0:
            row_cond, probs = c, _peel_cast(data)
    sm = producer(probs, "ttir.softmax")
    if sm is None:
        return None
    rank = len(shape(inputs(sm)[0]))
    if getattr(sm.properties.get("dimension"), "value", 0) % rank != rank - 1:
        return Rejected(NAME, attention, "the softmax is not over the last dimension")
    if not one_use(sm.results[0]):
        return Rejected(NAME, attention, "the softmax has other users")
    chain, sink = _peel_cast(inputs(sm)[0]), None
    if pad_slice is not None:
        column = _sink_column(chain)
        if isinstance(column, str):
            return Rejected(NAME, attention, column)
        chain, sink = column
    found = _scores(chain, attention)
    if found is None:
        return Rejected(NAME, attention, "the softmax input is not a (scaled, masked) Q @ K^T")
    q_raw, k_raw, k_transposed, mask, post = found
    q, q_scale = _peel_scale(q_raw)
    k_outer, k_after = _peel_scale(k_raw)
    kt = k_outer if k_transposed else _transposed_input(k_outer)
    k_from: tuple[Value, tuple[int, ...]] | None = None  # K built as permute(X, order) when only K^T exists
    if kt is None:
        k_from = _composed_key(k_outer)
        if k_from is None:
            return Rejected(NAME, attention, "K is not transposed over its last two dimensions")
        k, k_before = k_from[0], None
    else:
        k, k_before = _peel_scale(kt)
    # GQA: K and V expanded from Hkv to Hq heads by the same head-dim repeat_interleave (each under
    # at most one typecast) are read un-expanded, the cast re-applied on the smaller tensor.
    kg, vg = (_gqa(k) if k_from is None else None), _gqa(v)
    gqa = kg is not None and vg is not None and kg[2] == vg[2]
    k_cast = v_cast = None
    if gqa:
        assert kg is not None and vg is not None
        (k, k_cast, _), (v, v_cast, _) = kg, vg
    pre = None
    if q_scale is not None or k_after is not None or k_before is not None:
        pre = (q_scale or 1.0) * (k_after or 1.0) * (k_before or 1.0)
    if pre is not None and post is not None:
        return Rejected(NAME, attention, "the scores are scaled both before and after the matmul")
    scale = pre if pre is not None else post
    qs, ks, vs = shape(q), shape(k), shape(v)
    k_t = TensorType(ks, k_cast.results[0].type.resolve().element_type) if k_cast is not None else k.type.resolve()
    if k_from is not None:
        ks = tuple(ks[i] for i in k_from[1])
        k_t = TensorType(ks, k_t.element_type, k_t.encoding)
    v_t = TensorType(vs, v_cast.results[0].type.resolve().element_type) if v_cast is not None else v.type.resolve()
    if len(qs) != 4 or len(ks) != 4 or len(vs) != 4:
        return Rejected(NAME, attention, "Q, K and V must be rank 4")
    if not (qs[3] == ks[3] == vs[3]) or ks[:3] != vs[:3] or qs[0] != ks[0] or ks[1] == 0 or qs[1] % ks[1]:
        return Rejected(NAME, attention, f"Q {list(qs)}, K {list(ks)}, V {list(vs)} are not attention shapes")
    if mask is not None:
        ms = shape(mask)
        if len(ms) != 4 or ms[0] not in (1, qs[0]) or ms[1] not in (1, qs[1]) or ms[2] != qs[2] or ms[3] != ks[2]:
            return Rejected(NAME, attention, f"mask {list(ms)} is not [1|B, 1|H, Sq, Sk]")
    res = attention.results[0].type.resolve()
    out_shape = qs[:3] + (vs[3],) if folded else shape(attention.results[0])
    out_t = TensorType(out_shape, res.element_type, res.encoding) if folded else res
    if folded and qs[0] * qs[1] != shape(attention.results[0])[0]:
        return Rejected(NAME, attention, "the folded batch is not Q's batch x heads")
    if k_t.text != v_t.text or q.type.resolve().text != out_t.text:
        return Rejected(NAME, attention, "K and V (or Q and the result) differ in type")

    if row_cond is not None and mask is None and _reads(row_cond, inputs(sm)[0]):
        row_cond = None  # uniformly false without a mask: the select is an identity

    def build(b: Builder) -> Value:
        kk = b.emit("typecast", [k], k_t) if k_cast is not None else k
        if k_from is not None:
            kk = b.emit("permute", [k], k_t, permutation=DenseArrayAttr("i64", k_from[1]))
        vv = b.emit("typecast", [v], v_t) if v_cast is not None else v
        ops = [q, kk, vv] + ([mask] if mask is not None else []) + ([sink] if sink is not None else [])
        out = b.emit("scaled_dot_product_attention", ops, out_t, is_causal=BoolAttr(False),
                     scale=f32_attr(float(scale if scale is not None else 1.0)),
                     operandSegmentSizes=DenseArrayAttr("i32", (1, 1, 1, int(mask is not None), int(sink is not None))))  # fmt: skip
        if row_cond is not None:
            cond = _mask_rows_dead(b, mask) if mask is not None else None
            cond = cond if cond is not None else row_cond
            cs, os = shape(cond), out_shape
            wide = TensorType(os, cond.type.resolve().element_type)
            dims = DenseArrayAttr("i64", tuple(o if c == 1 else 1 for c, o in zip(cs, os)))
            cond = b.emit("broadcast", [cond], wide, broadcast_dimensions=dims)
            zeros = b.emit("zeros", [], out_t, shape=DenseArrayAttr("i32", tuple(os)))
            out = b.emit("where", [cond, zeros, out], out_t)
        if not folded:
            return out
        if unfold is not None:  # the anchor's only reader goes too: both take the 4-D result
            return [out, out]  # type: ignore[return-value]
        return b.reshape(out, shape(attention.results[0]))

    # The attention matmul's result unfolded again by its only reader: that reshape takes the 4-D
    # result directly (no fold / unfold pair is left behind).
    unfold = None
    if folded and len(attention.results[0].uses) == 1:
        r = attention.results[0].uses[0]
        if r.name == "ttir.reshape" and r.parent is attention.parent and shape(r.results[0]) == out_shape:
            unfold = r
    note = f"scale {scale:g}" if scale is not None else "no scale"
    note += (", masked" if mask is not None else "") + (", NaN-safe rows re-applied" if row_cond is not None else "")
    note += ", attention sink from the softmax-padding column" if sink is not None else ""
    note += ", heads unfolded from the batch" if folded else ""
    note += f", GQA expansion x{kg[2]} peeled" if gqa and kg is not None else ""
    return Candidate(NAME, attention, "ttir.scaled_dot_product_attention", build, note=note,
                     also=[unfold] if unfold is not None else [])


def _reads(v: Value, target: Value, limit: int = 64) -> bool:
    """`v` is computed from `target` (a bounded walk over producers)."""
    work, seen = [v], 0
    while work and seen < limit:
        u = work.pop()
        seen += 1
        if u is target:
            return True
        op = getattr(u, "op", None)
        if op is not None:
            work.extend(inputs(op))
    return False


def _mask_rows_dead(b: Builder, mask: Value) -> Value | None:
    """[.., Sq, 1] = max(mask over the kv axis) == -inf, in the mask's float type (None otherwise)."""
    t = mask.type.resolve()
    ms = shape(mask)
    if len(ms) != 4 or not t.element_type.resolve().text.startswith(("f", "bf")):
        return None
    rows = (*ms[:-1], 1)
    rt = TensorType(rows, t.element_type)
    row_max = b.emit("max", [mask], rt, dim_arg=i32_array([3]), keep_dim=BoolAttr(True))
    ninf = b.emit("full", [], rt, shape=DenseArrayAttr("i32", rows), fill_value=FloatAttr(float("-inf"), F32, text="0xFF800000 : f32"))
    return b.emit("eq", [row_max, ninf], rt)
