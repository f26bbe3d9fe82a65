"""Third-party JAX models through ttopt's chain: Hugging Face transformers' Flax models (4.x).

    pip install -e '.[hf]'     # transformers<5 and flax (transformers 5 dropped its Flax models)
    python bench/hf_flax_models.py [--models gpt2,bert] [--dtype f32|bf16] [--keep DIR]

Each model of bench/hf_flax_export.py (small configs, random weights, nothing downloaded) is
exported with `jax.jit(f).lower(*args).as_text()` into a temporary directory (`--keep DIR`: there,
with each stage's output), then run through what `ttopt opt X.mlir --stablehlo-to-ttir-pipeline`
and `--ttir-to-ttnn-backend-pipeline="optimization-level=N"` run, in this process:

* the TTIR program is run by ttopt's numpy interpreter (ttopt/testing/ttir_interpreter.py) on the
  inputs JAX ran on, and compared with JAX's outputs (max abs error over all outputs; bf16 models
  differ from XLA by a few bf16 steps, as XLA computes some ops in f32);
* the TTNN at level 0 and 2 must hold no StableHLO or TTIR op, re-parse and verify, fit tt-mlir
  HEAD's TTNN ODS (ttopt/testing/ods_check.py; when a tt-mlir mirror is there, see
  bench/ttnn_ods_check.py), and every forward function must fit L1 when its schedule is replayed;
* estimated µs: ttopt's cost model (not a measurement) summed over the forward functions (the
  const-eval functions run once, when the weights load).

Op counts leave out func/return and, in TTNN, the bookkeeping ops (deallocate, get_device, and
the attributes' builders that print as ops). Without transformers+flax it prints one line and
exits 0. Not part of CI.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("JAX_PLATFORMS", "cpu")

NOT_COUNTED = frozenset({"func.func", "func.return", "ttnn.deallocate", "ttnn.get_device"})
NORMS = frozenset({"ttnn.rms_norm", "ttnn.layer_norm"})


def _missing() -> str | None:
    """Why the Flax models cannot be built here (None when they can)."""
    try:
        import flax  # noqa: F401
        import transformers
    except ImportError as e:
        return f"{e.name} is not installed"
    if int(transformers.__version__.split(".")[0]) >= 5 or not hasattr(transformers, "FlaxGPT2Model"):
        return f"transformers {transformers.__version__} has no Flax models (4.x has)"
    return None


@dataclass
class Row:
    """One model's figures (None where its chain stopped before)."""

    name: str
    shlo: int | None = None
    ttir: int | None = None
    ttnn: dict[int, int] = field(default_factory=dict)
    us: dict[int, float] = field(default_factory=dict)
    norms: int | None = None  # ttnn.rms_norm / layer_norm ops at level 2 (the norms fused)
    err: float | None = None
    scale: float | None = None
    status: str = "ok"
    seconds: float = 0.0


def _count(module: Any, dialects: tuple[str, ...]) -> int:
    return sum(1 for op in module.walk() if op.dialect in dialects and op.name not in NOT_COUNTED)


def _run(module: Any, pipeline: str) -> Any:
    from ttopt.passes.context import PassContext
    from ttopt.passes.manager import PassManager
    from ttopt.passes.pipeline import instantiate, parse_pipeline

    spec = f"builtin.module({pipeline})"
    PassManager(instantiate(parse_pipeline(spec), spec), PassContext()).run(module)
    return module


def _forward_us(module: Any) -> float:
    from ttopt.device import load_device
    from ttopt.device.cost_model import CostModel
    from ttopt.optimizer.analyses import forward_functions

    forward = {f.properties["sym_name"].value for f in forward_functions(module)}
    costs = CostModel(load_device(None, module)).module_cost(module)
    return sum(f.ns for f in costs if f.name in forward) / 1e3


def _ods() -> Any:
    """tt-mlir HEAD's TTNN ODS from the mirror (None without one: the check is then skipped)."""
    from ttopt.testing.ods_specs import OdsUnavailable, load_ods

    try:
        return load_ods()
    except OdsUnavailable:
        return None


def _check_ttnn(text: str, name: str, ods: Any) -> str | None:
    """Why the TTNN output is not what tt-mlir takes (None when it is)."""
    from ttopt.device import OpModel, load_device
    from ttopt.ir.verifier import verify
    from ttopt.optimizer.analyses import forward_functions
    from ttopt.optimizer.l1_budget_check import check_l1_budget
    from ttopt.parse.parser import parse_module

    again = parse_module(text, name)
    # Ops, not text: CPU hoisting marks its calls with a `ttir.cpu_hoisted_call` attribute.
    if any(op.dialect in ("stablehlo", "ttir") for op in again.walk()):
        return "StableHLO or TTIR ops left"
    verify(again)
    if ods is not None:
        from ttopt.testing.ods_check import check_module

        wrong = check_module(again, ods, name)
        if wrong:
            return f"{len(wrong)} op(s) against tt-mlir's ODS, first: {wrong[0].op} {wrong[0].problem}"
    model = OpModel(load_device(None, again))
    for func in forward_functions(again):
        over = check_l1_budget(func.regions[0].entry, model)
        if over is not None:
            return f"over L1: {over}"
    return None


def _max_err(got: list[Any], want: list[Any]) -> tuple[float, float]:
    import numpy as np

    err = scale = 0.0
    for g, w in zip(got, want, strict=True):
        if g.shape != w.shape:
            raise ValueError(f"output shape {g.shape}, JAX's {w.shape}")
        g64, w64 = np.asarray(g, np.float64), np.asarray(w, np.float64)
        if w64.size:
            err = max(err, float(np.max(np.abs(g64 - w64))))
            scale = max(scale, float(np.max(np.abs(w64))))
    return err, scale


