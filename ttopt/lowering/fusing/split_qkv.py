"""A projection on concatenated weights whose Q, K and V slices are split into attention heads ->
the projection on the Q, K, V-ordered weights and `ttir.split_query_key_value_and_split_heads`
(HEAD's TTNN SplitQueryKeyValueAndSplitHeadsFusing, done here on TTIR after the shared-LHS fusion
has made the one projection of the three).

Matched on a `ttir.matmul` / `ttir.linear` whose weight is a `ttir.concat`: exactly three of its
`slice_static` readers reach a 4-D reshape through single-reader reshapes, either [B, S, H, D]
followed by a single-reader `permute(.., [0, 2, 1, 3])` or, without the permute, [B, H, S, D]
with one head or one token (a layout-preserving reshape, HEAD's decode form). Other readers
(another projection fused alongside, as an MLP's first layer) are left as they are. The three
slices narrow the last dimension only, with step 1, and cover it contiguously from 0; each reshape
splits its slice's rows into B and S and its columns into H and D. Roles: the operand each head
feeds of a `ttir.scaled_dot_product_attention` (query, key, value) when all three reach one, else
HEAD's fallback: the most heads is Q (the first slice on a tie), the other two K and V in slice
order. K and V must agree in heads, all three in B, S and head size.

When the slices are not already Q, K, V, the concat's first three inputs (they must be the three
slices' columns) are put in Q, K, V order, and a linear's bias likewise (it must be a concat); a
reader of the projection other than the three heads must then read only columns after them. The
projection is re-emitted on those weights (its transpose flags and attributes kept), then a
slice to the Q, K, V columns when others follow, a reshape to [B, S, hidden] and the split op,
`num_heads` = Hq, `num_kv_heads` = Hkv when it differs (grouped-query attention), `transpose_key
= false`. The new ops go before the projection and take its location.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, i32_array, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.values import Value

NAME = "split_qkv"
UI32 = ScalarType("ui32")
SDPA = ("ttir.scaled_dot_product_attention",)
TRACE_DEPTH = 12


class _Head:
    """One slice of the projection and the ops splitting it into [B, H, S, D] heads."""

    def __init__(self, slc: Operation, chain: list[Operation], begin: int, end: int) -> None:
        self.slc, self.chain, self.begin, self.end = slc, chain, begin, end
        self.final = chain[-1]
        self.permuted = chain[-1].name == "ttir.permute"
        self.bhsd = shape(self.final.results[0])

    @property
    def heads(self) -> int:
        return self.bhsd[1]


def _flag(op: Operation, key: str) -> bool:
    attr = op.properties.get(key)
    return bool(getattr(attr.resolve() if attr is not None else None, "value", False))


def _head_chain(slc: Operation) -> list[Operation] | None:
    """[reshape..., permute?] from the slice to a 4-D reshape (and the [0, 2, 1, 3] permute after
    it); None when the slice does not reach a 4-D reshape through single readers."""
    chain: list[Operation] = []
    v = slc.results[0]
    while len(v.uses) == 1 and v.uses[0].name == "ttir.reshape":
        chain.append(v.uses[0])
        v = chain[-1].results[0]
    if not chain or len(shape(v)) != 4:
        return None
    if (
        len(v.uses) == 1
        and v.uses[0].name == "ttir.permute"
        and list(int_values(v.uses[0].properties.get("permutation")) or ()) == [0, 2, 1, 3]
    ):
        chain.append(v.uses[0])
    return chain


def _columns(slc: Operation, out: tuple[int, ...]) -> tuple[int, int] | None:
    """The [begin, end) the slice takes of the last dimension, when it narrows nothing else (step 1)."""
    begins, ends, steps = (int_values(slc.properties.get(k)) for k in ("begins", "ends", "step"))
    if begins is None or ends is None or steps is None or not len(begins) == len(ends) == len(steps) == len(out):
        return None
    norm = [((b + n if b < 0 else b), (e + n if e < 0 else e)) for b, e, n in zip(begins, ends, out)]
    if any(s != 1 for s in steps) or any(r != (0, n) for r, n in zip(norm[:-1], out[:-1])):
        return None
    return norm[-1]


def _role(v: Value) -> int | None:
    """The attention operand (0 query, 1 key, 2 value) `v` reaches through single-input ops."""
    work, seen = [(v, 0)], 0
    while work and seen < 64:
        u, depth = work.pop()
        seen += 1
        for op in u.users:
            if op.name in SDPA:
                idx = [i for i, x in enumerate(op.operands[:3]) if x is u]
                if idx:
                    return idx[0]
            elif depth < TRACE_DEPTH and op.results and len(inputs(op)) <= 2:
                work.append((op.results[0], depth + 1))
    return None


def _layout_error(h: _Head) -> str | None:
    """Why the head's reshape does not split its slice into heads, or None."""
    rows = prod(shape(h.slc.results[0])[:-1])
    width = shape(h.slc.results[0])[-1]
    r = shape(h.chain[-2].results[0] if h.permuted else h.final.results[0])
    if h.permuted:
        return None if r[0] * r[1] == rows and r[2] * r[3] == width else "a head reshape does not split its slice into [B, S, H, D]"
    if r[0] * r[2] != rows or r[1] * r[3] != width:
        return "a head reshape does not split its slice into [B, H, S, D]"
    return None if r[1] == 1 or r[2] == 1 else "a head reshape to [B, H, S, D] without a permute moves data (more than one head and token)"


