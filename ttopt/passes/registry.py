"""Every pass by name. Pass modules are imported here so the CLI can offer their flags."""

from __future__ import annotations

import importlib

from ttopt.passes.base import Pass

PASSES: dict[str, type[Pass]] = {}

# Modules whose import registers passes. Keep pass modules light: heavy imports go in run().
PASS_MODULES = (
    "ttopt.passes.canonicalize",
    "ttopt.passes.strip_debuginfo",
    "ttopt.passes.cse",
    "ttopt.optimizer.pass_",
    "ttopt.lowering.ttir_to_ttnn",
    "ttopt.lowering.deallocate",
    "ttopt.lowering.const_eval",
    "ttopt.lowering.backend_pipeline",
    "ttopt.sharding.populate_rules",
    "ttopt.sharding.propagation",
    "ttopt.sharding.priority_propagation",
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
    "ttopt.lowering.stablehlo_to_ttir",
    "ttopt.lowering.stablehlo_ops",  # the per-family lowerings register in stablehlo_to_ttir.HANDLERS
    "ttopt.lowering.arith_to_stablehlo",
    "ttopt.lowering.composites",
    "ttopt.lowering.stablehlo_to_ttir_pipeline",
)

_loaded = False


# option name -> (kind, first pass declaring it): one name is one CLI flag, so one kind.
_OPTION_KINDS: dict[str, tuple[tuple, str]] = {}


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Class decorator: make a pass available by its `name`.

    Raises TypeError when an option shares its name with another pass's option of another kind
    (type, choices, list-ness): the shared CLI flag could not mean the same thing to both.
    """
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    for spec in cls.option_specs():
        kind, owner = _OPTION_KINDS.setdefault(spec.name, (spec.kind, cls.name))
        if kind != spec.kind:
            raise TypeError(f"option '{spec.name}' of pass '{cls.name}' is {_describe(spec.kind)}, but pass '{owner}' declares it as {_describe(kind)}")
    PASSES[cls.name] = cls
    return cls


def _describe(kind: tuple) -> str:
    t, choices, is_list = kind
    if is_list:
        return "a list"
    return f"one of {', '.join(choices)}" if choices else f"a {t.__name__}"


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
