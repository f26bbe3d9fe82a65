"""CLI tests: FileCheck-style RUN/CHECK lines in testdata/topology/*.yaml, plus exit codes."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttopt.cli.topology import topology

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "testdata" / "topology"


def _run_lines():
    for path in sorted(DATA.glob("*.yaml")):
        for no, line in enumerate(path.read_text().splitlines(), 1):
            if line.startswith("# RUN:"):
                yield pytest.param(path, line[len("# RUN:"):].strip(), id=f"{path.name}:{no}")


@pytest.mark.parametrize("path,command", list(_run_lines()))
def test_filecheck(path: Path, command: str) -> None:
    if shutil.which("filecheck") is None:
        pytest.skip("filecheck not installed")
    command = command.replace("%s", str(path)).replace("%S", str(path.parent))
    producer, checker = command.rsplit("|", 1)
    producer = producer.strip()
    expect_fail = producer.startswith("not ")
    if expect_fail:
        producer = producer[4:]
    assert producer.startswith("ttopt ")
    producer = f"{shlex.quote(sys.executable)} -m ttopt " + producer[len("ttopt "):]
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="160", NO_COLOR="1")
    out = subprocess.run(producer, shell=True, capture_output=True, text=True, env=env,
                         cwd=ROOT)
    assert "Traceback" not in out.stderr, out.stderr
    assert (out.returncode != 0) == expect_fail, (out.returncode, out.stdout, out.stderr)
    check = subprocess.run(checker.strip(), shell=True, input=out.stdout, capture_output=True,
                           text=True, cwd=ROOT)
    assert check.returncode == 0, check.stdout + check.stderr + "\n--- output ---\n" + out.stdout


def invoke(*args: str):
    return CliRunner().invoke(topology, list(args))


def test_map_ok_exit_0_and_grid_picture() -> None:
    r = invoke("map", "--target", "ring:8", "--global", "mesh:2x4")
    assert r.exit_code == 0, r.output
    assert "0─1─2─3" in r.output
    assert "mapped: engine path" in r.output


def test_no_mapping_exit_1_with_reason() -> None:
    r = invoke("map", "--target", "ring:31", "--global", "mesh:8x4")
    assert r.exit_code == 1
    assert "bipartite-parity" in r.output


def test_target_larger_exit_1() -> None:
    r = invoke("map", "--target", "mesh:9x4", "--global", "mesh:8x4")
    assert r.exit_code == 1
    assert "target graph is larger with 36 nodes, but global graph only has 32 nodes" in r.output


@pytest.mark.parametrize("args", [
    ["--target", "mesh:0x4", "--global", "mesh:8x4"],
    ["--target", "mesh:4", "--global", "mesh:8x4"],
    ["--target", "blob:3", "--global", "mesh:8x4"],
    ["--target", "ring:2", "--global", "mesh:8x4"],
    ["--target", "no/such/file.yaml", "--global", "mesh:8x4"],
    ["--target", "ring:4", "--global", "mesh:2x4", "--pin", "0=77"],
    ["--target", "ring:4", "--global", "mesh:2x4", "--pin", "x=1"],
    ["--target", "ring:4", "--global", "mesh:2x4", "--pin", "01"],
    ["--target", "ring:4", "--global", "mesh:2x4", "--remove-link", "0-7"],
    ["--target", "ring:4", "--global", "mesh:2x4", "--remove-link", "0-99"],
    ["--target", "ring:4", "--global", "mesh:2x4", "--mode", "loose"],
    ["--target", "ring:4", "--global", "mesh:2x4", "--timeout", "0"],
])
def test_usage_errors_exit_2(args: list[str]) -> None:
    r = invoke("map", *args)
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_json_output_and_pins() -> None:
    r = invoke("map", "--target", "line:4", "--global", "mesh:2x4", "--pin", "0=5",
               "--forbid", "1=4", "--prefer", "3=2", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    mapping = dict((t, g) for t, g in data["mapping"])
    assert mapping[0] == 5 and mapping[1] != 4
    assert data["status"] == "mapped"


def test_contradicting_pins_exit_1() -> None:
    r = invoke("map", "--target", "ring:4", "--global", "mesh:2x4", "--pin", "0=1",
               "--forbid", "0=1")
    assert r.exit_code == 1
    assert "contradicts earlier constraints" in r.output


def test_pin_conflict_reason() -> None:
    r = invoke("map", "--target", "ring:4", "--global", "mesh:2x4", "--pin", "0=1", "--pin", "1=1")
    assert r.exit_code == 1
    assert "Pre-assignment conflict" in r.output


def test_trace_goes_to_stderr() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "ttopt", "topology", "map", "--target", "line:3", "--global",
         "mesh:2x2", "--trace"], capture_output=True, text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert res.returncode == 0
    assert "select" in res.stderr and "assign" in res.stderr
    assert "select" not in res.stdout


def test_limit_exit_1() -> None:
    r = invoke("map", "--target", "torus:4x4", "--global", "torus:8x4", "--engine", "search",
               "--node-limit", "1")
    assert r.exit_code == 1
    assert "gave up" in r.output


def test_show() -> None:
    r = invoke("show", "torus:3x3")
    assert r.exit_code == 0
    assert "9 nodes, 18 links, degrees {4: 9}" in r.output
    r = invoke("show", "mesh:2x2", "--json")
    assert json.loads(r.output) == {"0": [1, 2], "1": [0, 3], "2": [0, 3], "3": [1, 2]}
