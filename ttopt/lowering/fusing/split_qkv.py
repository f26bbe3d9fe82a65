"""Three projections of one input split into attention heads -> one projection on the concatenated
weights and `ttir.split_query_key_value_and_split_heads` (HEAD's TTIR SharedLHSMatmulFusion followed
by its TTNN SplitQueryKeyValueAndSplitHeadsFusing, in one step).

Matched: exactly three `ttir.matmul` (or three `ttir.linear`) reading the same input with no
`transpose_a`, one `transpose_b`, rank-2 weights (and rank-1 biases) of one type; each result
reaches a `permute(.., [0, 2, 1, 3])` through single-reader reshapes ending in [B, S, H, D] (so
B*S rows of H*D). Roles: the operand each head feeds of a `ttir.scaled_dot_product_attention`
(query, key, value) when all three reach one, else HEAD's fallback: the most heads is Q (the first on
a tie), the other two K and V in program order. K and V must agree in heads and head size, all three
in B, S and head size. The weights (and biases) are concatenated in Q, K, V order (a weight that layout
ops compute after the first head has them re-emitted before it, as HEAD moves such chains); the op gets
`num_heads` = Hq, `num_kv_heads` = Hkv when it differs (grouped-query attention), `transpose_key =
false`. The new ops go before the first head's permute.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, i32_array, shape

if TYPE_CHECKING:
    from ttopt.ir.values import Value

NAME = "split_qkv"
UI32 = ScalarType("ui32")
SDPA = ("ttir.scaled_dot_product_attention",)
TRACE_DEPTH = 12


def _flag(op: Operation, key: str) -> bool:
    return bool(getattr(op.properties.get(key), "value", False))


def _head_chain(mm: Operation) -> list[Operation] | None:
    """[reshape..., permute] from the projection's result to its [B, H, S, D] heads."""
    chain: list[Operation] = []
    v = mm.results[0]
    while True:
        if len(v.uses) != 1:
            return None
        u = v.uses[0]
        if u.name == "ttir.reshape":
            chain.append(u)
            v = u.results[0]
            continue
        if u.name == "ttir.permute" and list(int_values(u.properties.get("permutation")) or ()) == [0, 2, 1, 3] and chain:
            chain.append(u)
            return chain
        return None


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


LAYOUT_OPS = ("ttir.permute", "ttir.reshape", "ttir.typecast", "ttir.transpose", "ttir.broadcast")


def _late_chain(v: Value, first: Operation, here: int) -> list[Operation] | None:
    """[] when `v` is defined before `first`; the layout ops (nearest first) computing it after
    `first` from a value defined before (HEAD moves such chains up); None otherwise."""
    chain: list[Operation] = []
    while True:
        op = getattr(v, "op", None)
        if op is None or op.parent is not first.parent or _index(op) < here:
            return chain
        if op.name not in LAYOUT_OPS or len(op.operands) != 1 or op.regions:
            return None
        chain.append(op)
        v = op.operands[0]


def _index(op: Operation) -> int:
    block = op.parent
    return block.ops.index(op) if block is not None else -1


