"""tt-mlir's golden op snippets (test/python/golden/mlir_snippets/**) through ttopt, level 0 and 2.

    python bench/ttmlir_snippets.py [--mirror GIT_DIR] [--rev REV] [--only SUBSTRING] [--check] [--show N]

The snippets are the programs tt-mlir's golden runner compiles and runs on silicon, one op (or a
few) each, in StableHLO, Shardy, TTIR or TTNN (read from a git mirror, `fetch
github:tenstorrent/tt-mlir`; nothing is copied into the project). Each runs in-process as `ttopt
opt` would run it:

* `stablehlo/`, `sdy/`: `--stablehlo-to-ttir-pipeline` then `--ttir-to-ttnn-backend-pipeline`;
* `ttir/`, `models/`: `--ttir-to-ttnn-backend-pipeline`;
* `ttnn/`: parsed and verified as they are (they are already TTNN);

the backend at `optimization-level=0` and `optimization-level=2`. Every output is printed, parsed
and verified again and checked against tt-mlir's TTNN ODS at the same revision
(ttopt/testing/ods_check.py). A snippet *passes* when both levels lower and their output has no ODS
violation. Failures that are understood are listed with their reason in
bench/ttmlir_snippets_known_differences.txt (`<path under mlir_snippets><TAB><reason>`); `--check`
exits 1 on any other failure, on an internal error (a Python exception: a ttopt bug) and on a
listed snippet that now passes.
"""

from __future__ import annotations

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
from ttopt.ir.diagnostics import Diagnostic  # noqa: E402
from ttopt.ir.module import Module  # noqa: E402
from ttopt.ir.printer import print_module  # noqa: E402
from ttopt.ir.verifier import verify  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext  # noqa: E402
from ttopt.passes.manager import PassManager  # noqa: E402
from ttopt.passes.pipeline import instantiate, parse_pipeline  # noqa: E402
from ttopt.testing.ods_check import check_module  # noqa: E402
from ttopt.testing.ods_specs import MirrorFiles, OdsSet, load_ods  # noqa: E402

DEFAULT_MIRROR = TTMLIR_MIRROR
SNIPPETS = "test/python/golden/mlir_snippets"
KNOWN = ROOT / "bench" / "ttmlir_snippets_known_differences.txt"
LEVELS = (0, 2)


def pipeline_for(path: str, level: int) -> str | None:
    """The pass pipeline a snippet runs through (None: TTNN input, only parsed and verified)."""
    top = path.split("/", 1)[0]
    backend = f"ttir-to-ttnn-backend-pipeline{{optimization-level={level}}}"
    if top in ("stablehlo", "sdy"):
        return f"builtin.module(stablehlo-to-ttir-pipeline, {backend})"
    if top == "ttnn":
        return None
    return f"builtin.module({backend})"


@dataclass
class SnippetResult:
    """One snippet: its first problem ('' when it passes) and whether that is a ttopt bug."""

    path: str
    error: str = ""
    internal: bool = False
    seconds: float = 0.0
    levels: list[int] = field(default_factory=list)


def run_one(path: str, text: str, ods: OdsSet | None) -> SnippetResult:
    """Both levels of one snippet (the first problem stops it)."""
    res = SnippetResult(path)
    t0 = time.perf_counter()
    name = f"{SNIPPETS}/{path}"
    for level in LEVELS:
        try:
            module = _lower(text, name, pipeline_for(path, level))
            violations = sorted({v.key for v in check_module(module, ods, name)}) if ods is not None else []
            if violations:
                res.error = f"level {level}: ODS: {violations[0]}"
            else:
                res.levels.append(level)
        except Diagnostic as d:
            first = d.render(name).strip().splitlines()[0] if d.render(name).strip() else "error"
            res.error = f"level {level}: {first.removeprefix(name + ':').strip()}"
        except Exception as e:  # noqa: BLE001 - a ttopt bug on upstream input: reported, not fatal here
            res.error, res.internal = f"level {level}: {type(e).__name__}: {e}", True
        if res.error or pipeline_for(path, level) is None:
            break
    res.seconds = time.perf_counter() - t0
    return res


