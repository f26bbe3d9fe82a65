"""Declared op properties: verifier errors at the op, promotion from the attribute dictionary,
and the typed view passes read."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.opdef import OP_DEFS
from ttopt.ir.printer import print_module
from ttopt.ir.properties import KINDS, props
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module


def _op(body: str, ty: str = "(tensor<4x8xf32>) -> tensor<8x4xf32>") -> str:
    args = ty.split(")")[0][1:]
    res = ty.split("-> ")[1]
    return f'func.func @f(%a: {args}) -> {res} {{\n  %0 = {body} : {ty}\n  return %0 : {res}\n}}\n' if args else (
        f'func.func @f() -> {res} {{\n  %0 = {body} : {ty}\n  return %0 : {res}\n}}\n'
    )


@pytest.mark.parametrize(
    "body,ty,message",
    [
        ('"stablehlo.iota"() <{iota_dimenson = 0 : i64}>', "() -> tensor<4xi32>", "'stablehlo.iota' op requires attribute 'iota_dimension'"),
        ('"stablehlo.transpose"(%a)', "(tensor<4x8xf32>) -> tensor<8x4xf32>", "'stablehlo.transpose' op requires attribute 'permutation'"),
        ('"stablehlo.transpose"(%a) <{permutation = 1 : i64}>', "(tensor<4x8xf32>) -> tensor<8x4xf32>",
         "'stablehlo.transpose' op attribute 'permutation' failed to satisfy constraint: an integer array (array<i64: ...>), got 1 : i64"),
        ('"stablehlo.concatenate"(%a) <{dimension = "x"}>', "(tensor<4x8xf32>) -> tensor<4x8xf32>",
         "'stablehlo.concatenate' op attribute 'dimension' failed to satisfy constraint: an integer attribute"),
        ('"stablehlo.custom_call"(%a)', "(tensor<4x8xf32>) -> tensor<4x8xf32>", "'stablehlo.custom_call' op requires attribute 'call_target_name'"),
    ],
)
def test_missing_or_mistyped_property_is_a_verifier_error(body: str, ty: str, message: str) -> None:
    module = parse_module(_op(body, ty), "in.mlir")
    with pytest.raises(Diagnostic) as e:
        verify(module)
    text = e.value.render()
    assert text.startswith("in.mlir:2:8: error: ") and message in text


def test_attribute_dictionary_entries_become_properties_as_in_mlir() -> None:
    text = _op('"stablehlo.slice"(%a) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 4>, strides = array<i64: 1, 2>, other = 1 : i64}',
               "(tensor<4x8xf32>) -> tensor<2x2xf32>")
    module = parse_module(text)
    verify(module)
    op = next(o for o in module.walk() if o.name == "stablehlo.slice")
    assert set(op.properties) == {"start_indices", "limit_indices", "strides"} and set(op.attributes) == {"other"}
    view = props(op)
    assert (view.start_indices, view.limit_indices, view.strides) == ((1, 0), (3, 4), (1, 2))
    assert "%0 = stablehlo.slice %arg0 [1:3, 0:4:2] {other = 1 : i64} : (tensor<4x8xf32>) -> tensor<2x2xf32>" in print_module(module)


def test_view_returns_defaults_and_rejects_undeclared_names() -> None:
    module = parse_module(_op('"stablehlo.sort"(%a) ({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    %c = stablehlo.compare  GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  })',
                                  "(tensor<4x8xf32>) -> tensor<4x8xf32>"))
    op = next(o for o in module.walk() if o.name == "stablehlo.sort")
    assert (props(op).dimension, props(op).is_stable) == (-1, False)
    with pytest.raises(AttributeError, match="declares no property 'dimensions'"):
        props(op).dimensions


def test_declared_kinds_are_known() -> None:
    # A kind is a fixed one, a dialect attribute name (`stablehlo.dot`), or `enum:<dialect>.<enum>`.
    for name, d in OP_DEFS.items():
        for p in d.props:
            assert p.kind in KINDS or (p.kind.count(".") >= 1 and " " not in p.kind), (name, p)


def test_decoded_values_are_kept_per_attribute_object() -> None:
    from ttopt.ir.attributes import ArrayAttr, DictAttr, IntegerAttr
    from ttopt.ir.properties import Prop, decode

    ints = Prop("p", "ints")
    spelled = ArrayAttr((IntegerAttr(1), IntegerAttr(0)))  # `[1, 0]`: its integers are gathered into a tuple
    first = decode(ints, spelled)
    assert first == (1, 0) and decode(ints, spelled) is first  # decoded once, read twice
    # Another attribute object spelling the same array is decoded for itself.
    again = decode(ints, ArrayAttr((IntegerAttr(1), IntegerAttr(0))))
    assert again == (1, 0) and again is not first
    # Kinds whose value is a fresh container are decoded every time: changing one leaves the next.
    d = DictAttr({"k": IntegerAttr(1)})
    got = decode(Prop("d", "dict"), d)
    got["extra"] = IntegerAttr(2)
    assert set(decode(Prop("d", "dict"), d)) == {"k"}
    arr = ArrayAttr((IntegerAttr(1),))
    assert decode(Prop("a", "array"), arr) == arr.items
