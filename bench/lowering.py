"""Benchmark: a JAX-style module through the whole chain, time per stage.

    python bench/lowering.py [--sizes 1000,10000] [--repeat 1] [--policy CostBased]

The module is bench/sharding.py's generated JAX-style StableHLO + Shardy program (no manual
computations, so the sharding pipeline has everything to do; single-op reducer bodies). Stages: parse, stablehlo-pipeline
(13 steps), convert-to-ttir (collectives to TTIR), then ttir-to-ttnn-backend-pipeline's steps:
convert-stablehlo-to-ttir (compute ops), convert-to-ttnn-ccl, convert-ttir-to-ttnn, ttnn-optimizer
(memory layout analysis with --policy), ttnn-deallocate; print. Also: ops in and out, and the
optimizer's estimate before/after (analytic model, not a measurement). Not part of CI.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from ttopt.ir.printer import print_module  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext  # noqa: E402
from ttopt.passes.manager import PassManager  # noqa: E402
from ttopt.passes.pipeline import instantiate, parse_pipeline  # noqa: E402


def generate(n_ops: int, seed: int) -> str:
    """bench/sharding.py's module, with every reducer body a single op (the generic soft-max body
    of reduce_generic_body.mlir has no TTIR lowering)."""
    from bench.gen.stablehlo import StableHLOGenerator

    class Lowerable(StableHLOGenerator):
        OPS = tuple((name, w) for name, w in StableHLOGenerator.OPS if name != "manual")

        def reduce(self, a, dim, kind, indent=4, region=False):  # type: ignore[no-untyped-def]
            return super().reduce(a, dim, kind, indent, region and kind != "maximum")

    return Lowerable(n_ops, seed).text()


def run_once(text: str, policy: str) -> dict[str, float]:
    """Seconds per stage of one run (plus op counts and estimates)."""
    out: dict[str, float] = {}
    gc.collect()
    t0 = time.perf_counter()
    module = parse_module(text, "bench.mlir")
    out["parse"] = time.perf_counter() - t0
    out["ops in"] = sum(1 for _ in module.walk())
    pipeline = ("builtin.module(stablehlo-pipeline, convert-to-ttir, ttir-to-ttnn-backend-pipeline{"
                f"enable-optimizer=true memory-layout-analysis-enabled=true memory-layout-analysis-policy={policy}}})")  # fmt: skip
    ctx = PassContext()
    pm = PassManager(instantiate(parse_pipeline(pipeline), pipeline), ctx)
    pm.run(module)
    for label, seconds in pm.timings:
        out[label] = out.get(label, 0.0) + seconds
    t0 = time.perf_counter()
    print_module(module)
    out["print"] = time.perf_counter() - t0
    out["ops out"] = sum(1 for _ in module.walk())
    totals = ctx.stats.get("ttnn-optimizer", {}).get("totals", {})
    out["estimate before (us)"] = totals.get("estimated_ns_before", 0.0) / 1e3
    out["estimate after (us)"] = totals.get("estimated_ns", 0.0) / 1e3
    out["total"] = out["parse"] + out["print"] + sum(s for _, s in pm.timings)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policy", default="CostBased")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    results = []
    for n in sizes:
        text = generate(n, a.seed)
        runs = [run_once(text, a.policy) for _ in range(a.repeat)]
        results.append({k: statistics.median(r[k] for r in runs) for k in runs[0]})
        print(f"{n}: {results[-1]['total']:.2f} s", file=sys.stderr, flush=True)
    table = Table(title=f"JAX-style module -> optimized TTNN ({a.policy}), median of {a.repeat}; seconds unless noted",
                  title_justify="left")  # fmt: skip
    table.add_column("stage")
    for n in sizes:
        table.add_column(f"{n} ops", justify="right")
    keys = list(results[0])
    for k in keys:
        cells = [f"{r.get(k, 0):,.0f}" if k.startswith(("ops", "estimate")) else f"{r.get(k, 0):.3f}" for r in results]
        table.add_row(f"[bold]{k}[/bold]" if k == "total" else k, *cells)
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
