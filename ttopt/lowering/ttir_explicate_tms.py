"""`ttir-explicate-tms`: the implicit rank change and broadcast of an elementwise op's operands become
explicit `ttir.reshape` and `ttir.broadcast` ops (tt-mlir's TTIRExplicateTMs; the backend pipeline
runs it right before `ttir-erase-inverse-ops`, which can then move TMs through every binary and
ternary op operand by operand, and folds the broadcasts back into the ops afterwards).

For each op of HEAD's ElementwiseBinary and ElementwiseTernary interfaces (`where`):

* an operand of lower rank than the op's highest-ranked operand is reshaped to that rank, 1s in
  front (`tensor<64xf32>` beside a rank-3 operand becomes `tensor<1x1x64xf32>`); location suffix
  `_reshape`;
* then an operand of other dimensions than the operands' broadcast shape is broadcast to it
  (`broadcast_dimensions` the factor per dimension, 1 where it already matches); location
  suffix `_broadcast`.

Left alone: ops with a destination-passing output operand (older TTIR), operands that are not
ranked tensors of static shape, and operands that do not broadcast together (invalid IR the
verifier reports).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ttopt.dialects.ttir import ELEMENTWISE_BINARY, ELEMENTWISE_TERNARY, inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.location import suffixed_location
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.lowering.erase_inverse_ops.commute import i32_array, shape_of, with_shape
from ttopt.lowering.ttir_canonicalize import TTIR_FOLDS
from ttopt.passes.base import Pass
from ttopt.passes.greedy import Erase, apply_greedily, dead_op_pattern
from ttopt.passes.patterns import Pattern, PatternSet, pattern_set
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

OPS = ELEMENTWISE_BINARY | ELEMENTWISE_TERNARY
MAX_REWRITES = 1_000_000


def _shapes(op: Operation) -> list[tuple[int, ...]] | None:
    if len(inputs(op)) != len(op.operands):
        return None
    shapes = [shape_of(v) for v in op.operands]
    return None if any(s is None for s in shapes) else shapes  # type: ignore[return-value]


def explicate_rank_change(op: Operation) -> list[Operation] | None:
    """Operands of lower rank are reshaped to the highest operand rank, 1s in front."""
    shapes = _shapes(op)
    if not shapes:
        return None
    rank = max(len(s) for s in shapes)
    added: list[Operation] = []
    for i, (v, s) in enumerate(zip(op.operands, shapes)):
        if len(s) == rank:
            continue
        target = (1,) * (rank - len(s)) + s
        r = Operation("ttir.reshape", [v], [with_shape(v, target)], {"shape": i32_array(target)},
                      location=suffixed_location(op.location, "_reshape"))  # fmt: skip
        insert_before(op, r)
        op.set_operand(i, r.results[0])
        added.append(r)
    return [*added, op] if added else None


def explicate_broadcast(op: Operation) -> list[Operation] | None:
    """Operands of other dimensions than the operands' broadcast shape are broadcast to it."""
    shapes = _shapes(op)
    if not shapes or len({len(s) for s in shapes}) != 1:
        return None
    try:
        target = tuple(int(d) for d in np.broadcast_shapes(*shapes))
    except ValueError:
        return None
    added: list[Operation] = []
    for i, (v, s) in enumerate(zip(op.operands, shapes)):
        if s == target:
            continue
        dims = tuple(t if d == 1 and t != 1 else 1 for d, t in zip(s, target))
        b = Operation("ttir.broadcast", [v], [with_shape(v, target)], {"broadcast_dimensions": DenseArrayAttr("i64", dims)},
                      location=suffixed_location(op.location, "_broadcast"))  # fmt: skip
        insert_before(op, b)
        op.set_operand(i, b.results[0])
        added.append(b)
    return [*added, op] if added else None


def patterns(erase: Erase) -> PatternSet:
    """The pass's set as the greedy driver runs it: dead ops, the rank changes before the
    broadcasts (HEAD's benefits 2 and 1), TTIR's folds."""
    return pattern_set(dead_op_pattern(erase), Pattern("ttir-explicate-rank-change", explicate_rank_change, OPS),
                       Pattern("ttir-explicate-broadcast", explicate_broadcast, OPS)) + TTIR_FOLDS  # fmt: skip


@register_pass
@dataclass
class TTIRExplicateTMs(Pass):
    """Make the implicit rank changes and broadcasts of elementwise operands explicit reshapes and broadcasts (tt-mlir's TTIRExplicateTMs)."""

    name = "ttir-explicate-tms"
    summary = "Explicate the implicit broadcasts and rank changes of elementwise binary / ternary operands as ttir.reshape and ttir.broadcast"

    def run(self, module: Module, ctx: PassContext) -> None:
        fired = apply_greedily(module, patterns, MAX_REWRITES)
        ctx.stats.setdefault(self.name, {}).update(dict(fired))
        if ctx.trace.enabled and fired:
            ctx.trace.print(f"[bold]{self.name}[/bold]: " + ", ".join(f"{k} x{v}" for k, v in sorted(fired.items())))
