"""ttir-fusing's HEAD patterns on matmul slices and F.normalize-style RMS norms: a slice of a matmul /
linear output moved onto the operand that produces the sliced dimension (PermuteSliceAfterMatmul,
`enable-permute-slice-after-matmul-fusion`), and x / clamp(sqrt(sum(x^2))) * sqrt(D) [* gamma] as
`ttir.rms_norm` (NormalizeRMSNorm); failed preconditions with reasons, and the numbers kept."""

from __future__ import annotations

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.backend_pipeline import TTIRToTTNNBackendPipeline
from ttopt.lowering.ttir_fusing import TTIRFusing
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.ttir_fusing_runs import op_names, same_numbers


def _fuse(text: str, **options: object) -> tuple[str, list[str]]:
    """The fused text and the trace lines."""
    module = parse_module(text, "f.mlir")
    p = TTIRFusing(**options)
    p.run(module, PassContext())
    verify(module, check_uses=True)
    return print_module(module), [d.line() for d in p.decisions]


def _same_numbers(before: str, after: str) -> None:
    same_numbers(before, after, atol=1e-4)


def _sliced(op: str, a: str, b: str, out: str, begins: str, ends: str, step: str, sliced: str, bias: str = "", flags: str = "") -> str:
    bias_arg = f", %c: {bias}" if bias else ""
    return f"""module {{
  func.func @f(%a: {a}, %b: {b}{bias_arg}) -> {sliced} {{
    %0 = "ttir.{op}"(%a, %b{", %c" if bias else ""}){flags} : ({a}, {b}{", " + bias if bias else ""}) -> {out} loc("mm")
    %1 = "ttir.slice_static"(%0) <{{begins = [{begins}], ends = [{ends}], step = [{step}]}}> : ({out}) -> {sliced} loc("cut")
    return %1 : {sliced}
  }}
}}
"""


ROWS = _sliced("matmul", "tensor<256x64xf32>", "tensor<64x512xf32>", "tensor<256x512xf32>", "255 : i32, 0 : i32", "256 : i32, 512 : i32", "1 : i32, 1 : i32",
               "tensor<1x512xf32>")  # fmt: skip


def test_a_row_slice_of_a_matmul_slices_its_left_operand() -> None:
    out, trace = _fuse(ROWS)
    assert op_names(out) == ["ttir.slice_static", "ttir.matmul"]
    assert ('"ttir.slice_static"(%arg0) <{begins = [255 : i32, 0 : i32], ends = [256 : i32, 64 : i32], step = [1 : i32, 1 : i32]}> : '
            "(tensor<256x64xf32>) -> tensor<1x64xf32>") in out  # fmt: skip
    assert '"ttir.matmul"(%0, %arg1) <{transpose_a = false, transpose_b = false}> : (tensor<1x64xf32>, tensor<64x512xf32>) -> tensor<1x512xf32>' in out
    assert any('permute_slice_after_matmul at "cut": [green]applied' in line for line in trace)
    _same_numbers(ROWS, out)


def test_a_strided_column_slice_of_a_transposed_operand_slices_its_rows() -> None:
    text = _sliced("matmul", "tensor<64x128xf32>", "tensor<512x128xf32>", "tensor<64x512xf32>", "0 : i32, 3 : i32", "64 : i32, 99 : i32", "1 : i32, 2 : i32",
                   "tensor<64x48xf32>", flags=" <{transpose_a = false, transpose_b = true}>")  # fmt: skip
    out, _ = _fuse(text)
    assert '"ttir.slice_static"(%arg1) <{begins = [3 : i32, 0 : i32], ends = [99 : i32, 128 : i32], step = [2 : i32, 1 : i32]}>' in out
    assert "(tensor<64x128xf32>, tensor<48x128xf32>) -> tensor<64x48xf32>" in out
    _same_numbers(text, out)


