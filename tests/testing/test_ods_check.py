"""Checking ops against ODS: existence, operand/result counts, operandSegmentSizes, operand types,
required/unknown/discardable attributes and attribute kinds (on the toy dialect of conftest.py),
the ttnn.to_layout verifier rule, positions, and known-violations lists."""

from __future__ import annotations

import pytest

from ttopt.parse.parser import parse_module
from ttopt.testing.ods_check import Violation, check_module, read_known
from ttopt.testing.ods_specs import OdsSet, ods_from_records
from ttopt.testing.tablegen import read_records

T = "tensor<4xf32>"
MIX_OK = (
    f'%r = "toy.mix"(%a, %a, %d) <{{count = 3, dim = -1 : si32, fill = 1.000000e+00 : f32, pads = array<i32: 1, 2>, '
    f'shape = #toy.shape<2x3>, operandSegmentSizes = array<i32: 2, 0, 1>}}> : ({T}, {T}, !toy.device) -> {T}'
)


def _check(toy: OdsSet, body: str) -> list[str]:
    text = f"func.func @f(%a: {T}, %d: !toy.device) {{\n  {body}\n  return\n}}\n"
    return [v.problem for v in check_module(parse_module(text, "t.mlir"), toy)]


def _mix(**props: str) -> str:
    """MIX_OK with properties replaced (a value of None drops the property)."""
    base = {"count": "3", "dim": "-1 : si32", "fill": "1.000000e+00 : f32", "pads": "array<i32: 1, 2>",
            "shape": "#toy.shape<2x3>", "operandSegmentSizes": "array<i32: 2, 0, 1>"}
    base.update(props)
    body = ", ".join(f"{k} = {v}" for k, v in base.items() if v != "None")
    return f'%r = "toy.mix"(%a, %a, %d) <{{{body}}}> : ({T}, {T}, !toy.device) -> {T}'


def test_conforming_ops_have_no_problem(toy: OdsSet) -> None:
    assert _check(toy, MIX_OK) == []
    assert _check(toy, f'%r = "toy.neg"(%a) : ({T}) -> {T}') == []
    assert _check(toy, f'%r = "toy.scale"(%a) {{factor = 2.000000e+00 : f32}} : ({T}) -> {T}') == []  # inherent, in {{}}
    assert _check(toy, f'%r = "toy.make"() <{{value = dense<1.0> : {T}, callee = @g}}> : () -> {T}') == []
    assert _check(toy, f'%r = "func.call"(%a) : ({T}) -> {T}') == []  # other dialects are not checked


def test_an_op_the_dialect_lacks(toy: OdsSet) -> None:
    assert _check(toy, f'%r = "toy.pow"(%a, %a) : ({T}, {T}) -> {T}') == ["is not an op at tt-mlir HEAD"]


@pytest.mark.parametrize(
    ("body", "problems"),
    [
        (f'%r = "toy.neg"(%a, %a) : ({T}, {T}) -> {T}', ["has 2 operands; HEAD takes 1 (input)"]),
        (f'"toy.neg"(%a) : ({T}) -> ()', ["has 0 results; HEAD takes 1 (result)"]),
        (f'%r = "toy.make"(%d, %d) <{{value = dense<1.0> : {T}, callee = @g}}> : (!toy.device, !toy.device) -> {T}',
         ["has 2 operands; HEAD takes 0 to 1 (device?)"]),
        (f'%r = "toy.make"(%a) <{{value = dense<1.0> : {T}, callee = @g}}> : ({T}) -> {T}',
         ["operand 'device' is a ranked tensor; HEAD wants Toy_Device"]),
        (f'%r = "toy.neg"(%d) : (!toy.device) -> {T}', ["operand 'input' is !toy.device; HEAD wants AnyRankedTensor"]),
        (f'%r = "toy.neg"(%a) : ({T}) -> tensor<*xf32>', ["result 'result' is an unranked tensor; HEAD wants AnyRankedTensor"]),
    ],
)
def test_counts_and_types(toy: OdsSet, body: str, problems: list[str]) -> None:
    assert _check(toy, body) == problems


