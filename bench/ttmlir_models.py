"""tt-mlir's model files (test/ttmlir/models/**) through ttopt's backend pipeline, level 0 and level 2.

    python bench/ttmlir_models.py [--mirror GIT_DIR] [--rev REV] [--only SUBSTRING] [--jobs N] [--check]

Every `.mlir` file under tt-mlir's `test/ttmlir/models` (read from a git mirror, `fetch
github:tenstorrent/tt-mlir`; default /work/.mirror/tenstorrent+tt-mlir/repo; nothing is copied into
the project) runs in-process through

* `--ttir-to-ttnn-backend-pipeline="optimization-level=0"` and
* `--ttir-to-ttnn-backend-pipeline="optimization-level=2 verify-l1-budget=true"`;

the input is verified first and each output printed, parsed and verified again (what `ttopt opt`
does, and what a consumer of the text sees), checked against
tt-mlir's TTNN ODS at the same mirror revision (ttopt/testing/ods_check.py), and costed with ttopt's
analytic device model (`CostModel.module_cost`: the summed estimate of every ttnn op, the same
figure the optimizer's `estimated_ns` reports; not a measurement). A model *compiles* when level 2
lowers, re-parses, passes `--verify-l1-budget` and has no ODS violation.

Per model: ops, status (`ok` or the first error), ODS violations, estimated time at level 0 and at
level 2, and the speed-up (level 0 / level 2; below 1.00x means level 2 is estimated slower). The
levels differ as tt-mlir's do, not only in layouts: level 0 stamps HiFi4 and fp32 accumulation on
every op with a compute config, level 2 leaves them to ttnn and folds constant conv scales and batch
norms into the convs (`compute-cfg-math-fidelity=hifi4 compute-cfg-fp32-dest-acc-en=true` at level 2
separates the layout gain). The
summary row counts models compiled of all, and those whose only problem is an ODS violation listed
(with the file that must fix it) in tests/lowering/ttnn_ods_known_violations.txt. `--check` exits 1 when a model does not compile or level 2
is estimated slower than level 0; tests/lowering/test_ttmlir_models.py runs a subset.

Model files that tt-mlir HEAD's own verifier rejects are listed in INVALID_AT_HEAD with the error
HEAD gives and why: ttopt must reject them with that error (accepting them would accept input HEAD
does not), so they count as `invalid at HEAD`, not as compiled, and `--check` passes on them only
while the error is the listed one.
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lit_conformance import TTMLIR_MIRROR  # noqa: E402
from ttopt.device import CostModel, DeviceError, load_device  # noqa: E402
from ttopt.ir.diagnostics import Diagnostic  # noqa: E402
from ttopt.ir.module import Module  # noqa: E402
from ttopt.ir.printer import print_module  # noqa: E402
from ttopt.ir.verifier import verify  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext  # noqa: E402
from ttopt.passes.manager import PassManager  # noqa: E402
from ttopt.passes.pipeline import instantiate, parse_pipeline  # noqa: E402
from ttopt.testing.ods_check import check_module, read_known  # noqa: E402
from ttopt.testing.ods_specs import MirrorFiles, OdsSet, OdsUnavailable, load_ods  # noqa: E402
from ttopt.testing.ttnn_outputs import BACKEND  # noqa: E402

DEFAULT_MIRROR = TTMLIR_MIRROR
MODELS_DIR = "test/ttmlir/models"
KNOWN_ODS = ROOT / "tests" / "lowering" / "ttnn_ods_known_violations.txt"
LEVEL0 = "optimization-level=0"
LEVEL2 = "optimization-level=2 verify-l1-budget=true"
# Model files HEAD's verifier rejects: path -> (the error, why). The directory is excluded from
# tt-mlir's lit runs (its lit.local.cfg sets config.unsupported), so nothing upstream parses them.
_OLD_GATHER = ("'ttir.gather' op requires attribute 'dim'",
               "written in the StableHLO-style ttir.gather form (offset_dims, collapsed_slice_dims, ...) that tt-mlir "
               "removed in 'Remove TTIR Gather Op' (efb18c94d0, April 2026); HEAD's TTIR_GatherOp requires I32Attr dim")  # fmt: skip
INVALID_AT_HEAD: dict[str, tuple[str, str]] = {
    "single_blocks_and_layers/swin_vision_block.mlir": _OLD_GATHER,
    "single_blocks_and_layers/swin_vision_layer.mlir": _OLD_GATHER,
}


@dataclass
class LevelResult:
    """One pipeline run of one model: its first error (empty when it lowered) and estimate."""

    error: str = ""
    internal: bool = False  # a Python exception: a ttopt bug, never acceptable
    estimated_ns: float | None = None
    violations: list[str] = field(default_factory=list)  # `op: problem` of the ODS check
    seconds: float = 0.0


@dataclass
class ModelResult:
    """Both levels of one model file."""

    path: str  # relative to test/ttmlir/models
    ops: int
    level0: LevelResult
    level2: LevelResult

    @property
    def compiled(self) -> bool:
        """Level 2 lowered, re-parsed, passed the L1 budget replay and the ODS check."""
        return not self.level2.error and not self.level2.violations

    @property
    def invalid_at_head(self) -> bool:
        """The file is listed as one HEAD's verifier rejects, and both levels reject it with that error."""
        known = INVALID_AT_HEAD.get(self.path)
        return known is not None and all(known[0] in lv.error and not lv.internal for lv in (self.level0, self.level2))

    @property
    def only_known_violations(self) -> bool:
        """Level 2 lowered and every ODS violation it has is listed (with its owner) in the known list."""
        return not self.level2.error and bool(self.level2.violations) and all(v in known_violations() for v in self.level2.violations)

    @property
    def speedup(self) -> float | None:
        """Estimated level-0 time over level-2 time (None when either did not lower)."""
        a, b = self.level0.estimated_ns, self.level2.estimated_ns
        if a is None or b is None or b <= 0:
            return None
        return a / b

    @property
    def slower(self) -> bool:
        """Level 2 is estimated slower than level 0 (beyond float noise)."""
        a, b = self.level0.estimated_ns, self.level2.estimated_ns
        return a is not None and b is not None and b > a * (1 + 1e-9)

    @property
    def status(self) -> str:
        """`ok`, or the first problem (level 2 first: that is what the models must pass)."""
        if self.invalid_at_head:
            return "invalid at HEAD: " + self.level2.error
        if self.level2.error:
            return ("internal error: " if self.level2.internal else "") + self.level2.error
        if self.level2.violations:
            known = " (known)" if self.only_known_violations else ""
            return f"ODS{known}: {self.level2.violations[0]}"
        if self.level0.error:
            return "level 0: " + self.level0.error
        return "ok"


