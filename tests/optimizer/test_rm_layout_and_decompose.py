"""`ttnn-rm-layout-propagation` (which ops keep row-major, what they write) and
`ttnn-decompose-layouts` (to_tensor_spec to the conversion ops)."""

from __future__ import annotations

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.lowering.ttnn_rm_layout_propagation import propagate, row_major_output
from ttopt.optimizer.decompose_layouts import decompose
from ttopt.parse.parser import parse_module

LAYOUTS = """
#dram = #ttnn.buffer_type<dram>
#rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xsi32, #dram>, <interleaved>>
#tile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
#utile = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, u32>, #dram>, <interleaved>>
"""


def _ops(text: str) -> list:
    m = parse_module(LAYOUTS + text)
    return list(next(iter(m.functions())).regions[0].entry.ops)


def test_typecast_keeps_row_major_and_writes_its_dtype() -> None:
    ops = _ops("""func.func @f(%a: tensor<32x64xsi32, #rm>) -> tensor<32x64xui32, #utile> {
  %0 = "ttnn.typecast"(%a) <{dtype = #ttcore.supportedDataTypes<u32>}> : (tensor<32x64xsi32, #rm>) -> tensor<32x64xui32, #utile>
  return %0 : tensor<32x64xui32, #utile>
}""")
    got = row_major_output(ops[0])
    assert got is not None
    dtype, layout = got
    assert dtype is DataType.U32 and not layout.is_tiled


def test_eltwise_ops_stop_the_propagation() -> None:
    ops = _ops("""func.func @f(%a: tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #tile> {
  %0 = "ttnn.add"(%a, %a) : (tensor<32x64xsi32, #rm>, tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #tile>
  return %0 : tensor<32x64xsi32, #tile>
}""")
    assert row_major_output(ops[0]) is None


def test_propagation_only_runs_on_forward_functions() -> None:
    text = """func.func @f(%a: tensor<32x64xsi32, #rm> {ttcore.argument_type = #ttcore.argument_type<input>}) -> tensor<32x64xsi32, #tile> {
  %0 = "ttnn.to_tensor_spec"(%a) : (tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #tile>
  return %0 : tensor<32x64xsi32, #tile>
}"""
    assert propagate(parse_module(LAYOUTS + text)) == 0
    forward = text.replace(
        "-> tensor<32x64xsi32, #tile> {", '-> tensor<32x64xsi32, #tile> attributes {tt.function_type = "forward_device"} {', 1
    )
    m = parse_module(LAYOUTS + forward)
    assert propagate(m) == 2  # the tilizing to_tensor_spec dropped, one tiling before the return
    names = [op.name for op in next(iter(m.functions())).regions[0].entry.ops]
    assert names == ["ttnn.to_tensor_spec", "func.return"]


def test_decompose_turns_a_tilize_into_one_to_layout() -> None:
    m = parse_module(
        LAYOUTS
        + """func.func @f(%a: tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #tile> {
  %0 = "ttnn.to_tensor_spec"(%a) : (tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #tile>
  return %0 : tensor<32x64xsi32, #tile>
}"""
    )
    assert decompose(m, (8, 8)) == 1
    names = [op.name for op in next(iter(m.functions())).regions[0].entry.ops]
    assert names == ["ttnn.to_layout", "func.return"]
