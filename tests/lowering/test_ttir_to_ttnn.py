"""ttir-to-ttnn-backend-pipeline (issue 16 §3): TTIR in tt-mlir's test style lowers to TTNN that
re-parses, verifies, fits L1, frees every intermediate exactly once after its last use, and runs
the optimizer as the options ask."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.backend_pipeline import TTIRToTTNNBackendPipeline
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext

TTIR = Path(__file__).resolve().parents[2] / "testdata" / "ttir"

DPS = """module {
  func.func @forward(%a: tensor<64x128xbf16>, %b: tensor<128x64xbf16>) -> tensor<64x64xbf16> {
    %0 = ttir.empty() : tensor<64x64xbf16>
    %1 = "ttir.matmul"(%a, %b, %0) : (tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %2 = ttir.empty() : tensor<64x64xbf16>
    %3 = "ttir.relu"(%1, %2) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %4 = ttir.empty() : tensor<64x64xbf16>
    %5 = "ttir.add"(%3, %1, %4) : (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    return %5 : tensor<64x64xbf16>
  }
}
"""


def _lower(text: str, **options: object) -> tuple[object, dict]:
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    TTIRToTTNNBackendPipeline(**options).run(module, ctx)
    return module, ctx.stats


def _inputs() -> list[Path]:
    return sorted(TTIR.glob("*.mlir"))


@pytest.mark.parametrize("options", [{}, {"optimization_level": 2}, {"enable_greedy_optimizer": True}])
def test_destination_passing_ttir_lowers(options: dict) -> None:
    module, _ = _lower(DPS, **options)
    text = print_module(module)
    assert "ttir." not in text
    assert text.count('"ttnn.matmul"') == 1 and text.count('"ttnn.add"') == 1
    again = parse_module(text, "again.mlir")
    verify(again)
    assert print_module(again) == text


def _check_deallocations(module: object) -> int:
    n = 0
    for func in module.functions():  # type: ignore[attr-defined]
        ops = list(func.regions[0].entry.ops)
        freed: dict[int, int] = {}
        for i, op in enumerate(ops):
            if op.name == "ttnn.deallocate":
                v = op.operands[0]
                assert id(v) not in freed, "freed twice"
                freed[id(v)] = i
                n += 1
                continue
            for v in op.operands:
                assert id(v) not in freed, f"{op.name} reads a freed value"
    return n


@pytest.mark.parametrize("options", [{}, {"optimization_level": 1}, {"optimization_level": 2}, {"enable_greedy_optimizer": True}])
def test_bundled_ttir_lowers_verifies_and_frees_once(options: dict) -> None:
    for path in _inputs():
        text = path.read_text()
        if "errors" in path.name:
            continue
        module, _ = _lower(text, **options)
        printed = print_module(module)
        assert "ttir." not in printed, path.name
        verify(parse_module(printed, path.name))
        freed = _check_deallocations(module)
        if _has_device_intermediate(module):  # a program that fuses to one op has nothing to free
            assert freed > 0, path.name


def _has_device_intermediate(module: object) -> bool:
    """Some ttnn op result is read by another op and is not a returned value."""
    for func in module.functions():  # type: ignore[attr-defined]
        if not func.regions or not func.regions[0].blocks:
            continue
        ops = list(func.regions[0].entry.ops)
        returned = {id(v) for op in ops if op.name in ("func.return", "return") for v in op.operands}
        for op in ops:
            if op.name.startswith("ttnn.") and op.name not in ("ttnn.deallocate", "ttnn.get_device"):
                if any(r.uses and id(r) not in returned for r in op.results):
                    return True
    return False


def test_lowering_is_deterministic() -> None:
    text = (TTIR / "backend_pipeline.mlir").read_text()
    a = print_module(_lower(text, optimization_level=2)[0])
    b = print_module(_lower(text, optimization_level=2)[0])
    assert a == b


def test_level_zero_leaves_every_tensor_in_dram() -> None:
    module, stats = _lower((TTIR / "optimizer_matmul_chain.mlir").read_text())
    text = print_module(module)
    assert "#l1" not in text and "ttnn-optimizer" not in stats


def test_greedy_optimizer_is_never_slower_than_level_one() -> None:
    for path in _inputs():
        if "errors" in path.name:
            continue
        _, s1 = _lower(path.read_text(), optimization_level=1)
        # At level 1 both leave the compute configs to ttnn (level 0 would stamp HiFi4 on them).
        _, s2 = _lower(path.read_text(), optimization_level=1, enable_greedy_optimizer=True)
        before = s1["ttnn-optimizer"]["totals"]["estimated_ns"]
        after = s2["ttnn-optimizer"]["totals"]["estimated_ns"]
        assert after <= before + 1e-6, path.name


def test_bad_options_are_rejected_up_front() -> None:
    for bad in ({"optimization_level": 3}, {"mesh_shape": [2, 4, 1]}, {"mesh_shape": [0, 2]}, {"max_legal_layouts": -1},
                {"memory_layout_analysis_policy": "Nope"}, {"verify_l1_budget": True}, {"cost_beam_width": 4}):  # fmt: skip
        with pytest.raises(ValueError):
            TTIRToTTNNBackendPipeline(**bad).validate()  # type: ignore[arg-type]
