"""`stablehlo-to-ttir-pipeline`: tt-mlir's option names and step order, what each option switches,
and the composite rules (ttopt/lowering/composites.py) on the forms tt-mlir's rules reject."""

from __future__ import annotations

import re
import subprocess

import pytest

from bench.lit_conformance import TTMLIR_MIRROR
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.lowering.stablehlo_to_ttir_pipeline import StableHLOToTTIRPipeline
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.registry import get_pass

MIRROR = TTMLIR_MIRROR
HEADER = "include/ttmlir/Dialect/TTIR/Pipelines/TTIRPipelines.h"

PLAIN = """module {
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %c = arith.constant dense<1.000000e+00> : tensor<4xf32>
    %0 = stablehlo.composite "my.neg" %arg0 {decomposition = @neg} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.add %0, %c : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @neg(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""


def _run(text: str, **options: object) -> tuple[str, dict]:
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    PassManager([StableHLOToTTIRPipeline.from_options(dict(options))], ctx).run(module)
    return print_module(module), ctx.stats


def _steps(stats: dict) -> list[tuple[int, str, str]]:
    return [(s["step"], s["pass"], s["status"]) for s in stats["stablehlo-to-ttir-pipeline"]["steps"]]


def test_steps_run_in_tt_mlirs_order() -> None:
    text, stats = _run(PLAIN)
    assert _steps(stats) == [
        (1, "convert-arith-to-stablehlo", "ran"),
        (2, "stablehlo-aggressive-simplification", "skipped (not implemented in ttopt)"),
        (3, "stablehlo-complex-math-expander", "skipped (no complex types)"),
        (4, "legalize-stablehlo-composite-to-ttir", "ran"),
        (5, "stablehlo-legalize-composite-to-call", "ran"),
        (6, "inline", "ran"),
        (7, "convert-to-ttir", "skipped (no Shardy or collective ops)"),
        (7, "convert-stablehlo-to-ttir", "ran"),
        (8, "cse", "ran"),
        (9, "ttcore-wrap-device-module", "skipped (enable-cpu-fallback=false)"),
        (10, "cpu-hoist-non-lowerable-shlo-ops", "skipped (enable-cpu-fallback=false)"),
        (11, "convert-stablehlo-to-ttir", "skipped (enable-cpu-fallback=false)"),
    ]
    assert '"ttir.neg"(%arg0)' in text and '"ttir.constant"' in text
    assert "stablehlo." not in text and "arith." not in text and "@neg" not in text


def test_options_switch_their_steps() -> None:
    # Without the arith step the constant stays (tt-mlir's conversion does not make arith illegal).
    text, _ = _run(PLAIN, **{"enable-arith-to-stablehlo": False})
    assert "arith.constant dense<1.000000e+00>" in text and '"ttir.add"' in text
    with pytest.raises(Diagnostic, match="failed to legalize operation 'stablehlo.composite' to TTIR"):
        _run(PLAIN, **{"enable-composite-to-call": False})
    _, stats = _run(PLAIN.replace("arith.constant", "stablehlo.constant"), **{"enable-aggressive-simplification": False})
    steps = _steps(stats)
    assert steps[0] == (1, "convert-arith-to-stablehlo", "skipped (no arith ops)")
    assert steps[1] == (2, "stablehlo-aggressive-simplification", "skipped (enable-aggressive-simplification=false)")


def test_cpu_fallback_wraps_the_program_and_runs_tt_mlirs_steps() -> None:
    """Off by default (the module doc says why); on, the program is wrapped in a device module,
    with nothing hoisted when no allow-listed op is left."""
    assert StableHLOToTTIRPipeline().enable_cpu_fallback is False
    text, stats = _run(PLAIN, **{"enable-cpu-fallback": True})
    assert _steps(stats)[-4:] == [(8, "cse", "ran"), (9, "ttcore-wrap-device-module", "ran"),
                                  (10, "cpu-hoist-non-lowerable-shlo-ops", "ran"), (11, "convert-stablehlo-to-ttir", "ran")]  # fmt: skip
    assert text.startswith("module {\n  ttcore.device_module {\n    builtin.module {") and "ttcore.cpu_module" not in text
    assert '"ttir.neg"(%arg0)' in text


def test_complex_arithmetic_is_a_diagnostic_at_the_op() -> None:
    """Complex tensors become float pairs, but complex math is not expanded: an error at the op."""
    text = """func.func @f(%a: tensor<2xf32>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.complex %a, %a : tensor<2xcomplex<f32>>
  %1 = stablehlo.multiply %0, %0 : tensor<2xcomplex<f32>>
  return %1 : tensor<2xcomplex<f32>>
}
"""
    with pytest.raises(Diagnostic) as e:
        _run(text)
    assert "'stablehlo.multiply' on complex values is not supported" in e.value.message
    assert e.value.render().startswith("t.mlir:3:8: error:")


def test_complex_values_are_float_pairs_with_the_real_part_first() -> None:
    text = """func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %z: tensor<2x3xcomplex<f32>>) -> (tensor<2x3xcomplex<f32>>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = stablehlo.complex %a, %b : tensor<2x3xcomplex<f32>>
  %1 = stablehlo.imag %z : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  %2 = stablehlo.real %0 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xcomplex<f32>>, tensor<2x3xf32>, tensor<2x3xf32>
}
"""
    import numpy as np

    from ttopt.testing.ttir_interpreter import run

    printed, _ = _run(text)
    assert "func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<2x3x2xf32>) -> (tensor<2x3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>)" in printed
    rng = np.random.default_rng(0)
    a, b, z = (rng.standard_normal(s).astype(np.float32) for s in ((2, 3), (2, 3), (2, 3, 2)))
    pair, imag, real = run(parse_module(printed, "c.mlir"), "main", [a, b, z])
    np.testing.assert_array_equal(pair, np.stack([a, b], -1))
    np.testing.assert_array_equal(imag, z[..., 1])
    np.testing.assert_array_equal(real, a)  # real(complex(a, b)) folds to a


def test_sharding_conversion_runs_when_the_module_has_shardy_ops() -> None:
    text = """module {
  sdy.mesh @mesh = <["x"=1, "y"=2]>
  func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
"""
    out, stats = _run(text)
    assert (7, "convert-to-ttir", "ran") in _steps(stats)
    assert 'ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>' in out and "sdy." not in out


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason=f"no tenstorrent/tt-mlir mirror at {MIRROR}")
def test_option_names_are_tt_mlirs() -> None:
    header = subprocess.run(["git", "--git-dir", str(MIRROR), "show", f"HEAD:{HEADER}"], capture_output=True, text=True, check=True).stdout
    struct = header[header.index("struct StableHLOToTTIRPipelineOptions") : header.index("#endif", header.index("struct StableHLOToTTIRPipelineOptions"))]
    upstream = set(re.findall(r'\*this,\s*"([a-z0-9-]+)"', struct))
    assert upstream == {s.name for s in StableHLOToTTIRPipeline.option_specs()}
    assert 'PassPipelineRegistration<StableHLOToTTIRPipelineOptions>(\n      "stablehlo-to-ttir-pipeline"' in subprocess.run(
        ["git", "--git-dir", str(MIRROR), "show", "HEAD:lib/Dialect/TTIR/Pipelines/TTIRPipelines.cpp"], capture_output=True, text=True, check=True
    ).stdout


# -- composites ---------------------------------------------------------------------------------
def _legalize(text: str) -> str:
    module = parse_module(text, "c.mlir")
    cls = get_pass("legalize-stablehlo-composite-to-ttir")
    assert cls is not None
    PassManager([cls()], PassContext()).run(module)
    return print_module(module)


def _composite(name: str, attrs: str, operands: str = "%arg0", types: str = "(tensor<1x8xf32>) -> tensor<1x8xf32>") -> str:
    return f"""module {{
  func.func @f(%arg0: tensor<1x8xf32>, %arg1: tensor<1x8xi32>) -> tensor<1x8xf32> {{
    %0 = stablehlo.composite "{name}" {operands} {{{attrs}decomposition = @impl}} : {types}
    return %0 : tensor<1x8xf32>
  }}
  func.func private @impl(%arg0: tensor<1x8xf32>) -> tensor<1x8xf32> {{
    return %arg0 : tensor<1x8xf32>
  }}
}}
"""


@pytest.mark.parametrize(
    "name,attrs,operands,types",
    [
        ("tenstorrent.topk_values", "", "%arg0", "(tensor<1x8xf32>) -> tensor<1x8xf32>"),  # no composite_attributes
        ("tenstorrent.gather", "composite_attributes = {}, ", "%arg0, %arg1", "(tensor<1x8xf32>, tensor<1x8xi32>) -> tensor<1x8xf32>"),  # no dim
        ("tenstorrent.rms_norm", "composite_attributes = {normalized_shape = 3.0 : f32}, ", "%arg0", "(tensor<1x8xf32>) -> tensor<1x8xf32>"),
        ("tenstorrent.uniform", "composite_attributes = {shape = [8 : i32]}, ", "%arg0", "(tensor<1x8xf32>) -> tensor<1x8xf32>"),  # no bounds
        ("tenstorrent.adamw", "composite_attributes = {lr = 1.0 : f32}, ", "%arg0", "(tensor<1x8xf32>) -> tensor<1x8xf32>"),
        ("tenstorrent.sdpa_fw", "composite_attributes = {mask_type = 7 : i64}, ", "%arg0", "(tensor<1x8xf32>) -> tensor<1x8xf32>"),
        ("tenstorrent.scaled_dot_product_attention", "", "%arg0", "(tensor<1x8xf32>) -> tensor<1x8xf32>"),  # one operand
    ],
)
def test_a_form_the_rule_does_not_take_stays_for_its_decomposition(name: str, attrs: str, operands: str, types: str) -> None:
    out = _legalize(_composite(name, attrs, operands, types))
    assert f'stablehlo.composite "{name}"' in out
    assert '"ttir.' not in out  # nothing half-built is left behind


def test_unknown_composites_are_left_alone() -> None:
    out = _legalize(_composite("acme.thing", ""))
    assert 'stablehlo.composite "acme.thing"' in out


def test_composite_to_call_then_inline_keeps_result_uses() -> None:
    module = parse_module(_composite("acme.thing", ""), "c.mlir")
    to_call, inline = get_pass("stablehlo-legalize-composite-to-call"), get_pass("inliner")
    assert to_call is not None and inline is not None
    PassManager([to_call()], PassContext()).run(module)
    assert "func.call @impl(%arg0)" in print_module(module) or "call @impl(%arg0)" in print_module(module)
    PassManager([inline()], PassContext()).run(module)
    out = print_module(module)
    assert "@impl" not in out and "return %arg0 : tensor<1x8xf32>" in out
