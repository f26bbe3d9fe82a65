"""The op sharding rule registry: op name -> rule function, filled by `@register(...)` entries in
the rule modules (rules.py, rules_collectives.py, rules_custom_call.py, rules_gather_conv.py), and the shape and
property readers those entries share. `rules.rule_for` is the lookup."""

from __future__ import annotations

from typing import Callable, Optional, TypeVar

from ttopt.dialects.sdy_rule import FactorType, OpShardingRule, RuleBuilder
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.values import Value

P, R, N, M = FactorType.PASS_THROUGH, FactorType.REDUCTION, FactorType.NEED_REPLICATION, FactorType.PERMUTATION

RuleFn = Callable[[Operation, bool], Optional[OpShardingRule]]
RULES: dict[str, RuleFn] = {}
F = TypeVar("F", bound=RuleFn)


def register(*names: str) -> Callable[[F], F]:
    """Decorator: `fn(op, conservative)` is the rule of every op in `names`."""

    def deco(fn: F) -> F:
        for n in names:
            RULES[n] = fn
        return fn

    return deco


def shape_of(v: Value) -> tuple[int, ...] | None:
    """A value's static shape, or None (no shape, or a dynamic dim)."""
    shape = getattr(v.type.resolve(), "shape", None)
    if shape is None or None in shape:
        return None
    return tuple(shape)


def static_shape(v: Value) -> tuple[int, ...]:
    """The shape of an operand or result of an op whose rule is being built: `rule_for` calls the
    rule functions only when every operand and result has a static shape."""
    shape = shape_of(v)
    assert shape is not None, "rule functions run only on ops of static shapes (rule_for checks)"
    return shape


def builder(op: Operation) -> RuleBuilder:
    """A RuleBuilder over the op's operand and result shapes."""
    return RuleBuilder([static_shape(v) for v in op.operands], [static_shape(r) for r in op.results])


def int_list(op: Operation, name: str) -> list[int]:
    """An integer-array property (the verifier has checked its kind); [] when absent."""
    return list(int_values(op.get_attr(name)) or ())


def int_attr(op: Operation, name: str, default: int = 0) -> int:
    """An integer property, or `default` when absent."""
    a = op.get_attr(name)
    return int(getattr(a.resolve(), "value", default)) if a is not None else default
