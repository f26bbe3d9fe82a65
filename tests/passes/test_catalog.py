"""The pass catalog (ttopt/passes/catalog.py) says what the pass modules register, and a pass
looked up by name loads its own module and the tables it reads, not every pass."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ttopt.passes import catalog
from ttopt.passes.catalog_render import CATALOG, render
from ttopt.passes.registry import EXTENSIONS, PASS_MODULES, all_passes

ROOT = Path(__file__).resolve().parents[2]


def test_the_catalog_is_what_the_modules_register() -> None:
    # Stale after adding or changing a pass: rerun `python -m ttopt.passes.catalog_render`.
    assert CATALOG.read_text() == render()


def test_the_catalog_lists_every_registered_pass_with_its_options() -> None:
    passes = all_passes()
    assert list(catalog.MODULES) == list(passes)
    for name, cls in passes.items():
        assert catalog.MODULES[name] == cls.__module__
        assert catalog.SUMMARIES[name] == cls.summary
        assert catalog.OPTIONS[name] == tuple(cls.option_specs())
    assert catalog.ALIASES["sdy-aggressive-propagate"] == "aggressive-propagation"
    assert "analyze-mesh" not in catalog.ALIASES  # a pass's own name is never an alias


def test_every_module_that_registers_no_pass_extends_one() -> None:
    # A module that only fills another module's tables must be loaded with that module, or a
    # pass looked up alone would run with less than the full tables.
    extensions = {m for ms in EXTENSIONS.values() for m in ms}
    assert set(PASS_MODULES) - set(catalog.MODULES.values()) == extensions
    assert set(catalog.MODULES.values()) <= set(PASS_MODULES)


def _fresh(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_pass_looked_up_alone_loads_its_module_not_every_pass() -> None:
    out = _fresh(
        "import json, sys\n"
        "from ttopt.passes import registry\n"
        "cse = registry.get_pass('cse')\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('ttopt.sharding', 'ttopt.lowering', 'ttopt.optimizer', 'ttopt.device')))\n"
        "found = {n: getattr(registry.get_pass(n), '__module__', None) for n in registry.catalog.MODULES}\n"
        "alias = registry.get_pass('sdy-basic-propagate').name\n"
        "print(json.dumps({'cse': cse.name, 'loaded': loaded, 'found': found, 'alias': alias, 'all': registry._loaded}))\n"
    )
    assert out["cse"] == "cse"
    assert out["loaded"] == []
    assert out["found"] == catalog.MODULES  # each pass is registered by importing its catalog module
    assert out["alias"] == "basic-propagation"
    assert out["all"] is False


def test_a_pass_looked_up_alone_sees_the_tables_its_extensions_fill() -> None:
    out = _fresh(
        "import json\n"
        "from ttopt.passes import registry\n"
        "registry.get_pass('canonicalize')\n"
        "from ttopt.passes.patterns import _CANONICALIZATIONS\n"
        "registry.get_pass('convert-stablehlo-to-ttir')\n"
        "from ttopt.lowering.stablehlo_handlers import HANDLERS\n"
        "alone = {'canon': sorted(_CANONICALIZATIONS), 'handlers': len(HANDLERS)}\n"
        "registry.all_passes()\n"
        "print(json.dumps({'alone': alone, 'all': {'canon': sorted(_CANONICALIZATIONS), 'handlers': len(HANDLERS)}}))\n"
    )
    assert out["alone"]["canon"] == ["sdy", "ttir"]
    assert out["alone"]["handlers"] > 30
    assert out["alone"] == out["all"]
