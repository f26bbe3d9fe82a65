"""Three or more matmuls (or linears) of one input -> one matmul / linear on the concatenated weights
(and biases), each result a slice of its output (HEAD's SharedLHSMatmulFusion): an attention's Q, K
and V projections, those and a parallel MLP's first projection, a diffusion block's modulations.

Candidates, as HEAD collects them for the first of them in program order (the root, which HEAD's
top-down traversal meets first): every `ttir.matmul` (or every `ttir.linear`) whose A is the root's
A, with the root's `transpose_a`, a weight of the root's rank and, above rank 2, its batch
dimensions. At least three, their output widths summing to at most 262144 (HEAD's cap: a wider
rank-1 bias concat overflows L1); linears all with a bias or all without. Their order is HEAD's
use-list order, the newest use of A first (for parsed IR: the last projection first), and the
weights are concatenated in it along their N dimension, the biases along their last. Mixed
`transpose_b` flags are brought to `transpose_b = false` by a permute of the transposed weights,
as HEAD does. A weight or bias computed after A's producer (after the block's first op when A is
an argument) must come from before it through single-operand ops, the chains HEAD moves above the
fused op; those computed after the root are re-emitted in front of it (HEAD moves them). Beyond
HEAD, which would build invalid IR there: weights of one element type and rank >= 2, results of
one element type, biases of one rank agreeing but in their last dimension, which is their op's
width. The fused op has the root's location and only its transpose flags; each slice has its
op's location.

A matmul whose bias `add` the linear pattern would fuse waits for it: HEAD forms linears first,
in a greedy run before this one, so the group fuses as linears with their biases concatenated (a
linear the cost gate refuses leaves its group unfused, where HEAD would have fused the linears).

Not cost-checked, as HEAD applies it: the fused op and its slices are an intermediate form whose
worth the estimate of that form alone misjudges. An attention's slices are what split_qkv then
makes one split-heads op of, so the slices the gate would price are gone by the end; and the weight
concat the gate prices per run when the weights are not plain parameters is hoisted by const-eval
all the same (tt-mlir's tensor-parallel Llama 3.2 3B two decode layers, Q, K, V weights
mesh-partitioned: each group is estimated 72 us slower, the two layers as lowered 197 us faster). Where the weights are
parameters the estimate favours the fused op anyway (three Q, K, V projections of 2048 tokens
of 4096: 1,612 us against 1,785 us).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.fusing import linear
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, i32_array, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Block, Operation
    from ttopt.ir.values import Value

NAME = "shared_lhs_matmul"
MAX_FUSED_WIDTH = 262144
SI32 = ScalarType("si32")


def _flag(op: Operation, key: str) -> bool:
    attr = op.properties.get(key)
    return bool(getattr(attr.resolve() if attr is not None else None, "value", False))


def _candidates(root: Operation) -> list[Operation]:
    """The ops HEAD fuses with `root`, in HEAD's use-list order (newest use of A first)."""
    a = inputs(root)[0]
    ta = _flag(root, "transpose_a")
    rhs = shape(inputs(root)[1])
    out: list[Operation] = []
    seen: set[int] = set()
    for u in reversed(a.uses):
        if id(u) in seen or u.name != root.name or u.parent is not root.parent:
            continue
        seen.add(id(u))
        ins = inputs(u)
        if len(ins) < 2 or ins[0] is not a or _flag(u, "transpose_a") != ta:
            continue
        w = shape(ins[1])
        if len(w) != len(rhs) or (len(rhs) > 2 and w[:-2] != rhs[:-2]):
            continue
        out.append(u)
    return out


def _bias_pending(mm: Operation) -> bool:
    """`mm` feeds (through one reshape) an add the linear pattern turns into a `ttir.linear`."""
    v = mm.results[0]
    if len(v.uses) != 1:
        return False
    u = v.uses[0]
    if u.name == "ttir.reshape" and len(u.results[0].uses) == 1:
        u = u.results[0].uses[0]
    return u.name == "ttir.add" and isinstance(linear.match(u), Candidate)


def _chain(v: Value, block: Block, floor: int) -> list[tuple[int, Operation]] | None:
    """The ops computing `v` after position `floor` (nearest first, with their positions), which
    HEAD moves above the fused op; None when one of them has not exactly one operand."""
    chain: list[tuple[int, Operation]] = []
    while True:
        op = getattr(v, "op", None)
        if op is None or op.parent is not block:
            return chain
        i = block.index(op)
        if i <= floor:
            return chain
        ins = inputs(op)
        if len(ins) != 1 or len(op.results) != 1:
            return None
        chain.append((i, op))
        v = ins[0]


