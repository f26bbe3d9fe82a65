"""One chain from JAX to an optimized TTNN program: every testdata/jax module whose ops
all lower goes through `stablehlo-pipeline, convert-to-ttir, ttir-to-ttnn-backend-pipeline`; the
TTNN output re-parses, verifies and fits L1. The others stop with an error naming their first op
without a lowering; `EXPECTED_ERRORS` lists them (and the test fails if one starts to lower, so the
list stays true)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.optimizer.analyses import forward_functions
from ttopt.optimizer.l1_budget_check import check_l1_budget
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline

JAX = Path(__file__).resolve().parents[2] / "testdata" / "jax"

# file stem -> the op (and why) it stops at
EXPECTED_ERRORS = {
    "complex_fft": "'stablehlo.fft'",
    "cond_switch": "'stablehlo.case'",
    "custom_call_cholesky": "'stablehlo.custom_call'",
    "dynamic_shape": "'stablehlo.dot_general'",  # dynamic shapes
    "elementwise_misc": "'stablehlo.round_nearest_even'",
    "reduce_generic_body": "'stablehlo.reduce'",  # a reducer body of several ops
    "scan": "'stablehlo.while'",
    "shard_map_combined": "'stablehlo.partition_id'",
    "shard_map_combined.debug": "'stablehlo.partition_id'",
    "sharding_constraint_multi_axis": "'stablehlo.all_to_all'",  # replica groups tt's 2-D mesh cannot express
    "while_fori_loop": "'stablehlo.while'",
}
CHAIN = "builtin.module(stablehlo-pipeline, convert-to-ttir, ttir-to-ttnn-backend-pipeline{{{}}})"


def _files() -> list[Path]:
    return sorted(JAX.glob("*.mlir"))


def _run(path: Path, options: str) -> object:
    text = path.read_text()
    module = parse_module(text, str(path))
    pipeline = CHAIN.format(options)
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    return module


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.stem)
def test_jax_module_reaches_ttnn(path: Path) -> None:
    expected = EXPECTED_ERRORS.get(path.stem)
    if expected is not None:
        with pytest.raises(Diagnostic) as e:
            _run(path, "optimization-level=2")
        assert expected in str(e.value), str(e.value)
        return
    for options in ("optimization-level=2", "enable-greedy-optimizer=true"):
        module = _run(path, options)
        text = print_module(module)  # type: ignore[arg-type]
        assert "stablehlo." not in text and '"ttir.' not in text, path.name
        again = parse_module(text, path.name)
        verify(again)
        for func in forward_functions(again):
            from ttopt.device import OpModel, load_device

            model = OpModel(load_device(None, again))
            assert check_l1_budget(func.regions[0].entry, model) is None, (path.name, options)
