"""Typed StableHLO attributes (dimension numbers, enums) and structural attribute equality."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ttopt  # noqa: F401  (registers dialects)
from ttopt.dialects.stablehlo_attrs import (
    ComparisonDirection,
    ConvDimensionNumbers,
    DotDimensionNumbers,
    GatherDimensionNumbers,
    ScatterDimensionNumbers,
    StablehloEnumAttr,
)
from ttopt.ir.attributes import DialectAttr
from ttopt.ir.properties import props
from ttopt.parse.attr_body import AttrError
from ttopt.parse.attr_parser import AttrParser, AttrSyntaxError
from ttopt.parse.parser import parse_module


def attr(text: str) -> object:
    """One attribute parsed from its MLIR text."""
    return AttrParser(None).attribute(text)


def test_dot_fields_in_order_and_empty_ones_left_out() -> None:
    d = DotDimensionNumbers.parse("lhs_contracting_dimensions = [2],rhs_contracting_dimensions=[1]")
    assert d.lhs_batching_dimensions == () and d.lhs_contracting_dimensions == (2,)
    assert d.print_body() == "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]"


def test_gather_index_vector_dim_defaults_to_zero() -> None:
    # MLIR's StableHLO parser reads a missing index_vector_dim as 0 and prints 0 as nothing.
    g = GatherDimensionNumbers.parse("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]")
    assert g.index_vector_dim is None and g.vector_dim(2) == 0
    assert g.print_body() == "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]"
    g1 = GatherDimensionNumbers.parse("offset_dims = [1], start_index_map = [0], index_vector_dim = 1")
    assert g1.vector_dim(2) == 1


def test_scatter_fields() -> None:
    s = ScatterDimensionNumbers.parse(
        "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1"
    )
    assert (s.update_window_dims, s.inserted_window_dims, s.scatter_dims_to_operand_dims, s.index_vector_dim) == ((1,), (0,), (0,), 1)


def test_conv_layout_form_and_raw_form_are_one_value() -> None:
    pretty = ConvDimensionNumbers.parse("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]")
    raw = ConvDimensionNumbers.parse(
        "raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], "
        "kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], "
        "output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]"
    )
    assert pretty == raw
    assert pretty.input_spatial_dimensions == (1, 2) and pretty.kernel_input_feature_dimension == 2
    assert pretty.input_layout == ("b", "0", "1", "f") and pretty.kernel_layout == ("0", "1", "i", "o")
    assert raw.print_body() == "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"


def test_conv_spatial_order_follows_the_digits() -> None:
    d = ConvDimensionNumbers.parse("[b, f, 1, 0]x[o, i, 0, 1]->[b, 1, 0, f]")
    assert d.input_spatial_dimensions == (3, 2) and d.output_spatial_dimensions == (2, 1) and d.output_feature_dimension == 3


@pytest.mark.parametrize(
    ("cls", "body", "message"),
    [
        (DotDimensionNumbers, "lhs_batching = [0]", "#stablehlo.dot has no field 'lhs_batching'"),
        (DotDimensionNumbers, "lhs_contracting_dimensions = [1], lhs_contracting_dimensions = [1]", "given twice"),
        (DotDimensionNumbers, "lhs_contracting_dimensions = [1", "expected"),
        (GatherDimensionNumbers, "index_vector_dim = [1]", "expected an integer"),
        (ConvDimensionNumbers, "[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]", "input layout [b, 0, 0, f] must list b, f"),
        (ConvDimensionNumbers, "[b, 0, f]x[0, 1, i, o]->[b, 0, 1, f]", "as many spatial dims"),
        (ConvDimensionNumbers, "[b, 0, 1, f]x[0, 1, i, o]", "'->'"),
    ],
)
def test_malformed_bodies_are_attr_errors(cls: type, body: str, message: str) -> None:
    with pytest.raises(AttrError, match=None) as e:
        cls.parse(body)
    assert message in e.value.message


def test_enum_attributes() -> None:
    e = StablehloEnumAttr.parse("comparison_direction GT")
    assert e.member is ComparisonDirection.GT and e.print_body() == "comparison_direction GT"
    assert StablehloEnumAttr.parse("fft_type FFT").member is None  # kinds without a declared enum are kept
    with pytest.raises(AttrError, match="'GX' is not a comparison_direction"):
        StablehloEnumAttr.parse("comparison_direction GX")


def test_props_hand_out_the_typed_models() -> None:
    m = parse_module(
        """func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