def _lower(text: str, name: str, pipeline: str | None) -> Module:
    """Parse and verify, run `pipeline`, print; the printed text parsed and verified again."""
    module = parse_module(text, name)
    verify(module)
    if pipeline is not None:
        PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    again = parse_module(print_module(module), f"{name} (ttopt output)")
    verify(again)
    return again


def read_known(path: Path = KNOWN) -> dict[str, str]:
    """Known differences: snippet path -> reason."""
    known: dict[str, str] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                key, _, reason = line.partition("\t")
                known[key.strip()] = reason.strip()
    return known


def snippet_files(mirror: Path, rev: str) -> list[tuple[str, str]]:
    """(path under mlir_snippets, text) of every `.mlir` snippet at `rev`, sorted by path."""
    with MirrorFiles(mirror, rev) as tree:
        paths = sorted(p for p in tree.list(SNIPPETS) if p.endswith(".mlir"))
        return [(p[len(SNIPPETS) + 1 :], tree.read(p) or "") for p in paths]


def table(revision: str, results: list[SnippetResult], known: dict[str, str]) -> Table:
    """Per directory: snippets, passing, known differences, unexplained failures, internal errors."""
    t = Table(title=f"tt-mlir golden snippets at {revision[:10]} through ttopt (levels 0 and 2)")
    for col in ("directory", "snippets", "pass", "known difference", "unexplained", "internal error"):
        t.add_column(col, justify="left" if col == "directory" else "right")
    groups: dict[str, list[SnippetResult]] = {}
    for r in results:
        groups.setdefault(r.path.split("/", 1)[0], []).append(r)
    rows = sorted(groups.items()) + [("all", results)]
    for name, rs in rows:
        ok = sum(not r.error for r in rs)
        kn = sum(bool(r.error) and r.path in known and not r.internal for r in rs)
        internal = sum(r.internal for r in rs)
        t.add_row(name, str(len(rs)), str(ok), str(kn), str(len(rs) - ok - kn - internal), str(internal))
    return t


def run_snippets(mirror: Path, rev: str = "HEAD", only: tuple[str, ...] = ()) -> tuple[str, list[SnippetResult]]:
    """(mirror revision, one result per snippet whose path contains one of `only`, or all)."""
    ods = load_ods(str(mirror), rev)
    files = [(p, t) for p, t in snippet_files(mirror, rev) if not only or any(s in p for s in only)]
    return ods.revision, [run_one(p, t, ods) for p, t in files]


def problems(results: list[SnippetResult], known: dict[str, str]) -> tuple[list[SnippetResult], list[str]]:
    """The failures no known difference explains (and every internal error), and the known lines
    whose snippet now passes."""
    unexplained = [r for r in results if r.error and (r.internal or r.path not in known)]
    stale = [p for p in known if any(r.path == p and not r.error for r in results)]
    return unexplained, stale


@click.command()
@click.option("--mirror", type=click.Path(path_type=Path), default=DEFAULT_MIRROR, show_default=True, help="Bare git mirror of tenstorrent/tt-mlir.")
@click.option("--rev", default="HEAD", show_default=True, help="Revision of the snippets and the ODS.")
@click.option("--only", multiple=True, help="Only snippets whose path contains this text (repeatable).")
@click.option("--check", is_flag=True, help="Exit 1 on an unexplained failure, an internal error or a stale known line.")
@click.option("--show", type=click.IntRange(min=0), default=40, show_default=True, help="Failures to list.")
def main(mirror: Path, rev: str, only: tuple[str, ...], check: bool, show: int) -> None:
    """Run tt-mlir's golden snippets through ttopt and print the per-directory table."""
    console = Console()
    known = read_known()
    t0 = time.perf_counter()
    revision, results = run_snippets(mirror, rev, only)
    console.print(table(revision, results, known))
    unexplained, stale = problems(results, known)
    for r in unexplained[:show]:
        console.print(f"{r.path}: {'internal error: ' if r.internal else ''}{r.error}", markup=False, highlight=False)
    for p in stale:
        console.print(f"{p}: passes, but is listed as a known difference", markup=False, highlight=False)
    console.print(f"{time.perf_counter() - t0:.1f} s")
    if check and (unexplained or stale):
        sys.exit(1)


if __name__ == "__main__":
    main()
