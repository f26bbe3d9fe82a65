"""`rule_for` finds pointwise rules by operand count and type identity, and the rules that read
only shapes and attributes by type and attribute identity: an op whose types or attributes are
replaced must get the rule of the new ones, and ops equal in them share one rule object."""

from __future__ import annotations

from ttopt.parse.parser import parse_module
from ttopt.sharding.rules import _identity_key, _identity_key_general, rule_for

_MODULE = """
func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) {
  %0 = stablehlo.add %a, %a : tensor<8x16xf32>
  %1 = stablehlo.add %a, %a : tensor<8x16xf32>
  %2 = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %3 = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return
}
"""


def _ops(name: str) -> list:
    m = parse_module(_MODULE)
    return [op for op in m.walk() if op.name == name]


def test_pointwise_ops_of_one_type_share_the_rule() -> None:
    first, second = _ops("stablehlo.add")
    assert rule_for(first, False) is rule_for(second, False)
    assert rule_for(first, False).print_body() == "([i, j], [i, j])->([i, j]) {i=8, j=16}"


def test_pointwise_rule_follows_a_new_type() -> None:
    op = _ops("stablehlo.add")[0]
    assert rule_for(op, False).factor_sizes == (8, 16)
    wide = parse_module(_MODULE.replace("8x16", "8x32")).functions()[0].regions[0].blocks[0].ops[0].results[0].type
    for v in (*op.operands, *op.results):
        v.type = wide
    assert rule_for(op, False).print_body() == "([i, j], [i, j])->([i, j]) {i=8, j=32}"


def test_attribute_rule_follows_a_new_attribute() -> None:
    first, second = _ops("stablehlo.transpose")
    assert rule_for(first, False) is rule_for(second, False)
    assert rule_for(first, False).print_body() == "([j, i])->([i, j]) {i=16, j=8}"
    # The same op read again after its permutation and result type change: a new rule, not the
    # one found by the old attribute's identity.
    other = parse_module(_MODULE.replace("dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>\n  return",
                                         "dims = [0, 1] : (tensor<8x16xf32>) -> tensor<8x16xf32>\n  return"))
    same = [op for op in other.walk() if op.name == "stablehlo.transpose"][1]
    second.properties["permutation"] = same.properties["permutation"]
    second.results[0].type = same.results[0].type
    assert rule_for(second, False).print_body() == "([i, j])->([i, j]) {i=8, j=16}"


def test_the_common_shapes_key_is_the_general_key() -> None:
    # `_identity_key` spells the key of one-result ops with one or two operands, no attributes and
    # at most two properties as one tuple display: it must be the key the general path builds.
    text = _MODULE.replace("  return", """  %4 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %5 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %6 = stablehlo.reduce_precision %a, format = e5m10 : tensor<8x16xf32>
  return""")
    ops = [op for op in parse_module(text).walk() if op.name.startswith("stablehlo.")]
    assert {len(op.properties) for op in ops} == {0, 1, 2}
    for op in ops:
        for conservative in (False, True):
            assert _identity_key(op, conservative) == _identity_key_general(op, conservative), op.name
