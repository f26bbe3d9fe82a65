"""Op-keyed tables name registered ops, and every registered op of a dialect is either covered or
listed as deliberately uncovered (so a new op cannot silently miss its rule or family)."""

from __future__ import annotations

from ttopt.device.op_families import NOT_MODELLED, OP_FAMILIES
from ttopt.ir.opdef import OP_DEFS
from ttopt.sharding.rules import NO_RULE, RULES


def _registered(*prefixes: str) -> set[str]:
    return {n for n in OP_DEFS if n.startswith(prefixes)}


def test_every_table_key_is_a_registered_op() -> None:
    for table in (OP_FAMILIES, RULES, NOT_MODELLED, NO_RULE):
        assert not set(table) - set(OP_DEFS), sorted(set(table) - set(OP_DEFS))


def test_every_ttnn_op_has_a_family_or_is_listed_as_not_modelled() -> None:
    ops = _registered("ttnn.")
    assert not ops - set(OP_FAMILIES) - NOT_MODELLED, sorted(ops - set(OP_FAMILIES) - NOT_MODELLED)
    assert not NOT_MODELLED & set(OP_FAMILIES), sorted(NOT_MODELLED & set(OP_FAMILIES))


def test_every_stablehlo_op_has_a_sharding_rule_or_is_listed_without_one() -> None:
    ops = _registered("stablehlo.", "chlo.")
    assert not ops - set(RULES) - NO_RULE, sorted(ops - set(RULES) - NO_RULE)
    assert not NO_RULE & set(RULES), sorted(NO_RULE & set(RULES))