def test_a_linear_bias_is_sliced_along_the_output_dimension_it_spans() -> None:
    text = _sliced("linear", "tensor<2x256x64xf32>", "tensor<2x64x512xf32>", "tensor<2x256x512xf32>", "0 : i32, 0 : i32, 0 : i32", "2 : i32, 256 : i32, 64 : i32",
                   "1 : i32, 1 : i32, 1 : i32", "tensor<2x256x64xf32>", bias="tensor<512xf32>")  # fmt: skip
    out, _ = _fuse(text)
    assert '"ttir.slice_static"(%arg2) <{begins = [0 : i32], ends = [64 : i32], step = [1 : i32]}> : (tensor<512xf32>) -> tensor<64xf32>' in out
    assert '"ttir.linear"(%arg0, %0, %1)' in out
    _same_numbers(text, out)
    # a row slice leaves a 1-D bias as it is
    rows = text.replace("2 : i32, 256 : i32, 64 : i32", "2 : i32, 256 : i32, 512 : i32").replace("begins = [0 : i32, 0 : i32, 0 : i32]", "begins = [0 : i32, 128 : i32, 0 : i32]")
    rows = rows.replace("-> tensor<2x256x64xf32> {", "-> tensor<2x128x512xf32> {").replace("(tensor<2x256x512xf32>) -> tensor<2x256x64xf32>", "(tensor<2x256x512xf32>) -> tensor<2x128x512xf32>")
    rows = rows.replace("return %1 : tensor<2x256x64xf32>", "return %1 : tensor<2x128x512xf32>")
    out, _ = _fuse(rows)
    assert op_names(out) == ["ttir.slice_static", "ttir.linear"] and '"ttir.linear"(%0, %arg1, %arg2)' in out
    _same_numbers(rows, out)


def test_slices_that_cannot_move_stay_with_their_reasons() -> None:
    both = ROWS.replace("ends = [256 : i32, 512 : i32]", "ends = [256 : i32, 64 : i32]").replace("tensor<1x512xf32>", "tensor<1x64xf32>")
    out, trace = _fuse(both)
    assert op_names(out) == ["ttir.matmul", "ttir.slice_static"] and any("the slice narrows more than one dimension" in line for line in trace)
    shared = ROWS.replace("return %1 : tensor<1x512xf32>", '%2 = "ttir.abs"(%0) : (tensor<256x512xf32>) -> tensor<256x512xf32>\n    return %1 : tensor<1x512xf32>')
    out, trace = _fuse(shared)
    assert op_names(out)[:2] == ["ttir.matmul", "ttir.slice_static"] and any("the matmul has other users" in line for line in trace)


def test_the_switch_turns_the_pattern_off_in_the_pass_and_the_pipeline() -> None:
    out, _ = _fuse(ROWS, enable_permute_slice_after_matmul_fusion=False)
    assert op_names(out) == ["ttir.matmul", "ttir.slice_static"]
    pipeline = TTIRToTTNNBackendPipeline.from_options({"enable-permute-slice-after-matmul-fusion": False})
    assert pipeline.ttir_fusing().enable_permute_slice_after_matmul_fusion is False  # type: ignore[attr-defined]
    assert TTIRToTTNNBackendPipeline().ttir_fusing().enable_permute_slice_after_matmul_fusion is True  # type: ignore[attr-defined]


def _normalize(dim: int = 1, floor: str = "1.000000e-12", scale: str = "2.0", gamma: bool = False) -> str:
    red = "tensor<2x1x8xf32>" if dim == 1 else "tensor<2x4x1xf32>"
    bdims = "1, 4, 1" if dim == 1 else "1, 1, 8"
    gsig = ", %g: tensor<4xf32>" if gamma else ""
    tail = """
    %gr = "ttir.reshape"(%g) <{shape = [1 : i32, 4 : i32, 1 : i32]}> : (tensor<4xf32>) -> tensor<1x4x1xf32>
    %gb = "ttir.broadcast"(%gr) <{broadcast_dimensions = array<i64: 2, 1, 8>}> : (tensor<1x4x1xf32>) -> tensor<2x4x8xf32>
    %out = "ttir.multiply"(%scaled, %gb) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>""" if gamma else ""  # fmt: skip
    ret = "%out" if gamma else "%scaled"
    return f"""module {{
  func.func @f(%x: tensor<2x4x8xf32>{gsig}) -> tensor<2x4x8xf32> {{
    %sq = "ttir.multiply"(%x, %x) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %sum = "ttir.sum"(%sq) <{{dim_arg = [{dim} : i32], keep_dim = true}}> : (tensor<2x4x8xf32>) -> {red}
    %sqrt = "ttir.sqrt"(%sum) : ({red}) -> {red}
    %clamp = "ttir.clamp_scalar"(%sqrt) <{{max = 3.40282347E+38 : f32, min = {floor} : f32}}> : ({red}) -> {red}
    %bcast = "ttir.broadcast"(%clamp) <{{broadcast_dimensions = array<i64: {bdims}>}}> : ({red}) -> tensor<2x4x8xf32>
    %div = "ttir.div"(%x, %bcast) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %s = "ttir.full"() <{{shape = array<i32: 2, 4, 8>, fill_value = {scale} : f32}}> : () -> tensor<2x4x8xf32>
    %scaled = "ttir.multiply"(%div, %s) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>{tail}
    return {ret} : tensor<2x4x8xf32>
  }}
}}
"""


