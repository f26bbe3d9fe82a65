"""Bad option values of the sharding passes are usage errors (exit 2) before any input is read."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ttopt.cli import cli

BAD = [
    ["--convert-to-ttnn-ccl", "--num-links", "-1"],
    ["--convert-to-ttnn-ccl", "--num-links", "0"],
    ["--convert-to-ttnn-ccl", "--num-links", "4294967296"],
    ["--stablehlo-pipeline", "--mesh-shape", "0,2"],
    ["--stablehlo-pipeline", "--mesh-shape", "1,2,3"],
    ["--stablehlo-pipeline", "--argument-types", "main=bogus"],
    ["--apply-tt-argument-annotations", "--argument-types", "no-equals-sign"],
    ["--apply-shardy-argument-annotations", "--mesh-shape", "x,y"],
    ["--pass-pipeline=builtin.module(aggressive-propagation{conservative-propagation=maybe})"],
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_option_value_is_a_usage_error(args: list[str]) -> None:
    # The input does not even parse: the option must be rejected before it is read.
    r = CliRunner().invoke(cli, ["opt", *args], input="this is not MLIR")
    assert r.exit_code == 2, r.output
    assert "internal error" not in r.output
    assert len([ln for ln in r.output.splitlines() if ln.startswith("Error:")]) == 1


@pytest.mark.parametrize("links", ["1", "4"])
def test_good_num_links_is_accepted(links: str) -> None:
    r = CliRunner().invoke(cli, ["opt", "--convert-to-ttnn-ccl", "--num-links", links], input="module {}\n")
    assert r.exit_code == 0, r.output
