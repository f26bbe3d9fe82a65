"""StableHLO/chlo/sdy per-op verifiers: every property a sharding rule reads is required and
checked, valid JAX-shaped ops pass, and whatever passes the verifier never breaks a rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.dialects.stablehlo_verify import VERIFIERS
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.opdef import OP_DEFS
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.sharding.rules import rule_for
from ttopt.testing.examples import examples

# One valid generic-form op per verified op that takes properties: (operand types, properties, result type).
VALID = {
    "stablehlo.iota": ([], {"iota_dimension": "1 : i64"}, "tensor<4x8xf32>"),
    "stablehlo.transpose": (["tensor<4x8xf32>"], {"permutation": "array<i64: 1, 0>"}, "tensor<8x4xf32>"),
    "stablehlo.broadcast_in_dim": (["tensor<8xf32>"], {"broadcast_dimensions": "array<i64: 1>"}, "tensor<4x8xf32>"),
    "stablehlo.concatenate": (["tensor<4x8xf32>", "tensor<2x8xf32>"], {"dimension": "0 : i64"}, "tensor<6x8xf32>"),
    "stablehlo.slice": (["tensor<8x8xf32>"], {"start_indices": "array<i64: 0, 2>", "limit_indices": "array<i64: 8, 6>",
                                             "strides": "array<i64: 2, 1>"}, "tensor<4x4xf32>"),
    "stablehlo.dynamic_slice": (["tensor<8x8xf32>", "tensor<i32>", "tensor<i32>"], {"slice_sizes": "array<i64: 2, 8>"}, "tensor<2x8xf32>"),
    "stablehlo.pad": (["tensor<4xf32>", "tensor<f32>"], {"edge_padding_low": "array<i64: 1>", "edge_padding_high": "array<i64: 1>",
                                                         "interior_padding": "array<i64: 0>"}, "tensor<6xf32>"),
    "stablehlo.reverse": (["tensor<4x8xf32>"], {"dimensions": "array<i64: 1>"}, "tensor<4x8xf32>"),
    "stablehlo.get_dimension_size": (["tensor<4x8xf32>"], {"dimension": "1 : i64"}, "tensor<i32>"),
    "stablehlo.dot_general": (["tensor<2x4x8xf32>", "tensor<2x8x16xf32>"], {"dot_dimension_numbers":
        "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>"},
        "tensor<2x4x16xf32>"),
    "stablehlo.gather": (["tensor<8x4xf32>", "tensor<2x1xi32>"], {"dimension_numbers":
        "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>",
        "slice_sizes": "array<i64: 1, 4>"}, "tensor<2x4xf32>"),
    "stablehlo.convolution": (["tensor<1x8x8x4xf32>", "tensor<3x3x4x8xf32>"], {"dimension_numbers":
        "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>", "feature_group_count": "1 : i64",
        "batch_group_count": "1 : i64"}, "tensor<1x6x6x8xf32>"),
    "stablehlo.all_gather": (["tensor<4x8xf32>"], {"all_gather_dim": "0 : i64",
        "replica_groups": "dense<[[0, 1]]> : tensor<1x2xi64>"}, "tensor<8x8xf32>"),
    "stablehlo.compare": (["tensor<4xf32>", "tensor<4xf32>"], {"comparison_direction": "#stablehlo<comparison_direction GT>"}, "tensor<4xi1>"),
    "stablehlo.sort": (["tensor<4x8xf32>"], {"dimension": "-1 : i64"}, "tensor<4x8xf32>"),
}  # fmt: skip


def _module(name: str, operands: list[str], props: dict[str, str], result: str) -> str:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(operands))
    uses = ", ".join(f"%a{i}" for i in range(len(operands)))
    prop = "<{" + ", ".join(f"{k} = {v}" for k, v in props.items()) + "}> " if props else ""
    return (f"func.func @main({args}) -> {result} {{\n"
            f'  %0 = "{name}"({uses}) {prop}: ({", ".join(operands)}) -> {result}\n'
            f"  return %0 : {result}\n}}\n")


def _error(text: str) -> str | None:
    try:
        verify(parse_module(text))
    except Diagnostic as d:
        return d.message
    return None


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_op_passes_and_has_a_rule(name: str) -> None:
    text = _module(name, *VALID[name])
    assert _error(text) is None
    m = parse_module(text)
    op = next(o for o in m.walk() if o.name == name)
    rule_for(op, False)  # must not raise on verified IR


@pytest.mark.parametrize(("name", "prop"), [(n, p) for n in sorted(VALID) for p in VALID[n][1]
                                            if any(x.name == p and x.required for x in OP_DEFS[n].props)])
def test_missing_required_property_is_an_error_at_the_op(name: str, prop: str) -> None:
    operands, props, result = VALID[name]
    text = _module(name, operands, {k: v for k, v in props.items() if k != prop}, result)
    msg = _error(text)
    assert msg is not None and msg.startswith(f"'{name}' op requires attribute '{prop}'")


@pytest.mark.parametrize(("name", "prop"), [(n, p) for n in sorted(VALID) for p in VALID[n][1]])
def test_wrong_kind_property_is_an_error(name: str, prop: str) -> None:
    operands, props, result = VALID[name]
    text = _module(name, operands, {**props, prop: '"x"'}, result)
    msg = _error(text)
    assert msg is not None and f"attribute '{prop}' failed to satisfy constraint:" in msg


def test_misspelled_property_prints_text_that_parses_back() -> None:
    text = _module("stablehlo.iota", [], {"iota_dimensionx": "0 : i64"}, "tensor<4xf32>")
    m = parse_module(text)
    out = print_module(m)
    assert print_module(parse_module(out)) == out
    assert "iota_dimensionx" in out


@pytest.mark.parametrize(("a", "b"), [("tensor<4xf32>", "tensor<5xi32>"), ("tensor<4xf32>", "tensor<4xi32>"),
                                      ("tensor<4x2xf32>", "tensor<2x4xf32>")])
def test_elementwise_binary_operand_types_must_agree(a: str, b: str) -> None:
    msg = _error(_module("stablehlo.add", [a, b], {}, a))
    assert msg is not None and msg.startswith("'stablehlo.add' op requires")


def test_dynamic_dims_are_compatible() -> None:
    assert _error(_module("stablehlo.add", ["tensor<?x4xf32>", "tensor<8x4xf32>"], {}, "tensor<8x4xf32>")) is None


# Property: for any transpose / dot_general dims the verifier accepts, building the sharding rule
# works; for any it rejects, the message names the op (never an exception of another kind).
@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(-2, 4), min_size=0, max_size=4), st.lists(st.sampled_from([1, 2, 4]), min_size=0, max_size=4))
def test_transpose_verifier_guards_the_rule(perm: list[int], shape: list[int]) -> None:
    x = "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"
    out = [shape[p] if 0 <= p < len(shape) else 1 for p in perm]
    r = "tensor<" + "".join(f"{d}x" for d in out) + "f32>"
    perm_text = f"array<i64: {', '.join(map(str, perm))}>" if perm else "array<i64>"  # `array<i64: >` is not MLIR
    text = _module("stablehlo.transpose", [x], {"permutation": perm_text}, r)
    msg = _error(text)
    if msg is None:
        assert sorted(perm) == list(range(len(shape)))
        op = next(o for o in parse_module(text).walk() if o.name == "stablehlo.transpose")
        rule_for(op, False)
    else:
        assert msg.startswith("'stablehlo.transpose' op ")


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(-1, 3), max_size=2), st.lists(st.integers(-1, 3), max_size=2),
       st.lists(st.integers(-1, 3), max_size=2), st.lists(st.integers(-1, 3), max_size=2),
       st.lists(st.sampled_from([2, 4]), max_size=3), st.lists(st.sampled_from([2, 4]), max_size=3))
def test_dot_general_verifier_guards_the_rule(lb: list[int], rb: list[int], lc: list[int], rc: list[int],
                                              ls: list[int], rs: list[int]) -> None:
    def t(shape: list[int]) -> str:
        return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"

    free_l = [n for d, n in enumerate(ls) if d not in lb and d not in lc]
    free_r = [n for d, n in enumerate(rs) if d not in rb and d not in rc]
    out = [ls[d] if 0 <= d < len(ls) else 2 for d in lb] + free_l + free_r
    fields = ", ".join(f"{k} = [{', '.join(map(str, v))}]" for k, v in (
        ("lhs_batching_dimensions", lb), ("rhs_batching_dimensions", rb),
        ("lhs_contracting_dimensions", lc), ("rhs_contracting_dimensions", rc)) if v)
    text = _module("stablehlo.dot_general", [t(ls), t(rs)], {"dot_dimension_numbers": f"#stablehlo.dot<{fields}>"}, t(out))
    msg = _error(text)
    if msg is None:
        op = next(o for o in parse_module(text).walk() if o.name == "stablehlo.dot_general")
        rule_for(op, False)
    else:
        assert msg.startswith("'stablehlo.dot_general' op ")


def test_every_verified_op_is_registered() -> None:
    from ttopt.ir.opdef import OP_DEFS

    for name in VERIFIERS:
        assert OP_DEFS[name].verify is not None


def test_malformed_rule_is_refused_when_read() -> None:
    """Shardy's attribute parser refuses a rule that does not parse (at the offending token)."""
    with pytest.raises(Diagnostic, match=r"^expected '\('") as e:
        parse_module('"foo.bar"() {sdy.sharding_rule = #sdy.op_sharding_rule<garbage>} : () -> ()\n', "in.mlir")
    assert e.value.render().startswith("in.mlir:1:56: error:")


