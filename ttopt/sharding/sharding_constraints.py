"""`apply-sharding-constraints` (Shardy `sdy-apply-sharding-constraints`, ref §2.5).

For each `sdy.sharding_constraint %x <S>`, and each operand %x of a `sdy.manual_computation`
with its in_sharding S, S is copied onto %x (its defining op's `sdy.sharding` or its argument
attribute) when %x has no sharding yet, S is fully closed, and no other constraint or manual
computation uses %x with a different sharding. On a data-flow edge (%x produced by an edge or a
target of one, such as a while's block argument) %x's users instead read the constraint, moved
right after %x (a new one for a manual computation), and only S's unreduced axes go onto %x's
sharding, since they do not propagate. Otherwise the constraint acts only through propagation.
A chain of constraints (`%y = constraint %x`, `%z = constraint %y`, links of one use, %x
unsharded and read by no other constraint) is first made the value that %x's later users in the
block read (Shardy's chain rule), so the chain's last sharding reaches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext


def _conflicting_user(x: Value, op: Operation, text: str) -> str | None:
    """Why another user of `x` forbids applying the constraint: a constraint or a manual
    computation operand with a different sharding (Shardy's isUsedByConstraintWithDifferentSharding)."""
    from ttopt.sharding.factors import get_sharding_attr

    for user in x.users:
        if user is op:
            continue
        if user.name == "sdy.sharding_constraint":
            other = get_sharding_attr(user.results[0])
            if other is None or other.op_text() != text:
                return "another constraint on the same value differs"
        elif user.name == "sdy.manual_computation":
            per = user.properties.get("in_shardings")
            ins = per.resolve().typed.shardings if per is not None else ()
            for i, v in enumerate(user.operands):
                if v is x and (i >= len(ins) or ins[i].op_text() != text):
                    return "a manual computation reads the value with another sharding"
    return None


def _edge_of_target(x: Value) -> Operation | None:
    """The `sdy.data_flow_edge` whose targets include `x` (Shardy's DataFlowEdgeOp::lookup): the
    edge reading `x`, or for a while's block argument the edge on the while's result of that
    position."""
    owner = x
    block = getattr(x, "block", None)
    parent = block.parent.parent if block is not None and block.parent is not None else None
    index = getattr(x, "index", -1)
    if getattr(x, "op", None) is None and parent is not None and parent.name == "stablehlo.while" and index < len(parent.results):
        owner = parent.results[index]
    return next((u for u in owner.users if u.name == "sdy.data_flow_edge"), None)


def _on_data_flow_edge(x: Value) -> bool:
    """`x` is an `sdy.data_flow_edge` result or a target of an edge."""
    producer = getattr(x, "op", None)
    return (producer is not None and producer.name == "sdy.data_flow_edge") or _edge_of_target(x) is not None


def _current_sharding(x: Value) -> Any:
    """The sharding of `x`, where a target of a data-flow edge has the edge's."""
    from ttopt.sharding.factors import get_sharding_attr

    edge = _edge_of_target(x)
    return get_sharding_attr(edge.results[0] if edge is not None else x)


def _keep_unreduced(x: Value, s: Any) -> None:
    """Unreduced axes do not propagate: a constraint applied through a data-flow edge puts them
    on the value's own sharding (the edge's), as Shardy does."""
    from ttopt.dialects.sdy_attrs import TensorShardingAttr
    from ttopt.sharding.factors import get_sharding_attr, set_sharding_attr

    edge = _edge_of_target(x)
    target = edge.results[0] if edge is not None else x
    cur = get_sharding_attr(target)
    if cur is None:
        cur = TensorShardingAttr.fully_replicated(s.mesh, len(s.dim_shardings), closed=False)
    new = cur.model_copy(update={"unreduced": s.unreduced, "unreduced_kind": s.unreduced_kind})
    set_sharding_attr(target, new)


def _constrain_uses(x: Value, op: Operation) -> None:
    """Move the constraint right after `x` and let every other user of `x` read it."""
    from ttopt.ir import rewriter

    producer = getattr(x, "op", None)
    if producer is not None:
        rewriter.move_after(op, producer)
    else:
        block = getattr(x, "block", None)  # a block argument
        if block is not None and block.ops and block.ops[0] is not op:
            rewriter.move_before(op, block.ops[0])
    for user in list(x.users):
        if user is op or user.name == "sdy.data_flow_edge":
            continue  # the edge itself keeps reading its owner
        for i, v in enumerate(user.operands):
            if v is x:
                user.set_operand(i, op.results[0])


_CONSTRAINING = ("sdy.sharding_constraint", "sdy.manual_computation")


def _chain_tail(head: Operation) -> Operation | None:
    """Shardy's getTailOfShardingConstraintChain: the last constraint of a chain of at least two
    starting at `head`, when `head` is the first, its input has no sharding and no other
    constraint or manual computation reads that input or the tail, and every link but the
    tail has one use."""
    from ttopt.sharding.factors import get_sharding_attr

    x = head.operands[0]
    producer = getattr(x, "op", None)
    if producer is not None and producer.name == "sdy.sharding_constraint":
        return None
    if get_sharding_attr(x) is not None or any(u is not head and u.name in _CONSTRAINING for u in x.users):
        return None
    tail = head
    while tail.results[0].has_one_use and tail.results[0].uses[0].name == "sdy.sharding_constraint":
        tail = tail.results[0].uses[0]
    if tail is head or any(u.name in _CONSTRAINING for u in tail.results[0].users):
        return None
    return tail


def _read_tail_after_chain(head: Operation, tail: Operation) -> None:
    """Users of the chain's input after the tail in its block (not a return) read the tail."""
    x = head.operands[0]
    block = tail.parent
    if block is None:
        return
    position = {id(o): i for i, o in enumerate(block.ops)}
    after = position[id(tail)]
    for user in list(x.users):
        if user is head or user.name == "func.return" or user.parent is not block or position[id(user)] < after:
            continue
        for i, v in enumerate(user.operands):
            if v is x:
                user.set_operand(i, tail.results[0])


@register_pass
@dataclass
class ApplyShardingConstraints(Pass):
    """Move closed sharding constraints onto the values they constrain."""

    name = "apply-sharding-constraints"
    summary = "Apply closed sdy.sharding_constraint shardings to their unsharded inputs"
    aliases = ("sdy-apply-sharding-constraints",)

    def run(self, module: Module, ctx: PassContext) -> None:
        applied = 0
        for op in list(module.walk()):
            if op.name == "sdy.sharding_constraint":
                tail = _chain_tail(op)
                if tail is not None:
                    _read_tail_after_chain(op, tail)
                applied += _apply(op, op.operands[0], _sharding(op), ctx, lambda x, op=op: _constrain_uses(x, op))
            elif op.name == "sdy.manual_computation":
                # Its in_shardings constrain its operands like sharding constraints; on a data-flow
                # edge a new constraint after the operand carries the sharding instead.
                per = op.properties.get("in_shardings")
                ins = per.resolve().typed.shardings if per is not None else ()
                for x, s in zip(list(op.operands), ins):
                    applied += _apply(op, x, s, ctx, lambda x, s=s, op=op: _new_constraint_after(x, s, op))
        ctx.stats.setdefault(self.name, {})["applied"] = applied


def _sharding(op: Operation) -> Any:
    from ttopt.sharding.factors import get_sharding_attr

    return get_sharding_attr(op.results[0])


def _new_constraint_after(x: Value, s: Any, user: Operation) -> None:
    """A new `sdy.sharding_constraint %x <s>` right after `x` that every user of `x` reads."""
    from ttopt.ir import rewriter

    producer = getattr(x, "op", None)
    c = rewriter.create("sdy.sharding_constraint", [x], [x.type], {"sharding": s.to_attr()}, location=user.location)
    if producer is not None:
        rewriter.insert_after(producer, c)
    else:
        block = getattr(x, "block", None)
        if block is None:
            return
        block.insert(0, c)
    x.replace_all_uses_with(c.results[0], except_in=c)


def _apply(op: Operation, x: Value, s: Any, ctx: PassContext, on_edge: Any) -> int:
    """Shardy's applyConstraint for the sharding `s` that `op` puts on `x`; 1 when applied."""
    from ttopt.sharding.factors import set_sharding_attr

    if s is None:
        return 0
    why = None
    if _current_sharding(x) is not None:
        why = "the input already has a sharding"
    elif not s.is_fully_closed:
        why = "the constraint is open"
    else:
        why = _conflicting_user(x, op, s.op_text())
    if why is None and _on_data_flow_edge(x):
        # Shardy: a value on a data-flow edge keeps its sharding free (it would restrict every
        # target of the edge); its users read the constraint instead.
        on_edge(x)
        if s.unreduced:
            _keep_unreduced(x, s)
    elif why is None:
        set_sharding_attr(x, s)
    if ctx.trace.enabled:
        from rich.markup import escape

        what = f"applied {s.op_text()}" if why is None else f"kept ({why})"
        ctx.trace.print(escape(f"{op.name} {s.op_text()}: {what}"))
    return 1 if why is None else 0