def known_violations() -> dict[str, str]:
    """`op: problem` -> reason of tests/lowering/ttnn_ods_known_violations.txt (empty when unreadable)."""
    global _KNOWN
    if _KNOWN is None:
        try:
            _KNOWN = read_known(KNOWN_ODS.read_text())
        except (OSError, ValueError):
            _KNOWN = {}
    return _KNOWN


_KNOWN: dict[str, str] | None = None


def estimate_ns(module: Module) -> float:
    """ttopt's analytic estimate of a TTNN module: the sum over its functions' ttnn ops."""
    device = load_device(None, module)
    return sum(f.ns for f in CostModel(device).module_cost(module) if "_const_eval_" not in f.name)  # const-eval runs once


def run_level(text: str, name: str, options: str, ods: OdsSet | None) -> LevelResult:
    """Lower `text` with the backend pipeline and `options`; re-parse, ODS-check and cost the output."""
    out = LevelResult()
    t0 = time.perf_counter()
    try:
        module = lower(text, name, options)
        out.estimated_ns = estimate_ns(module)
        if ods is not None:
            out.violations = sorted({v.key for v in check_module(module, ods, name)})
    except Diagnostic as d:
        out.error = _first_line(d.render(name)).removeprefix(name + ":").strip()
    except DeviceError as e:
        out.error = f"device: {e.message}"
    except Exception as e:  # noqa: BLE001 - a ttopt bug on upstream input: reported, not fatal here
        out.error, out.internal = f"{type(e).__name__}: {e}", True
    out.seconds = time.perf_counter() - t0
    return out


def lower(text: str, name: str, options: str) -> Module:
    """What `ttopt opt FILE --ttir-to-ttnn-backend-pipeline="options"` does: parse and verify the
    input, run the pipeline, print; then the printed text parsed and verified again."""
    module = parse_module(text, name)
    verify(module)
    pipeline = BACKEND.format(options)
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    again = parse_module(print_module(module), f"{name} (ttopt output)")
    verify(again)
    return again


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "error"
    return line


def run_model(path: str, text: str, ods: OdsSet | None) -> ModelResult:
    """Level 0 and level 2 of one model file (`path` relative to test/ttmlir/models)."""
    ops = sum(1 for line in text.splitlines() if '"ttir.' in line or "= ttir." in line)
    name = f"{MODELS_DIR}/{path}"
    return ModelResult(path, ops, run_level(text, name, LEVEL0, ods), run_level(text, name, LEVEL2, ods))


def model_files(mirror: Path, rev: str = "HEAD") -> list[tuple[str, str]]:
    """(path under test/ttmlir/models, text) of every `.mlir` model file at `rev`, sorted by path."""
    with MirrorFiles(mirror, rev) as tree:
        paths = [p for p in tree.list(MODELS_DIR) if p.endswith(".mlir")]
        return [(p[len(MODELS_DIR) + 1 :], tree.read(p) or "") for p in paths]


_ODS: OdsSet | None = None


def _worker(item: tuple[str, str]) -> ModelResult:
    return run_model(item[0], item[1], _ODS)


