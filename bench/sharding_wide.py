"""Benchmark: `--stablehlo-pipeline` on wide modules: one op with N operands, a
function with N arguments, and N arguments feeding one op. The pipeline must stay linear in N.

Run by hand from the repo root (not by CI):

    python bench/sharding_wide.py [--sizes 8000,32000,100000]

Inputs are generated in a temporary directory; each row is one in-process `ttopt opt` run (plain
parse+print, then the pipeline), timed with perf_counter.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import click
from click.testing import CliRunner
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def wide_module(kind: str, n: int) -> str:
    """MLIR text of one generated case."""
    if kind == "one op, N operands":
        ops, tys = ", ".join(["%arg0"] * n), ", ".join(["tensor<1x4xf32>"] * n)
        head, op_args = "%arg0: tensor<1x4xf32>", (ops, tys)
    elif kind == "N arguments":
        args = ", ".join(f"%arg{i}: tensor<4xf32>" for i in range(n))
        return f"func.func @main({args}) -> tensor<4xf32> {{\n  return %arg0 : tensor<4xf32>\n}}\n"
    else:
        head = ", ".join(f"%arg{i}: tensor<1x4xf32>" for i in range(n))
        op_args = (", ".join(f"%arg{i}" for i in range(n)), ", ".join(["tensor<1x4xf32>"] * n))
    return (f"func.func @main({head}) -> tensor<{n}x4xf32> {{\n"
            f'  %0 = "stablehlo.concatenate"({op_args[0]}) <{{dimension = 0 : i64}}> : ({op_args[1]}) -> tensor<{n}x4xf32>\n'
            f"  return %0 : tensor<{n}x4xf32>\n}}\n")


def timed(args: list[str]) -> float:
    from ttopt.cli import cli

    t0 = time.perf_counter()
    r = CliRunner().invoke(cli, ["opt", *args])
    dt = time.perf_counter() - t0
    if r.exit_code != 0:
        raise SystemExit(f"ttopt opt {' '.join(args)} failed: {r.output[-300:]}")
    return dt


@click.command()
@click.option("--sizes", default="8000,32000,100000", show_default=True, help="Comma-separated N values.")
def main(sizes: str) -> None:
    """Print parse+print and pipeline seconds per case and size."""
    table = Table(title="stablehlo-pipeline on wide modules (seconds)")
    for col in ("case", "N", "plain", "pipeline", "pipeline / N (us)"):
        table.add_column(col, justify="left" if col == "case" else "right")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("one op, N operands", "N arguments", "N arguments into one op"):
            for n in (int(s) for s in sizes.split(",")):
                src = Path(tmp) / "in.mlir"
                src.write_text(wide_module(kind, n))
                out = str(Path(tmp) / "out.mlir")
                plain = timed([str(src), "-o", out])
                pipe = timed([str(src), "--stablehlo-pipeline", "-o", out])
                table.add_row(kind, str(n), f"{plain:.2f}", f"{pipe:.2f}", f"{pipe / n * 1e6:.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
