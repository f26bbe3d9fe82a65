"""Fit the cost model's free parameters to published Tenstorrent matmul measurements.

    python bench/calibrate.py [--csv ../shared/calibration/gemm_flops.csv] [--folds 5] [--write]

Reads the GEMM_FLOPS measurements (n150 and p150; DRAM-interleaved and L1 block-sharded configs;
bf16 / bfp8 / bfp4 at LoFi / HiFi2 / HiFi4), fits per device the parameters of
ttopt/device/cost_terms.py (cycles per 32x32x32 block at LoFi, DRAM and NoC bandwidth, launch
floor, compute/data-movement overlap) by least squares on log(estimate / measured), and prints:

* per device and fidelity: n, geometric-mean ratio estimate/measured, geometric SD, share of rows
  within 1.5x and 2x;
* pairwise rank agreement over every same-shape, same-format, same-device pair of rows in different
  memory configs (does the model order them as the hardware did?);
* predicted vs measured DRAM-interleaved / L1-sharded time ratio (geometric mean over those pairs);
* held-out validation: k-fold, and leave-one-shape-out (every row of a matmul shape scored by a
  fit that saw no row of that shape), so the fit is not memorised.

`--write` stores the fitted parameters in ttopt/device/cost_params.json (what ttopt uses; the
assumed parameters in that file are kept).
The fit is deterministic (fixed starting point and fold assignment).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import sys
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table
from scipy.optimize import least_squares

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttopt.device.cost_terms import CALIBRATION_FILE, CostParams, matmul_terms  # noqa: E402

DEFAULT_CSV = ROOT.parent / "shared" / "calibration" / "gemm_flops.csv"
# arch, AI clock (GHz), NoC bandwidth of the whole grid (bytes/ns): cores x bytes/cycle/link x clock
# from the spec sheets and tt-metal's NoC docs. The GEMM data cannot pin the NoC down (multicast of
# a sharded input is never the bottleneck there), so it is fixed, not fitted: fit structure, not noise.
DEVICES = {"N150": ("wormhole_b0", 1.0, 64 * 32 * 1.0), "P150": ("blackhole", 1.35, 130 * 64 * 1.35)}
FREE = ("matmul_cycles_lofi", "dram_gbps", "floor_ns", "overlap")
START = (32.0, 200.0, 2000.0, 0.5)
LOWER = (1.0, 10.0, 0.0, 0.0)
UPPER = (1000.0, 2000.0, 50000.0, 1.0)


def load(path: Path) -> list[dict]:
    """The measurement rows, numbers parsed."""
    rows = []
    for r in csv.DictReader(path.open()):
        gy, gx = (int(x) for x in r["grid"].split("x"))
        rows.append({**r, "m": int(r["m"]), "k": int(r["k"]), "n": int(r["n"]), "cores": gy * gx, "ns": float(r["value"])})
    return rows


def predict(p: CostParams, r: dict) -> float:
    return matmul_terms(
        p, r["m"], r["k"], r["n"], r["dtype_a"], r["dtype_b"], r["dtype_out"], r["fidelity"],
        r["a_mem"] == "dram_i", r["b_mem"] == "dram_i", r["out_mem"] == "dram_i", r["cores"],
    ).ns


def params(clock: float, noc: float, x: np.ndarray) -> CostParams:
    cycles, dram, floor, overlap = (float(v) for v in x)
    return CostParams(clock, cycles, dram, noc, floor, overlap)


def fit(rows: list[dict], clock: float, noc: float) -> CostParams:
    """Least squares on log ratios, from a fixed start (deterministic)."""

    def residuals(x: np.ndarray) -> np.ndarray:
        p = params(clock, noc, x)
        return np.array([math.log(predict(p, r) / r["ns"]) for r in rows])

    res = least_squares(residuals, np.array(START), bounds=(np.array(LOWER), np.array(UPPER)), x_scale="jac")
    return params(clock, noc, res.x)


def score(p: CostParams, rows: list[dict]) -> dict:
    logs = [math.log(predict(p, r) / r["ns"]) for r in rows]
    return {
        "n": len(rows),
        "geomean": math.exp(statistics.fmean(logs)),
        "gsd": math.exp(statistics.pstdev(logs)) if len(logs) > 1 else 1.0,
        "within_1_5": sum(abs(x) <= math.log(1.5) for x in logs) / len(logs),
        "within_2": sum(abs(x) <= math.log(2.0) for x in logs) / len(logs),
    }


def _config(r: dict) -> str:
    return f"{r['a_mem']}/{r['b_mem']}/{r['out_mem']}"


def pairs(rows: list[dict]) -> list[tuple[dict, dict]]:
    """Same device, shape, formats and fidelity; different memory configs."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["device"], r["m"], r["k"], r["n"], r["dtype_a"], r["dtype_b"], r["fidelity"])].append(r)
    out = []
    for g in groups.values():
        for i, a in enumerate(g):
            for b in g[i + 1 :]:
                if _config(a) != _config(b):
                    out.append((a, b))
    return out


def rank_agreement(fitted: dict[str, CostParams], rows: list[dict]) -> tuple[int, int]:
    ok = total = 0
    for a, b in pairs(rows):
        pa, pb = predict(fitted[a["device"]], a), predict(fitted[b["device"]], b)
        if a["ns"] == b["ns"]:
            continue
        total += 1
        ok += (pa < pb) == (a["ns"] < b["ns"])
    return ok, total


