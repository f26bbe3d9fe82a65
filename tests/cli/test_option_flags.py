"""Plain option flags in a run of several passes: each reaches every pass of the run that declares
the option (a pipeline hands it on to its steps), and a flag no pass of the run takes is a usage
error naming it. tt-mlir's single-dash long options are accepted."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ttopt.cli import cli

MODEL = """module @jit_f {
  func.func public @main(%arg0: tensor<64x128xbf16>, %arg1: tensor<128x128xbf16>) -> tensor<64x128xbf16> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<64x128xbf16>, tensor<128x128xbf16>) -> tensor<64x128xbf16>
    %1 = stablehlo.tanh %0 : tensor<64x128xbf16>
    return %1 : tensor<64x128xbf16>
  }
}
"""


def run(*args: str, input: str = MODEL):
    return CliRunner().invoke(cli, ["opt", "-", *args], input=input)


def test_a_flag_no_pass_takes_is_a_usage_error() -> None:
    r = run("--stablehlo-pipeline", "--convert-to-ttir", "--verify-l1-budget")
    assert r.exit_code == 2
    assert "--verify-l1-budget: no pass in this run takes this option" in r.stderr
    assert "ttnn-optimizer" in r.stderr  # where it belongs
    r = run("--max-legal-layouts", "4")
    assert r.exit_code == 2 and "--max-legal-layouts: no pass in this run takes this option" in r.stderr


def test_mesh_shape_reaches_the_sharding_and_backend_pipelines(tmp_path: Path) -> None:
    stats = tmp_path / "s.json"
    r = run("--stablehlo-pipeline", "--stablehlo-to-ttir-pipeline", "--ttir-to-ttnn-backend-pipeline=optimization-level=2",
            "--mesh-shape=1,2", "--verify-l1-budget", "--stats", str(stats))  # fmt: skip
    assert r.exit_code == 0, r.output
    assert '#ttcore.meshes<[<"mesh" = 1x2>]>' in r.stdout and '"ttnn.distribute_tensor"' in r.stdout
    s = json.loads(stats.read_text())
    assert any(step["pass"] == "ttnn-optimizer" and step["status"] == "ran" for step in s["ttir-to-ttnn-backend-pipeline"]["steps"])


def test_a_mesh_shape_gives_a_program_without_a_mesh_that_mesh() -> None:
    # tt-mlir's determineMeshShape: without ttcore.meshes the option is the mesh (a mismatch with
    # the module's own mesh stays an error: testdata/ttir/mesh_shape.mlir).
    r = run("--stablehlo-to-ttir-pipeline", "--ttir-to-ttnn-backend-pipeline", "--mesh-shape=1,2")
    assert r.exit_code == 0, r.output
    assert '#ttcore.meshes<[<"mesh" = 1x2>]>' in r.stdout


def test_an_optimizer_option_without_the_optimizer_is_a_usage_error() -> None:
    r = run("--stablehlo-to-ttir-pipeline", "--ttir-to-ttnn-backend-pipeline", "--verify-l1-budget")
    assert r.exit_code == 2
    assert "verify-l1-budget is an option of the ttnn-optimizer, which does not run here" in r.stderr


def test_single_dash_long_options_as_tt_mlir_spells_them() -> None:
    text = MODEL + "// -----\n" + MODEL
    r = run("-split-input-file", "--stablehlo-to-ttir-pipeline", input=text)
    assert r.exit_code == 0, r.output
    assert r.stdout.count('"ttir.tanh"') == 2 and "// -----" in r.stdout
