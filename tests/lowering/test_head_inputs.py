"""Valid TTIR at tt-mlir HEAD that ttopt must accept: a conv3d without `dilation` (HEAD's conv3d
has none), a sort with its two results, and a concat whose inputs are `ttir.empty` tensors (HEAD's
ops are not destination passing: every operand is an input)."""

from __future__ import annotations

from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

CONV3D = """
func.func @main(%x: tensor<1x8x28x28x32xbf16>, %w: tensor<32x32x3x3x3xbf16>) -> tensor<1x6x26x26x32xbf16> {
  %0 = "ttir.conv3d"(%x, %w) <{groups = 1 : i32, padding = array<i32: 0, 0, 0>, stride = array<i32: 1, 1, 1>}> : (tensor<1x8x28x28x32xbf16>, tensor<32x32x3x3x3xbf16>) -> tensor<1x6x26x26x32xbf16>
  return %0 : tensor<1x6x26x26x32xbf16>
}
"""

SORT = """
func.func @main(%x: tensor<64x128xbf16>) -> (tensor<64x128xbf16>, tensor<64x128xi32>) {
  %0, %1 = "ttir.sort"(%x) <{dim = -1 : si32, descending = true, stable = false}> : (tensor<64x128xbf16>) -> (tensor<64x128xbf16>, tensor<64x128xi32>)
  return %0, %1 : tensor<64x128xbf16>, tensor<64x128xi32>
}
"""

CONCAT_OF_EMPTIES = """
func.func @forward() -> tensor<32x224xf32> {
  %0 = ttir.empty() : tensor<32x32xf32>
  %1 = ttir.empty() : tensor<32x64xf32>
  %2 = ttir.empty() : tensor<32x128xf32>
  %3 = "ttir.concat"(%0, %1, %2) <{dim = 1 : si32}> : (tensor<32x32xf32>, tensor<32x64xf32>, tensor<32x128xf32>) -> tensor<32x224xf32>
  return %3 : tensor<32x224xf32>
}
"""

CONCAT_WITH_DESTINATION = """
func.func @forward(%a: tensor<32x32xf32>, %b: tensor<32x64xf32>) -> tensor<32x96xf32> {
  %0 = ttir.empty() : tensor<32x96xf32>
  %1 = "ttir.concat"(%a, %b, %0) <{dim = 1 : si32}> : (tensor<32x32xf32>, tensor<32x64xf32>, tensor<32x96xf32>) -> tensor<32x96xf32>
  return %1 : tensor<32x96xf32>
}
"""


def _ttnn_ops(module) -> list[str]:  # type: ignore[no-untyped-def]
    return [op.name for op in module.walk() if op.name.startswith("ttnn.") and op.name not in ("ttnn.get_device", "ttnn.deallocate")]


def test_conv3d_without_dilation_verifies() -> None:
    module = parse_module(CONV3D, "conv3d.mlir")
    verify(module)
    (op,) = [o for o in module.walk() if o.name == "ttir.conv3d"]
    assert "dilation" not in op.properties


def test_sort_with_values_and_indices_lowers_to_one_ttnn_sort() -> None:
    module = run_pipeline(SORT, "sort.mlir", BACKEND.format(""))
    (op,) = [o for o in module.walk() if o.name == "ttnn.sort"]
    assert len(op.results) == 2
    # ttnn-workaround: tt-metal's sort produces ui16 indices for fewer than 65535 padded elements;
    # a typecast gives the program its si32 back.
    assert [r.type.resolve().element_type.text for r in op.results] == ["bf16", "ui16"]
    (cast,) = [u for u in op.results[1].users if u.name != "ttnn.deallocate"]
    assert cast.name == "ttnn.typecast" and cast.results[0].type.resolve().element_type.text == "si32"
    assert op.properties["descending"].text == "true"


def test_concat_of_three_empty_tensors_concatenates_all_three() -> None:
    module = parse_module(CONCAT_OF_EMPTIES, "concat.mlir")
    verify(module)
    out = run_pipeline(CONCAT_OF_EMPTIES, "concat.mlir", BACKEND.format(""))
    assert _ttnn_ops(out) == ["ttnn.empty", "ttnn.empty", "ttnn.empty", "ttnn.concat"]
    (concat,) = [o for o in out.walk() if o.name == "ttnn.concat"]
    assert [v.type.resolve().shape for v in concat.operands] == [(32, 32), (32, 64), (32, 128)]


def test_a_trailing_empty_of_the_result_type_is_still_a_destination() -> None:
    out = run_pipeline(CONCAT_WITH_DESTINATION, "concat.mlir", BACKEND.format(""))
    assert _ttnn_ops(out) == ["ttnn.concat"]
    (concat,) = [o for o in out.walk() if o.name == "ttnn.concat"]
    assert len(concat.operands) == 2
