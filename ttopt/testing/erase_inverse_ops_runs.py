"""Running `ttir-erase-inverse-ops` on a testdata file's functions in tests: the rewritten module
(verified, reparsed from its printed form) and the check that each function computes what it did."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ttopt.ir.module import Module
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.erase_inverse_ops import TTIREraseInverseOps
from ttopt.lowering.ttir_explicate_tms import TTIRExplicateTMs
from ttopt.lowering.ttir_implicit_broadcast_fold import TTIRImplicitBroadcastFold
from ttopt.parse.parser import parse_module
from ttopt.passes.base import Pass
from ttopt.passes.context import PassContext
from ttopt.testing.same_results import assert_same_results

# The pass alone, each direction alone, and between explicate-tms and the implicit broadcast
# fold as the backend pipeline runs it.
RUNS: dict[str, Callable[[], list[Pass]]] = {
    "erase": lambda: [TTIREraseInverseOps()],
    "up-only": lambda: [TTIREraseInverseOps(enable_commute_downwards=False)],
    "down-only": lambda: [TTIREraseInverseOps(enable_commute_upwards=False)],
    "pipeline": lambda: [TTIRExplicateTMs(), TTIREraseInverseOps(), TTIRImplicitBroadcastFold()],
}


def function_names(path: Path) -> list[str]:
    """The names of the functions of a testdata file."""
    return [f.properties["sym_name"].resolve().value for f in parse_module(path.read_text()).functions()]


def rewrite(text: str, which: str, verified: bool = True) -> tuple[Module, PassContext]:
    """`text` through the run `which` of `RUNS`, verified (unless `verified` is False: an input the
    verifier rejects, run through the passes as if it had not been checked) and reparsed from its
    printed form."""
    module = parse_module(text, "f.mlir")
    ctx = PassContext()
    for p in RUNS[which]():
        p.run(module, ctx)
    if verified:
        verify(module, check_uses=True)
    return parse_module(print_module(module), "g.mlir"), ctx


def assert_computes_the_same(text: str, which: str, func: str, seed: int = 0) -> None:
    """`func` of `text` and of `text` through the run `which` give equal results on random inputs."""
    assert_same_results(parse_module(text, "f.mlir"), rewrite(text, which)[0], func, seed)
