"""`ttir-erase-inverse-ops`: permutes and reshapes are moved through the ops between them until
each meets its inverse and both go (tt-mlir's TTIREraseInverseOps; the backend pipeline runs it
after `ttir-explicate-tms`).

`permute(0,1,3,2) -> exp -> permute(0,1,3,2)` is `exp`: moving either permute through the `exp`
brings the two together, and a permute of a permute composes to the identity, which folds away.
Between a model's NCHW / NHWC boundaries, the reshapes around each flattened convolution and the
head splits and merges of attention, most layout changes have such an inverse.

Per function (every function with a body; with `force=false`, only those holding an op with a
`flattened_compat_info`, which `ttir-flatten-sliding-window` leaves: without flattened ops HEAD
expects no inverse pairs), the pass alternates two greedy runs, as HEAD does: one moving TMs
**upwards** (above the op they read) and one moving them **downwards** (below the op that reads
them), each with the TTIR folds and the permute -> reshape -> permute fusion. After each run it
counts the TMs left outside const-eval paths (`reshape`, `permute`, `transpose`, `rearrange`
whose result does not come from parameters and constants only). When both counts repeat, it
stops, after one more upward run if the count was lower after the upward run. If they never
repeat within `max-iterations`, the pass fails (HEAD's error).

The commutes of each op family (`commute.py` says how a pattern matches) live in their own
modules: elementwise.py, broadcast.py (upwards only, in both runs, as HEAD), concat.py,
slice.py, reduce.py, rms_norm.py, softmax.py. `enable-commute-upwards=false` /
`enable-commute-downwards=false` skip one direction (for tests of the other).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import TENSOR_MANIPULATION
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.lowering.erase_inverse_ops import broadcast, concat, elementwise, reduce, rms_norm, softmax
from ttopt.lowering.erase_inverse_ops import slice as slice_static
from ttopt.lowering.erase_inverse_ops.commute import ConstevalAnalysis, Direction, commute_pattern
from ttopt.lowering.erase_inverse_ops.tm_fusion import PATTERN as TM_FUSION
from ttopt.lowering.ttir_canonicalize import TTIR_FOLDS
from ttopt.passes.base import Pass
from ttopt.passes.greedy import Erase, apply_greedily_in, dead_op_pattern
from ttopt.passes.options import option
from ttopt.passes.patterns import PatternSet, pattern_set
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.lowering.erase_inverse_ops.commute import Commute
    from ttopt.passes.context import PassContext

# Rewrites and folds in one greedy run, as canonicalize's default bound (a guard against rule cycles).
MAX_REWRITES = 1_000_000
FLATTENED = "#ttir<flattened_compat"


def commutes(direction: Direction) -> list[Commute]:
    """Every family's commutes of one run, in HEAD's order."""
    return [
        *elementwise.commutes(direction),
        *broadcast.commutes(Direction.UPWARDS),
        *concat.commutes(direction),
        *slice_static.commutes(direction),
        *reduce.commutes(direction),
        *rms_norm.commutes(direction),
        *softmax.commutes(direction),
    ]


def patterns(direction: Direction, analysis: ConstevalAnalysis, erase: Erase) -> PatternSet:
    """One run's set: dead ops, TTIR's folds, the commutes, the TM fusion."""
    moves = [commute_pattern(c, analysis) for c in commutes(direction)]
    return pattern_set(dead_op_pattern(erase)) + TTIR_FOLDS + pattern_set(*moves, TM_FUSION)


def count_tms(func: Operation, analysis: ConstevalAnalysis) -> int:
    """The TMs of `func` outside const-eval paths."""
    return sum(1 for op in func.walk_list() if op.name in TENSOR_MANIPULATION and op.results
               and not analysis.traces_to_constant_args(op.results[0]))  # fmt: skip


def has_flattened_op(func: Operation) -> bool:
    """Some op of `func` carries a `#ttir<flattened_compat ...>` attribute."""
    for op in func.walk_list():
        for a in (*op.properties.values(), *op.attributes.values()):
            if a.resolve().text.startswith(FLATTENED):
                return True
    return False


@register_pass
@dataclass
class TTIREraseInverseOps(Pass):
    """Move permutes and reshapes through the ops between them until they meet their inverses and fold away (tt-mlir's TTIREraseInverseOps)."""

    name = "ttir-erase-inverse-ops"
    summary = "Erase inverse permutes / reshapes: TMs commute up and down through elementwise ops, broadcasts, concats, slices, reductions, norms and softmax until they meet their inverse and fold"

    enable_commute_upwards: bool = option(True, "Move TMs above the ops they read (false only to test the downward commutes)")
    enable_commute_downwards: bool = option(True, "Move TMs below the ops that read them (false only to test the upward commutes)")
    max_iterations: int = option(100, "Up / down rounds before the pass fails; the TM count converges well before")
    force: bool = option(True, "Run on every function; false: only on functions holding a flattened sliding-window op")

    def run(self, module: Module, ctx: PassContext) -> None:
        fired: Counter[str] = Counter()
        funcs = [op for op in module.walk() if op.name == "func.func" and op.regions and op.regions[0].blocks]
        for func in funcs:
            if not self.force and not has_flattened_op(func):
                continue
            fired += self._run_on(func, module)
        ctx.stats.setdefault(self.name, {}).update(dict(fired))
        if ctx.trace.enabled and fired:
            ctx.trace.print(f"[bold]{self.name}[/bold]: " + ", ".join(f"{k} x{v}" for k, v in sorted(fired.items())))

    def _apply(self, func: Operation, direction: Direction, analysis: ConstevalAnalysis) -> Counter[str]:
        enabled = self.enable_commute_upwards if direction is Direction.UPWARDS else self.enable_commute_downwards
        if not enabled:
            return Counter()
        return apply_greedily_in(func, lambda erase: patterns(direction, analysis, erase), MAX_REWRITES)

    def _run_on(self, func: Operation, module: Module) -> Counter[str]:
        analysis = ConstevalAnalysis(func)
        fired: Counter[str] = Counter()
        previous = (-1, -1)
        for _ in range(self.max_iterations):
            fired += self._apply(func, Direction.UPWARDS, analysis)
            after_up = count_tms(func, analysis)
            fired += self._apply(func, Direction.DOWNWARDS, analysis)
            after_down = count_tms(func, analysis)
            if (after_up, after_down) == previous:
                if after_up < after_down:
                    fired += self._apply(func, Direction.UPWARDS, analysis)
                return fired
            previous = (after_up, after_down)
        raise Diagnostic(f"EraseInverseOps: TM count has not converged after {self.max_iterations} iterations.",
                         op_position(module.source, func))  # fmt: skip
