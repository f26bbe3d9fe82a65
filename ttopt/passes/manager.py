"""Runs passes in order: verification after each, `--mlir-print-ir-after-all`, `--timing`."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, Callable

from ttopt.ir.verifier import verify

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.base import Pass
    from ttopt.passes.context import PassContext


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

    def run(self, module: Module) -> None:
        """Run every pass on `module` (raises Diagnostic on failure)."""
        for p in self.passes:
            t0 = time.perf_counter()
            p.run(module, self.ctx)
            if self.verify_each:
                verify(module)
            self.timings.append((p.name, time.perf_counter() - t0))
            if self.print_ir_after_all and self.printer is not None:
                self.ir_out.write(f"// -----// IR Dump After {p.name} //----- //\n")
                self.ir_out.write(self.printer(module))