def match(root: Operation) -> Candidate | Rejected | None:
    """The first in program order of three or more matmuls / linears reading one A."""
    if len(inputs(root)) < 2:
        return None
    cands = _candidates(root)
    if len(cands) < 3:
        return None
    block = root.parent
    if block is None:
        return None
    try:  # an op fused earlier in this round is not in the block yet: the group waits a round
        pos = {id(c): block.index(c) for c in cands}
    except ValueError:
        return None
    if min(cands, key=lambda c: pos[id(c)]) is not root:
        return None
    if root.name == "ttir.matmul" and any(_bias_pending(c) for c in cands):
        return None
    a = inputs(root)[0]
    ws = [inputs(c)[1] for c in cands]
    rank = len(shape(ws[0]))
    if rank < 2:
        return Rejected(NAME, root, "the weights are vectors (no N dimension to concatenate)")
    if len({w.type.resolve().element_type.resolve().text for w in ws}) != 1:
        return Rejected(NAME, root, "the weights differ in element type")
    outs = [c.results[0].type.resolve() for c in cands]
    if len({t.element_type.resolve().text for t in outs}) != 1:
        return Rejected(NAME, root, "the results differ in element type")
    widths = [shape(c.results[0])[-1] for c in cands]
    total = sum(widths)
    if total > MAX_FUSED_WIDTH:
        return Rejected(NAME, root, f"the fused width {total} exceeds {MAX_FUSED_WIDTH}")
    biases: list[Value] = []
    if root.name == "ttir.linear":
        present = [len(inputs(c)) > 2 for c in cands]
        if any(present) and not all(present):
            return Rejected(NAME, root, "some linears have a bias and some not")
        biases = [inputs(c)[2] for c in cands] if all(present) else []
        bshapes = [shape(b) for b in biases]
        if biases and (len({(len(s), s[:-1]) for s in bshapes}) != 1 or any(not s or s[-1] != n for s, n in zip(bshapes, widths))):
            return Rejected(NAME, root, "the biases do not concatenate to the fused width")
        if biases and len({b.type.resolve().element_type.resolve().text for b in biases}) != 1:
            return Rejected(NAME, root, "the biases differ in element type")
    lhs_def = getattr(a, "op", None)
    if lhs_def is not None and lhs_def.parent is not block:
        return None
    floor = block.index(lhs_def) if lhs_def is not None else 0
    here = pos[id(root)]
    late: dict[int, list[Operation]] = {}
    for v in (*ws, *biases):
        chain = _chain(v, block, floor)
        if chain is None:
            return Rejected(NAME, root, "a weight is computed after the shared input by an op of other than one operand")
        after = [op for i, op in chain if i > here]
        if after:
            late[id(v)] = after
    tbs = [_flag(c, "transpose_b") for c in cands]
    same_tb = len(set(tbs)) == 1
    target_tb = tbs[0] if same_tb else False
    ta = _flag(root, "transpose_a")
    out_t = outs[0]
    fused_shape = (*shape(root.results[0])[:-1], total)

    def early(b: Builder, v: Value) -> Value:
        """`v`, or its chain re-emitted before the root when it is computed after it."""
        chain = late.get(id(v))
        if not chain:
            return v
        mapping: dict[int, Value] = {}
        for op in reversed(chain):
            b.ops.append(op.clone(mapping))
        return mapping[id(chain[0].results[0])]

    def transposed(b: Builder, w: Value) -> Value:
        s = shape(w)
        perm = list(range(len(s)))
        perm[-2], perm[-1] = perm[-1], perm[-2]
        t = w.type.resolve()
        return b.emit(
            "permute",
            [w],
            TensorType(tuple(s[p] for p in perm), t.element_type, t.encoding),
            permutation=DenseArrayAttr("i64", tuple(perm)),
        )

    def build(b: Builder) -> list[Value]:
        rhs = [early(b, w) for w in ws]
        if not same_tb:
            rhs = [transposed(b, w) if tb else w for w, tb in zip(rhs, tbs)]
        dim = rank - 2 if target_tb else rank - 1
        cat_shape = list(shape(rhs[0]))
        cat_shape[dim] = total
        wt = rhs[0].type.resolve()
        operands = [a, b.emit("concat", rhs, TensorType(tuple(cat_shape), wt.element_type, wt.encoding), dim=IntegerAttr(dim, SI32))]
        if biases:
            bvals = [early(b, v) for v in biases]
            bt = bvals[0].type.resolve()
            bshape = (*shape(bvals[0])[:-1], total)
            operands.append(
                b.emit("concat", bvals, TensorType(bshape, bt.element_type, bt.encoding), dim=IntegerAttr(len(bshape) - 1, SI32))
            )
        y = b.emit(root.name[5:], operands, TensorType(fused_shape, out_t.element_type, out_t.encoding),
                   transpose_a=BoolAttr(ta), transpose_b=BoolAttr(target_tb))  # fmt: skip
        sliced: dict[int, Value] = {}
        offset = 0
        for c, n in zip(cands, widths):
            s = shape(c.results[0])
            begins, ends = [0] * len(s), list(s)
            begins[-1], ends[-1] = offset, offset + n
            sliced[id(c)] = b.emit(
                "slice_static", [y], c.results[0].type, begins=i32_array(begins), ends=i32_array(ends), step=i32_array([1] * len(s))
            )
            b.ops[-1].location = c.location
            offset += n
        return [sliced[id(c)] for c in (root, *others)]

    others = [c for c in cands if c is not root]
    note = f"{len(cands)} {root.name[5:]}s, width {total}" + ("" if same_tb else ", transposed weights permuted")
    return Candidate(NAME, root, root.name, build, note=note, also=others, cost_checked=False)  # type: ignore[arg-type]
