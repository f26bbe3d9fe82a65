"""`stablehlo-pipeline`: the 13 steps of seed 004 §1.1, in the seed's order.

Each step is looked up in the pass registry by name at run time. Steps 5-8 and 10 are Shardy's own
passes (the "Sharding pipeline II" modules); when one is not registered, the pipeline skips it only
if the module cannot need it (no sharding constraints for 5 and 7, no sdy shardings for 6 and 8, no
reshards for 10) and otherwise stops with a diagnostic that names the step and what needs it.

Solved graphs (a manual_computation with manual axes, seed case 2/3) skip the Shardy steps 5-8 and
10: propagating from a solved computation's shardings is what broke solved graphs upstream
(551f473822), and the seed says "4-13. no change". Steps 9 and 11 leave solved graphs alone anyway.
Every step is verified after it runs; per-step wall times go to `--stats` and `--trace`.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.verifier import verify
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import get_pass, register_pass
from ttopt.sharding.util import functions, is_solved, require_ranked_signature, sdy_annotations, where

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.passes.context import PassContext


def _first_op(module: Module, name: str) -> tuple[Operation, str] | None:
    for f in functions(module):
        for op in f.walk():
            if op.name == name:
                return op, f"the '{name}' op"
    return None


def _first_annotation(module: Module) -> tuple[Operation, str] | None:
    found = next(sdy_annotations(module), None)
    return (found[0], f"{found[1]} has an sdy sharding") if found is not None else None


def _annotation_or_reshard(module: Module) -> tuple[Operation, str] | None:
    return _first_annotation(module) or _first_op(module, "sdy.reshard")


@dataclass(frozen=True)
class Step:
    number: int
    name: str
    shardy: bool = False  # one of Shardy's passes (issue "Sharding pipeline II")
    needed: Callable[[Module], tuple[Operation, str] | None] | None = None  # what needs it, if anything


STEPS = (
    Step(1, "inliner"),
    Step(2, "apply-tt-argument-annotations"),
    Step(3, "apply-argument-shard-status"),
    Step(4, "apply-shardy-argument-annotations"),
    Step(5, "apply-sharding-constraints", True, lambda m: _first_op(m, "sdy.sharding_constraint")),
    Step(6, "aggressive-propagation", True, _first_annotation),
    Step(7, "sharding-constraint-to-reshard", True, lambda m: _first_op(m, "sdy.sharding_constraint")),
    Step(8, "insert-explicit-reshards", True, _annotation_or_reshard),
    Step(9, "wrap-under-manual-computation"),
    Step(10, "reshard-to-collectives", True, lambda m: _first_op(m, "sdy.reshard")),
    Step(11, "update-global-to-local-shapes"),
    Step(12, "close-shardings"),
    Step(13, "canonicalize"),
)


@register_pass
@dataclass
class StableHLOPipeline(Pass):
    """All 13 steps of the StableHLO sharding pipeline (seed 004 §1.1)."""

    name = "stablehlo-pipeline"
    summary = "The 13-step StableHLO/Shardy pipeline: annotations, propagation, reshards, manual computation, local shapes"

    argument_types: str = option("", "Argument types per function: 'main=input,parameter;f2=constant'")
    annotate_results: bool = option(False, "Also set ttcore.shard_status on function results (upstream 72cb behaviour)")
    mesh_shape: list = option([], "Device mesh for unannotated graphs, '1,N' (default: the module's mesh, else 1x1)")
    automatic_arg_analysis: bool = option(True, "Batch-shard unannotated graphs without tt argument types")
    conservative: bool = option(True, "Conservative propagation (no sub-axes, no non-divisible shardings)")

    def validate(self) -> None:
        """Options handed to the steps are checked before any input is read."""
        from ttopt.sharding.argument_types import parse_argument_types
        from ttopt.sharding.shardy_annotations import check_mesh_shape

        try:
            parse_argument_types(self.argument_types)
        except ValueError as e:
            raise ValueError(f"--argument-types: {e}") from None
        check_mesh_shape(self.mesh_shape)

    def run(self, module: Module, ctx: PassContext) -> None:
        # The steps allocate many long-lived objects; Python's cyclic GC would rescan them over and
        # over (as in the parser, which also pauses it).
        enabled = gc.isenabled()
        gc.disable()
        try:
            self._run(module, ctx)
        finally:
            if enabled:
                gc.enable()

    def _run(self, module: Module, ctx: PassContext) -> None:
        for f in functions(module):
            require_ranked_signature(module, f)
        report = []
        solved = False
        for step in STEPS:
            if step.shardy and solved:
                report.append((step, "skipped (solved graph)", 0.0))
                continue
            if step.number == 2 and not self.argument_types:
                report.append((step, "skipped (no --argument-types)", 0.0))
                continue
            cls = get_pass(step.name)
            if cls is None:
                need = step.needed(module) if step.needed is not None else None
                if need is not None or not step.shardy:
                    op, why = need if need is not None else (None, "it is part of the pipeline")
                    raise Diagnostic(
                        f"stablehlo-pipeline: step {step.number} '{step.name}' is not available in this build "
                        f"(it is one of the Shardy core passes), but this module needs it: {why}",
                        where(module, op) if op is not None else None,
                    )
                report.append((step, "skipped (not registered; nothing needs it)", 0.0))
                continue
            p = cls()
            for spec in cls.option_specs():
                if hasattr(self, spec.attr) and spec.attr in type(self).__dataclass_fields__:
                    setattr(p, spec.attr, getattr(self, spec.attr))
            t0 = time.perf_counter()
            p.run(module, ctx)
            verify(module)
            report.append((step, "ran", time.perf_counter() - t0))
            if step.number == 4:
                solved = is_solved(module)
        ctx.stats.setdefault(self.name, {})["steps"] = [
            {"step": s.number, "pass": s.name, "status": status, "ms": round(t * 1e3, 3)} for s, status, t in report
        ]
        if ctx.trace.enabled:
            from rich.table import Table

            table = Table(title="stablehlo-pipeline", title_justify="left")
            for col in ("step", "pass", "status", "ms"):
                table.add_column(col, justify="right" if col in ("step", "ms") else "left")
            for s, status, t in report:
                table.add_row(str(s.number), s.name, status, f"{t * 1e3:.2f}")
            ctx.trace.print(table)
