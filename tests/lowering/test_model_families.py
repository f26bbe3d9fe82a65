"""Real JAX models of the common families (testdata/models) go from StableHLO to TTNN in one run.

For every family, plain and with `debug_info=True`:
* the whole chain (sharding pipeline, StableHLO -> TTIR, the TTNN backend pipeline at
  optimization level 2) succeeds; the TTNN output re-parses, verifies, holds no StableHLO or TTIR
  op, and every forward function fits the L1 budget when its schedule is replayed;
* the TTIR program keeps the numbers: the numpy TTIR interpreter, run on the inputs stored in
  `<family>.npz`, gives JAX's own outputs stored beside them (`generate.py` ran JAX on the same
  inputs). The 2x4-mesh families are checked on their global TTIR program (the sharding pipeline's
  own numerical checks are tests/sharding/test_spmd_simulation.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.optimizer.analyses import forward_functions
from ttopt.optimizer.l1_budget_check import check_l1_budget
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline
from ttopt.testing.ttir_interpreter import run

MODELS = Path(__file__).resolve().parents[2] / "testdata" / "models"
FAMILIES = sorted(p.stem for p in MODELS.glob("*.npz"))
TO_TTNN = "builtin.module(stablehlo-pipeline, convert-to-ttir, ttir-to-ttnn-backend-pipeline{optimization-level=2})"
TO_TTIR = "builtin.module(convert-stablehlo-to-ttir)"
# Families whose global program still holds manual computations: shard_map bodies with collectives
# only have a meaning per device, so their TTIR is checked by the SPMD simulation instead.
PER_DEVICE_ONLY = {"gpt2_dp_tp_shard_map"}


def _run(text: str, name: str, pipeline: str) -> object:
    module = parse_module(text, name)
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    return module


REQUIRED = {"gpt2", "llama", "llama_decode", "bert", "resnet", "vit", "mlp_mixer", "moe", "gpt2_dp_tp", "gpt2_dp_tp_shard_map",
            "train_mlp_adam", "train_transformer_adam", "unet_block"}  # fmt: skip


def test_every_family_has_its_three_files() -> None:
    assert REQUIRED <= set(FAMILIES), REQUIRED - set(FAMILIES)
    for name in FAMILIES:
        assert (MODELS / f"{name}.mlir").is_file() and (MODELS / f"{name}.debug.mlir").is_file(), name


@pytest.mark.parametrize("variant", ["", ".debug"])
@pytest.mark.parametrize("name", FAMILIES)
def test_family_reaches_ttnn_and_fits_l1(name: str, variant: str) -> None:
    path = MODELS / f"{name}{variant}.mlir"
    module = _run(path.read_text(), path.name, TO_TTNN)
    text = print_module(module)  # type: ignore[arg-type]
    # No StableHLO or TTIR op is left (`ttir.cpu_hoisted_call` is the name of a call's marker).
    assert not re.search(r"\b(stablehlo|ttir)\.(?!cpu_hoisted_call\b)", text), path.name
    again = parse_module(text, path.name)
    verify(again)
    from ttopt.device import OpModel, load_device

    model = OpModel(load_device(None, again))
    for func in forward_functions(again):
        assert check_l1_budget(func.regions[0].entry, model) is None, path.name


@pytest.mark.parametrize("name", [n for n in FAMILIES if n not in PER_DEVICE_ONLY])
def test_family_ttir_matches_jax(name: str) -> None:
    data = np.load(MODELS / f"{name}.npz")
    inputs = [data[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in data.files))]
    expected = [data[f"out{i}"] for i in range(sum(k.startswith("out") for k in data.files))]
    module = _run((MODELS / f"{name}.mlir").read_text(), f"{name}.mlir", TO_TTIR)
    got = run(module, "main", inputs)  # type: ignore[arg-type]
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == e.shape, (i, g.shape, e.shape)
        assert np.isfinite(np.asarray(e, np.float64)).all(), f"{name} out{i}: JAX's reference is not finite"
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(e, np.float64), rtol=2e-3, atol=2e-3, equal_nan=False, err_msg=f"{name} out{i}")


def test_one_command_from_jax_to_ttnn(tmp_path: Path) -> None:
    out = tmp_path / "gpt2.ttnn.mlir"
    cmd = [sys.executable, "-m", "ttopt", "opt", str(MODELS / "gpt2.mlir"), "--stablehlo-pipeline", "--convert-to-ttir",
           "--ttir-to-ttnn-backend-pipeline=optimization-level=2", "-o", str(out)]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "ttnn.matmul" in text or "ttnn.linear" in text
    assert "ttnn.embedding" in text


def test_decode_step_writes_its_caches_in_place() -> None:
    """JAX's dynamic_update_slice of each new K/V becomes tt-mlir's in-place cache update (and the
    numbers above still match JAX's, the caches returned included)."""
    module = _run((MODELS / "llama_decode.mlir").read_text(), "llama_decode.mlir", TO_TTIR)
    names = [op.name for op in module.walk()]  # type: ignore[attr-defined]
    assert names.count("ttir.update_cache") == 4
    assert "ttir.scatter" not in names
