"""`stablehlo-pipeline`: the 13 steps of seed 004 §1.1, in the seed's order.

Each step is looked up in the pass registry by name at run time. Steps 5-8 and 10 are Shardy's own
passes (the "Sharding pipeline II" modules); when one is not registered, the pipeline skips it only
if the module cannot need it (no sharding constraints for 5 and 7, no sdy shardings for 6 and 8, no
reshards for 10) and otherwise stops with a diagnostic that names the step and what needs it.

Solved graphs (a manual_computation with manual axes, seed case 2/3) skip the Shardy steps 5-8 and
10: propagating from a solved computation's shardings is what broke solved graphs upstream
(551f473822), and the seed says "4-13. no change". Steps 9 and 11 leave solved graphs alone anyway.
GSPMD-partitioned graphs (SPMD shape custom calls around a local body) are solved too: they skip
the same steps, and steps 9 and 11 leave them alone, as tt-mlir's do.
The pipeline is a registered pipeline (ttopt/passes/manager.py): the one PassManager runs, verifies,
times and reports its steps; each step's pass gets the pipeline's options of the same name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

from ttopt.ir.diagnostics import Diagnostic
from ttopt.passes.base import option
from ttopt.passes.manager import PipelinePass, PipelineStep
from ttopt.passes.registry import get_pass, register_pass
from ttopt.sharding.diagnostics import where
from ttopt.sharding.func_attrs import functions, require_ranked_signature
from ttopt.sharding.gspmd_partitioned import is_partitioned
from ttopt.sharding.sdy_ir import is_solved, sdy_annotations

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation


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
class StableHLOPipeline(PipelinePass):
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

    def steps(self, module: Module) -> Iterator[PipelineStep]:
        """The 13 steps; the Shardy ones are skipped once step 4 has found a solved graph."""
        for f in functions(module):
            require_ranked_signature(module, f)
        solved: str | None = None
        for step in STEPS:
            if step.shardy and solved:
                yield PipelineStep(step.number, step.name, skipped=solved)
                continue
            if step.number == 2 and not self.argument_types:
                yield PipelineStep(step.number, step.name, skipped="no --argument-types")
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
                yield PipelineStep(step.number, step.name, skipped="not registered; nothing needs it")
                continue
            yield PipelineStep(step.number, step.name, self.configured(cls))
            if step.number == 4:
                solved = "solved graph" if is_solved(module) else "GSPMD-partitioned graph" if is_partitioned(module) else None