def run_models(mirror: Path, rev: str = "HEAD", only: tuple[str, ...] = (), jobs: int = 1,
               progress: bool = False) -> tuple[str, list[ModelResult]]:  # fmt: skip
    """(mirror revision, one result per model file whose path contains one of `only`, or all)."""
    global _ODS
    _ODS = load_ods(str(mirror), rev)
    files = [(p, t) for p, t in model_files(mirror, rev) if not only or any(s in p for s in only)]
    results: list[ModelResult] = []
    if jobs > 1 and len(files) > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for r in pool.imap(_worker, files):
                results.append(r)
                if progress:
                    _progress(r)
    else:
        for item in files:
            results.append(_worker(item))
            if progress:
                _progress(results[-1])
    return _ODS.revision, results


def _progress(r: ModelResult) -> None:
    print(f"{r.path}: {r.status} ({r.level0.seconds + r.level2.seconds:.1f} s)", file=sys.stderr, flush=True)


def _us(ns: float | None) -> str:
    return "-" if ns is None else f"{ns / 1e3:,.1f}"


def table(revision: str, results: list[ModelResult]) -> Table:
    """The per-model table with a summary row."""
    t = Table(title=f"tt-mlir model files (mirror {revision[:12]}) through ttir-to-ttnn-backend-pipeline; "
                    "estimates from ttopt's analytic model, not measurements", title_justify="left")  # fmt: skip
    for c in ("model", "ttir ops", "status (level 2, then level 0)", "ODS", "L0 est. us", "L2 est. us", "speed-up", "s"):
        t.add_column(c, justify="left" if c.startswith(("model", "status")) else "right", overflow="fold")
    for r in results:
        sp = r.speedup
        speed = "-" if sp is None else (f"[red]{sp:.3f}x[/red]" if r.slower else f"{sp:.3f}x")
        status = r.status if r.status == "ok" else f"[red]{r.status}[/red]"
        t.add_row(r.path, str(r.ops), status, str(len(r.level2.violations)), _us(r.level0.estimated_ns),
                  _us(r.level2.estimated_ns), speed, f"{r.level0.seconds + r.level2.seconds:.1f}")  # fmt: skip
    compiled = sum(r.compiled for r in results)
    slower = sum(r.slower for r in results)
    ups = [r.speedup for r in results if r.speedup is not None]
    geo = _geomean(ups)
    t.add_section()
    known = sum(r.only_known_violations for r in results)
    invalid = sum(r.invalid_at_head for r in results)
    t.add_row(f"compiled {compiled}/{len(results) - invalid}" + (f" valid ({invalid} invalid at HEAD)" if invalid else "")
              + (f" (+{known} with only known ODS violations)" if known else ""),
              str(sum(r.ops for r in results)),
              f"{slower} slower at level 2; {sum(r.level0.error == '' for r in results)}/{len(results)} lower at level 0",
              str(sum(len(r.level2.violations) for r in results)),
              _us(sum(r.level0.estimated_ns or 0 for r in results)), _us(sum(r.level2.estimated_ns or 0 for r in results)),
              "-" if geo is None else f"{geo:.3f}x geomean", f"{sum(r.level0.seconds + r.level2.seconds for r in results):.0f}")  # fmt: skip
    return t


def _geomean(xs: list[float]) -> float | None:
    import math

    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def first_errors(results: list[ModelResult]) -> Table:
    """Distinct first errors (without positions) and how many models stop at each."""
    import re

    counts: dict[str, int] = {}
    for r in results:
        if r.compiled or r.invalid_at_head:
            continue
        key = re.sub(r"^\S+:\d+:\d+: ", "", r.status)
        counts[key] = counts.get(key, 0) + 1
    t = Table(title="first errors", title_justify="left")
    t.add_column("error", overflow="fold")
    t.add_column("models", justify="right")
    for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        t.add_row(k, str(n))
    return t


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--mirror", type=click.Path(path_type=Path), default=DEFAULT_MIRROR, show_default=True, help="bare git mirror of tt-mlir")
@click.option("--rev", default="HEAD", show_default=True, help="commit of the mirror to read")
@click.option("--only", multiple=True, help="only model paths containing this (repeatable)")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="models run in parallel processes")
@click.option("--check", is_flag=True, help="exit 1 unless every model compiles and none is slower at level 2")
def main(mirror: Path, rev: str, only: tuple[str, ...], jobs: int, check: bool) -> None:
    """Run tt-mlir's model files through the backend pipeline at levels 0 and 2 and print a table."""
    if not (mirror / "HEAD").exists() and not mirror.is_dir():
        raise click.UsageError(f"no tt-mlir mirror at {mirror} (fetch github:tenstorrent/tt-mlir)")
    try:
        revision, results = run_models(mirror, rev, only, jobs, progress=True)
    except OdsUnavailable as e:
        raise click.UsageError(str(e)) from None
    if not results:
        raise click.UsageError(f"no model file under {MODELS_DIR} matches {', '.join(only)}")
    console = Console(width=220, highlight=False)
    console.print(table(revision, results))
    if any(not r.compiled and not r.invalid_at_head for r in results):
        console.print(first_errors(results))
    if check and any((not r.compiled and not r.invalid_at_head) or r.slower for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
