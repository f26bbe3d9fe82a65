"""Runs passes in order: verification after each, `--mlir-print-ir-after-all`, `--timing`.

Registered pipelines (a pass made of other passes, e.g. `stablehlo-pipeline`) yield their steps one
at a time, so a step can depend on what the earlier ones did (the sharding pipeline skips Shardy's
passes once step 4 finds a solved graph). The manager runs each step as it runs a top-level pass:
timed, verified (only what it wrote, `verify_cache.py`), printed with `--mlir-print-ir-after-all`, and reported (`--stats` / `--trace`)
with the steps it skipped and why. Sub-passes are configured from the pipeline's own options of
the same name (`PipelinePass.configured`), typed, never by `setattr`.
"""

from __future__ import annotations

import gc
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from ttopt.ir.verifier import verify
from ttopt.passes.base import Pass
from ttopt.passes.verify_cache import VerifiedOps

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


P = TypeVar("P", bound=Pass)


@dataclass(frozen=True)
class PipelineStep:
    """One step: the pass to run, or why it is skipped."""

    number: int
    name: str
    pass_: Pass | None = None
    skipped: str = ""


class PipelinePass(Pass):
    """Base of registered pipelines: subclasses implement `steps`."""

    pause_gc = True  # the steps allocate many long-lived objects: cyclic GC would rescan them

    def steps(self, module: Module) -> Iterator[PipelineStep]:
        """The steps in order; resumed after each one has run."""
        raise NotImplementedError

    def configured(self, cls: type[P]) -> P:
        """An instance of `cls` with every option this pipeline also declares set to its value."""
        mine = {s.name: s.attr for s in self.option_specs()}
        return cls.from_options({s.name: getattr(self, mine[s.name]) for s in cls.option_specs() if s.name in mine})  # type: ignore[return-value]

    def run(self, module: Module, ctx: PassContext) -> None:
        """Run the steps through a PassManager (as `ttopt opt` does)."""
        PassManager([self], ctx).run(module)


class PassManager:
    """An ordered list of passes plus the run-wide switches."""

    def __init__(
        self,
        passes: list[Pass],
        ctx: PassContext,
        print_ir_after_all: bool = False,
        printer: Callable[[Module], str] | None = None,
        verify_each: bool = True,
        ir_out: Any = None,
    ) -> None:
        self.passes = passes
        self.ctx = ctx
        self.print_ir_after_all = print_ir_after_all
        self.printer = printer
        self.verify_each = verify_each
        self.ir_out = ir_out or sys.stderr
        self.timings: list[tuple[str, float]] = []
        self.cpu_timings: list[tuple[str, float]] = []  # process CPU seconds (a shared machine's wall time is noise)
        self._verified = VerifiedOps()  # after a pass, only what it wrote is checked again

    def verify_input(self, module: Module, allow_unregistered_dialect: bool = True) -> None:
        """Verify `module` before the first pass (raises Diagnostic), keeping the record of what was
        checked so verifying after the first pass re-checks only the ops it touched."""
        if not self.verify_each:
            verify(module, allow_unregistered_dialect=allow_unregistered_dialect)
            return
        self._verified.verify(module, allow_unregistered_dialect=allow_unregistered_dialect)

    def run(self, module: Module) -> None:
        """Run every pass on `module` (raises Diagnostic on failure)."""
        for p in self.passes:
            if isinstance(p, PipelinePass):
                self._run_pipeline(p, module)
            else:
                self._run_one(p, p.name, module)

    def _run_one(self, p: Pass, label: str, module: Module) -> float:
        t0, c0 = time.perf_counter(), time.process_time()
        p.run(module, self.ctx)
        if self.verify_each:
            self._verified.verify(module)
        elapsed = time.perf_counter() - t0
        self.timings.append((label, elapsed))
        self.cpu_timings.append((label, time.process_time() - c0))
        if self.print_ir_after_all and self.printer is not None:
            self.ir_out.write(f"// -----// IR Dump After {label} //----- //\n")
            self.ir_out.write(self.printer(module))
        return elapsed

    def _run_pipeline(self, pipeline: PipelinePass, module: Module) -> None:
        enabled = gc.isenabled()
        if pipeline.pause_gc:
            gc.disable()
        report: list[tuple[PipelineStep, str, float]] = []
        try:
            for step in pipeline.steps(module):
                if step.pass_ is None:
                    report.append((step, f"skipped ({step.skipped})", 0.0))
                    continue
                report.append((step, "ran", self._run_one(step.pass_, f"{pipeline.name}/{step.name}", module)))
        finally:
            if enabled:
                gc.enable()
        self.ctx.stats.setdefault(pipeline.name, {})["steps"] = [
            {"step": s.number, "pass": s.name, "status": status, "ms": round(t * 1e3, 3)} for s, status, t in report
        ]
        if self.ctx.trace.enabled:
            from rich.table import Table

            table = Table(title=pipeline.name, title_justify="left")
            for col in ("step", "pass", "status", "ms"):
                table.add_column(col, justify="right" if col in ("step", "ms") else "left")
            for s, status, t in report:
                table.add_row(str(s.number), s.name, status, f"{t * 1e3:.2f}")
            self.ctx.trace.print(table)
