"""tt-mlir's own dialect tests (read from the local mirror, never copied) parse and print to a
fixed point: the forms real tools print (issue 17 §1). Skipped when the mirror is absent.

Negative tests (a `negative` path, `expected-error`, `--verify-diagnostics`) and files marked
`UNSUPPORTED: true` upstream are left out; `// -----` splits a file into modules as in lit.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.parser import parse_module

MIRROR = Path("/work/.mirror/tenstorrent+tt-mlir/repo")
DIALECTS = ["TTIR", "TTNN", "StableHLO", "EmitC"]


def _git(*args: str) -> str:
    return subprocess.run(["git", f"--git-dir={MIRROR}", *args], capture_output=True, text=True, check=True).stdout


def _problem(name: str, text: str) -> str | None:
    """Why one upstream file does not round-trip (None when it does)."""
    opts = PrintOptions(debuginfo=True)
    for chunk in re.split(r"^// -----.*$", text, flags=re.M):
        try:
            once = print_module(parse_module(chunk, name), opts)
            if print_module(parse_module(once, name + " (printed)"), opts) != once:
                return "printed text is not a fixed point"
        except Diagnostic as e:
            return str(e).splitlines()[0]
    return None


@pytest.mark.skipif(not MIRROR.is_dir(), reason="tt-mlir mirror not present")
@pytest.mark.parametrize("dialect", DIALECTS)
def test_upstream_dialect_tests_round_trip(dialect: str) -> None:
    names = [n for n in _git("ls-tree", "-r", "--name-only", "HEAD", f"test/ttmlir/Dialect/{dialect}").split() if n.endswith(".mlir")]
    failures, checked = [], 0
    for name in names:
        text = _git("show", f"HEAD:{name}")
        if "negative" in name.lower() or "expected-error" in text or "verify-diagnostics" in text or "UNSUPPORTED: true" in text:
            continue
        checked += 1
        problem = _problem(name, text)
        if problem is not None:
            failures.append(f"{name}: {problem}")
    assert checked > 0
    assert not failures, f"{len(failures)}/{checked} upstream {dialect} tests fail:\n" + "\n".join(failures)