@pytest.mark.parametrize("body", ["([i, j, k])->([i])", "([i])->([i, j], [k])", "([i, j])->([i]) {i=8, j=4}"])
def test_custom_rule_on_an_unregistered_op_is_a_diagnostic(body: str) -> None:
    m = parse_module(
        "func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
        f'  %0 = "foo.bar"(%a) {{sdy.sharding_rule = #sdy.op_sharding_rule<{body}>}} : (tensor<8x4xf32>) -> tensor<8x4xf32>\n'
        "  return %0 : tensor<8x4xf32>\n}\n")
    op = next(o for o in m.walk() if o.name == "foo.bar")
    with pytest.raises(Diagnostic, match=r"^'foo.bar' op sdy.sharding_rule: "):
        rule_for(op, False)


# Sizes that do not multiply to the dimension are used too, as Shardy's verifier never compares
# them (its lit tests write {i=3} on a dimension of 8; testdata/sharding/custom_rule_factor_sizes.mlir).
@pytest.mark.parametrize("sizes", [(8, 4), (3, 4)])
def test_custom_rule_with_fitting_structure_is_used(sizes: tuple[int, int]) -> None:
    i, j = sizes
    m = parse_module(
        "func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
        f'  %0 = "foo.bar"(%a) {{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {{i={i}, j={j}}}>}} : (tensor<8x4xf32>) -> tensor<8x4xf32>\n'
        "  return %0 : tensor<8x4xf32>\n}\n")
    op = next(o for o in m.walk() if o.name == "foo.bar")
    rule = rule_for(op, False)
    assert rule is not None and rule.factor_sizes == sizes