@pytest.mark.parametrize(
    ("props", "problems"),
    [
        ({"operandSegmentSizes": "None"}, ["is missing required attribute 'operandSegmentSizes' (AttrSizedOperandSegments)"]),
        ({"operandSegmentSizes": "array<i32: 3>"},
         ["attribute 'operandSegmentSizes' has 1 entries; HEAD has 3 operand groups (inputs*, bias?, device)"]),
        ({"operandSegmentSizes": "array<i32: 0, 2, 1>"}, ["attribute 'operandSegmentSizes' gives optional operand 'bias' 2 values"]),
        ({"operandSegmentSizes": "array<i32: 1, 0, 1>"},
         ["attribute 'operandSegmentSizes' adds up to 2, not the op's 3 operands"]),
        ({"operandSegmentSizes": "array<i64: 2, 0, 1>"},
         ["attribute 'operandSegmentSizes' is array<i64>; HEAD wants DenseI32ArrayAttr"]),
        ({"operandSegmentSizes": "array<i32: 1, 1, 1>"}, ["operand 'bias' is !toy.device; HEAD wants AnyRankedTensor",
                                                          "operand 'device' is a ranked tensor; HEAD wants Toy_Device"]),
    ],
)
def test_operand_segment_sizes(toy: OdsSet, props: dict[str, str], problems: list[str]) -> None:
    body = _mix(**props)
    if "1, 1, 1" in props["operandSegmentSizes"]:  # a device where the bias goes, a tensor where the device goes
        body = body.replace("(%a, %a, %d)", "(%a, %d, %a)").replace(f"({T}, {T}, !toy.device)", f"({T}, !toy.device, {T})")
    assert _check(toy, body) == problems


@pytest.mark.parametrize(
    ("props", "problem"),
    [
        ({"count": "None"}, "is missing required attribute 'count' (ConfinedAttr<I64Attr, [IntMinValue<0>]>)"),
        ({"shape": "None"}, "is missing required attribute 'shape' (Toy_ShapeAttr)"),
        ({"dim": "1 : i32"}, "attribute 'dim' is an i32 integer; HEAD wants SI32Attr"),
        ({"dim": "1"}, "attribute 'dim' is an i64 integer; HEAD wants SI32Attr"),
        ({"count": "3 : si64"}, "attribute 'count' is an si64 integer; HEAD wants ConfinedAttr<I64Attr, [IntMinValue<0>]>"),
        ({"flag": "1 : i32"}, "attribute 'flag' is an i32 integer; HEAD wants BoolAttr"),
        ({"fill": '"one"'}, "attribute 'fill' is a string; HEAD wants Toy_NumberAttr"),
        ({"fill": "1.000000e+00"}, "attribute 'fill' is an f64 float; HEAD wants Toy_NumberAttr"),
        ({"pads": "array<i64: 1>"}, "attribute 'pads' is array<i64>; HEAD wants DenseI32ArrayAttr"),
        ({"pads": "[1 : i32]"}, "attribute 'pads' is an array of i32 integer elements; HEAD wants DenseI32ArrayAttr"),
        ({"dims": "[1, 2]"}, "attribute 'dims' is an array of i64 integer elements; HEAD wants I32ArrayAttr"),
        ({"shape": "#toy.other<2x3>"}, "attribute 'shape' is #toy.other; HEAD wants Toy_ShapeAttr"),
        ({"mode": "#toy<shape 2x3>"}, "attribute 'mode' is #toy.shape; HEAD wants Toy_ModeAttr"),
        ({"fast": "true"}, "attribute 'fast' is a bool; HEAD wants UnitAttr"),
        ({"extra": "1"}, "has unknown attribute 'extra'"),
    ],
)
def test_attribute_problems(toy: OdsSet, props: dict[str, str], problem: str) -> None:
    assert _check(toy, _mix(**props)) == [problem]


@pytest.mark.parametrize(
    "props",
    [{"fill": "2 : i32"}, {"mode": "#toy.mode<a>"}, {"mode": "#toy<mode a>"}, {"shape": "#toy<shape 2x3>"},
     {"dims": "[1 : i32, 2 : i32]"}, {"dims": "[]"}, {"fast": "unit"}, {"flag": "true"}, {"flag": "1 : i1"}],
)
def test_attribute_spellings_each_kind_accepts(toy: OdsSet, props: dict[str, str]) -> None:
    assert _check(toy, _mix(**props)) == []


