"""Fuzz `ttopt opt` (every pass mode) and `ttopt topology map` against the CLI contract; print a table.

    python bench/fuzz.py --cases 2000 [--seed 0] [--mode optimizer]
    python bench/fuzz.py --differential --cases 3000 [--seed 0] [--max-chars 64000] [--shrink]

Each case is a seeded mutation of a corpus file or a grammar-built module of registered ops in
generic form (ttopt/testing/fuzz.py), run in-process under one of the pass modes. Reported:
cases run, exit-code contract violations, internal errors, exit-0 outputs that do not re-parse to
a fixed point, and the process's peak RSS; each failing case is listed with its seed, which
reproduces it (`--seed S --cases 1`).

`--differential` compares ttopt with MLIR's parser in jaxlib instead (ttopt/testing/differential.py):
every testdata chunk in dialects jaxlib registers and a few JAX-lowered programs, first unmutated,
then with one token-level edit per case. Per corpus: cases, agreements, accept/reject
disagreements (ttopt-only-accepts / MLIR-only-accepts), ttopt outputs MLIR cannot read or reads
as another module, internal errors; then every distinct disagreement (grouped by its key, with
`(listed)` for those tests/fuzz/differential_deviations.txt explains), `--shrink` reducing each
to a few lines.
"""

from __future__ import annotations

import collections
import resource
import sys
import time
from pathlib import Path
from typing import Any, Callable

import click
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttopt.testing.fuzz import MODES, check_case, corpus, make_case  # noqa: E402

DEVIATIONS = ROOT / "tests" / "fuzz" / "differential_deviations.txt"


@click.command()
@click.option("--cases", default=500, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=0, show_default=True, type=int, help="First seed; case i uses seed+i.")
@click.option("--mode", type=click.Choice(sorted(MODES)), default=None, help="Run every case under this mode only.")
@click.option("--show", default=20, show_default=True, type=click.IntRange(0), help="Failing cases (differential: distinct keys) to list.")
@click.option("--differential", is_flag=True, help="Compare with MLIR's parser (jaxlib) on token-level mutations.")
@click.option("--max-chars", default=64_000, show_default=True, type=click.IntRange(1), help="Differential: largest source chunk.")
@click.option("--shrink", is_flag=True, help="Differential: reduce the first case of each listed key to a minimal repro.")
def main(cases: int, seed: int, mode: str | None, show: int, differential: bool, max_chars: int, shrink: bool) -> None:
    """Run the fuzz cases and print the contract table (or the differential tables)."""
    if differential:
        _differential(cases, seed, show, max_chars, shrink)
        return
    files = corpus(ROOT)
    per_mode: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    failures = []
    t0 = time.perf_counter()
    for s in range(seed, seed + cases):
        case = make_case(s, files, mode)
        out = check_case(case)
        c = per_mode[case.mode]
        c["cases"] += 1
        c[f"exit {out.exit_code}"] += 1
        for v in out.violations:
            c[v] += 1
        if out.violations:
            failures.append(out)
    elapsed = time.perf_counter() - t0
    table = Table(title=f"ttopt fuzz: {cases} cases, seeds {seed}..{seed + cases - 1}, {elapsed:.1f} s")
    cols = ["cases", "exit 0", "exit 1", "exit 2", "exit-code", "internal-error", "no-fixed-point"]
    table.add_column("mode")
    for col in cols:
        table.add_column(col, justify="right")
    total: collections.Counter = collections.Counter()
    for m in sorted(per_mode):
        total.update(per_mode[m])
        table.add_row(m, *(str(per_mode[m][col]) for col in cols))
    table.add_row("all", *(str(total[col]) for col in cols), style="bold")
    console = Console()
    console.print(table)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    console.print(f"peak RSS {rss_mb:.0f} MB; contract violations {len(failures)}")
    for out in failures[:show]:
        fc = out.case
        console.print(f"seed {fc.seed} [{fc.mode}] {fc.kind} {fc.source}: {', '.join(out.violations)}: {out.detail[:300]}", markup=False)
    sys.exit(1 if failures else 0)


_COLUMNS = ("cases", "agree-accept", "agree-reject", "ttopt-only-accepts", "mlir-only-accepts", "output-unreadable", "output-mismatch",
            "internal-error", "unpositioned-error", "mlir-crashed")


def _table(title: str, outcomes: list, by: Callable[[Any], str]) -> Table:
    table = Table(title=title)
    table.add_column("")
    for col in _COLUMNS:
        table.add_column(col.replace("-", "-\n", 1), justify="right")
    rows: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for o in outcomes:
        rows[by(o)][o.verdict] += 1
        rows[by(o)]["cases"] += 1
    total: collections.Counter = collections.Counter()
    for name in sorted(rows):
        total.update(rows[name])
        table.add_row(name, *(str(rows[name][c]) for c in _COLUMNS))
    table.add_row("all", *(str(total[c]) for c in _COLUMNS), style="bold")
    return table


def _differential(cases: int, seed: int, show: int, max_chars: int, shrink: bool) -> None:
    from ttopt.testing.differential import (
        agreed_valid,
        generated_sources,
        identity_outcomes,
        read_deviations,
        run_cases,
        sources_in_testdata,
        unexplained,
    )
    from ttopt.testing.differential import shrink as shrink_case
    from ttopt.testing.jax_programs import generate
    from ttopt.testing.mlir_reader import MlirReader

    console = Console(width=200, soft_wrap=True)
    reader = MlirReader()
    t0 = time.perf_counter()
    sources = sources_in_testdata(ROOT, max_chars) + generated_sources(generate())
    identity = identity_outcomes(sources, reader)
    valid = agreed_valid(identity)
    t1 = time.perf_counter()
    mutations = run_cases(range(seed, seed + cases), sources, reader, valid)
    t2 = time.perf_counter()
    console.print(_table(f"unmutated sources vs jaxlib: {len(identity)} sources, {t1 - t0:.1f} s", identity, lambda o: o.case.source.corpus))
    console.print(_table(f"token-level mutations vs jaxlib: seeds {seed}..{seed + cases - 1}, {t2 - t1:.1f} s", mutations,
                         lambda o: o.case.source.corpus))
    console.print(_table("the same mutations by kind", mutations, lambda o: o.case.mutation.kind))
    deviations = read_deviations(DEVIATIONS)
    everything = identity + mutations
    bad = unexplained(everything, deviations)
    groups: dict[str, list] = collections.defaultdict(list)
    for o in everything:
        if o.disagrees:
            groups[o.key].append(o)
    console.print(f"{sum(len(g) for g in groups.values())} disagreements, {len(groups)} distinct keys, {len(bad)} not listed in "
                  f"{DEVIATIONS.relative_to(ROOT)}; jaxlib crashed {reader.crashes} times")
    bad_ids = {id(o) for o in bad}
    for key, group in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:show]:
        first = group[0]
        listed = "" if id(first) in bad_ids else " (listed)"
        console.print(f"{len(group)}x{listed} {first.summary()}", markup=False, highlight=False)
        if shrink:
            small = shrink_case(first, reader)
            console.print("    repro:\n" + "\n".join(f"      {line!r}" for line in small.case.text.splitlines(keepends=True)) +
                          f"\n    MLIR: {small.mlir[:200]} | ttopt: {small.ttopt[:200]}", markup=False, highlight=False)
    reader.close()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