def _aligned(cat: Operation, dim: int, widths: list[int]) -> bool:
    """The concat joins along `dim` and its first inputs are `widths` wide there."""
    d = getattr(cat.properties.get("dim"), "value", None)
    ins = inputs(cat)
    if d is None or len(ins) < len(widths):
        return False
    rank = len(shape(ins[0]))
    return d % rank == dim % rank and [shape(v)[dim] for v in ins[: len(widths)]] == widths


def match(mm: Operation) -> Candidate | Rejected | None:
    """A projection on concatenated weights with three slices split into heads."""
    ins = inputs(mm)
    if len(ins) < 2:
        return None
    cat = producer(ins[1], "ttir.concat")
    out = shape(mm.results[0])
    chains = [(u, c) for u in mm.results[0].users if u.name == "ttir.slice_static" for c in (_head_chain(u),) if c is not None]
    if len(chains) != 3 or cat is None:
        return None
    found: list[_Head] = []
    for u, chain in chains:
        cols = _columns(u, out)
        if cols is None:
            return Rejected(NAME, mm, "a head slice narrows more than the last dimension")
        found.append(_Head(u, chain, *cols))
    heads = sorted(found, key=lambda h: h.begin)
    if [h.begin for h in heads] != [0, heads[0].end, heads[1].end]:
        return Rejected(NAME, mm, "the head slices do not cover the columns contiguously from 0")
    for h in heads:
        err = _layout_error(h)
        if err:
            return Rejected(NAME, mm, err)
    if len({(h.bhsd[0], h.bhsd[2], h.bhsd[3]) for h in heads}) != 1:
        return Rejected(NAME, mm, "the heads differ in batch, sequence or head size")
    roles = [_role(h.final.results[0]) for h in heads]
    if sorted(r for r in roles if r is not None) == [0, 1, 2]:
        order = [roles.index(0), roles.index(1), roles.index(2)]
    else:
        q = max(range(3), key=lambda i: (heads[i].heads, -i))
        order = [q, *(i for i in range(3) if i != q)]
    qh, kh, vh = (heads[i].heads for i in order)
    if kh != vh:
        return Rejected(NAME, mm, "K and V differ in heads")
    reorder = order != [0, 1, 2]
    qkv_end = heads[2].end
    bias = ins[2] if mm.name == "ttir.linear" and len(ins) > 2 else None
    bias_cat = producer(bias, "ttir.concat") if bias is not None else None
    widths = [h.end - h.begin for h in heads]
    w_dim = len(shape(ins[1])) - (2 if _flag(mm, "transpose_b") else 1)
    if reorder:
        if not _aligned(cat, w_dim, widths):
            return Rejected(NAME, mm, "the weight concat's inputs are not the Q, K, V columns (cannot reorder them)")
        if bias is not None and (bias_cat is None or not _aligned(bias_cat, len(shape(bias)) - 1, widths)):
            return Rejected(NAME, mm, "the bias is not a concat of the Q, K, V columns (cannot reorder it)")
        ours = {id(h.slc) for h in heads}
        for u in mm.results[0].users:
            cols = _columns(u, out) if u.name == "ttir.slice_static" else None
            if id(u) not in ours and (cols is None or cols[0] < qkv_end):
                return Rejected(NAME, mm, "another reader of the projection takes Q, K, V columns (they would be reordered under it)")
    bsz, _, seq, hd = heads[0].bhsd
    finals = [heads[i].final for i in order]
    elem = mm.results[0].type.resolve().element_type

    def reordered(bd: Builder, c: Operation) -> Value:
        parts = inputs(c)
        t = c.results[0].type.resolve()
        return bd.emit("concat", [parts[i] for i in order] + parts[3:], t, dim=c.properties["dim"])

    def build(bd: Builder) -> list[Value]:
        operands = list(ins)
        if reorder:
            operands[1] = reordered(bd, cat)
            if bias_cat is not None:
                operands[2] = reordered(bd, bias_cat)
        y = bd.emit(mm.name[5:], operands, mm.results[0].type, **mm.properties)
        bd.ops[-1].attributes.update(mm.attributes)
        projection = y
        if qkv_end != out[-1]:
            y = bd.emit("slice_static", [y], TensorType((*out[:-1], qkv_end), elem),
                        begins=i32_array([0] * len(out)), ends=i32_array((*out[:-1], qkv_end)), step=i32_array([1] * len(out)))  # fmt: skip
        y = bd.emit("reshape", [y], TensorType((bsz, seq, qkv_end), elem), shape=i32_array((bsz, seq, qkv_end)))
        split_props = {"num_heads": IntegerAttr(qh, UI32), "transpose_key": BoolAttr(False)}
        if kh != qh:
            split_props["num_kv_heads"] = IntegerAttr(kh, UI32)
        types = [f.results[0].type for f in finals]
        op = Operation("ttir.split_query_key_value_and_split_heads", [y], types, properties=dict(sorted(split_props.items())),
                       location=mm.location, result_names=["query", "key", "value"])  # fmt: skip
        op.pos = mm.pos
        bd.ops.append(op)
        return [projection, *op.results]

    note = f"{qh} query heads" + (f", {kh} key/value heads" if kh != qh else "") + (", weights reordered" if reorder else "")
    return Candidate(NAME, mm, "ttir.split_query_key_value_and_split_heads", build, note=note, also=finals)  # type: ignore[arg-type]
