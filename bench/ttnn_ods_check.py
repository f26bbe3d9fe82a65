"""Check TTNN modules against tt-mlir's ODS: does every `ttnn.*` op exist at that revision, with
operand and result counts, attributes and attribute kinds as `TTNNOps.td` declares them?

    python bench/ttnn_ods_check.py FILE... [--pass-pipeline P] [--split-input-file]
    python bench/ttnn_ods_check.py --corpus [--show]
    python bench/ttnn_ods_check.py --ttmlir-tests test/ttmlir/Dialect/TTNN [--limit N]
    python bench/ttnn_ods_check.py --ops

The ODS is read from a tt-mlir git mirror (`fetch github:tenstorrent/tt-mlir`; default
/work/.mirror/tenstorrent+tt-mlir/repo, `--rev` picks the commit) or a checkout, with ttopt's
own TableGen reader; the first line of output names the commit. FILE (or `-` for stdin) is a
TTNN module, e.g. what `ttopt opt` printed, or an input `--pass-pipeline` turns into one.
`--corpus` checks the outputs tests/lowering/test_ttnn_ods.py checks (testdata/ttnn, ttir, jax
through ttopt's pipelines); `--ttmlir-tests` runs tt-mlir's own lit tests under a folder of the
mirror through `ttir-to-ttnn-backend-pipeline` (default options) and checks what comes out
(files without RUN lines, like the model inputs under test/ttmlir/models, run too).

Violations print as `file:line:col: 'ttnn.x' problem` (positions in the checked text), then a table
of distinct problems with the known-violations list's "fix in" note; exit 1 when there is any.
Bad input is an MLIR-style error (exit 1); an unreadable mirror or bad option a usage error (exit 2).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttopt.ir.diagnostics import Diagnostic  # noqa: E402
from ttopt.ir.module import Module  # noqa: E402
from ttopt.ir.printer import print_module  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext  # noqa: E402
from ttopt.passes.manager import PassManager  # noqa: E402
from ttopt.passes.pipeline import instantiate, parse_pipeline  # noqa: E402
from ttopt.testing.ods_check import Violation, check_module, read_known  # noqa: E402
from ttopt.testing.ods_specs import DEFAULT_MIRROR, MirrorFiles, OdsSet, OdsUnavailable, load_ods  # noqa: E402
from ttopt.testing.ttnn_outputs import BACKEND, corpus_outputs, run_pipeline  # noqa: E402

KNOWN = ROOT / "tests" / "lowering" / "ttnn_ods_known_violations.txt"
_SPLIT = re.compile(r"^// -----.*$", re.M)


def _chunks(text: str) -> list[tuple[str, int]]:
    """`// -----` separated chunks with the line offset of each (as `--split-input-file`)."""
    out, start = [], 0
    for m in _SPLIT.finditer(text):
        out.append((text[start : m.start()], text.count("\n", 0, start)))
        start = m.end()
    out.append((text[start:], text.count("\n", 0, start)))
    return out


def _fix_notes() -> dict[str, str]:
    try:
        known = read_known(KNOWN.read_text())
    except (OSError, ValueError):
        return {}
    return {k: r[r.index("fix in ") + 7 :] if "fix in " in r else r for k, r in known.items()}


def _summary(found: dict[str, list[tuple[str, Violation]]], console: Console) -> None:
    notes = _fix_notes()
    table = Table(title="distinct violations", show_lines=False)
    for col in ("op", "problem", "outputs", "ops", "fix in (known list)"):
        table.add_column(col, overflow="fold")
    for key in sorted(found):
        op, _, problem = key.partition(": ")
        outputs = len({label for label, _ in found[key]})
        table.add_row(op, problem, str(outputs), str(len(found[key])), notes.get(key, "[red]not listed[/red]"))
    console.print(table)


def _load(mirror: str, rev: str) -> OdsSet:
    try:
        return load_ods(mirror, rev)
    except OdsUnavailable as e:
        raise click.UsageError(str(e)) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", nargs=-1)
@click.option("--mirror", default=str(DEFAULT_MIRROR), show_default=True, help="tt-mlir bare git mirror or checkout.")
@click.option("--rev", default="HEAD", show_default=True, help="Commit of the mirror to read.")
@click.option("--pass-pipeline", "pipeline", default=None, help="Run this ttopt pipeline on each FILE first.")
@click.option("--split-input-file", is_flag=True, help="Check '// -----' separated chunks independently.")
@click.option("--corpus", is_flag=True, help="Check ttopt's outputs for testdata/ttnn, ttir and jax.")
@click.option("--ttmlir-tests", "tests", multiple=True, help="A folder of the mirror (test/ttmlir/...) whose lit "
              "tests run through ttir-to-ttnn-backend-pipeline and are checked.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N test files per --ttmlir-tests.")
@click.option("--show", is_flag=True, help="With --corpus/--ttmlir-tests: print every violation line too.")
@click.option("--ops", "list_ops", is_flag=True, help="Print the ODS of every op and exit.")
def main(files: tuple[str, ...], mirror: str, rev: str, pipeline: str | None, split_input_file: bool, corpus: bool,
         tests: tuple[str, ...], limit: int | None, show: bool, list_ops: bool) -> None:
    """Check TTNN modules against tt-mlir's TTNNOps.td."""
    if not (files or corpus or tests or list_ops):
        raise click.UsageError("give FILE(s), --corpus, --ttmlir-tests or --ops")
    console = Console(highlight=False, soft_wrap=True)
    ods = _load(mirror, rev)
    click.echo(f"ttnn-ods-check: tt-mlir {ods.revision} ({ods.source}): {len(ods.ops)} TTNN ops")
    if ods.unknown_constraints:
        click.echo(f"ttnn-ods-check: constraints read as 'anything': {', '.join(ods.unknown_constraints)}", err=True)
    if list_ops:
        _print_ops(ods, console)
        return
    found: dict[str, list[tuple[str, Violation]]] = defaultdict(list)
    failed = 0

    def record(label: str, violations: list[Violation], print_lines: bool) -> None:
        for v in violations:
            found[v.key].append((label, v))
            if print_lines:
                click.echo(v.render())

    for name in files:
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text()
        except OSError as e:
            raise click.UsageError(f"cannot read {name}: {e.strerror}") from None
        label = "<stdin>" if name == "-" else name
        for chunk, offset in _chunks(text) if split_input_file else [(text, 0)]:
            try:
                module = _run(chunk, label, offset, pipeline)
            except Diagnostic as d:
                click.echo(d.render(label), err=True)
                sys.exit(1)
            record(label, check_module(module, ods), True)
    if corpus:
        n = 0
        for output in corpus_outputs():
            n += 1
            record(output.label, check_module(output.module, ods, output.label), show)
        click.echo(f"ttnn-ods-check: {n} corpus outputs checked")
    for folder in tests:
        failed += _check_ttmlir_tests(folder, mirror, rev, ods, limit, show, record)
    if found and (corpus or tests or len(found) > 1):
        _summary(found, console)
    total = sum(len(v) for v in found.values())
    click.echo(f"ttnn-ods-check: {total} violation(s), {len(found)} distinct" + (f"; {failed} test chunk(s) did not lower" if tests else ""))
    sys.exit(1 if found else 0)