""",
        "t.mlir",
    )
    dot = next(op for op in m.walk() if op.name == "stablehlo.dot_general")
    d = props(dot).dot_dimension_numbers
    assert isinstance(d, DotDimensionNumbers) and d.lhs_batching_dimensions == (0,) and d.rhs_contracting_dimensions == (1,)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1", "1 : i64"),
        ("{a = 1, b = 2}", "{b = 2, a = 1}"),
        ('#sdy.sharding<@mesh, [{"x"}, {}]>', '#sdy.sharding<@mesh,[{"x"},{}]>'),
        ("#stablehlo.conv<[b,0,1,f]x[0,1,i,o]->[b,0,1,f]>", "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"),
        ("#stablehlo.dot<lhs_contracting_dimensions = [1]>", "#stablehlo.dot<lhs_contracting_dimensions=[1]>"),
        ("[1, 2]", "[1 : i64, 2 : i64]"),
        ("1.0", "1.000000e+00 : f64"),
    ],
)
def test_equality_is_structural(a: str, b: str) -> None:
    x, y = attr(a), attr(b)
    assert x == y and hash(x) == hash(y)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1", "1 : i32"),
        ("{a = 1}", "{a = 2}"),
        ('#sdy.sharding<@mesh, [{"x"}, {}]>', '#sdy.sharding<@mesh, [{}, {"x"}]>'),
        ("#stablehlo.dot<lhs_contracting_dimensions = [1]>", "#stablehlo.dot<rhs_contracting_dimensions = [1]>"),
        ("1.0", "1.0 : f32"),
    ],
)
def test_different_values_stay_different(a: str, b: str) -> None:
    assert attr(a) != attr(b)


def test_printing_keeps_the_source_spelling() -> None:
    a = attr("#stablehlo.conv<[b,0,1,f]x[0,1,i,o]->[b,0,1,f]>")
    assert isinstance(a, DialectAttr) and a.text == "#stablehlo.conv<[b,0,1,f]x[0,1,i,o]->[b,0,1,f]>"


def test_malformed_dialect_body_compares_by_text() -> None:
    assert attr("#stablehlo.conv<nonsense>") == attr("#stablehlo.conv<nonsense>")
    assert attr("#stablehlo.conv<nonsense>") != attr("#stablehlo.conv<nonsense2>")


def test_a_struct_body_stablehlo_refuses_is_a_parse_error() -> None:
    with pytest.raises(AttrSyntaxError, match="expected one of: `lhs_batching_dimensions`"):
        attr("#stablehlo.dot<nonsense = [1]>")


@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(-5, 5), min_size=1), st.randoms(use_true_random=False))
def test_dictionary_equality_ignores_key_order(entries: dict[str, int], rnd: object) -> None:
    keys = list(entries)
    rnd.shuffle(keys)  # type: ignore[attr-defined]
    a = attr("{" + ", ".join(f"{k} = {v}" for k, v in entries.items()) + "}")
    b = attr("{" + ", ".join(f"{k} = {entries[k]} : i64" for k in keys) + "}")
    assert a == b and hash(a) == hash(b)


@pytest.mark.parametrize("model", [DotDimensionNumbers, GatherDimensionNumbers, ScatterDimensionNumbers])
def test_parse_time_struct_check_knows_the_typed_models_fields(model: type) -> None:
    """The check run when a module is read (no pydantic loaded) names the fields the typed model has."""
    from ttopt.dialects.stablehlo_struct_checks import DIMS, INT, STRUCTS

    kinds = {DIMS: "ints", INT: "int"}
    mnemonic = model.attr_name.removeprefix("stablehlo.")
    assert {k: kinds[v] for k, v in STRUCTS[mnemonic].items()} == model.FIELDS
