"""tt-mlir's own dialect tests through ttopt's parser and printer (read from a mirror, never copied).

    python bench/ttmlir_corpus.py [--mirror GIT_DIR] [--show N]

Every `.mlir` file under tt-mlir's test/ttmlir/Dialect/{TTIR,TTNN,StableHLO,EmitC} is split at
`// -----` as lit does, parsed, printed (with locations) and parsed and printed again: a file
passes when every chunk parses and the second print equals the first (a fixed point). Negative
tests (a `negative` path, `expected-error`, `--verify-diagnostics`) and files marked
`UNSUPPORTED: true` upstream are left out. Prints a table per dialect and the first failures.
Needs `fetch github:tenstorrent/tt-mlir` (default mirror path below); not part of CI.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lit_conformance import TTMLIR_MIRROR  # noqa: E402
from ttopt.ir.diagnostics import Diagnostic  # noqa: E402
from ttopt.ir.printer import PrintOptions, print_module  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402

DEFAULT_MIRROR = TTMLIR_MIRROR
DIALECTS = ("TTIR", "TTNN", "StableHLO", "EmitC")


def _git(mirror: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={mirror}", *args], capture_output=True, text=True, check=True).stdout


def problem(name: str, text: str) -> str | None:
    """Why one upstream file does not round-trip (None when it does)."""
    opts = PrintOptions(debuginfo=True)
    for chunk in re.split(r"^// -----.*$", text, flags=re.M):
        try:
            once = print_module(parse_module(chunk, name), opts)
            if print_module(parse_module(once, name + " (printed)"), opts) != once:
                return "printed text is not a fixed point"
        except Diagnostic as e:
            return str(e).splitlines()[0]
    return None


def _skipped(name: str, text: str) -> bool:
    return "negative" in name.lower() or "expected-error" in text or "verify-diagnostics" in text or "UNSUPPORTED: true" in text


@click.command()
@click.option("--mirror", type=click.Path(path_type=Path), default=DEFAULT_MIRROR, show_default=True, help="bare git mirror of tt-mlir")
@click.option("--show", type=int, default=10, show_default=True, help="failures to print")
def main(mirror: Path, show: int) -> None:
    """Round-trip tt-mlir's dialect tests and print a per-dialect table."""
    if not mirror.is_dir():
        raise click.UsageError(f"no tt-mlir mirror at {mirror} (fetch github:tenstorrent/tt-mlir)")
    table = Table(title=f"tt-mlir dialect tests through ttopt (mirror HEAD {_git(mirror, 'rev-parse', '--short', 'HEAD').strip()})")
    for col in ("dialect", "files", "skipped", "round-trip", "fail"):
        table.add_column(col, justify="right" if col != "dialect" else "left")
    failures: list[str] = []
    for dialect in DIALECTS:
        names = [n for n in _git(mirror, "ls-tree", "-r", "--name-only", "HEAD", f"test/ttmlir/Dialect/{dialect}").split() if n.endswith(".mlir")]
        ok = skipped = 0
        for name in names:
            text = _git(mirror, "show", f"HEAD:{name}")
            if _skipped(name, text):
                skipped += 1
                continue
            why = problem(name, text)
            if why is None:
                ok += 1
            else:
                failures.append(f"{name}: {why}")
        checked = len(names) - skipped
        table.add_row(dialect, str(len(names)), str(skipped), f"{ok}/{checked}", str(checked - ok))
    console = Console()
    console.print(table)
    for line in failures[:show]:
        console.print(line, markup=False, highlight=False)


if __name__ == "__main__":
    main()
