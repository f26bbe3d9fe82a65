"""No optimization level is estimated slower than level 0 (ttopt's analytic cost model, summed over
every ttnn op of the program): on every bundled model, JAX (testdata/models, through the StableHLO
pipeline) and TTNN (testdata/optimizer, through the ttnn-optimizer as each level configures it).
Level 2's default policy is CostBased, which keeps the input when no plan beats it; DFSharding stays
selectable by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.device import CostModel, load_device
from ttopt.ir.module import Module
from ttopt.lowering.backend_pipeline import TTIRToTTNNBackendPipeline
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.ttnn_outputs import run_pipeline

TESTDATA = Path(__file__).resolve().parents[2] / "testdata"
CHAIN = "builtin.module(stablehlo-pipeline, convert-to-ttir, ttir-to-ttnn-backend-pipeline{{{}}})"
JAX_MODELS = sorted(p for p in (TESTDATA / "models").glob("*.mlir") if ".debug." not in p.name)
# Not optimizer inputs: no_forward is written to make the optimizer fail (its lit test checks the
# diagnostic); seed001_dispatch holds only the checks of a run on testdata/seeds/001_input.mlir.
ERROR_CASES = {"no_forward", "seed001_dispatch"}
TTNN_INPUTS = sorted(p for p in (TESTDATA / "optimizer").glob("*.mlir") if "// -----" not in p.read_text() and p.stem not in ERROR_CASES)


def _ns(module: Module) -> float:
    """The per-call estimate: const-eval functions run once (ttcore.load_cached), not per call."""
    return sum(f.ns for f in CostModel(load_device(None, module)).module_cost(module) if "_const_eval_" not in f.name)


def test_level_2_defaults_to_cost_based_and_dfsharding_is_selectable() -> None:
    assert TTIRToTTNNBackendPipeline(optimization_level=2).optimizer().memory_layout_analysis_policy == "CostBased"
    chosen = TTIRToTTNNBackendPipeline(optimization_level=2, memory_layout_analysis_policy="DFSharding").optimizer()
    assert chosen.memory_layout_analysis_policy == "DFSharding"


@pytest.mark.parametrize("path", JAX_MODELS, ids=lambda p: p.stem)
def test_no_level_is_slower_than_level_0_on_a_jax_model(path: Path) -> None:
    text = path.read_text()
    ns = [_ns(run_pipeline(text, str(path), CHAIN.format(f"optimization-level={level}"))) for level in (0, 1, 2)]
    assert ns[0] > 0
    assert ns[1] <= ns[0] and ns[2] <= ns[0], ns
    assert ns[2] < ns[0]  # these models all have something worth keeping in L1


@pytest.mark.parametrize("path", TTNN_INPUTS, ids=lambda p: p.stem)
def test_no_level_is_slower_than_level_0_on_an_optimizer_input(path: Path) -> None:
    text = path.read_text()
    ns = [_ns(parse_module(text, str(path)))]
    for level in (1, 2):
        module = parse_module(text, str(path))
        TTIRToTTNNBackendPipeline(optimization_level=level).optimizer().run(module, PassContext())
        ns.append(_ns(module))
    assert ns[1] <= ns[0] * (1 + 1e-9) and ns[2] <= ns[0] * (1 + 1e-9), ns
