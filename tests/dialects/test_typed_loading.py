"""Typed attribute models load per dialect, on the first typed lookup of that dialect's attribute
or type: each dialect's modules register factories for that dialect only, and a module with only
sdy attributes does not import the ttnn/ttcore models. Checked in fresh interpreters."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _fresh(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_each_dialect_s_modules_register_only_that_dialect() -> None:
    out = _fresh(
        "import json, ttopt\n"
        "from ttopt.ir.attributes import DIALECT_ATTR_FACTORIES as A, TYPED_ATTR_MODULES, load_typed_factories\n"
        "from ttopt.ir.types import DIALECT_TYPE_FACTORIES as T\n"
        "added = {}\n"
        "for d in ['sdy', 'stablehlo', 'ttcore', 'ttir', 'ttnn']:\n"
        "    before = set(A) | set(T)\n"
        "    load_typed_factories(d)\n"
        "    added[d] = sorted({k.partition('.')[0] for k in (set(A) | set(T)) - before})\n"
        "print(json.dumps({'added': added, 'listed': sorted(TYPED_ATTR_MODULES)}))\n"
    )
    assert out["listed"] == ["sdy", "stablehlo", "ttcore", "ttir", "ttnn"]
    assert out["added"] == {"sdy": ["sdy"], "stablehlo": ["stablehlo"], "ttcore": ["ttcore"], "ttir": ["ttir"], "ttnn": ["ttnn"]}


def test_a_typed_sdy_lookup_loads_no_ttnn_model() -> None:
    out = _fresh(
        "import json, sys, ttopt\n"
        "from ttopt.parse.parser import parse_module\n"
        "m = parse_module('sdy.mesh @mesh = <[\"x\"=2]>\\n')\n"
        "mesh = next(op for op in m.walk() if op.name == 'sdy.mesh').properties['mesh'].typed\n"
        "print(json.dumps({'axes': len(mesh.axes), 'loaded': sorted(n for n in sys.modules if n.endswith('_attrs') or n.endswith('_layout'))}))\n"
    )
    assert out["axes"] == 1
    assert out["loaded"] == ["ttopt.dialects.sdy_attrs"]