def _run(text: str, name: str, line_offset: int, pipeline: str | None) -> Module:
    module = parse_module(text, name, line_offset)
    if pipeline:
        try:
            passes = instantiate(parse_pipeline(pipeline), pipeline)
        except ValueError as e:
            raise click.UsageError(f"--pass-pipeline: {e}") from None
        PassManager(passes, PassContext()).run(module)
        module = parse_module(print_module(module), f"{name} (ttopt output)")  # positions in the printed text
    return module


def _check_ttmlir_tests(folder: str, mirror: str, rev: str, ods: OdsSet, limit: int | None, show: bool,
                        record: Callable[[str, list[Violation], bool], None]) -> int:
    """Run the lit tests under `folder` that use the backend pipeline (and RUN-less input files)
    through it with default options; returns how many chunks failed."""
    lowered = failed = crashed = 0
    with MirrorFiles(mirror, rev) as tree:
        paths = [p for p in tree.list(folder) if p.endswith(".mlir")]
        used = 0
        for path in paths:
            text = tree.read(path) or ""
            # a lit test that runs the backend pipeline, or a file without RUN lines (the model
            # inputs under test/ttmlir/models)
            if "ttir-to-ttnn-backend-pipeline" not in text and "RUN:" in text:
                continue
            used += 1
            if limit is not None and used > limit:
                break
            for chunk, _ in _chunks(text):
                try:
                    module = run_pipeline(chunk, path, BACKEND.format(""))
                except Diagnostic:
                    failed += 1
                    continue
                except Exception as e:  # noqa: BLE001 - a ttopt bug on upstream input: counted, not fatal here
                    crashed += 1
                    click.echo(f"ttnn-ods-check: {path}: internal error: {type(e).__name__}: {e}", err=True)
                    continue
                lowered += 1
                record(path, check_module(module, ods), show)
    click.echo(f"ttnn-ods-check: {folder}: {lowered} chunk(s) lowered and checked, {failed} rejected, {crashed} crashed")
    return failed + crashed


def _print_ops(ods: OdsSet, console: Console) -> None:
    table = Table(title=f"TTNN ops at {ods.revision[:12]}")
    for col in ("op", "operands", "results", "attributes (? optional)", "traits"):
        table.add_column(col, overflow="fold")
    for name in sorted(ods.ops):
        s = ods.ops[name]
        attrs = ", ".join(f"{a.name}{'' if a.required else '?'}: {a.constraint.ods}" for a in s.attributes)
        traits = "AttrSizedOperandSegments" if s.attr_sized_operands else ""
        table.add_row(name, ", ".join(v.text() for v in s.operands), ", ".join(v.text() for v in s.results), attrs, traits)
    console.print(table)


if __name__ == "__main__":
    main()
