"""Op sharding rules: one test per rule family, plus every rule jaxlib's Shardy gives the
testdata/jax corpus (testdata/shardy/rules/, checked without jax)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from ttopt.dialects.sdy_rule import FactorType, OpShardingRule, factor_name, parse_rule
from ttopt.parse.parser import parse_module
from ttopt.sharding.rules import EXTENSIONS, rule_for

ROOT = Path(__file__).resolve().parents[2]


def _rule(body: str, conservative: bool = False) -> str | None:
    """Rule text of the first non-return op of `func.func @main(...) { body }`."""
    m = parse_module(body)
    for op in m.walk():
        if op.name not in ("builtin.module", "func.func", "func.return") and op.parent_op.name == "func.func":
            r = rule_for(op, conservative)
            return r.print_body() if r else None
    raise AssertionError("no op")


def _f(sig: str, line: str) -> str:
    return f"func.func @main({sig}) {{\n  {line}\n  return\n}}\n"


@pytest.mark.parametrize(
    ("sig", "line", "want"),
    [
        # dot_general: batch, lhs free, rhs free, contracting (reduction).
        ("%a: tensor<8x32xf32>, %b: tensor<32x16xf32>",
         "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>",
         "([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}"),
        ("%a: tensor<2x8x32xf32>, %b: tensor<2x32x16xf32>",
         "%0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x8x32xf32>, tensor<2x32x16xf32>) -> tensor<2x8x16xf32>",
         "([i, j, l], [i, l, k])->([i, j, k]) {i=2, j=8, k=16, l=32} reduction={l}"),
        # reshape factoring.
        ("%a: tensor<2x4xf32>", "%0 = stablehlo.reshape %a : (tensor<2x4xf32>) -> tensor<8xf32>",
         "([i, j])->([ij]) {i=2, j=4}"),
        ("%a: tensor<8x4xf32>", "%0 = stablehlo.reshape %a : (tensor<8x4xf32>) -> tensor<2x16xf32>",
         "([ij, k])->([i, jk]) {i=2, j=4, k=4}"),
        ("%a: tensor<1x8xf32>", "%0 = stablehlo.reshape %a : (tensor<1x8xf32>) -> tensor<8x1xf32>",
         "([i, j])->([j, k]) {i=1, j=8, k=1}"),
        # broadcast with size-1 dims: dims=[0,2,3] 2x13x1 -> 2x64x13x1.
        ("%a: tensor<2x13x1xf32>",
         "%0 = stablehlo.broadcast_in_dim %a, dims = [0, 2, 3] : (tensor<2x13x1xf32>) -> tensor<2x64x13x1xf32>",
         "([i, k, l])->([i, j, k, l]) {i=2, j=64, k=13, l=1}"),
        ("%a: tensor<1x128xf32>",
         "%0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<16x128xf32>",
         "([i, k])->([j, k]) {i=1, j=16, k=128}"),
        # pointwise family, scalar predicate.
        ("%a: tensor<4x8xf32>, %b: tensor<4x8xf32>", "%0 = stablehlo.add %a, %b : tensor<4x8xf32>",
         "([i, j], [i, j])->([i, j]) {i=4, j=8}"),
        ("%p: tensor<i1>, %a: tensor<4xf32>", "%0 = stablehlo.select %p, %a, %a : tensor<i1>, tensor<4xf32>",
         "([], [i], [i])->([i]) {i=4}"),
        # transpose: factor per output dim.
        ("%a: tensor<2x3x4xf32>", "%0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>",
         "([j, k, i])->([i, j, k]) {i=4, j=2, k=3}"),
        # reduce: reduced dims are reduction factors.
        ("%a: tensor<4x8xf32>, %c: tensor<f32>",
         "%0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>",
         "([i, j], [])->([i]) {i=4, j=8} reduction={j}"),
        # slice / pad: changed dims are permutation.
        ("%a: tensor<16x8xf32>", "%0 = stablehlo.slice %a [0:4, 0:8] : (tensor<16x8xf32>) -> tensor<4x8xf32>",
         "([i, j])->([i, j]) {i=16, j=8} permutation={i}"),
        # concatenate: need replication on the concat dim.
        ("%a: tensor<4x2xf32>, %b: tensor<4x3xf32>",
         "%0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x5xf32>",
         "([i, j], [i, j])->([i, j]) {i=4, j=5} need_replication={j}"),
        # dynamic_slice: need replication + blocked.
        ("%a: tensor<16x8xf32>, %i: tensor<i32>",
         "%0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [2, 8] : (tensor<16x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x8xf32>",
         "([i, j], [], [])->([i, j]) {i=16, j=8} need_replication={i} blocked_propagation={i}"),
        # ops without a rule.
        ("", "%0 = stablehlo.iota dim = 0 : tensor<4xi32>", None),
        ("", "%0 = stablehlo.constant dense<1.0> : tensor<4xf32>", None),
    ],
)
def test_rule_families(sig: str, line: str, want: str | None) -> None:
    assert _rule(_f(sig, line)) == want


@pytest.mark.parametrize(
    ("sig", "line", "want"),
    [
        # chlo (ttopt extension; jaxlib's Shardy has no chlo rules): elementwise like StableHLO.
        ("%a: tensor<4x16x64xf32>", "%0 = chlo.square %a : tensor<4x16x64xf32> -> tensor<4x16x64xf32>",
         "([i, j, k])->([i, j, k]) {i=4, j=16, k=64}"),
        ("%a: tensor<4x4xf32>", "%0 = chlo.erf %a : tensor<4x4xf32> -> tensor<4x4xf32>", "([i, j])->([i, j]) {i=4, j=4}"),
        ("%a: tensor<4x4xf32>, %b: tensor<4x4xf32>",
         "%0 = chlo.next_after %a, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>",
         "([i, j], [i, j])->([i, j]) {i=4, j=4}"),
        # implicit broadcasting: minor-aligned, a broadcast size-1 dim gets its own factor.
        ("%a: tensor<4x8xf32>, %b: tensor<1x8xf32>",
         '%0 = "chlo.broadcast_add"(%a, %b) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>',
         "([j, k], [i, k])->([j, k]) {i=1, j=4, k=8}"),
        ("%a: tensor<4x8xf32>, %b: tensor<8xf32>",
         '%0 = "chlo.broadcast_multiply"(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>',
         "([i, j], [j])->([i, j]) {i=4, j=8}"),
        # top_k: batch dims pass through, the last dim needs replication.
        ("%a: tensor<4x10xf32>",
         "%values, %indices = chlo.top_k(%a, k = 3) : tensor<4x10xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)",
         "([i, j])->([i, k], [i, k]) {i=4, j=10, k=3} need_replication={j, k}"),
    ],
)
def test_chlo_rules(sig: str, line: str, want: str) -> None:
    assert _rule(_f(sig, line)) == want
    assert _rule(_f(sig, line), conservative=True) == want


def test_conservative_variants() -> None:
    cat = _f(
        "%a: tensor<4x2xf32>, %b: tensor<4x3xf32>",
        "%0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x5xf32>",
    )
    assert _rule(cat, conservative=True) == "([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}"
    sl = _f("%a: tensor<16x8xf32>", "%0 = stablehlo.slice %a [0:4, 0:8] : (tensor<16x8xf32>) -> tensor<4x8xf32>")
    assert _rule(sl, conservative=True).endswith("permutation={i} blocked_propagation={i}")


def test_factor_names_and_types() -> None:
    assert [factor_name(i) for i in (0, 17, 18, 19)] == ["i", "z", "z_1", "z_2"]
    r = parse_rule("([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}")
    assert r.factor_type(2) is FactorType.REDUCTION and r.factor_type(0) is FactorType.PASS_THROUGH
    assert r.tensors_with_factor(2) == [0, 1]
    custom = parse_rule("([i, j])->([k, l], []) {i=4, j=4, k=4, l=4}, custom")
    assert custom.is_custom and custom.print_body() == "([i, j])->([k, l], []) {i=4, j=4, k=4, l=4}, custom"


def _load(name: str) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for line in (ROOT / "testdata/shardy/rules" / name).read_text().splitlines():
        f, op, rule = line.split(" ", 2)
        out[f].append((op, rule))
    return out


@pytest.mark.parametrize(("name", "conservative"), [("oracle_rules.txt", False), ("oracle_rules_conservative.txt", True)])
def test_rules_match_jaxlib_shardy(name: str, conservative: bool) -> None:
    """Every rule jaxlib's `sdy-populate-op-sharding-rules` gives the corpus, op by op."""
    ref = _load(name)
    total = 0
    mismatches = []
    for f, items in ref.items():
        m = parse_module((ROOT / "testdata/jax" / f).read_text())
        mine = []
        for op in m.walk():
            if op.name == "func.func" or op.name in EXTENSIONS:  # ttopt's own rules (chlo): jaxlib has none
                continue
            r = rule_for(op, conservative)
            if r is not None:
                mine.append((op.name, r.text))
        total += len(items)
        if mine != items:
            mismatches.append((f, [x for x in mine if x not in items][:3], [x for x in items if x not in mine][:3]))
    assert total > 1000
    assert not mismatches, mismatches