def test_a_normalize_over_a_channel_dim_is_an_rms_norm_between_permutes() -> None:
    text = _normalize()
    out, trace = _fuse(text)
    assert op_names(out) == ["ttir.permute", "ttir.rms_norm", "ttir.permute"]
    assert "normalized_shape = array<i64: 4>, operandSegmentSizes = array<i32: 1, 0, 0>" in out
    assert "epsilon = 2.500000e-25 : f32" in out  # the floor 1e-12 squared over D = 4
    assert any("normalize_rms_norm" in line and "applied" in line for line in trace)
    _same_numbers(text, out)


def test_gamma_after_the_scale_becomes_the_norm_weight() -> None:
    text = _normalize(gamma=True)
    out, _ = _fuse(text)
    assert op_names(out) == ["ttir.permute", "ttir.rms_norm", "ttir.permute"]
    assert '"ttir.rms_norm"(%0, %arg1)' in out and "operandSegmentSizes = array<i32: 1, 1, 0>" in out
    _same_numbers(text, out)


def test_a_normalize_over_the_last_dim_needs_no_permute() -> None:
    text = _normalize(dim=2, scale="2.828427")
    out, _ = _fuse(text)
    assert op_names(out) == ["ttir.rms_norm"] and "normalized_shape = array<i64: 8>" in out
    _same_numbers(text, out)


def test_an_l2_normalize_or_a_real_clamp_is_not_an_rms_norm() -> None:
    out, trace = _fuse(_normalize(scale="3.0"))
    assert "ttir.rms_norm" not in out and any("the scale is not sqrt(4)" in line for line in trace)
    out, trace = _fuse(_normalize(floor="5.000000e-01"))
    assert "ttir.rms_norm" not in out and any("the clamp floor 0.5 is not an epsilon guard" in line for line in trace)


# Normalized over dim 1, then multiplied by a weight that varies along dim 2 (of the same size):
# not the norm's weight, so it stays a multiply after the fused norm.
GAMMA_ALONG_ANOTHER_DIM = """
func.func @f(%x: tensor<1x16x16xf32>, %g: tensor<16xf32>) -> tensor<1x16x16xf32> {
  %two = "ttir.full"() <{shape = array<i32: 1, 16, 16>, fill_value = 2.0 : f32}> : () -> tensor<1x16x16xf32>
  %sq = "ttir.pow"(%x, %two) : (tensor<1x16x16xf32>, tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %sum = "ttir.sum"(%sq) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<1x16x16xf32>) -> tensor<1x1x16xf32>
  %sqrt = "ttir.sqrt"(%sum) : (tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
  %bcast = "ttir.broadcast"(%sqrt) <{broadcast_dimensions = array<i64: 1, 16, 1>}> : (tensor<1x1x16xf32>) -> tensor<1x16x16xf32>
  %div = "ttir.div"(%x, %bcast) : (tensor<1x16x16xf32>, tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %scale = "ttir.full"() <{shape = array<i32: 1, 16, 16>, fill_value = 4.0 : f32}> : () -> tensor<1x16x16xf32>
  %scaled = "ttir.multiply"(%div, %scale) : (tensor<1x16x16xf32>, tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %gr = "ttir.reshape"(%g) <{shape = [1 : i32, 1 : i32, 16 : i32]}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
  %gb = "ttir.broadcast"(%gr) <{broadcast_dimensions = array<i64: 1, 16, 1>}> : (tensor<1x1x16xf32>) -> tensor<1x16x16xf32>
  %out = "ttir.multiply"(%scaled, %gb) : (tensor<1x16x16xf32>, tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  return %out : tensor<1x16x16xf32>
}
"""


def test_a_weight_along_another_dim_of_the_same_size_is_not_the_norm_weight() -> None:
    out, _ = _fuse(GAMMA_ALONG_ANOTHER_DIM)
    assert "ttir.rms_norm" in op_names(out) and "ttir.multiply" in op_names(out)
    _same_numbers(GAMMA_ALONG_ANOTHER_DIM, out)