def run_model(name: str, dtype: str, out: Path, ods: Any) -> Row:
    """Export `name`, run the chain on it, and fill its row."""
    import hf_flax_export as hx
    import numpy as np

    from ttopt.ir.printer import print_module
    from ttopt.parse.parser import parse_module
    from ttopt.testing.ttir_interpreter import run

    row = Row(name)
    t0 = time.perf_counter()
    stage = "export"
    try:
        e = hx.export(name, dtype)
        src = out / f"{name}.mlir"
        src.write_text(e.text)
        stage = "parse"
        module = parse_module(e.text, src.name)
        row.shlo = _count(module, ("stablehlo", "chlo"))
        stage = "stablehlo-to-ttir-pipeline"
        ttir = _run(module, "stablehlo-to-ttir-pipeline")
        ttir_text = print_module(ttir)
        (out / f"{name}.ttir.mlir").write_text(ttir_text)
        row.ttir = _count(ttir, ("ttir",))
        stage = "numerics"
        inputs = [np.asarray(a, np.float32) if a.dtype.name == "bfloat16" else a for a in e.inputs]
        want = [np.asarray(a, np.float32) if a.dtype.name == "bfloat16" else a for a in e.outputs]
        with np.errstate(all="ignore"):  # T5's relative-position buckets take log(0), as in JAX
            got = run(parse_module(ttir_text, src.name), "main", inputs)
        row.err, row.scale = _max_err(got, want)
        for level in (0, 2):
            stage = f"ttir-to-ttnn-backend-pipeline level {level}"
            ttnn = _run(parse_module(ttir_text, src.name), f"ttir-to-ttnn-backend-pipeline{{optimization-level={level}}}")
            text = print_module(ttnn)
            (out / f"{name}.ttnn{level}.mlir").write_text(text)
            row.ttnn[level] = _count(ttnn, ("ttnn",))
            row.us[level] = _forward_us(ttnn)
            if level == 2:
                row.norms = sum(1 for op in ttnn.walk() if op.name in NORMS)
            stage = f"TTNN level {level} check"
            problem = _check_ttnn(text, src.name, ods)
            if problem:
                row.status = f"{stage}: {problem}"
                break
    except Exception as ex:  # noqa: BLE001 - the table reports any failure of any stage
        first = (str(ex).strip().splitlines() or [type(ex).__name__])[0]
        row.status = f"{stage}: {type(ex).__name__}: {first}"[:160]
    row.seconds = time.perf_counter() - t0
    return row


def _table(rows: list[Row], dtype: str) -> Any:
    from rich.table import Table

    def n(v: float | None) -> str:
        return "-" if v is None else f"{v:,.0f}"

    t = Table(title=f"Hugging Face Flax models ({dtype}) -> ttopt: StableHLO -> TTIR -> TTNN")
    for col in ("model", "StableHLO ops", "TTIR ops", "TTNN ops L0", "TTNN ops L2", "est. µs L0 -> L2", "norms L2", "max |TTIR - JAX|", "s", "status"):
        t.add_column(col, justify="left" if col in ("model", "status") else "right")
    for r in rows:
        us = f"{r.us[0]:,.1f} -> {r.us[2]:,.1f}" if 0 in r.us and 2 in r.us else "-"
        err = "-" if r.err is None else f"{r.err:.1e} (of {r.scale:.1f})"
        t.add_row(r.name, n(r.shlo), n(r.ttir), n(r.ttnn.get(0)), n(r.ttnn.get(2)), us, n(r.norms), err, f"{r.seconds:.1f}", r.status)
    return t


def main() -> int:
    """Run the models asked for and print the table; 0 unless a model failed."""
    missing = _missing()
    if missing:
        print(f"hf_flax_models: skipped ({missing}; pip install -e '.[hf]')")
        return 0
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import hf_flax_export as hx
    from rich.console import Console

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", help=f"comma-separated, of: {', '.join(hx.MODELS)}")
    ap.add_argument("--dtype", choices=("f32", "bf16"), default="f32")
    ap.add_argument("--keep", help="write every stage's output to this directory instead of a temporary one")
    args = ap.parse_args()
    names = args.models.split(",") if args.models else list(hx.MODELS)
    unknown = [m for m in names if m not in hx.MODELS]
    if unknown:
        ap.error(f"unknown model(s): {', '.join(unknown)}")
    console = Console(width=200)
    ods = _ods()
    console.print(f"TTNN checked against tt-mlir's ODS at {ods.revision[:12]}" if ods else "no tt-mlir mirror: ODS check skipped")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep or tmp)
        out.mkdir(parents=True, exist_ok=True)
        for name in names:
            rows.append(run_model(name, args.dtype, out, ods))
            console.print(f"{name}: {rows[-1].status} ({rows[-1].seconds:.1f} s)", highlight=False)
    console.print(_table(rows, args.dtype))
    failed = [r.name for r in rows if r.status != "ok" and r.name not in hx.KNOWN_FAILURES]
    known = [r.name for r in rows if r.status != "ok" and r.name in hx.KNOWN_FAILURES]
    console.print(
        f"{len(rows) - len(failed) - len(known)} of {len(rows)} models through" + (f"; failed: {', '.join(failed)}" if failed else "")
    )
    for name in known:
        console.print(f"known: {name}: {hx.KNOWN_FAILURES[name]}", highlight=False)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
