"""`ttir-implicit-broadcast-fold`: an explicit `ttir.broadcast` feeding an op that broadcasts its
operands implicitly is dropped (tt-mlir's TTIRImplicitBroadcastFold; the backend pipeline runs it
after `ttir-erase-inverse-ops`, undoing what `ttir-explicate-tms` made explicit where no TM
needed it).

For each op of HEAD's Broadcastable trait (the elementwise ops, `dialects/ttir.py` BROADCASTABLE),
every operand that is a `ttir.broadcast` reads the broadcast's input instead, unless the broadcast
repeats a dimension in front of the last six (tt-metal broadcasts implicitly up to rank 6 only:
HEAD's isImplicitBroadcastSupported). When the operands then broadcast to less than the op's
result (`relu(broadcast(x))`), the op computes that smaller shape and one `ttir.broadcast` after
it restores the result (HEAD's addOutputBroadcastIfNeeded): the broadcast moves below the op,
where the next elementwise reader folds it in turn. A broadcast nothing reads any more goes.

Left alone: ops with a destination-passing output operand (older TTIR), and operands or results
that are not static tensors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ttopt.dialects.ttir import BROADCASTABLE, inputs, static_shape_of
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_after
from ttopt.ir.types import TensorType
from ttopt.ir.values import OpResult
from ttopt.lowering.ttir_canonicalize import TTIR_FOLDS
from ttopt.passes.base import Pass
from ttopt.passes.greedy import Erase, apply_greedily, dead_op_pattern
from ttopt.passes.patterns import Pattern, PatternSet, pattern_set
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

MAX_REWRITES = 1_000_000
# tt-metal's implicit broadcast reaches the last six dimensions.
IMPLICIT_RANK = 6


def implicit_shape(shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The implicit broadcast of `shapes` (numpy's rules, as MLIR's getBroadcastedShape), or None."""
    try:
        return tuple(int(d) for d in np.broadcast_shapes(*shapes))
    except ValueError:
        return None


def narrow_to_implicit_broadcast(user: Operation) -> list[Operation]:
    """When `user`'s operands broadcast to less than its result, it computes that shape and a
    `ttir.broadcast` after it restores the result (HEAD's addOutputBroadcastIfNeeded); the ops to
    revisit."""
    res = user.results[0]
    result = static_shape_of(res)
    implicit = implicit_shape([s for s in map(static_shape_of, inputs(user)) if s is not None])
    if result is None or implicit is None or implicit == result or len(implicit) != len(result):
        return []
    old = res.type
    t = old.resolve()
    assert isinstance(t, TensorType)  # `static_shape_of` found its static shape
    readers = res.users
    res.type = TensorType(implicit, t.element_type, t.encoding)
    dims = tuple(r if i != r else 1 for i, r in zip(implicit, result))
    bcast = Operation("ttir.broadcast", [res], [old], {"broadcast_dimensions": DenseArrayAttr("i64", dims)}, location=user.location)
    insert_after(user, bcast)
    res.replace_all_uses_with(bcast.results[0], except_in=bcast)
    return [bcast, *readers]


def implicit_broadcast_supported(bcast: Operation) -> bool:
    """tt-metal can broadcast `bcast`'s repeats implicitly: none in front of the last six dimensions."""
    dims = int_values(bcast.properties.get("broadcast_dimensions"))
    return dims is not None and all(d == 1 for d in dims[:-IMPLICIT_RANK])


def fold_operand_broadcasts(op: Operation) -> list[Operation] | None:
    """`op` reads its broadcast operands' inputs; a smaller result is broadcast after it."""
    if len(op.results) != 1 or len(inputs(op)) != len(op.operands) or static_shape_of(op.results[0]) is None:
        return None
    if any(static_shape_of(v) is None for v in op.operands):
        return None
    folded: dict[int, Operation] = {}
    for i, v in enumerate(op.operands):
        b = v.op if isinstance(v, OpResult) else None
        if b is not None and b.name == "ttir.broadcast" and implicit_broadcast_supported(b) and static_shape_of(b.operands[0]) is not None:
            folded[i] = b
    shapes = [static_shape_of(folded[i].operands[0] if i in folded else v) for i, v in enumerate(op.operands)]
    if implicit_shape([s for s in shapes if s is not None]) is None:
        return None  # the inputs do not broadcast together (only the broadcasts made them fit)
    for i, b in folded.items():
        op.set_operand(i, b.operands[0])
    touched = narrow_to_implicit_broadcast(op)
    if not folded and not touched:
        return None
    return [op, *touched, *folded.values()]


def patterns(erase: Erase) -> PatternSet:
    """The pass's set as the greedy driver runs it: dead ops, the fold, TTIR's folds."""
    return pattern_set(dead_op_pattern(erase), Pattern("ttir-implicit-broadcast-fold", fold_operand_broadcasts, BROADCASTABLE)) + TTIR_FOLDS


@register_pass
@dataclass
class TTIRImplicitBroadcastFold(Pass):
    """Fold explicit broadcasts into the elementwise ops that read them (tt-mlir's TTIRImplicitBroadcastFold)."""

    name = "ttir-implicit-broadcast-fold"
    summary = "Fold ttir.broadcast operands of elementwise ops into their implicit broadcast (a smaller result is broadcast after the op)"

    def run(self, module: Module, ctx: PassContext) -> None:
        fired = apply_greedily(module, patterns, MAX_REWRITES)
        ctx.stats.setdefault(self.name, {}).update(dict(fired))
        if ctx.trace.enabled and fired:
            ctx.trace.print(f"[bold]{self.name}[/bold]: " + ", ".join(f"{k} x{v}" for k, v in sorted(fired.items())))
