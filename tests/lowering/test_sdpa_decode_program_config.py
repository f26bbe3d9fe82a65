"""ttnn-paged-sdpa-decode-program-config: Blackhole paged SDPA decodes get tt-metal's paged-decode
program config with exp_approx_mode = false (HEAD's workaround decomposition); the backend
pipeline runs it after ttnn-workaround."""

from __future__ import annotations

import pytest

from ttopt.dialects.ttnn_attrs import SDPAProgramConfigAttr
from ttopt.ir.diagnostics import Diagnostic
from ttopt.lowering.sdpa_decode_program_config import program_config
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

DECODE = """func.func @main(%q: tensor<1x1x12x64xbf16>, %k: tensor<128x12x32x64xbf16>, %v: tensor<128x12x32x64xbf16>, %pt: tensor<1x4xi32>, %pos: tensor<1xi32>) -> tensor<1x1x12x64xbf16> {
  %0 = ttir.empty() : tensor<1x1x12x64xbf16>
  %1 = "ttir.paged_scaled_dot_product_attention_decode"(%q, %k, %v, %pt, %0, %pos) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1, 0>}> : (tensor<1x1x12x64xbf16>, tensor<128x12x32x64xbf16>, tensor<128x12x32x64xbf16>, tensor<1x4xi32>, tensor<1x1x12x64xbf16>, tensor<1xi32>) -> tensor<1x1x12x64xbf16>
  return %1 : tensor<1x1x12x64xbf16>
}"""


def _decode(options: str):  # type: ignore[no-untyped-def]
    m = run_pipeline(DECODE, "d.mlir", BACKEND.format(options))
    return next(op for op in m.walk() if op.name == "ttnn.paged_scaled_dot_product_attention_decode")


def test_defaults_on_a_blackhole_worker_grid() -> None:
    cfg = program_config(None, (10, 13))
    assert cfg.print_body() == ("compute_with_storage_grid_size = #ttnn.core_coord<13, 10>, q_chunk_size = 32, k_chunk_size = 32, "
                                "exp_approx_mode = false, max_cores_per_head_batch = 1")  # fmt: skip


def test_an_existing_config_keeps_its_parameters_in_mlir_order() -> None:
    existing = SDPAProgramConfigAttr.parse("compute_with_storage_grid_size = #ttnn.core_coord<8, 8>, q_chunk_size = 64, k_chunk_size = 128")
    assert program_config(existing, (10, 13)).print_body() == (
        "compute_with_storage_grid_size = #ttnn.core_coord<8, 8>, q_chunk_size = 64, k_chunk_size = 128, exp_approx_mode = false")


@pytest.mark.parametrize(("options", "configured"), [
    ("mock-system-desc-arch=blackhole", True),
    ("mock-system-desc-arch=wormhole_b0", False),
    ("mock-system-desc-arch=blackhole enable-decomposition-workaround-pass=false", False),
    ("mock-system-desc-arch=blackhole disable-workarounds=true", False),
])  # fmt: skip
def test_the_backend_pipeline_configures_blackhole_decodes(options: str, configured: bool) -> None:
    op = _decode(options)
    assert ("program_config" in op.properties) == configured
    if configured:
        assert "exp_approx_mode = false" in op.properties["program_config"].text


def test_a_config_missing_a_parameter_is_an_error_at_the_op() -> None:
    from ttopt.parse.parser import parse_module
    from ttopt.passes.context import PassContext
    from ttopt.passes.manager import PassManager
    from ttopt.passes.registry import get_pass

    text = ('func.func @f(%q: tensor<1x1x4x64xbf16>, %k: tensor<8x4x32x64xbf16>, %pt: tensor<1x4xsi32>, %pos: tensor<1xsi32>) -> tensor<1x1x4x64xbf16> {\n'
            '  %0 = "ttnn.paged_scaled_dot_product_attention_decode"(%q, %k, %k, %pt, %pos) <{is_causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0>, '
            'program_config = #ttnn.sdpa_program_config<q_chunk_size = 32, k_chunk_size = 32>}> : (tensor<1x1x4x64xbf16>, tensor<8x4x32x64xbf16>, '
            'tensor<8x4x32x64xbf16>, tensor<1x4xsi32>, tensor<1xsi32>) -> tensor<1x1x4x64xbf16>\n  return %0 : tensor<1x1x4x64xbf16>\n}\n')  # fmt: skip
    cls = get_pass("ttnn-paged-sdpa-decode-program-config")
    assert cls is not None
    with pytest.raises(Diagnostic, match="missing parameter compute_with_storage_grid_size") as info:
        PassManager([cls.from_options({"device": "blackhole"})], PassContext()).run(parse_module(text, "p.mlir"))
    assert ":2:" in info.value.render()
