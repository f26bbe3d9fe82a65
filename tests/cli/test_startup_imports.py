"""`ttopt opt` on a plain parse/print run, `--help` and `--version` import no heavy package: no
numpy, pydantic, scipy, rich, and no device model or pass package (they load when a pass that
needs them runs). Checked in a fresh interpreter, where nothing else has imported them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "testdata" / "ttnn" / "device_module_generic_form.mlir"
HEAVY = ("numpy", "pydantic", "scipy", "highspy", "rich", "ttopt.device", "ttopt.sharding", "ttopt.lowering", "ttopt.optimizer")

def _modules_after(args: list[str]) -> tuple[int, set[str]]:
    code = (
        "import json, sys\n"
        f"args = {json.dumps(args)}\n"
        "sys.argv = ['ttopt', *args]\n"
        "from ttopt.cli import main\n"
        "try:\n    main()\n    code = 0\nexcept SystemExit as e:\n    code = e.code or 0\n"
        "sys.stderr.write('\\nMODULES ' + json.dumps([code, sorted(sys.modules)]) + '\\n')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    line = next(ln for ln in r.stderr.splitlines() if ln.startswith("MODULES "))
    rc, modules = json.loads(line[len("MODULES ") :])
    return rc, set(modules)


def _heavy(modules: set[str]) -> list[str]:
    return sorted(h for h in HEAVY if any(m == h or m.startswith(h + ".") for m in modules))


@pytest.mark.parametrize("args", [["opt", str(SMALL)], ["opt", "--mlir-print-debuginfo", str(SMALL)], ["--help"], ["opt", "--help"], ["--version"]])
def test_a_plain_run_imports_no_heavy_package(args: list[str]) -> None:
    rc, modules = _modules_after(args)
    assert rc == 0
    assert "ttopt.parse.parser" in modules or args[-1] in ("--help", "--version")  # the probe saw the run
    assert _heavy(modules) == []


def test_a_pass_loads_what_it_needs() -> None:
    # The guard above can fail: running the optimizer does import the device model.
    rc, modules = _modules_after(["opt", "--ttnn-optimizer", str(SMALL)])
    assert rc == 0
    assert "ttopt.device" in _heavy(modules)