def test_discardable_attributes(toy: OdsSet) -> None:
    base = f'%r = "toy.neg"(%a) {{{{{{}}}}}} : ({T}) -> {T}'
    assert _check(toy, base.format("ttnn.hoist_generic_via_d2m")) == []
    assert _check(toy, base.format('ttcore.weight_dtype = "bfp_bf8"')) == []
    assert _check(toy, base.format("ttcore.weight_dtype = 3")) == [
        "discardable attribute 'ttcore.weight_dtype' is an i64 integer; HEAD wants StrAttr"]
    assert _check(toy, base.format("my.note = 1")) == ["has unknown discardable attribute 'my.note'"]


def test_violations_carry_positions_and_render_like_mlir(toy: OdsSet) -> None:
    text = f"func.func @f(%a: {T}) {{\n  %r = \"toy.neg\"(%a, %a) : ({T}, {T}) -> {T}\n  return\n}}\n"
    (v,) = check_module(parse_module(text, "in.mlir"), toy)
    assert v == Violation("in.mlir", 2, 8, "toy.neg", "has 2 operands; HEAD takes 1 (input)")
    assert v.render() == "in.mlir:2:8: 'toy.neg' has 2 operands; HEAD takes 1 (input)"
    assert v.key == "toy.neg: has 2 operands; HEAD takes 1 (input)"
    assert Violation("x.mlir", 0, 0, "toy.a", "p").render() == "x.mlir: 'toy.a' p"


# -- the ttnn.to_layout rule of HEAD's verifier ---------------------------------------------------
TO_LAYOUT_TD = '''
def TTNN_Dialect : Dialect { let name = "ttnn"; }
def TTNN_ToLayoutOp : Op<TTNN_Dialect, "to_layout"> {
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
}
'''
LAYOUTS = """#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#tile_dram = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#rm_dram = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x64xbf16, #dram>, <interleaved>>
#tile_l1 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#tile_l1_sharded = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (1, 0)>]>>
"""


@pytest.mark.parametrize(
    ("src", "dst", "problems"),
    [
        ("tile_dram", "rm_dram", []),
        ("tile_dram", "tile_l1", ["changes the buffer type; HEAD's verifier allows only page-layout and dtype changes"]),
        ("tile_l1", "tile_l1_sharded", [
            "changes the tensor memory layout; HEAD's verifier allows only page-layout and dtype changes",
            "changes the grid; HEAD's verifier allows only page-layout and dtype changes"]),
    ],
)
def test_to_layout_may_not_change_the_memory_config(src: str, dst: str, problems: list[str]) -> None:
    ods = ods_from_records(read_records("t.td", {"t.td": TO_LAYOUT_TD}.get), "ttnn")
    text = LAYOUTS + (f"func.func @f(%a: tensor<64x64xbf16, #{src}>) {{\n"
                      f'  %r = "ttnn.to_layout"(%a) : (tensor<64x64xbf16, #{src}>) -> tensor<64x64xbf16, #{dst}>\n'
                      "  return\n}\n")
    assert [v.problem for v in check_module(parse_module(text, "t.mlir"), ods)] == problems


def test_to_layout_without_layouts(toy: OdsSet) -> None:
    ods = ods_from_records(read_records("t.td", {"t.td": TO_LAYOUT_TD}.get), "ttnn")
    text = f'func.func @f(%a: {T}) {{\n  %r = "ttnn.to_layout"(%a) : ({T}) -> {T}\n  return\n}}\n'
    assert [v.problem for v in check_module(parse_module(text, "t.mlir"), ods)] == [
        "input has no #ttnn.ttnn_layout encoding; HEAD's verifier requires one"]


# -- known-violations lists -----------------------------------------------------------------------
def test_read_known() -> None:
    text = ("# a comment\n\nttnn.a: has 2 operands; HEAD takes 1 (input)  # old form; fix in x.py\n"
            "ttnn.b: attribute 'x' is #ttnn.shape  # note # with hashes; fix in y.py\n")
    assert read_known(text) == {"ttnn.a: has 2 operands; HEAD takes 1 (input)": "old form; fix in x.py",
                                "ttnn.b: attribute 'x' is #ttnn.shape": "note # with hashes; fix in y.py"}


@pytest.mark.parametrize(
    ("text", "message"),
    [("ttnn.a: problem\n", "line 1: expected 'op: problem  # reason'"),
     ("x\nttnn.a: p  # r\nttnn.a: p  # s\n", "line 1: expected"),
     ("ttnn.a: p  # r\nttnn.a: p  # s\n", "line 2: 'ttnn.a: p' is listed twice"),
     ("ttnn.a: p  #   \n", "line 1: expected")],
)
def test_read_known_rejects_bad_lines(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        read_known(text)
