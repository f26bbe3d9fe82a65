"""ttir-to-ttnn-backend-pipeline (issue 16 §3): TTIR in tt-mlir's test style lowers to TTNN that
re-parses, verifies, fits L1, frees every intermediate exactly once after its last use, and runs
the optimizer as the options ask."""

from __future__ import annotations

import re
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
        if not func.regions or not func.regions[0].blocks:
            continue  # a declaration (a CPU-hoisted function's)
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
        assert not re.search(r"\bttir\.(?!cpu_hoisted_call\b)", printed), path.name  # the call marker is not an op
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


INPUTS = """module {
  func.func @forward(%x: tensor<32x64xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
                     %w: tensor<32x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                     %c: tensor<32x64xbf16> {ttcore.argument_type = #ttcore.argument_type<input>, ttcore.kv_cache},
                     %u: tensor<32x64xbf16> {ttcore.argument_type = #ttcore.argument_type<input>}) -> tensor<32x64xbf16> {
    %0 = "ttir.relu"(%w) : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
    %1 = "ttir.add"(%x, %0) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
    %2 = "ttir.multiply"(%1, %x) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
    %3 = "ttir.add"(%2, %c) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
    return %3 : tensor<32x64xbf16>
  }
}
"""


def test_input_arguments_arrive_row_major_and_are_tiled_before_their_first_reader() -> None:
    module, _ = _lower(INPUTS, enable_const_eval=False)
    func = next(iter(module.functions()))
    x, w, c, u = func.regions[0].entry.args
    tiled = [a.type.resolve().encoding.resolve().typed.is_tiled for a in (x, w, c, u)]
    assert tiled == [False, True, True, False]  # inputs row-major (even unread); parameters and KV caches tiled
    ops = [op.name for op in func.regions[0].entry.ops if op.name != "ttnn.deallocate"]
    assert ops == ["ttnn.relu", "ttnn.to_layout", "ttnn.add", "ttnn.multiply", "ttnn.add", "func.return"]
    tile = next(op for op in func.regions[0].entry.ops if op.name == "ttnn.to_layout")
    assert tile.operands[0] is x and len(x.uses) == 1  # one tilize serves both readers
    assert {u.name for u in tile.results[0].users} >= {"ttnn.add", "ttnn.multiply"}
    assert func.attributes["tt.function_type"].value == "forward_device"


def test_a_row_major_result_in_l1_interleaved_memory_is_one_row_per_core() -> None:
    from ttopt.dialects.ttnn_attrs import BufferType
    from ttopt.lowering.ttnn_op_validation import _produced
    from ttopt.optimizer.rewrite import LayoutAliaser

    text = """#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#rm = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xsi32, #dram>, <interleaved>>
#t = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2x!ttcore.tile<32x32, si32>, #l1>, <interleaved>>
module {
  func.func @f(%a: tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #t> {
    %0 = "ttnn.neg"(%a) : (tensor<32x64xsi32, #rm>) -> tensor<32x64xsi32, #t>
    return %0 : tensor<32x64xsi32, #t>
  }
}
"""
    module = parse_module(text, "t.mlir")
    op = next(o for o in module.walk() if o.name == "ttnn.neg")
    produced = _produced(op, 0, LayoutAliaser(module))
    assert produced is not None
    lay = produced.encoding.resolve().typed
    # tt-mlir's canonical row-major L1-interleaved form: ceil(32 * 64 / 64 cores) elements per core.
    assert not lay.is_tiled and lay.buffer_type is BufferType.L1 and lay.shard_shape == (1, 32)


def test_a_folded_conv_keeps_its_name_for_overrides() -> None:
    text = """module {
  func.func @f(%x: tensor<1x16x16x32xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
               %s: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<1x14x14x64xbf16> {
    %0 = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>) -> tensor<1x14x14x64xbf16> loc("conv1")
    %1 = "ttir.multiply"(%0, %s) : (tensor<1x14x14x64xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x14x14x64xbf16> loc("scale")
    return %1 : tensor<1x14x14x64xbf16>
  }
}
"""
    module, _ = _lower(text, optimization_level=1, override_conv2d_config=["conv1=act_block_h_override#64"])
    conv = next(op for op in module.walk() if op.name == "ttnn.conv2d")
    assert conv.location.name == "conv1" and "act_block_h_override = 64" in print_module(module)
    assert not any(op.name == "ttnn.multiply" for f in module.functions() if "const_eval" not in f.properties["sym_name"].text for op in f.walk())


def test_an_integer_input_reaches_a_d2m_subgraph_tiled() -> None:
    text = """module {
  func.func @f(%a: tensor<32x64xsi32> {ttcore.argument_type = #ttcore.argument_type<input>},
               %b: tensor<32x64xbf16> {ttcore.argument_type = #ttcore.argument_type<input>}) -> tensor<32x64xbf16> {
    %0 = "ttir.typecast"(%a) : (tensor<32x64xsi32>) -> tensor<32x64xbf16>
    %1 = "ttir.add"(%0, %b) : (tensor<32x64xbf16>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
    %2 = "ttir.exp"(%1) : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
    return %2 : tensor<32x64xbf16>
  }
}
"""
    module, _ = _lower(text, enable_create_d2m_subgraphs=True)
    names = [op.name for op in module.walk()]
    assert "ttnn.generic" in names and "ttnn.d2m_subgraph" not in names
