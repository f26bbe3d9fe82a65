"""Benchmark: what TTIR and TTNN fusing buy on the optimizer bench's transformer, by the cost model.

Run by hand (not by CI):
    python bench/fusing.py [--layers 48] [--no-level2] [--trace-file FILE]

Programs (decoder layers on 128 tokens x 512 hidden; 48 layers are the bench's 1,008-op model):
* TTNN bench transformer (ttopt/testing/ttnn_models.transformer): rms_norm and softmax already
  single ops, as `bench/optimizer.py` runs it. Level 0 is the baseline the optimizer is measured
  against (layouts alone: CostBased at level 2).
* TTIR transformer (ttopt/testing/ttir_transformer.py): the same layers as a frontend writes them
  (rms_norm, softmax and silu in elementwise ops and reductions, the attention scale a constant),
  through `--ttir-to-ttnn-backend-pipeline` with `enable-fusing-pass=false`, with fusing at
  optimization level 0, and with fusing at level 2 under the CostBased policy.

Estimates are the cost model's (`CostModel.module_cost`, µs, not measurements); a
`ttnn.scaled_dot_product_attention`, which has no op-model rule, is estimated by
`ttopt.lowering.fusing.cost.FusionCost.sdpa_ns`, and a linear's bias read is added to its matmul
terms. Tables: totals with speed-ups over the TTNN bench transformer at level 0 and over the
unfused TTIR program; per fusion pattern (applied, rejected, ops replaced, time saved as
ttir-fusing / ttnn-fusing estimated it); per TTNN op kind (count and µs) in each program.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from ttopt.device.cost_model import CostModel  # noqa: E402
from ttopt.device.device import load_device  # noqa: E402
from ttopt.lowering.fusing.cost import FusionCost  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext, Trace  # noqa: E402
from ttopt.passes.manager import PassManager  # noqa: E402
from ttopt.passes.registry import get_pass  # noqa: E402
from ttopt.testing import ttnn_models  # noqa: E402
from ttopt.testing.ttir_transformer import transformer  # noqa: E402

OPS_PER_LAYER = 21  # TTNN ops per layer of the TTNN bench transformer


def estimate(module: Any) -> tuple[float, dict[str, list[float]]]:
    """Total estimated ns and per TTNN op name [count, ns]."""
    cm = CostModel(load_device(None, module))
    fc = FusionCost(cm)
    total = 0.0
    kinds: dict[str, list[float]] = {}
    for f in cm.module_cost(module):
        for e in f.ops:
            name = e.op.name
            if e.cost is not None:
                ns = e.cost.ns + fc.ttnn_extra_ns(e.op)
            elif name == "ttnn.scaled_dot_product_attention":
                ns = fc.ttnn_sdpa_ns(e.op) or 0.0
            else:
                ns = 0.0
            row = kinds.setdefault(name, [0, 0.0])
            row[0] += 1
            row[1] += ns
            total += ns
    return total, kinds


def pipeline(text: str, options: dict[str, Any], trace: Trace | None = None) -> tuple[Any, dict, float]:
    """The backend pipeline on `text`: (module, stats, seconds)."""
    module = parse_module(text, "transformer.mlir")
    cls = get_pass("ttir-to-ttnn-backend-pipeline")
    assert cls is not None
    ctx = PassContext(trace=trace or Trace())
    t0 = time.perf_counter()
    PassManager([cls.from_options(options)], ctx).run(module)
    return module, ctx.stats, time.perf_counter() - t0


def optimize(text: str) -> tuple[Any, float]:
    """The TTNN bench transformer through the ttnn-optimizer (CostBased): (module, seconds)."""
    module = parse_module(text, "transformer_ttnn.mlir")
    cls = get_pass("ttnn-optimizer")
    assert cls is not None
    t0 = time.perf_counter()
    PassManager(
        [cls.from_options({"memory-layout-analysis-enabled": True, "memory-layout-analysis-policy": "CostBased"})], PassContext()
    ).run(module)
    return module, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--layers", type=int, default=48, help="decoder layers (48: the optimizer bench's 1,008-op transformer)")
    ap.add_argument("--no-level2", action="store_true", help="skip the optimizer runs (level 2)")
    ap.add_argument("--trace-file", help="write ttir-fusing's --trace lines of the level-0 fused run here")
    args = ap.parse_args()
    console = Console(width=160)
    layers = args.layers
    ttnn_text = ttnn_models.transformer(layers * OPS_PER_LAYER)
    ttir_text = transformer(layers)

    rows: list[tuple[str, int, float, dict, float]] = []
    base = parse_module(ttnn_text, "transformer_ttnn.mlir")
    b_ns, b_kinds = estimate(base)
    rows.append(("TTNN bench transformer, level 0 (baseline)", sum(int(v[0]) for v in b_kinds.values()), b_ns, b_kinds, 0.0))
    if not args.no_level2:
        m, secs = optimize(ttnn_text)
        ns, kinds = estimate(m)
        rows.append(("TTNN bench transformer, level 2 CostBased (layouts alone)", sum(int(v[0]) for v in kinds.values()), ns, kinds, secs))
    m, _, secs = pipeline(ttir_text, {"enable-fusing-pass": False})
    u_ns, kinds = estimate(m)
    rows.append(("TTIR transformer, level 0, no fusing", sum(int(v[0]) for v in kinds.values()), u_ns, kinds, secs))
    trace = None
    if args.trace_file:
        trace_console = Console(file=open(args.trace_file, "w"), width=200, highlight=False, soft_wrap=True)  # noqa: SIM115
        trace = Trace(True, trace_console)
    m, stats, secs = pipeline(ttir_text, {}, trace)
    ns, kinds = estimate(m)
    rows.append(("TTIR transformer, level 0, fusing", sum(int(v[0]) for v in kinds.values()), ns, kinds, secs))
    if not args.no_level2:
        m, _, secs = pipeline(ttir_text, {"optimization-level": 2, "memory-layout-analysis-policy": "CostBased"})
        ns, kinds = estimate(m)
        rows.append(("TTIR transformer, level 2 CostBased, fusing", sum(int(v[0]) for v in kinds.values()), ns, kinds, secs))

    t = Table(title=f"Transformer, {layers} layers: estimated time (cost model, µs)", title_justify="left")
    for c in ("program", "TTNN ops", "estimate µs", "× vs TTNN level 0", "× vs TTIR unfused", "pass s"):
        t.add_column(c, justify="left" if c == "program" else "right")
    for name, n, est, _, secs in rows:
        t.add_row(name, str(n), f"{est / 1000:,.0f}", f"{b_ns / est:.3f}", f"{u_ns / est:.3f}", f"{secs:.1f}" if secs else "")
    console.print(t)

    f = Table(title="Fusions (level 0 run): per pattern, as ttir-fusing / ttnn-fusing estimated them", title_justify="left")
    for c in ("pass", "pattern", "applied", "rejected", "ops replaced", "saved µs"):
        f.add_column(c, justify="left" if c in ("pass", "pattern") else "right")
    tf = stats.get("ttir-fusing", {})
    patterns = sorted({k.split(".")[0] for k in tf if "." in k})
    for p in patterns:
        f.add_row("ttir-fusing", p, str(tf.get(f"{p}.applied", 0)), str(tf.get(f"{p}.rejected", 0)), str(tf.get(f"{p}.replaced_ops", 0)),
                  f"{tf.get(f'{p}.saved_ns', 0.0) / 1000:,.1f}")  # fmt: skip
    nf = stats.get("ttnn-fusing", {})
    for k, v in sorted(nf.items()):
        if k.endswith(".applied"):
            f.add_row("ttnn-fusing", f"{k.split('.')[0]} into matmul", str(v), "0", str(v), "")
    f.add_row("ttnn-fusing", "(all activations)", "", "", "", f"{nf.get('saved_ns', 0.0) / 1000:,.1f}")
    console.print(f)

    k = Table(title="Per TTNN op kind: count / estimated µs", title_justify="left")
    k.add_column("op")
    short = (
        ["TTNN L0", "TTNN L2", "TTIR L0 unfused", "TTIR L0 fused", "TTIR L2 fused"]
        if not args.no_level2
        else ["TTNN L0", "TTIR L0 unfused", "TTIR L0 fused"]
    )
    for s in short:
        k.add_column(s, justify="right")
    names = sorted({n for r in rows for n in r[3]}, key=lambda n: -max(r[3].get(n, [0, 0.0])[1] for r in rows))
    for n in names:
        k.add_row(n[5:], *(f"{int(r[3][n][0])} / {r[3][n][1] / 1000:,.0f}" if n in r[3] else "" for r in rows))
    console.print(k)


if __name__ == "__main__":
    main()
