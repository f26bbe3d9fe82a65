"""Benchmark: the StableHLO sharding pipeline (13 steps) and the TTIR/TTNN conversion on generated
JAX-style modules.

Run by hand from the repo root (not by CI):

    python bench/sharding.py [--sizes 1000,10000] [--repeat 3] [--seed 0] [--write DIR]

Modules come from bench/gen/stablehlo.py (`random.Random(seed)`, modelled on testdata/jax: sharded
arguments, projections, attention-style batched dots, reductions broadcast back, elementwise chains,
compare/select, converts, head-splitting and flattening reshapes, `sdy.sharding_constraint`s),
without its `sdy.manual_computation` blocks so that the pipeline has everything to do (a solved
graph skips steps 5-11). Each run parses the text, runs `stablehlo-pipeline`, then `convert-to-ttir` and
`convert-to-ttnn-ccl`, and prints the result; the table shows the median per step over `--repeat`
runs (each step's time includes the IR verification after it). Target: 10k ops end to end <= 10 s.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def ensure_importable() -> None:
    try:
        import ttopt  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(REPO))
    if str(REPO) not in sys.path:
        sys.path.append(str(REPO))


def generate(n_ops: int, seed: int) -> str:
    from bench.gen.stablehlo import StableHLOGenerator

    class Unsolved(StableHLOGenerator):
        OPS = tuple((name, w) for name, w in StableHLOGenerator.OPS if name != "manual")

    return Unsolved(n_ops, seed).text()


def run_once(text: str) -> dict[str, float]:
    from ttopt.ir.printer import print_module
    from ttopt.parse.parser import parse_module
    from ttopt.passes.context import PassContext
    from ttopt.passes.registry import get_pass

    times: dict[str, float] = {}
    gc.collect()
    t0 = time.perf_counter()
    module = parse_module(text)
    times["parse"] = time.perf_counter() - t0
    times["ops (input)"] = sum(1 for _ in module.walk())
    ctx = PassContext()
    t0 = time.perf_counter()
    get_pass("stablehlo-pipeline")().run(module, ctx)
    times["stablehlo-pipeline"] = time.perf_counter() - t0
    for s in ctx.stats["stablehlo-pipeline"]["steps"]:
        times[f"  {s['step']:>2} {s['pass']}"] = s["ms"] / 1e3
    times["  ops after the pipeline"] = sum(1 for _ in module.walk())
    for name in ("convert-to-ttir", "convert-to-ttnn-ccl"):
        t0 = time.perf_counter()
        get_pass(name)().run(module, ctx)
        times[name] = time.perf_counter() - t0
    t0 = time.perf_counter()
    print_module(module)
    times["print"] = time.perf_counter() - t0
    times["total"] = times["parse"] + times["stablehlo-pipeline"] + times["convert-to-ttir"] + \
        times["convert-to-ttnn-ccl"] + times["print"]
    return times


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000", help="comma-separated op counts")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--write", default=None, help="also write each generated module to DIR/sharding_<n>.mlir")
    args = ap.parse_args(argv)
    ensure_importable()
    from rich.console import Console
    from rich.table import Table

    from ttopt.passes.registry import all_passes

    all_passes()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    columns: dict[int, dict[str, float]] = {}
    for n in sizes:
        text = generate(n, args.seed)
        if args.write:
            Path(args.write).mkdir(parents=True, exist_ok=True)
            (Path(args.write) / f"sharding_{n}.mlir").write_text(text)
        run_once(text)  # warm-up: imports, rule tables, caches
        runs = [run_once(text) for _ in range(args.repeat)]
        columns[n] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    table = Table(title=f"ttopt sharding pipeline, median of {args.repeat} (seconds; JAX-style module, seed {args.seed})",
                  title_justify="left")
    table.add_column("step")
    for n in sizes:
        table.add_column(f"{n} ops", justify="right")
    keys = list(columns[sizes[0]])
    for k in keys:
        cells = []
        for n in sizes:
            v = columns[n][k]
            cells.append(f"{int(v)}" if k.startswith(("ops", "  ops")) else f"{v:.3f}")
        table.add_row(f"[bold]{k}[/bold]" if k in ("stablehlo-pipeline", "total") else k, *cells)
    Console().print(table)


if __name__ == "__main__":
    main()
