"""`ttir-fold-full-to-scalar`: creation ops whose readers all broadcast implicitly shrink to one
element (tt-mlir's TTIRFoldFullToScalar; the backend pipeline runs it after `ttir-fusing`).

A `ttir.full`, `ttir.zeros` or `ttir.ones` of more than one element whose readers all have HEAD's
Broadcastable trait (the elementwise ops, `dialects/ttir.py` BROADCASTABLE) becomes the same op
of shape 1x...x1 (its rank, element type, fill value and discardable attributes kept): the device
materializes one element instead of the tensor, and each reader broadcasts it. When the creation
op carried a reader's shape (the reader's other operands broadcast to less than its result, as in
`add(tensor<1x32>, full<64x32>) -> tensor<64x32>`), the reader now computes the smaller shape and
a `ttir.broadcast` after it gives its readers the original one.

Left alone: a creation op of one element already (rank 0 included), one read by any op outside
that set (a `func.return`, a matmul, a reshape, ...), and one a reader of whose operands or result
is not a static tensor or whose operands do not broadcast to its result (IR HEAD's verifier
rejects; HEAD asserts there), and one with a destination-passing reader (older TTIR: a trailing
`ttir.empty` output, which HEAD's ops no longer take) that it carried the shape of, as the
reader's output operand could not shrink with it.

The pass runs as MLIR's greedy driver runs a pattern pass (ttopt/passes/greedy.py): dead pure ops
go and tt-mlir's TTIR op folds apply to every op, so an op of a shrunk splat and a constant of its
result's size folds, which `canonicalize` leaves alone while the splat is the larger operand
(HEAD's folders do not grow a constant to a splat's shape).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import BROADCASTABLE, inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import TensorType
from ttopt.lowering.mlir_floats import mlir_float_attr
from ttopt.lowering.ttir_canonicalize import TTIR_FOLDS
from ttopt.lowering.ttir_implicit_broadcast_fold import implicit_shape, narrow_to_implicit_broadcast
from ttopt.passes.base import Pass
from ttopt.passes.greedy import Erase, apply_greedily, dead_op_pattern
from ttopt.passes.patterns import Pattern, PatternSet, pattern_set
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.module import Module
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

CREATION = frozenset({"ttir.full", "ttir.zeros", "ttir.ones"})
# Rewrites and folds in one run, as canonicalize's default bound (a guard against rule cycles).
MAX_REWRITES = 1_000_000


def _shape(v: Value) -> tuple[int, ...] | None:
    """The dimensions of a ranked tensor of static shape, else None."""
    t = v.type.resolve()
    if not isinstance(t, TensorType) or t.shape is None:
        return None
    dims = [d for d in t.shape if isinstance(d, int) and d >= 0]
    return tuple(dims) if len(dims) == len(t.shape) else None


def _reaches(shape: tuple[int, ...], result: tuple[int, ...]) -> bool:
    """`shape` broadcasts to `result` by a `ttir.broadcast` (one rank, each dim equal or 1)."""
    return len(shape) == len(result) and all(s in (r, 1) for s, r in zip(shape, result))


def _reader_fits(user: Operation, shrunk: Value, ones: tuple[int, ...]) -> bool:
    """`user` broadcasts its inputs, all static, to its one static result, and still does with
    `shrunk` of shape `ones` (the rewrite can only narrow it); a destination-passing reader must
    keep its result's shape, as its output operand has that shape."""
    if user.name not in BROADCASTABLE or len(user.results) != 1:
        return False
    ins = inputs(user)
    result = _shape(user.results[0])
    shapes = [s for s in map(_shape, ins) if s is not None]
    if result is None or len(shapes) != len(ins):
        return False
    before = implicit_shape(shapes)
    after = implicit_shape([ones if v is shrunk else s for v, s in zip(ins, shapes)])
    if len(ins) < len(user.operands) and after != result:
        return False
    return before == result and after is not None and _reaches(after, result)


def fold_to_scalar(op: Operation, erase: Erase = Operation.erase) -> list[Operation] | None:
    """A creation op of more than one element read only by ops that broadcast implicitly becomes
    the one-element op of its kind; readers it carried the shape of are narrowed and broadcast."""
    if len(op.results) != 1 or op.operands:
        return None
    res = op.results[0]
    t = res.type.resolve()
    shape = _shape(res)
    if shape is None or prod(shape) == 1 or not isinstance(t, TensorType):
        return None
    users = res.users
    ones = (1,) * len(shape)
    if not users or not all(_reader_fits(u, res, ones) for u in users):
        return None
    props: dict[str, Attribute] = {"shape": DenseArrayAttr("i32", ones)}
    if op.name == "ttir.full":
        fill = op.properties.get("fill_value")
        if fill is None:
            return None
        props["fill_value"] = mlir_float_attr(fill)  # a built op's attribute reads as MLIR prints it
    scalar = Operation(op.name, [], [TensorType(ones, t.element_type)], props, dict(op.attributes), location=op.location)
    insert_before(op, scalar)
    res.replace_all_uses_with(scalar.results[0])
    erase(op)
    touched: list[Operation] = [scalar, *users]
    for user in users:
        touched += narrow_to_implicit_broadcast(user)
    return touched


def patterns(erase: Erase) -> PatternSet:
    """The pass's set as the greedy driver runs it: dead ops first, the shrink (of creation ops), TTIR's folds."""
    shrink = Pattern("ttir-fold-full-to-scalar", lambda op: fold_to_scalar(op, erase), CREATION)
    return pattern_set(dead_op_pattern(erase), shrink) + TTIR_FOLDS


@register_pass
@dataclass
class TTIRFoldFullToScalar(Pass):
    """Shrink full / zeros / ones read only by implicitly broadcasting ops to one element (tt-mlir's TTIRFoldFullToScalar)."""

    name = "ttir-fold-full-to-scalar"
    summary = "Shrink ttir.full / zeros / ones whose readers all broadcast implicitly (elementwise ops) to one element; a reader whose shape it carried gets a ttir.broadcast"

    def run(self, module: Module, ctx: PassContext) -> None:
        fired = apply_greedily(module, patterns, MAX_REWRITES)
        ctx.stats.setdefault(self.name, {}).update(dict(fired))
        if ctx.trace.enabled and fired:
            ctx.trace.print(f"[bold]{self.name}[/bold]: " + ", ".join(f"{k} x{v}" for k, v in sorted(fired.items())))
