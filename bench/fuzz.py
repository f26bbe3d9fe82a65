"""Fuzz `ttopt opt` (every pass mode) and `ttopt topology map` against the CLI contract; print a table.

    python bench/fuzz.py --cases 2000 [--seed 0] [--mode optimizer]

Each case is a seeded mutation of a corpus file or a grammar-built module of registered ops in
generic form (ttopt/testing/fuzz.py), run in-process under one of the pass modes. Reported:
cases run, exit-code contract violations, internal errors, exit-0 outputs that do not re-parse to
a fixed point, and the process's peak RSS; each failing case is listed with its seed, which
reproduces it (`--seed S --cases 1`).
"""

from __future__ import annotations

import collections
import resource
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttopt.testing.fuzz import MODES, check_case, corpus, make_case  # noqa: E402


@click.command()
@click.option("--cases", default=500, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=0, show_default=True, type=int, help="First seed; case i uses seed+i.")
@click.option("--mode", type=click.Choice(sorted(MODES)), default=None, help="Run every case under this mode only.")
@click.option("--show", default=20, show_default=True, type=click.IntRange(0), help="Failing cases to list.")
def main(cases: int, seed: int, mode: str | None, show: int) -> None:
    """Run the fuzz cases and print the contract table."""
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
        c = out.case
        console.print(f"seed {c.seed} [{c.mode}] {c.kind} {c.source}: {', '.join(out.violations)}: {out.detail[:300]}", markup=False)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
