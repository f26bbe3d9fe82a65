"""matmul / linear of a transposing permute -> the matmul's transpose flag (HEAD's
PermuteMatmulFusionPattern, under ttir-fusing's `enable-permute-matmul-fusion`, off by default as at HEAD).

An operand read through a `ttir.permute` that swaps the last two dimensions and keeps the others in
order (`transpose(-1, -2)`) is read as the permute's input with its transpose flag flipped; the
permute stays for its other readers. Both operands may flip at once. Attributes of the matmul
(`ttcore.weight_dtype`) are kept. Applied without a cost check, as HEAD (the switch asks for it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr
from ttopt.ir.properties import int_values
from ttopt.lowering.fusing.match import Builder, Candidate, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "permute_matmul"


def _untransposed(v: Value) -> Value | None:
    """The input of the permute `v` comes from when it is transpose(-1, -2), else None."""
    perm = producer(v, "ttir.permute")
    order = list(int_values(perm.properties.get("permutation")) or ()) if perm is not None else []
    rank = len(shape(v))
    if perm is None or rank < 2 or order != [*range(rank - 2), rank - 1, rank - 2]:
        return None
    return inputs(perm)[0]


def _flag(op: Operation, name: str) -> bool:
    attr = op.properties.get(name)
    return bool(getattr(attr.resolve() if attr is not None else None, "value", False))


def match(op: Operation) -> Candidate | None:
    """matmul(transpose(a), b) -> matmul(a, b, transpose_a = !transpose_a); likewise b, and linear."""
    ins = inputs(op)
    a, b = _untransposed(ins[0]), _untransposed(ins[1])
    if a is None and b is None:
        return None

    def build(bld: Builder) -> Value:
        props = {**op.properties, "transpose_a": BoolAttr(_flag(op, "transpose_a") != (a is not None)),
                 "transpose_b": BoolAttr(_flag(op, "transpose_b") != (b is not None))}  # fmt: skip
        out = bld.emit(op.name[5:], [a or ins[0], b or ins[1], *ins[2:]], op.results[0].type, **props)
        bld.ops[-1].attributes = dict(op.attributes)
        return out

    return Candidate(NAME, op, op.name, build, note="a permute read as a transpose flag", cost_checked=False)
