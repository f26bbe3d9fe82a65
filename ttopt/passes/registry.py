"""Every pass by name. A pass's module is imported when the pass is looked up (the CLI reads
names, options and help from ttopt/passes/catalog.py), so a run loads only the passes it runs."""

from __future__ import annotations

import importlib
import sys

from ttopt.passes import catalog
from ttopt.passes.base import Pass

PASSES: dict[str, type[Pass]] = {}

# Modules whose import registers passes. Keep pass modules light: heavy imports go in run().
PASS_MODULES = (
    "ttopt.passes.canonicalize",
    "ttopt.passes.strip_debuginfo",
    "ttopt.passes.cse",
    "ttopt.optimizer.pass_",
    "ttopt.optimizer.decompose_layouts",
    "ttopt.optimizer.l1_spill",
    "ttopt.lowering.ttir_to_ttnn",
    "ttopt.lowering.ttir_fusing",
    "ttopt.lowering.ttir_quant_dequant",
    "ttopt.lowering.ttir_fold_full_to_scalar",
    "ttopt.lowering.ttir_implicit_broadcast_fold",
    "ttopt.lowering.ttir_explicate_tms",
    "ttopt.lowering.erase_inverse_ops",
    "ttopt.lowering.ttir_flatten_sliding_window",
    "ttopt.lowering.ttir_consolidate_static_cache_updates",
    "ttopt.lowering.ttir_propagate_weight_dtype",
    "ttopt.lowering.ttnn_layout",
    "ttopt.lowering.sdpa_decode_program_config",
    "ttopt.lowering.ttnn_fusing",
    "ttopt.lowering.ttnn_workarounds",
    "ttopt.lowering.ttnn_op_validation",
    "ttopt.lowering.ttnn_rm_layout_propagation",
    "ttopt.lowering.deallocate",
    "ttopt.lowering.compute_config",
    "ttopt.lowering.const_eval",
    "ttopt.lowering.device_module",
    "ttopt.lowering.cpu_hoist",
    "ttopt.lowering.cpu_hoist_shlo",
    "ttopt.lowering.trace",
    "ttopt.lowering.kv_cache_dtype",
    "ttopt.lowering.weight_dtype",
    "ttopt.lowering.resolve_composites",
    "ttopt.lowering.backend_pipeline",
    "ttopt.lowering.ttcore_device",
    "ttopt.lowering.d2m.outline",
    "ttopt.lowering.d2m.compile",
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
    "ttopt.lowering.ttir_canonicalize",
    "ttopt.sharding.pipeline",
    "ttopt.sharding.convert_ttir",
    "ttopt.sharding.convert_ttnn",
    "ttopt.lowering.stablehlo_to_ttir",
    "ttopt.lowering.stablehlo_ops",  # the per-family lowerings register in stablehlo_to_ttir.HANDLERS
    "ttopt.lowering.arith_to_stablehlo",
    "ttopt.lowering.composites",
    "ttopt.lowering.stablehlo_to_ttir_pipeline",
    "ttopt.lowering.ttir_decomposition",
    "ttopt.lowering.cpu_llvm.convert",
)

# Modules that register into another module's tables instead of registering passes: imported
# whenever the module they extend is loaded, so a pass sees the same tables whether it was
# looked up alone or with every other pass.
EXTENSIONS: dict[str, tuple[str, ...]] = {
    "ttopt.passes.canonicalize": ("ttopt.sharding.canonicalize_sdy", "ttopt.lowering.ttir_canonicalize"),  # sdy and TTIR canonicalization patterns
    "ttopt.lowering.stablehlo_to_ttir": ("ttopt.lowering.stablehlo_ops",),  # per-family lowerings
}

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


def _load(module: str) -> None:
    """Import `module`, then the extensions of every module now loaded."""
    importlib.import_module(module)
    for owner, extensions in EXTENSIONS.items():
        if owner in sys.modules:
            for ext in extensions:
                if ext not in sys.modules:
                    importlib.import_module(ext)


def all_passes() -> dict[str, type[Pass]]:
    """Name -> pass class for every registered pass (sorted by name)."""
    global _loaded
    if not _loaded:
        for mod in PASS_MODULES:
            _load(mod)
        _loaded = True
    return dict(sorted(PASSES.items()))


def get_pass(name: str) -> type[Pass] | None:
    """The pass class called `name` (also accepts registered aliases); imports only its module."""
    cls = PASSES.get(name)
    if cls is not None:
        return cls
    module = catalog.MODULES.get(catalog.ALIASES.get(name, name))
    if module is not None:
        _load(module)
        cls = PASSES.get(catalog.ALIASES.get(name, name))
        if cls is not None:
            return cls
    passes = all_passes()  # a pass registered outside the catalog (tests register their own)
    cls = passes.get(name)
    if cls is None:
        for c in passes.values():
            if name in getattr(c, "aliases", ()):
                return c
    return cls
