"""How `ttir-erase-inverse-ops` moves a layout change (a `ttir.permute` or `ttir.reshape`, a "TM")
through an op: tt-mlir's TTIRCommuteRewritePatternBase, as data.

A `Commute` names the TM kind, the ops it moves through and the direction, and three functions:
whether the move is possible (`viable`), whether it pays (`favorable`) and the rewrite
(`perform`). `commute_pattern` turns one into a pattern the greedy driver runs, matching as
HEAD's base class does:

* **upwards**, the op's first user that is a TM of the kind (a reshape that reduces a rank-6+
  tensor is skipped: such reshapes rarely have an inverse) and for which the move is viable and
  favorable is moved above the op;
* **downwards**, the op's first operand that is the result of a TM of the kind, read by nothing
  else, not on a const-eval path (its whole def chain starts at parameter / constant arguments:
  `ConstevalAnalysis`; const-eval will compute it once anyway) and viable and favorable, is moved
  below the op.

The pass alternates the two directions (HEAD's EraseInverseOps), so a TM that meets its inverse
on the way folds away with it (`fold_permute` / `fold_reshape` compose them into an identity).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Callable

from ttopt.dialects.ttir import static_shape_of as shape_of
from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType, TensorType
from ttopt.ir.values import OpResult
from ttopt.passes.patterns import Pattern
from ttopt.sharding.func_attrs import argument_kinds

if TYPE_CHECKING:
    from ttopt.ir.location import Location
    from ttopt.ir.values import Value

PERMUTE = "ttir.permute"
RESHAPE = "ttir.reshape"
CONST_ARG_KINDS = ("parameter", "constant")
# Ops a downward-moving TM may meet as another operand and still pay: their value is known.
CONSTANT_LIKE = frozenset({"ttir.constant", "ttir.full", "ttir.zeros", "ttir.ones"})


class Direction(Enum):
    """Which way a TM moves through an op."""

    UPWARDS = "upwards"
    DOWNWARDS = "downwards"


# Bits of what a value's def chain starts at.
_CONST = 1
_NON_CONST = 2


class ConstevalAnalysis:
    """Whether a value's def chain reaches a parameter / constant argument of its function and no
    other block argument (tt-mlir's ConstevalForwardAnalysis): the values const-eval computes.

    Each value is computed once from its operands and kept: the rewrites of this pass keep every
    value's meaning, so what its chain starts at does not change; values they create are computed
    when first asked. An op without operands (a constant) reaches nothing, so it alone is not a
    const-eval value, as in HEAD.
    """

    def __init__(self, func: Operation) -> None:
        # id -> (value, bits): the value is kept so that its id is not reused while cached.
        self._bits: dict[int, tuple[Value, int]] = {}
        if func.regions and func.regions[0].blocks:
            kinds = argument_kinds(func)
            for i, arg in enumerate(func.regions[0].blocks[0].args):
                const = i < len(kinds) and kinds[i] in CONST_ARG_KINDS
                self._bits[id(arg)] = (arg, _CONST if const else _NON_CONST)

    def _of(self, v: Value) -> int:
        hit = self._bits.get(id(v))
        if hit is not None:
            return hit[1]
        stack = [v]
        while stack:
            x = stack[-1]
            if id(x) in self._bits:
                stack.pop()
                continue
            if not isinstance(x, OpResult):  # a block argument of a nested region
                self._bits[id(x)] = (x, _NON_CONST)
                stack.pop()
                continue
            pending = [o for o in x.op.operands if id(o) not in self._bits]
            if pending:
                stack.extend(pending)
                continue
            bits = 0
            for o in x.op.operands:
                bits |= self._bits[id(o)][1]
            for r in x.op.results:
                self._bits[id(r)] = (r, bits)
            stack.pop()
        return self._bits[id(v)][1]

    def traces_to_constant_args(self, v: Value) -> bool:
        """`v` is computed from parameter / constant arguments only (at least one)."""
        return self._of(v) == _CONST


def with_shape(v: Value, shape: tuple[int, ...]) -> TensorType:
    """`v`'s tensor type (element type and encoding) with `shape`."""
    t = v.type.resolve()
    assert isinstance(t, TensorType)
    return TensorType(shape, t.element_type, t.encoding)


def permutation(tm: Operation) -> tuple[int, ...] | None:
    """A `ttir.permute`'s order."""
    order = int_values(tm.properties.get("permutation"))
    return tuple(order) if order is not None else None


def reshape_shape(tm: Operation) -> tuple[int, ...] | None:
    """A `ttir.reshape`'s target shape."""
    shape = int_values(tm.properties.get("shape"))
    return tuple(shape) if shape is not None else None


def inverse_permutation(order: tuple[int, ...]) -> tuple[int, ...]:
    """The order that undoes `order`."""
    inv = [0] * len(order)
    for i, p in enumerate(order):
        inv[p] = i
    return tuple(inv)


def apply_permutation(shape: tuple[int, ...], order: tuple[int, ...]) -> tuple[int, ...]:
    """`shape` permuted by `order` (result dim i is input dim order[i])."""
    return tuple(shape[p] for p in order)


def is_high_rank_reduction_reshape(tm: Operation) -> bool:
    """A reshape of a rank-6+ tensor to a lower rank: such reshapes rarely have an inverse, and
    moving them around costs (HEAD's isHighRankReductionReshape)."""
    if tm.name != RESHAPE:
        return False
    src = shape_of(tm.operands[0])
    shape = reshape_shape(tm)
    return src is not None and shape is not None and len(src) >= 6 and len(shape) < len(src)


def identical_tms(a: Operation | None, b: Operation | None) -> bool:
    """Two permutes of one order, or two reshapes to one shape (HEAD's checkIdenticalTms)."""
    if a is None or b is None or a.name != b.name:
        return False
    if a.name == PERMUTE:
        return permutation(a) == permutation(b)
    if a.name == RESHAPE:
        return reshape_shape(a) == reshape_shape(b)
    return False


def users(op: Operation) -> list[Operation]:
    """The distinct readers of all of `op`'s results, in first-use order."""
    seen: dict[int, Operation] = {}
    for r in op.results:
        for u in r.uses:
            seen.setdefault(id(u), u)
    return list(seen.values())


def all_users_identical_tms(op: Operation) -> bool:
    """`op` has readers and they are all the same TM (HEAD's checkAllUsersAreIdenticalTms)."""
    us = users(op)
    return bool(us) and all(identical_tms(us[0], u) for u in us)


def defining_op(v: Value) -> Operation | None:
    """The op whose result `v` is, None for a block argument."""
    return v.op if isinstance(v, OpResult) else None


def tm_properties(tm: Operation, shape: tuple[int, ...] | None = None) -> dict:
    """A copy of `tm`'s properties; for a reshape given `shape`, that target shape."""
    props = dict(tm.properties)
    if shape is not None and tm.name == RESHAPE:
        props["shape"] = i32_array(shape)
    return props


def i32_array(values: tuple[int, ...]) -> ArrayAttr:
    """`[1 : i32, ...]`, a reshape's shape attribute."""
    return ArrayAttr(tuple(IntegerAttr(v, ScalarType("i32")) for v in values))


def new_tm(kind: str, value: Value, result_shape: tuple[int, ...], *, order: tuple[int, ...] | None = None,
           like: Operation | None = None, location: Location | None = None, before: Operation) -> Operation:
    """A permute (by `order`, or `like`'s) or reshape (to `result_shape`) of `value`, with `like`'s
    discardable attributes, built before `before`."""
    if kind == PERMUTE:
        if order is None:
            assert like is not None
            order = permutation(like)
        props = dict(like.properties) if like is not None else {}
        props["permutation"] = DenseArrayAttr("i64", tuple(order or ()))
    else:
        props = dict(like.properties) if like is not None else {}
        props["shape"] = i32_array(result_shape)
    attrs = dict(like.attributes) if like is not None else {}
    op = Operation(kind, [value], [with_shape(value, result_shape)], props, attrs, location=location)
    return insert_before(before, op)


def inverse_tm(tm: Operation, value: Value, *, before: Operation) -> Operation:
    """The TM undoing `tm`, applied to `value` (HEAD's getInverseTM): the inverse order of a
    permute, or a reshape back to `tm`'s input shape."""
    shape = shape_of(value)
    assert shape is not None
    if tm.name == PERMUTE:
        order = permutation(tm)
        assert order is not None
        inv = inverse_permutation(order)
        return new_tm(PERMUTE, value, apply_permutation(shape, inv), order=inv, location=tm.location, before=before)
    target = shape_of(tm.operands[0])
    assert target is not None
    return new_tm(RESHAPE, value, target, location=tm.location, before=before)


def tm_result_shape(tm: Operation, shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """The shape `tm`'s change gives an operand of `shape` (a permute's order applied; a reshape's
    target, only for an operand of the shape `tm` reads), None when it cannot apply."""
    if tm.name == PERMUTE:
        order = permutation(tm)
        return apply_permutation(shape, order) if order is not None and len(order) == len(shape) else None
    target = reshape_shape(tm)
    return target if target is not None and shape == shape_of(tm.operands[0]) else None


def replace_results(op: Operation, values: list[Value]) -> list[Operation]:
    """Each result of `op` read through `values` instead; the readers (to revisit) and `op`, now
    unread (the driver erases it)."""
    touched: list[Operation] = []
    for r, v in zip(op.results, values):
        touched += r.users
        r.replace_all_uses_with(v)
    return [*touched, op]


Viable = Callable[[Operation, Operation], bool]
Favorable = Callable[[Operation, Operation, ConstevalAnalysis], bool]
Perform = Callable[[Operation, Operation], list[Operation]]


@dataclass(frozen=True)
class Commute:
    """A TM kind moving through some ops in one direction."""

    name: str
    tm: str
    ops: frozenset[str]
    direction: Direction
    viable: Viable
    favorable: Favorable
    perform: Perform


def _commute_up(c: Commute, op: Operation, analysis: ConstevalAnalysis) -> list[Operation] | None:
    for user in users(op):
        if user.name != c.tm or is_high_rank_reduction_reshape(user):
            continue
        if c.viable(op, user) and c.favorable(op, user, analysis):
            return c.perform(op, user)
    return None


def _commute_down(c: Commute, op: Operation, analysis: ConstevalAnalysis) -> list[Operation] | None:
    for operand in op.operands:
        if analysis.traces_to_constant_args(operand):
            continue
        tm = defining_op(operand)
        if tm is None or tm.name != c.tm or is_high_rank_reduction_reshape(tm):
            continue
        if len(users(tm)) > 1:
            continue
        if c.viable(op, tm) and c.favorable(op, tm, analysis):
            return c.perform(op, tm)
    return None


def commute_pattern(c: Commute, analysis: ConstevalAnalysis) -> Pattern:
    """`c` as a pattern of the greedy driver."""
    move = _commute_up if c.direction is Direction.UPWARDS else _commute_down

    def rewrite(op: Operation) -> list[Operation] | None:
        if not any(r.uses for r in op.results):
            return None
        return move(c, op, analysis)

    return Pattern(f"{c.name}-{c.direction.value}", rewrite, c.ops)



def replace_readers(op: Operation, value: Value) -> list[Operation]:
    """Every reader of `op` (all the same TM, moved above it) replaced by `value`; `op` and the
    readers, now unread (the driver erases them, readers first), and the readers' readers."""
    touched: list[Operation] = [op]
    for reader in users(op):
        touched += replace_results(reader, [value])
    return touched


def readers_used(op: Operation) -> bool:
    """Every reader of `op` is read: a reader an earlier rewrite replaced waits for the driver to
    erase it (MLIR's rewriter erases it at once), and moving it again would only build dead ops."""
    return all(any(r.uses for r in u.results) for u in users(op))
