"""Every pass by name. Pass modules are imported here so the CLI can offer their flags."""

from __future__ import annotations

import importlib

from ttopt.passes.base import Pass

PASSES: dict[str, type[Pass]] = {}

# Modules whose import registers passes. Keep pass modules light: heavy imports go in run().
PASS_MODULES = (
    "ttopt.passes.canonicalize",
    "ttopt.passes.strip_debuginfo",
    "ttopt.optimizer.pass_",
    "ttopt.sharding.populate_rules",
    "ttopt.sharding.propagation",
    "ttopt.sharding.sharding_constraints",
    "ttopt.sharding.constraint_to_reshard",
    "ttopt.sharding.explicit_reshards",
    "ttopt.sharding.reshard_to_collectives",
    "ttopt.sharding.inliner",
    "ttopt.sharding.argument_types",
    "ttopt.sharding.shard_status",
    "ttopt.sharding.shardy_annotations",
    "ttopt.sharding.wrap_manual",
    "ttopt.sharding.global_to_local",
    "ttopt.sharding.close_shardings",
    "ttopt.sharding.canonicalize_sdy",
    "ttopt.sharding.pipeline",
    "ttopt.sharding.convert_ttir",
    "ttopt.sharding.convert_ttnn",
)

_loaded = False


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Class decorator: make a pass available by its `name`."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    PASSES[cls.name] = cls
    return cls


def all_passes() -> dict[str, type[Pass]]:
    """Name -> pass class for every registered pass (sorted by name)."""
    global _loaded
    if not _loaded:
        for mod in PASS_MODULES:
            importlib.import_module(mod)
        _loaded = True
    return dict(sorted(PASSES.items()))


def get_pass(name: str) -> type[Pass] | None:
    """The pass class called `name` (also accepts registered aliases)."""
    passes = all_passes()
    cls = passes.get(name)
    if cls is None:
        for c in passes.values():
            if name in getattr(c, "aliases", ()):
                return c
    return cls
