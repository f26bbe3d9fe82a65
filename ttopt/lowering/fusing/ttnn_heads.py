"""The decode concat-heads as one `ttnn.nlp_concat_heads_decode` (tt-mlir's NLPConcatHeadsDecode
fusing, op-constraint gated).

Anchor: the reshape collapsing heads `[B, H, 1, D] -> [B, H*D]` (through typecasts). Its input is
the reorder `[S, B, H, D] -> [B, H, S, D]`: `ttnn.permute` (1, 2, 0, 3), or for S == 1 the reshape
that permute canonicalizes to, or no reorder op at all when the collapse reads `[1, B, H, D]`
itself. A NaN-safe `where(cond, splat, data)` may sit between reorder and collapse when it zeroes
whole heads (cond `[B, H|1, 1, 1]`, an all-ones-shaped replacement): it is re-applied on the op's
input with the condition reshaped to `[1, B, H|1, 1]`.

Preconditions, as HEAD: S == 1; head size and batch multiples of the tile (32), since tt-metal
derives the output's logical shape from the padded one; the batch fits the worker grid (one shard
per core). The op gives `[1, 1, B, H*D]` (`num_heads` = H) and a reshape restores the collapse's
shape; a typecast to the collapse's data type comes first when the input's differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import IntegerAttr
from ttopt.lowering.fusing.match import producer
from ttopt.lowering.fusing.ttnn_build import UI32, Rejected, TTNNBuilder, TTNNCandidate, ints, tensor_shape, through

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

TILE = 32


def match_concat_heads_decode(reshape: Operation, worker_cores: int) -> TTNNCandidate | Rejected | None:
    """`reshape(reorder(x))` collapsing the heads of a decode attention output."""
    before = through(reshape.operands[0], "ttnn.typecast")
    scrub = producer(before, "ttnn.where")
    reordered = through(scrub.operands[2], "ttnn.typecast") if scrub is not None else before
    matched: list[Operation] = [o for o in (scrub,) if o is not None]
    perm_op = producer(reordered, "ttnn.permute")
    re_op = producer(reordered, "ttnn.reshape")
    if perm_op is not None:
        if ints(perm_op, "permutation") != [1, 2, 0, 3]:
            return None
        x = perm_op.operands[0]
        matched.append(perm_op)
    elif re_op is not None:
        i, o = tensor_shape(re_op.operands[0]), tensor_shape(re_op.results[0])
        if len(i) != 4 or len(o) != 4 or i[0] != 1 or o != (i[1], i[2], i[0], i[3]):
            return None
        x = re_op.operands[0]
        matched.append(re_op)
    else:
        i, o = tensor_shape(reordered), tensor_shape(reshape.results[0])
        if len(i) != 4 or len(o) != 2 or i[0] != 1 or o != (i[1], i[2] * i[3]):
            return None
        x = reordered
    s, b, h, d = tensor_shape(x)
    if s != 1:
        return None
    # Everything between x and the collapse goes (typecasts included).
    v = reshape.operands[0]
    cast = producer(v, "ttnn.typecast")
    while v is not x and cast is not None:
        matched.append(cast)
        v = cast.operands[0]
        cast = producer(v, "ttnn.typecast")
    if d % TILE or b % TILE:
        return Rejected("concat_heads_decode", reshape, f"head size {d} or batch {b} is not a multiple of the tile ({TILE})")
    if b > worker_cores:
        return Rejected("concat_heads_decode", reshape, f"batch {b} exceeds the {worker_cores} worker cores (one shard per core)")
    if scrub is not None:
        cond, repl = scrub.operands[0], scrub.operands[1]
        cs = tensor_shape(cond)
        if len(cs) != 4 or cs[0] != b or cs[1] not in (h, 1) or cs[2:] != (1, 1) or any(n != 1 for n in tensor_shape(repl)):
            return Rejected("concat_heads_decode", reshape, "the where between reorder and collapse does not zero whole heads")

    def build(bd: TTNNBuilder) -> Value:
        inp = x
        if scrub is not None:
            cond = bd.reshape(scrub.operands[0], (s, b, tensor_shape(scrub.operands[0])[1], 1))
            inp = bd.emit("ttnn.where", [cond, scrub.operands[1], x], x.type, {})
        out_t = reshape.results[0].type.resolve()
        if inp.type.resolve().element_type.resolve().text != out_t.element_type.resolve().text:
            like = bd.type_like(reshape.results[0], tensor_shape(inp))
            inp = bd.emit("ttnn.typecast", [inp], like, {})
        y = bd.emit("ttnn.nlp_concat_heads_decode", [inp], bd.type_like(inp, (s, 1, b, h * d)), {"num_heads": IntegerAttr(h, UI32)})
        return bd.reshape(y, tensor_shape(reshape.results[0]), like=reshape.results[0])

    return TTNNCandidate("concat_heads_decode", reshape, "ttnn.nlp_concat_heads_decode", matched, build)
