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

With jax installed, a second table puts Shardy C++ (jaxlib's `sdy-*` passes, run by MLIR's
PassManager in a child process on the same generated text) beside ttopt's same 7 steps, in CPU
seconds (each MLIR pass verifies after itself too; a shared machine's wall time is noise), and
the ratio per step: the target is ttopt within 5x of Shardy. `--no-shardy` skips it. The two
are measured in pairs: each ttopt run is followed by one Shardy run (a fresh child, after one
untimed warm-up run of the same passes in it), so a change in the machine's load between runs
reaches both sides of a pair; the table gives both medians, their ratio, and the median of the
runs' own ratios ("paired").
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def ensure_importable() -> None:
    """This checkout's `ttopt` and `bench.gen` ahead of any installed copy: the bench measures the
    checkout it sits in."""
    if str(REPO) in sys.path:
        sys.path.remove(str(REPO))
    sys.path.insert(0, str(REPO))


def generate(n_ops: int, seed: int) -> str:
    from bench.gen.stablehlo import StableHLOGenerator

    class Unsolved(StableHLOGenerator):
        OPS = tuple((name, w) for name, w in StableHLOGenerator.OPS if name != "manual")

    return Unsolved(n_ops, seed).text()


# ttopt's pipeline step -> the jaxlib Shardy pass it mirrors (oracle_check.py's SHARDY_PIPELINE).
SHARDY_STEPS = {
    "apply-sharding-constraints": "sdy-apply-sharding-constraints",
    "aggressive-propagation": "sdy-aggressive-propagate{conservative-propagation=true}",
    "sharding-constraint-to-reshard": "func.func(sdy-sharding-constraint-to-reshard)",
    "insert-explicit-reshards": "func.func(sdy-insert-explicit-reshards{enable-full-version=true})",
    "reshard-to-collectives": "func.func(sdy-reshard-to-collectives)",
    "close-shardings": "sdy-close-shardings",
    "canonicalize": "canonicalize",
}

# Child process (an MLIR pipeline error can abort the process): parse the module once per run
# and run the Shardy steps in order, one PassManager each, timing each timed run in CPU seconds
# (argv: file, timed runs, steps, untimed warm-up runs first).
_SHARDY = r"""
import json, os, sys, time
os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax._src.interpreters import mlir as jmlir
from jax._src.lib.mlir import ir, passmanager
text = open(sys.argv[1]).read()
steps = json.loads(sys.argv[3])
out = {name: [] for name in steps}
warm = int(sys.argv[4])
for i in range(warm + int(sys.argv[2])):
    ctx = jmlir.make_ir_context(); ctx.allow_unregistered_dialects = True
    module = ir.Module.parse(text, context=ctx)
    for name, spec in steps.items():
        pm = passmanager.PassManager.parse(f"builtin.module({spec})", context=ctx)
        t0 = time.process_time()
        pm.run(module.operation)
        if i >= warm:
            out[name].append(time.process_time() - t0)
print(json.dumps(out))
"""


def shardy_cpu(path: Path) -> dict[str, float] | None:
    """CPU seconds of each Shardy C++ step on the module at `path`, one run after a warm-up run
    in the same child (None without jax or when the child fails)."""
    try:
        import jax  # noqa: F401
    except ImportError:
        return None
    r = subprocess.run([sys.executable, "-c", _SHARDY, str(path), "1", json.dumps(SHARDY_STEPS), "1"],
                       capture_output=True, text=True, timeout=1800)  # fmt: skip
    if r.returncode != 0:
        print(f"Shardy C++ run failed: {r.stderr[-500:]}", file=sys.stderr)
        return None
    return {k: v[0] for k, v in json.loads(r.stdout).items()}


def run_once(text: str) -> dict[str, float]:
    from ttopt.ir.printer import print_module
    from ttopt.parse.parser import parse_module
    from ttopt.passes.context import PassContext
    from ttopt.passes.manager import PassManager
    from ttopt.passes.registry import get_pass

    times: dict[str, float] = {}
    gc.collect()
    t0 = time.perf_counter()
    module = parse_module(text)
    times["parse"] = time.perf_counter() - t0
    times["ops (input)"] = sum(1 for _ in module.walk())
    ctx = PassContext()
    t0 = time.perf_counter()
    pm = PassManager([get_pass("stablehlo-pipeline")()], ctx)
    pm.run(module)
    times["stablehlo-pipeline"] = time.perf_counter() - t0
    for label, cpu in pm.cpu_timings:
        times[f"cpu {label.split('/')[-1]}"] = cpu
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
    ap.add_argument("--no-shardy", action="store_true", help="skip the comparison with Shardy C++ (jaxlib)")
    args = ap.parse_args(argv)
    ensure_importable()
    from rich.console import Console
    from rich.table import Table

    from ttopt.passes.registry import all_passes

    all_passes()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    columns: dict[int, dict[str, float]] = {}
    pairs: dict[int, tuple[list[dict[str, float]], list[dict[str, float]]]] = {}
    for n in sizes:
        text = generate(n, args.seed)
        if args.write:
            Path(args.write).mkdir(parents=True, exist_ok=True)
            (Path(args.write) / f"sharding_{n}.mlir").write_text(text)
        run_once(text)  # warm-up: imports, rule tables, caches
        runs: list[dict[str, float]] = []
        shardy_runs: list[dict[str, float]] | None = None if args.no_shardy else []
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"sharding_{n}.mlir"
            path.write_text(text)
            for _ in range(args.repeat):
                runs.append(run_once(text))
                if shardy_runs is not None:
                    one = shardy_cpu(path)
                    shardy_runs = None if one is None else shardy_runs + [one]
        columns[n] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        if shardy_runs:
            pairs[n] = (runs, shardy_runs)
    table = Table(title=f"ttopt sharding pipeline, median of {args.repeat} (seconds; JAX-style module, seed {args.seed})",
                  title_justify="left")
    table.add_column("step")
    for n in sizes:
        table.add_column(f"{n} ops", justify="right")
    keys = [k for k in columns[sizes[0]] if not k.startswith("cpu ")]
    for k in keys:
        cells = []
        for n in sizes:
            v = columns[n][k]
            cells.append(f"{int(v)}" if k.startswith(("ops", "  ops")) else f"{v:.3f}")
        table.add_row(f"[bold]{k}[/bold]" if k in ("stablehlo-pipeline", "total") else k, *cells)
    Console().print(table)
    for n, (runs, shardy_runs) in pairs.items():
        Console().print(comparison(n, runs, shardy_runs))


def comparison(n: int, runs: list[dict[str, float]], shardy_runs: list[dict[str, float]]):  # type: ignore[no-untyped-def]
    """ttopt's and Shardy C++'s median CPU seconds per Shardy step over paired runs, the ratio of
    the medians, and the median of the pairs' ratios."""
    from rich.table import Table

    table = Table(title=f"ttopt vs Shardy C++ (jaxlib) on the same {n}-op module: CPU seconds, median of "
                        f"{len(runs)} paired runs, verification after each step included",
                  title_justify="left")  # fmt: skip
    for col in ("step", "ttopt", "Shardy C++", "ttopt / Shardy", "paired"):
        table.add_column(col, justify="left" if col == "step" else "right")

    def row(label: str, steps: tuple[str, ...]) -> None:
        t = [sum(r.get(f"cpu {s}", 0.0) for s in steps) for r in runs]
        c = [sum(r[s] for s in steps) for r in shardy_runs]
        tm, cm = statistics.median(t), statistics.median(c)
        paired = statistics.median(a / b for a, b in zip(t, c)) if all(c) else None
        table.add_row(label, f"{tm:.3f}", f"{cm:.3f}", f"{tm / cm:.1f}x" if cm else "-",
                      f"{paired:.1f}x" if paired is not None else "-")  # fmt: skip

    for step in SHARDY_STEPS:
        row(step, (step,))
    row("[bold]the 7 steps[/bold]", tuple(SHARDY_STEPS))
    return table


if __name__ == "__main__":
    main()