def test_populate_pass_text() -> None:
    from ttopt.ir.printer import print_module
    from ttopt.passes.context import PassContext
    from ttopt.sharding.populate_rules import PopulateOpShardingRules

    m = parse_module(_f("%a: tensor<2x4xf32>", "%0 = stablehlo.reshape %a : (tensor<2x4xf32>) -> tensor<8xf32>"))
    PopulateOpShardingRules().run(m, PassContext())
    assert "{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>}" in print_module(m)


def test_rule_object_is_data() -> None:
    r = OpShardingRule((4,), (((0,),),), (((0,),),))
    assert r.text == "#sdy.op_sharding_rule<([i])->([i]) {i=4}>"


def test_pointwise_family_and_what_rules_read() -> None:
    # select's rule is the pointwise rule of its types (a scalar predicate maps to nothing), read
    # like the pointwise ops' by the identity of the types; a constant has no table rule.
    from ttopt.sharding.rules import has_table_rule, rule_is_pointwise, rule_reads_only_the_op

    assert rule_is_pointwise("stablehlo.add") and rule_is_pointwise("stablehlo.select")
    assert not rule_is_pointwise("stablehlo.reduce") and not rule_is_pointwise("stablehlo.constant")
    assert rule_reads_only_the_op("stablehlo.select") and rule_reads_only_the_op("stablehlo.constant")
    assert not has_table_rule("stablehlo.constant") and has_table_rule("stablehlo.select")
    scalar = _rule(_f("%p: tensor<i1>, %a: tensor<4x8xf32>, %b: tensor<4x8xf32>",
                      "%0 = stablehlo.select %p, %a, %b : tensor<i1>, tensor<4x8xf32>"))  # fmt: skip
    assert scalar == "([], [i, j], [i, j])->([i, j]) {i=4, j=8}"
    full = _rule(_f("%p: tensor<4x8xi1>, %a: tensor<4x8xf32>, %b: tensor<4x8xf32>",
                    "%0 = stablehlo.select %p, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>"))  # fmt: skip
    assert full == "([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}"
