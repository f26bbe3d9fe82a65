"""Benchmark: DFSharding 2.0 chain merging on vs off on the generated models.

Run by hand (not by CI):
    python bench/chain_merging.py [--sizes 100,1000] [--models mlp,resnet,transformer]
                                  [--max-legal-layouts 8] [--repeat 1]

Reuses the generators and the runner of `bench/optimizer.py` (imported, not copied): every model
and size is generated once and optimized with DFSharding twice, with `chain_merging=True` (2.0,
the default) and `chain_merging=False` (`--no-chain-merging`, 1.0). The runner builds its
`TTNNOptimizer` itself, so the option is bound by substituting a partial for that name in the
imported module for the duration of a run.

Per row: spills (to_layout to DRAM or, 2.0 only, to L1 interleaved), DRAM spills avoided (merges +
reservations; a fork kept in L1 interleaved still counts as a spill), DRAM bytes moved (the `--stats` totals), the
estimated latency (ttopt's analytic model, not a measurement), L1 residency, optimizer wall time;
then the 2.0 / 1.0 ratios of spills, DRAM bytes and estimated time.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import optimizer as opt_bench  # noqa: E402  bench/optimizer.py
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from ttopt.optimizer.pass_ import TTNNOptimizer  # noqa: E402


def run(text: str, max_legal_layouts: int, merging: bool) -> tuple[float, dict, int]:
    """`bench/optimizer.py`'s runner with DFSharding and `chain_merging` set."""
    saved = opt_bench.TTNNOptimizer
    opt_bench.TTNNOptimizer = functools.partial(TTNNOptimizer, chain_merging=merging)
    try:
        return opt_bench.run(text, max_legal_layouts, "DFSharding")
    finally:
        opt_bench.TTNNOptimizer = saved


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else ("1.00" if a == b else "-")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--models", default=",".join(opt_bench.MODELS))
    ap.add_argument("--max-legal-layouts", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    table = Table(title=f"DFSharding 2.0 chain merging on/off (max-legal-layouts {a.max_legal_layouts}); "
                        "est. = ttopt's analytic model, not a measurement; ratios = on / off", title_justify="left")  # fmt: skip
    for c in ("model", "ops", "merging", "spills", "DRAM spills avoided", "DRAM MB", "est. us", "L1 residency", "wall s",
              "spills ratio", "DRAM ratio", "est. ratio"):  # fmt: skip
        table.add_column(c, justify="left" if c in ("model", "merging") else "right")
    for model in a.models.split(","):
        for size in (int(s) for s in a.sizes.split(",")):
            text = opt_bench.MODELS[model](size)
            rows = {}
            for merging in (False, True):
                times, tot, n = [], {}, 0
                for _ in range(a.repeat):
                    t, tot, n = run(text, a.max_legal_layouts, merging)
                    times.append(t)
                rows[merging] = (statistics.median(times), tot, n)
            off = rows[False][1]
            for merging in (False, True):
                wall, tot, n = rows[merging]
                ratios = ("", "", "")
                if merging:
                    ratios = (_ratio(tot["spills"], off["spills"]), _ratio(tot["dram_bytes"], off["dram_bytes"]),
                              _ratio(tot["estimated_ns"], off["estimated_ns"]))  # fmt: skip
                table.add_row(
                    model if not merging else "", f"{n}" if not merging else "", "on" if merging else "off",
                    f"{tot['spills']}", f"{tot.get('spills_avoided', 0)}", f"{tot['dram_bytes'] / 1e6:,.1f}",
                    f"{tot['estimated_ns'] / 1e3:,.0f}", f"{tot['l1_residency']:.0%}", f"{wall:.2f}", *ratios,
                    end_section=merging,
                )  # fmt: skip
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