def match(mm: Operation) -> Candidate | Rejected | None:
    """The first of three projections of one input into attention heads."""
    a = inputs(mm)[0]
    peers = [u for u in a.users if u.name == mm.name and u.parent is mm.parent and inputs(u)[0] is a]
    if len(peers) != 3 or peers[0] is not mm:
        return None
    chains = [_head_chain(p) for p in peers]
    if any(c is None for c in chains):
        return None
    if any(_flag(p, "transpose_a") for p in peers) or len({_flag(p, "transpose_b") for p in peers}) != 1:
        return Rejected(NAME, mm, "the projections differ in transposes")
    tb = _flag(mm, "transpose_b")
    ws = [inputs(p)[1] for p in peers]
    biases = [inputs(p)[2] if len(inputs(p)) > 2 else None for p in peers]
    if any(len(shape(w)) != 2 for w in ws) or len({w.type.resolve().element_type.resolve().text for w in ws}) != 1:
        return Rejected(NAME, mm, "the weights are not rank-2 matrices of one type")
    if mm.name == "ttir.linear" and any(b is None or len(shape(b)) != 1 for b in biases):
        return Rejected(NAME, mm, "the biases are not vectors")
    heads = []
    for p, c in zip(peers, chains):
        assert c is not None
        out = shape(p.results[0])
        b, s, h, d = shape(c[-2].results[0]) if len(shape(c[-2].results[0])) == 4 else (0, 0, 0, 0)
        if b * s != prod(out[:-1]) or h * d != out[-1] or b == 0:
            return Rejected(NAME, mm, "a head reshape does not split the projection into [B, S, H, D]")
        heads.append((b, s, h, d))
    if len({(b, s, d) for b, s, _, d in heads}) != 1:
        return Rejected(NAME, mm, "the heads differ in batch, sequence or head size")
    roles = [_role(c[-1].results[0]) for c in chains if c is not None]
    if sorted(r for r in roles if r is not None) == [0, 1, 2]:
        order = [roles.index(0), roles.index(1), roles.index(2)]
    else:
        q = max(range(3), key=lambda i: (heads[i][2], -i))
        order = [q, *(i for i in range(3) if i != q)]
    qh, kh, vh = (heads[i][2] for i in order)
    if kh != vh:
        return Rejected(NAME, mm, "K and V differ in heads")
    finals = [chains[i][-1] for i in order]  # type: ignore[index]
    first = min((c[-1] for c in chains if c is not None), key=_index)
    here = _index(first)
    late: dict[int, list[Operation]] = {}
    for v in (*ws, *(b for b in biases if b is not None)):
        chain = _late_chain(v, first, here)
        if chain is None:
            return Rejected(NAME, mm, "a weight is computed after the first head by more than layout ops")
        if chain:
            late[id(v)] = chain
    bsz, seq, _, hd = heads[0]
    total = (qh + 2 * kh) * hd
    out_shape = (*shape(mm.results[0])[:-1], total)
    elem = mm.results[0].type.resolve().element_type

    def early(bd: Builder, v: Value) -> Value:
        """`v`, or its layout chain re-emitted before the first head when it is computed after."""
        chain = late.get(id(v))
        if not chain:
            return v
        mapping: dict[int, Value] = {}
        for op in reversed(chain):
            c = op.clone(mapping)
            bd.ops.append(c)
        return mapping[id(chain[0].results[0])]

    def build(bd: Builder) -> list[Value]:
        w_dim = 0 if tb else 1
        w_shapes = [shape(ws[i]) for i in order]
        cat_shape = list(w_shapes[0])
        cat_shape[w_dim] = sum(ws_[w_dim] for ws_ in w_shapes)
        wt = ws[0].type.resolve()
        w = bd.emit("concat", [early(bd, ws[i]) for i in order], TensorType(tuple(cat_shape), wt.element_type), dim=IntegerAttr(w_dim, ScalarType("si32")))
        operands = [a, w]
        if mm.name == "ttir.linear":
            bvals = [early(bd, b) for b in (biases[i] for i in order) if b is not None]
            bt = bvals[0].type.resolve()
            bias = bd.emit("concat", bvals, TensorType((total,), bt.element_type), dim=IntegerAttr(0, ScalarType("si32")))
            operands.append(bias)
        props = {k: mm.properties[k] for k in ("transpose_a", "transpose_b") if k in mm.properties}
        y = bd.emit(mm.name[5:], operands, TensorType(out_shape, elem), **props)
        y = bd.emit("reshape", [y], TensorType((bsz, seq, total), elem), shape=i32_array((bsz, seq, total)))
        split_props = {"num_heads": IntegerAttr(qh, UI32), "transpose_key": BoolAttr(False)}
        if kh != qh:
            split_props["num_kv_heads"] = IntegerAttr(kh, UI32)
        types = [f.results[0].type for f in finals]
        op = Operation("ttir.split_query_key_value_and_split_heads", [y], types, properties=dict(sorted(split_props.items())),
                       location=first.location, result_names=["query", "key", "value"])  # fmt: skip
        op.pos = first.pos
        bd.ops.append(op)
        by_final = {id(f): r for f, r in zip(finals, op.results)}
        return [by_final[id(o)] for o in (first, *(f for f in finals if f is not first))]

    also = [f for f in finals if f is not first]
    note = f"{qh} query heads" + (f", {kh} key/value heads" if kh != qh else "")
    return Candidate(NAME, first, "ttir.split_query_key_value_and_split_heads", build, note=note, also=also)  # type: ignore[arg-type]
