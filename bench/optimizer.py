"""Benchmark: the ttnn-optimizer's policies side by side on generated models.

Run by hand (not by CI):
    python bench/optimizer.py [--sizes 1000,10000] [--models mlp,resnet,transformer,attention,conv]
                              [--repeat 1] [--max-legal-layouts 8] [--emit DIR] [--small N | --small-only]
                              [--policy DFSharding,GreedyL1Interleaved,BFInterleaved,CostBased[,NAME+fallback][,DFSharding+nomerge]]

Models (deterministic, every tensor DRAM interleaved as a frontend emits them, weights as arguments):
* mlp: blocks of matmul -> add(bias, broadcast) -> gelu -> matmul -> add(bias) -> add(residual),
  hidden sizes cycling 256/512/1024, 256 tokens;
* resnet: basic blocks on flattened NHWC activations 1x1x(H*W)xC: conv2d 3x3 -> relu -> conv2d 3x3
  -> add(residual) -> relu, stages of 56x56x64, 28x28x128, 14x14x256 (downsampling by a strided 1x1
  conv2d between stages);
* transformer: decoder layers on 128 tokens x 512 hidden: rms_norm -> matmul(qkv) -> reshape ->
  permute -> matmul(scores) -> multiply(scale) -> softmax -> matmul(context) -> permute -> reshape
  -> matmul(out) -> add(residual) -> rms_norm -> matmul(up) -> silu -> multiply(gate) -> matmul(down)
  -> add(residual);
* attention: self-attention blocks on 256 tokens x 768 hidden, 12 heads (separate q/k/v
  projections, scores, softmax, context, output projection, residual add, rms_norm);
* conv: conv2d 3x3 -> relu at 28x28x128 with a residual add every second conv.
(Generators: ttopt/testing/ttnn_models.py.)

Per row (one per model, size and policy; every policy runs on the same generated graph; NAME+fallback
also enables the L1-interleaved fallback analysis, DFSharding+nomerge turns chain merging off): ops,
optimizer wall time (the pass only, median of --repeat runs; parsing excluded), estimated latency
before and after (analytic model, not a measurement), speedup over the input, DRAM bytes moved
after, reshards, spills, L1 residency and op-model validations.

--scaling: end to end as a user runs it (`python -m ttopt opt FILE --ttnn-optimizer
--memory-layout-analysis-enabled [--memory-layout-analysis-policy P] -o OUT --timing`, no --stats),
one row per model, size and policy: CPU seconds of parse + verify, the optimizer and print (from
--timing's cpu column), the whole process's CPU (with interpreter start and imports), wall time and
optimizer CPU per op. CPU time, not wall, is the measure on a shared machine. The runs use compiled
bytecode (as `pip install` leaves it), cached in a temporary directory by an untimed first run.

--backend N[,N]: a TTIR module of at least N ops through the whole backend pipeline with the
optimizer, end to end as a user runs it (`python -m ttopt opt FILE
--ttir-to-ttnn-backend-pipeline="optimization-level=2" -o OUT --timing`): CPU seconds per pipeline
step, the process's CPU and wall time. The TTIR is bench/lowering.py's JAX-style module (sharded on
a 2x4 mesh: collectives, dot_generals, reductions, elementwise) lowered once, untimed, by
`stablehlo-pipeline, convert-to-ttir, stablehlo-to-ttir-pipeline`; its generator size grows until
the module has N TTIR ops. `--emit DIR` keeps the TTIR file.

--small N: on N generated small graphs (chains, forks, diamonds, attention and conv blocks) each
policy's estimate over the exhaustive optimum of ttopt.testing.plan_oracle: geometric mean, worst,
and how many graphs it solved optimally.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from ttopt.optimizer.pass_ import TTNNOptimizer  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext  # noqa: E402
from ttopt.testing.ttnn_models import MODELS  # noqa: E402


def run(text: str, max_legal_layouts: int, policy: str = "DFSharding") -> tuple[float, dict, int]:
    """One optimizer run; `policy` is a policy name with optional `+fallback` and
    `+nomerge` (DFSharding 1.0: chain merging off) suffixes."""
    module = parse_module(text, "bench.mlir")
    n = sum(1 for op in module.walk() if op.name.startswith("ttnn.") and op.name != "ttnn.get_device")
    ctx = PassContext()
    name, *extras = policy.split("+")
    p = TTNNOptimizer(memory_layout_analysis_enabled=True, max_legal_layouts=max_legal_layouts,
                      memory_layout_analysis_policy=name, l1_interleaved_fallback_analysis_enabled="fallback" in extras,
                      chain_merging="nomerge" not in extras)  # fmt: skip
    t0 = time.perf_counter()
    p.run(module, ctx)
    return time.perf_counter() - t0, ctx.stats["ttnn-optimizer"]["totals"], n


_TIMING_ROW = re.compile(r"^\W*(parse \+ verify|ttnn-optimizer|print)\s*\W\s*([\d.]+)\s*\W\s*([\d.]+)", re.M)


def _timed_opt(text: str, flags: list[str], pycache: str) -> tuple[str, float, float]:
    """`ttopt opt FILE <flags> --timing` on `text` in a fresh interpreter: (stderr, process CPU s
    (user + sys), wall s). `pycache` holds the bytecode of the run before."""
    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(root), PYTHONPYCACHEPREFIX=pycache, COLUMNS="200")  # step names not cut
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "model.mlir", Path(tmp) / "out.mlir"
        src.write_text(text)
        cmd = [sys.executable, "-m", "ttopt", "opt", str(src), *flags, "-o", str(out), "--timing"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        # cwd=root: `python -m` puts the working directory first on sys.path (another checkout would win).
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"ttopt opt {' '.join(flags)} failed:\n{r.stderr}")
    return r.stderr, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def scaling_row(text: str, policy: str, pycache: str) -> dict[str, float]:
    """One end-to-end `ttopt opt` run in a fresh interpreter: CPU s per --timing step, the process's
    CPU s (user + sys) and wall s. `pycache` holds the bytecode of the run before (see `scaling`)."""
    flags = ["--ttnn-optimizer", "--memory-layout-analysis-enabled", "--memory-layout-analysis-policy", policy]
    stderr, cpu, wall = _timed_opt(text, flags, pycache)
    row = {name: float(ms) / 1e3 for name, _, ms in _TIMING_ROW.findall(stderr)}
    row["process"] = cpu
    row["wall"] = wall
    return row


_TTIR_OP = re.compile(r'"ttir\.')
_STEP_ROW = re.compile(r"^\W*([\w+ /.-]+?)\s*\u2502\s*([\d.]+)\s*\u2502\s*([\d.]+)\s*\u2502", re.M)  # every --timing row


def backend_module(n_ops: int, seed: int = 0) -> tuple[str, int]:
    """(TTIR text, TTIR ops) of bench/lowering.py's module lowered to TTIR, at least `n_ops` ops."""
    from bench.lowering import generate
    from ttopt.ir.printer import print_module
    from ttopt.passes.manager import PassManager
    from ttopt.passes.pipeline import instantiate, parse_pipeline

    pipeline = "builtin.module(stablehlo-pipeline, convert-to-ttir, stablehlo-to-ttir-pipeline)"
    size = n_ops
    while True:
        module = parse_module(generate(size, seed), "bench.mlir")
        PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
        text = print_module(module)
        ops = len(_TTIR_OP.findall(text))
        if ops >= n_ops:
            return text, ops
        size = max(size + 1, size * n_ops // max(ops, 1) + 1)


def backend_row(text: str, pycache: str) -> dict[str, float]:
    """One `ttopt opt --ttir-to-ttnn-backend-pipeline="optimization-level=2" --timing` run in a fresh
    interpreter: CPU s per --timing step, the process's CPU s and wall s."""
    stderr, cpu, wall = _timed_opt(text, ["--ttir-to-ttnn-backend-pipeline=optimization-level=2"], pycache)
    row = {name.removeprefix("ttir-to-ttnn-backend-pipeline/"): float(ms) / 1e3 for name, _, ms in _STEP_ROW.findall(stderr)}
    row["process"] = cpu
    row["wall"] = wall
    return row


def backend(sizes: list[int], emit: str | None) -> Table:
    """Per-step CPU of the backend pipeline at optimization-level=2 on TTIR modules (see --backend)."""
    rows: list[tuple[int, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as pycache:
        for size in sizes:
            text, ops = backend_module(size)
            if emit:
                Path(emit).mkdir(parents=True, exist_ok=True)
                (Path(emit) / f"ttir_{size}.mlir").write_text(text)
            backend_row(text, pycache)  # untimed: fills the bytecode cache
            rows.append((ops, backend_row(text, pycache)))
            print(f"{ops} TTIR ops: {rows[-1][1]}", file=sys.stderr, flush=True)
    table = Table(title='ttopt opt FILE --ttir-to-ttnn-backend-pipeline="optimization-level=2" (no --stats): CPU seconds',
                  title_justify="left")  # fmt: skip
    table.add_column("step")
    for ops, _ in rows:
        table.add_column(f"{ops} TTIR ops", justify="right")
    steps = list(dict.fromkeys(k for _, r in rows for k in r))
    for k in steps:
        table.add_row(k + (" (all steps)" if k == "total" else ""), *[f"{r.get(k, 0.0):.2f}" for _, r in rows])
    return table


def scaling(models: list[str], sizes: list[int], policies: list[str]) -> Table:
    """End-to-end CPU per step for every model, size and policy (see --scaling)."""
    table = Table(title="ttopt opt end to end (no --stats): CPU seconds per step", title_justify="left")
    for c in ("model", "ops", "policy", "parse cpu", "optimizer cpu", "print cpu", "process cpu", "wall", "optimizer us/op"):
        table.add_column(c, justify="left" if c in ("model", "policy") else "right")
    # An installed ttopt runs from bytecode that pip compiled; a source checkout with
    # PYTHONDONTWRITEBYTECODE set would recompile every module in every run (~0.9 s of CPU). So the
    # runs share a bytecode cache in a temporary directory, filled by an untimed first run.
    with tempfile.TemporaryDirectory() as pycache:
        scaling_row(MODELS[models[0]](sizes[0]), policies[0], pycache)
        _scaling_rows(table, models, sizes, policies, pycache)
    return table


def _scaling_rows(table: Table, models: list[str], sizes: list[int], policies: list[str], pycache: str) -> None:
    """Add one row per model, size and policy to `table`."""
    for model in models:
        for size in sizes:
            text = MODELS[model](size)
            n = sum(1 for line in text.splitlines() if '= "ttnn.' in line and "ttnn.get_device" not in line)
            for policy in policies:
                row = scaling_row(text, policy, pycache)
                print(f"{model} {size} {policy}: {row}", file=sys.stderr, flush=True)
                opt = row.get("ttnn-optimizer", 0.0)
                table.add_row(model, str(n), policy, f"{row.get('parse + verify', 0.0):.2f}", f"{opt:.2f}",
                              f"{row.get('print', 0.0):.2f}", f"{row['process']:.2f}", f"{row['wall']:.2f}",
                              f"{opt / n * 1e6:.0f}")  # fmt: skip


def small_study(n: int, max_legal_layouts: int, policies: list[str]) -> Table:
    """Each policy's estimate over the exhaustive optimum (ttopt.testing.plan_oracle) on `n` small graphs."""
    from math import exp, log

    from ttopt.testing.plan_oracle import analysed_function, optimum
    from ttopt.testing.ttnn_models import SMALL_FAMILIES, small_graph

    ratios: dict[tuple[str, str], list[float]] = {}
    for seed in range(n):
        family, text = small_graph(seed)
        best = optimum(analysed_function(text, max_legal_layouts)).ns
        for policy in policies:
            _, tot, _ = run(text, max_legal_layouts, policy)
            ratios.setdefault((family, policy), []).append(tot["estimated_ns"] / best)
            ratios.setdefault(("all", policy), []).append(tot["estimated_ns"] / best)
    table = Table(title=f"{n} small graphs (<= 10 ops, max-legal-layouts {max_legal_layouts}): estimate / exhaustive optimum",
                  title_justify="left")  # fmt: skip
    for c in ("family", "policy", "graphs", "geomean", "worst", "optimal"):
        table.add_column(c, justify="left" if c in ("family", "policy") else "right")
    for family in (*SMALL_FAMILIES, "all"):
        for policy in policies:
            r = ratios.get((family, policy), [])
            if r:
                g = exp(sum(log(x) for x in r) / len(r))
                table.add_row(family, policy, str(len(r)), f"{g:.4f}", f"{max(r):.4f}", f"{sum(x <= 1 + 1e-5 for x in r)}/{len(r)}")
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--max-legal-layouts", type=int, default=8)
    ap.add_argument("--emit", default=None, help="also write each generated module to DIR")
    ap.add_argument("--policy", default="DFSharding,GreedyL1Interleaved,BFInterleaved,CostBased",
                    help="policies to compare on the same graphs (NAME or NAME+fallback, comma-separated)")  # fmt: skip
    ap.add_argument("--backend", default="", help="only the backend pipeline on TTIR modules of these op counts (see above)")
    ap.add_argument("--small", type=int, default=0, help="also compare with the exhaustive optimum on N small graphs")
    ap.add_argument("--small-only", action="store_true", help="only the small-graph study")
    ap.add_argument("--scaling", action="store_true", help="only end-to-end CPU per step (`ttopt opt --timing`, see above)")
    a = ap.parse_args()
    console = Console(width=200)
    policies = a.policy.split(",")
    if a.backend:
        console.print(backend([int(s) for s in a.backend.split(",")], a.emit))
        return
    if a.scaling:
        console.print(scaling(a.models.split(","), [int(s) for s in a.sizes.split(",")], policies))
        return
    if a.small or a.small_only:
        console.print(small_study(a.small or 50, a.max_legal_layouts, policies))
        if a.small_only:
            return
    table = Table(title=f"ttnn-optimizer (max-legal-layouts {a.max_legal_layouts}); "
                        "latency = ttopt's analytic model, not a measurement", title_justify="left")  # fmt: skip
    for c in ("model", "policy", "ops", "wall s", "us/op", "est. before us", "est. after us", "speedup", "DRAM MB",
              "reshards", "spills", "L1 residency", "validations"):  # fmt: skip
        table.add_column(c, justify="left" if c in ("model", "policy") else "right")
    for model in a.models.split(","):
        for size in (int(s) for s in a.sizes.split(",")):
            text = MODELS[model](size)
            if a.emit:
                Path(a.emit).mkdir(parents=True, exist_ok=True)
                (Path(a.emit) / f"{model}_{size}.mlir").write_text(text)
            for policy in policies:
                times = []
                tot: dict = {}
                n = 0
                for _ in range(a.repeat):
                    t, tot, n = run(text, a.max_legal_layouts, policy)
                    times.append(t)
                wall = statistics.median(times)
                print(f"{model} {policy} {n} ops: {wall:.2f} s, {tot['estimated_ns_before'] / 1e3:,.0f} -> "
                      f"{tot['estimated_ns'] / 1e3:,.0f} us", file=sys.stderr, flush=True)  # fmt: skip
                table.add_row(
                    model, policy, f"{n}", f"{wall:.2f}", f"{wall / n * 1e6:.0f}",
                    f"{tot['estimated_ns_before'] / 1e3:,.0f}", f"{tot['estimated_ns'] / 1e3:,.0f}",
                    f"{tot['estimated_ns_before'] / tot['estimated_ns']:.3f}x", f"{tot['dram_bytes'] / 1e6:,.1f}",
                    f"{tot['reshards']}", f"{tot['spills']}", f"{tot['l1_residency']:.0%}", f"{tot['validations']}",
                )  # fmt: skip
    console.print(table)


if __name__ == "__main__":
    main()
