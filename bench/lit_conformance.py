"""What the lit-test conformance benches share: LLVM FileCheck, `ttopt opt` run in-process, the
known-differences file and the pass table.

bench/shardy_conformance.py (Shardy's tests) and bench/ttmlir_conformance.py (tt-mlir's) read
upstream tests from a git mirror, run them through ttopt and check the output with FileCheck; the
parts that do not depend on whose tests they are live here.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
# The bare git mirror of tenstorrent/tt-mlir every tt-mlir conformance bench and test reads
# (`fetch github:tenstorrent/tt-mlir`); TTOPT_TTMLIR_MIRROR points elsewhere.
TTMLIR_MIRROR = Path(os.environ.get("TTOPT_TTMLIR_MIRROR", "/work/.mirror/tenstorrent+tt-mlir/repo"))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ttopt.cli import cli  # noqa: E402
from ttopt.cli.verify_diagnostics import captured_warnings  # noqa: E402


def find_llvm_filecheck() -> str | None:
    """LLVM's FileCheck (upstream lit tests are written for its semantics): on PATH or under /usr/lib/llvm-*."""
    return shutil.which("FileCheck") or next(iter(sorted(glob.glob("/usr/lib/llvm-*/bin/FileCheck"), reverse=True)), None)


@dataclass
class ToolResult:
    """Exit status and output of one tool run; `internal` names a ttopt crash (a bug, never a diagnostic)."""

    code: int
    stdout: str
    stderr: str
    internal: str = ""


def run_ttopt(args: list[str], stdin: str = "") -> ToolResult:
    """`ttopt <args>` in-process (interpreter start-up would dominate a run per test file).

    Warnings go to the `ttopt` logger: they are collected and appended to stderr, so they count the
    same whatever logging handlers the process has (under pytest the root handler would take them)."""
    with captured_warnings() as warnings:
        result = CliRunner().invoke(cli, args, input=stdin)
    stderr = result.stderr + "".join(w + "\n" for w in warnings)
    internal = ""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        internal = f"{type(result.exception).__name__}: {result.exception}"
    elif result.exit_code not in (0, 1, 2):
        internal = f"exit status {result.exit_code}"
    elif "Traceback (most recent call last)" in result.stdout + stderr:
        internal = "a Python traceback in the output"
    return ToolResult(result.exit_code, result.stdout, stderr, internal)


def run_filecheck(filecheck: list[str], args: list[str], stdin: str = "") -> ToolResult:
    """FileCheck (`filecheck` is the command, e.g. [path] or [python, -m, filecheck]) on `stdin`."""
    r = subprocess.run([*filecheck, *args], input=stdin, capture_output=True, text=True)
    return ToolResult(r.returncode, r.stdout, r.stderr)


def read_known_differences(path: Path) -> dict[str, str]:
    """`key -> reason` from a known-differences file: one `key<TAB>reason` a line, `#` comments."""
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, reason = line.partition("\t")
            out[key.strip()] = reason.strip()
    return out


def prune_known_differences(path: Path, keys: Iterable[str]) -> int:
    """Remove the lines of `keys` from a known-differences file; the number of keys removed."""
    gone = set(keys)
    kept = [l for l in path.read_text().splitlines() if l.startswith("#") or l.partition("\t")[0].strip() not in gone]
    path.write_text("\n".join(kept) + "\n")
    return len(gone)


# A column of the pass table: its header and its cell from a row's counter.
Column = tuple[str, Callable[[Counter], str]]


def count(key: str, header: str | None = None) -> Column:
    """A column that shows one counter entry."""
    return (header or key, lambda c: str(c[key]))


def percent(part: str, whole: str) -> Column:
    """A column with `part` as a whole-number percentage of `whole` (`-` when `whole` is 0)."""
    return ("%", lambda c: f"{100 * c[part] / c[whole]:.0f}" if c[whole] else "-")


def print_table(console: Console, title: str, first: str, rows: dict[str, Counter], columns: list[Column],
                order: Callable[[str], object] | None = None) -> Counter:  # fmt: skip
    """Print one row per key of `rows` (sorted by `order`) and a bold `all` row; returns the totals."""
    table = Table(title=title)
    table.add_column(first, justify="left")
    for header, _ in columns:
        table.add_column(header, justify="right")
    total: Counter = Counter()
    for name in sorted(rows, key=order):
        total.update(rows[name])
        table.add_row(name, *(cell(rows[name]) for _, cell in columns))
    table.add_row("all", *(cell(total) for _, cell in columns), style="bold")
    console.print(table)
    return total
