"""The TTNN modules ttopt prints for the project's corpora, the way a user gets them:
testdata/ttnn/*.mlir through `ttopt opt` with no passes, testdata/ttir/*.mlir through
`--ttir-to-ttnn-backend-pipeline` (default options, the optimizer at level 2, the greedy
optimizer), and testdata/jax/*.mlir through the StableHLO pipeline, `convert-to-ttir` and the
backend pipeline at level 2. Each output is printed and parsed again, so a check sees what a
consumer of the text would see.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.module import Module
from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline

TESTDATA = Path(__file__).resolve().parents[2] / "testdata"
BACKEND = "builtin.module(ttir-to-ttnn-backend-pipeline{{{}}})"
JAX_CHAIN = "builtin.module(stablehlo-pipeline, convert-to-ttir, ttir-to-ttnn-backend-pipeline{{{}}})"
TTIR_OPTIONS = ("", "optimization-level=2", "enable-greedy-optimizer=true")
JAX_OPTIONS = ("optimization-level=2",)


@dataclass(frozen=True)
class Output:
    """One printed TTNN module: the input file, the pipeline that made it, and the module."""

    source: Path
    pipeline: str
    module: Module

    @property
    def label(self) -> str:
        """`jax/attention.mlir [optimization-level=2]`."""
        rel = f"{self.source.parent.name}/{self.source.name}"
        return f"{rel} [{self.pipeline}]" if self.pipeline else rel


def run_pipeline(text: str, name: str, pipeline: str | None) -> Module:
    """Parse `text`, run `pipeline` (a `builtin.module(...)` string, or None for no passes), print
    and parse the result again, named `<name> (ttopt output)`: positions are in the printed text.
    Diagnostic on bad input or a pass error."""
    module = parse_module(text, name)
    if pipeline:
        PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    return parse_module(print_module(module), f"{name} (ttopt output)")


def corpus_jobs(testdata: Path = TESTDATA) -> list[tuple[Path, str, str | None]]:
    """(input, options label, pipeline) for every corpus run, in a fixed order."""
    jobs: list[tuple[Path, str, str | None]] = [(p, "", None) for p in sorted((testdata / "ttnn").glob("*.mlir"))]
    for p in sorted((testdata / "ttir").glob("*.mlir")):
        if "// -----" in p.read_text():  # split files hold error cases (testdata/ttir/errors.mlir)
            continue
        jobs += [(p, opts or "default", BACKEND.format(opts)) for opts in TTIR_OPTIONS]
    for p in sorted((testdata / "jax").glob("*.mlir")):
        jobs += [(p, opts, JAX_CHAIN.format(opts)) for opts in JAX_OPTIONS]
    return jobs


def corpus_outputs(testdata: Path = TESTDATA) -> Iterator[Output]:
    """Every TTNN module ttopt prints for the corpora; inputs ttopt rejects (a JAX module with an
    op that has no lowering) are skipped: tests/lowering/test_jax_to_ttnn.py lists them."""
    for path, label, pipeline in corpus_jobs(testdata):
        try:
            module = run_pipeline(path.read_text(), str(path.relative_to(testdata.parent)), pipeline)
        except Diagnostic:
            continue
        yield Output(path, label, module)
