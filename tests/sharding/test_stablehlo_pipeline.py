"""stablehlo-pipeline: step order, skipping Shardy steps a module cannot need, and the diagnostic
when a needed Shardy step is missing (it must never pretend)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.parse.parser import parse_module
from ttopt.passes import registry
from ttopt.passes.context import PassContext
from ttopt.sharding.pipeline import STEPS, StableHLOPipeline

SEEDS = Path(__file__).resolve().parents[2] / "testdata" / "seeds"


def test_steps_are_the_seeds_thirteen_in_order() -> None:
    assert [s.name for s in STEPS] == [
        "inliner", "apply-tt-argument-annotations", "apply-argument-shard-status", "apply-shardy-argument-annotations",
        "apply-sharding-constraints", "aggressive-propagation", "sharding-constraint-to-reshard",
        "insert-explicit-reshards", "wrap-under-manual-computation", "reshard-to-collectives",
        "update-global-to-local-shapes", "close-shardings", "canonicalize",
    ]
    assert [s.number for s in STEPS if s.shardy] == [5, 6, 7, 8, 10]


@pytest.fixture
def without_shardy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry as it was before the Shardy core passes landed."""
    real = registry.get_pass
    shardy = {s.name for s in STEPS if s.shardy}
    monkeypatch.setattr("ttopt.sharding.pipeline.get_pass", lambda name: None if name in shardy else real(name))


def _run(name: str, **opts) -> tuple:
    m = parse_module((SEEDS / f"004_{name}.mlir").read_text())
    ctx = PassContext()
    StableHLOPipeline(**opts).run(m, ctx)
    return m, ctx.stats["stablehlo-pipeline"]["steps"]


def test_missing_propagation_is_a_diagnostic(without_shardy: None) -> None:
    with pytest.raises(Diagnostic) as e:
        _run("case4_before")
    assert "step 6 'aggressive-propagation' is not available" in e.value.message
    assert "argument #0 of @main has an sdy sharding" in e.value.message


def test_missing_constraint_step_names_the_constraint(without_shardy: None) -> None:
    with pytest.raises(Diagnostic) as e:
        _run("case6_before")
    assert "step 5 'apply-sharding-constraints'" in e.value.message
    assert "the 'sdy.sharding_constraint' op" in e.value.message
    assert e.value.pos is not None


def test_solved_and_single_chip_graphs_need_no_shardy_step(without_shardy: None) -> None:
    _, steps = _run("case3_before", argument_types="main=input,parameter")
    status = {s["step"]: s["status"] for s in steps}
    assert status[6] == "skipped (solved graph)" and status[11] == "ran"
    _, steps = _run("case1_before")  # 1x1: no shardings anywhere
    assert {s["step"]: s["status"] for s in steps}[6] == "skipped (not registered; nothing needs it)"


def test_options_reach_the_steps() -> None:
    m, steps = _run("case1_before", argument_types="abs=input", mesh_shape=["1", "2"])
    assert [s["status"] for s in steps][:4] == ["ran"] * 4
    assert all(s["status"] == "ran" for s in steps)