def dram_over_l1(fitted: dict[str, CostParams], rows: list[dict]) -> tuple[float, float, int]:
    """Geometric-mean time ratio all-DRAM / L1-sharded over the pairs of those two configs."""
    meas, pred = [], []
    for a, b in pairs(rows):
        d, s = (a, b) if a["a_mem"] == "dram_i" else (b, a)
        if d["a_mem"] != "dram_i" or s["a_mem"] != "l1_block":
            continue
        meas.append(math.log(d["ns"] / s["ns"]))
        pred.append(math.log(predict(fitted[d["device"]], d) / predict(fitted[s["device"]], s)))
    if not meas:
        return float("nan"), float("nan"), 0
    return math.exp(statistics.fmean(meas)), math.exp(statistics.fmean(pred)), len(meas)


def kfold(rows: list[dict], folds: int, by_shape: bool = False) -> dict[str, dict]:
    """Per device: every row scored by a fit that did not see it — `folds` interleaved folds, or
    (by_shape) leave one matmul shape out: every config, format and fidelity of that shape."""
    out = {}
    for dev, (_, clock, noc) in DEVICES.items():
        dev_rows = [r for r in rows if r["device"] == dev]
        if by_shape:
            shapes = sorted({(r["m"], r["k"], r["n"]) for r in dev_rows})
            groups = [[r for r in dev_rows if (r["m"], r["k"], r["n"]) == s] for s in shapes]
        else:
            groups = [[r for i, r in enumerate(dev_rows) if i % folds == f] for f in range(folds)]
        held: list[float] = []
        for test in groups:
            ids = {id(r) for r in test}
            p = fit([r for r in dev_rows if id(r) not in ids], clock, noc)
            held += [math.log(predict(p, r) / r["ns"]) for r in test]
        out[dev] = {
            "geomean": math.exp(statistics.fmean(held)),
            "gsd": math.exp(statistics.pstdev(held)),
            "within_1_5": sum(abs(x) <= math.log(1.5) for x in held) / len(held),
        }
    return out


def _rounded(d: dict) -> dict:
    """4 decimals: the stored fit reads well and is the same on every machine."""
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in d.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--write", action="store_true", help=f"store the fit in {CALIBRATION_FILE.relative_to(ROOT)}")
    args = ap.parse_args(argv)
    rows = load(args.csv)
    console = Console(width=140)
    fitted = {dev: fit([r for r in rows if r["device"] == dev], clock, noc) for dev, (_, clock, noc) in DEVICES.items()}

    table = Table(title=f"cost model vs {args.csv.name} ({len(rows)} rows): estimate / measured")
    for col in ("device", "fidelity", "n", "geomean", "geo SD", "within 1.5x", "within 2x"):
        table.add_column(col, justify="left" if col in ("device", "fidelity") else "right")
    for dev in DEVICES:
        for fid in ("LoFi", "HiFi2", "HiFi4", "all"):
            sel = [r for r in rows if r["device"] == dev and (fid == "all" or r["fidelity"] == fid)]
            if not sel:
                continue
            s = score(fitted[dev], sel)
            table.add_row(dev, fid, str(s["n"]), f"{s['geomean']:.3f}", f"{s['gsd']:.3f}", f"{s['within_1_5']:.0%}", f"{s['within_2']:.0%}")
    console.print(table)

    ok, total = rank_agreement(fitted, rows)
    meas, pred, n = dram_over_l1(fitted, rows)
    console.print(f"pairwise rank agreement (same shape/format/fidelity/device, different memory config): {ok}/{total} = {ok / max(1, total):.0%}")
    console.print(f"DRAM-interleaved / L1-sharded time ratio over {n} pairs: measured {meas:.2f}x, predicted {pred:.2f}x "
                  f"(off by {abs(pred / meas - 1):.0%})")

    cvt = Table(title="held-out validation (each row scored by a fit that did not see it)")
    for col in ("device", "held out", "geomean", "geo SD", "within 1.5x"):
        cvt.add_column(col, justify="left" if col in ("device", "held out") else "right")
    for label, cv in ((f"{args.folds}-fold", kfold(rows, args.folds)), ("leave one shape out", kfold(rows, args.folds, by_shape=True))):
        for dev, s in cv.items():
            cvt.add_row(dev, label, f"{s['geomean']:.3f}", f"{s['gsd']:.3f}", f"{s['within_1_5']:.0%}")
    console.print(cvt)

    pt = Table(title="fitted parameters (noc_gbps fixed from the spec sheets)")
    pt.add_column("device")
    for f in (*FREE, "noc_gbps"):
        pt.add_column(f, justify="right")
    for dev, p in fitted.items():
        pt.add_row(dev, *(f"{getattr(p, f):.4g}" for f in (*FREE, "noc_gbps")))
    console.print(pt)

    if args.write:
        data = json.loads(CALIBRATION_FILE.read_text())
        data["fit_source"] = f"bench/calibrate.py on {args.csv.name} ({len(rows)} rows, tt-metal tech_reports/GEMM_FLOPS)"
        data["fitted"] = {
            arch: {"params": _rounded(asdict(fitted[dev])), "fit": _rounded(score(fitted[dev], [r for r in rows if r["device"] == dev]))}
            for dev, (arch, _, _) in DEVICES.items()
        }
        CALIBRATION_FILE.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        console.print(f"wrote {CALIBRATION_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
