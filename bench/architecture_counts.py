"""The architecture issue's counts, measured on the package as it is (not by CI).

    python bench/architecture_counts.py [--list KIND]

Prints one table: raw `properties["..."]` reads, ttopt imports inside functions, files over 600
lines, functions over 80 lines, regex-based attribute-body parsing outside `parse/`. `--list KIND`
(props, imports, files, functions) prints where each one is.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

PACKAGE = Path(__file__).resolve().parents[1] / "ttopt"
RAW_READ = re.compile(r"""properties\[\s*["'][^"']*["']\s*\](?!\s*=[^=])""")


def _files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def raw_property_reads() -> list[str]:
    """`op.properties["x"]` reads (writes excluded: the typed `props(op)` view replaces the reads)."""
    out = []
    for f in _files():
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if RAW_READ.search(line):
                out.append(f"{f.relative_to(PACKAGE.parent)}:{n}: {line.strip()}")
    return out


def function_imports() -> list[str]:
    """ttopt imports that sit inside a function body."""
    out = []
    for f in _files():
        tree = ast.parse(f.read_text())
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                mod = node.module if isinstance(node, ast.ImportFrom) else None
                if (mod and mod.startswith("ttopt")) or (isinstance(node, ast.ImportFrom) and node.level):
                    out.append(f"{f.relative_to(PACKAGE.parent)}:{node.lineno}: in {fn.name}: from {mod or '.'}")
    return sorted(set(out))


def long_files(limit: int = 600) -> list[str]:
    """Modules over `limit` lines."""
    rows = [(len(f.read_text().splitlines()), f) for f in _files()]
    return [f"{f.relative_to(PACKAGE.parent)}: {n}" for n, f in sorted(rows, reverse=True) if n > limit]


def long_functions(limit: int = 80) -> list[str]:
    """Functions over `limit` lines (decorators excluded)."""
    out = []
    for f in _files():
        for fn in ast.walk(ast.parse(f.read_text())):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.end_lineno is not None:
                n = fn.end_lineno - fn.lineno + 1
                if n > limit:
                    out.append((n, f"{f.relative_to(PACKAGE.parent)}:{fn.lineno}: {fn.name} ({n} lines)"))
    return [s for _, s in sorted(out, reverse=True)]


def body_regexes() -> list[str]:
    """Regexes over attribute bodies outside the parser (`.body` scanned with `re`)."""
    out = []
    for f in _files():
        if f.parent.name == "parse":
            continue
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if re.search(r"re\.(search|match|fullmatch|findall|finditer)\(.*body", line) or re.search(r"_[A-Z_]+\.(finditer|findall)\(body", line):
                out.append(f"{f.relative_to(PACKAGE.parent)}:{n}: {line.strip()}")
    return out


KINDS = {
    "props": ("raw properties[\"...\"] reads", raw_property_reads),
    "imports": ("ttopt imports inside functions", function_imports),
    "files": ("files over 600 lines", long_files),
    "functions": ("functions over 80 lines", long_functions),
    "regex": ("regexes over attribute bodies outside parse/", body_regexes),
}


@click.command()
@click.option("--list", "listing", type=click.Choice(sorted(KINDS)), help="Print every occurrence of one count.")
def main(listing: str | None) -> None:
    """Print the counts table (and optionally one count's occurrences)."""
    console = Console()
    if listing:
        for line in KINDS[listing][1]():
            console.print(line, highlight=False, markup=False)
        return
    table = Table(title="ttopt architecture counts")
    table.add_column("count")
    table.add_column("value", justify="right")
    for name, fn in KINDS.values():
        table.add_row(name, str(len(fn())))
    console.print(table)


if __name__ == "__main__":
    sys.exit(main())
