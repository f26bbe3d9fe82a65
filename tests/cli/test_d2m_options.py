"""The backend pipeline's D2M options on the command line: enable-d2m-elementwise-fusion needs
enable-create-d2m-subgraphs (tt-mlir's resolveCreateD2MSubgraphsOptions), a non-boolean value is a
usage error naming the option, and a valid combination runs."""

from __future__ import annotations

from click.testing import CliRunner

from ttopt.cli import cli

CHAIN = """module {
  func.func @f(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
    %0 = "ttir.add"(%a, %b) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %1 = "ttir.exp"(%0) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
    return %1 : tensor<64x64xbf16>
  }
}
"""


def run(pipeline_options: str):
    return CliRunner().invoke(cli, ["opt", "-", f"--ttir-to-ttnn-backend-pipeline={pipeline_options}"], input=CHAIN)


def test_elementwise_fusion_without_subgraphs_is_a_usage_error() -> None:
    r = run("enable-d2m-elementwise-fusion=true")
    assert r.exit_code == 2
    assert "enable-d2m-elementwise-fusion=true requires enable-create-d2m-subgraphs to be enabled" in r.stderr
    assert "Traceback" not in r.output


def test_a_bad_value_of_create_d2m_subgraphs_is_a_usage_error() -> None:
    r = run("enable-create-d2m-subgraphs=maybe")
    assert r.exit_code == 2
    assert "enable-create-d2m-subgraphs" in r.stderr
    assert "Traceback" not in r.output


def test_subgraphs_with_fusion_off_compile_one_generic_per_op() -> None:
    fused = run("enable-create-d2m-subgraphs=true")
    unfused = run("enable-create-d2m-subgraphs=true enable-d2m-elementwise-fusion=false")
    assert fused.exit_code == 0 and unfused.exit_code == 0, fused.output + unfused.output
    # fused: compute + to_layout; unfused: add, exp, to_layout
    assert fused.stdout.count('"ttnn.generic"') == 2
    assert unfused.stdout.count('"ttnn.generic"') == 3
    assert '"ttnn.add"' not in fused.stdout and "ttnn.d2m_subgraph" not in fused.stdout
