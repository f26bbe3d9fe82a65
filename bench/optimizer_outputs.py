"""Snapshot and compare the ttnn-optimizer's outputs: for each generated model and policy, the `-o`
MLIR and the `--stats` JSON (its `wall_seconds` dropped: the only field that may differ run to run).

    python bench/optimizer_outputs.py snapshot DIR [--sizes 1000] [--root TREE]
    python bench/optimizer_outputs.py compare DIR_A DIR_B

A speed change must leave every file identical (`compare` prints the differing files and exits 1).
`--root` runs another checkout's ttopt (e.g. an exported baseline) on the same generated models.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ttopt.testing.ttnn_models import MODELS

POLICIES = ("CostBased", "DFSharding", "BFInterleaved", "GreedyL1Interleaved")


def _strip_wall(stats: object) -> object:
    """The stats with every `wall_seconds` removed (wall time is not an output)."""
    if isinstance(stats, dict):
        return {k: _strip_wall(v) for k, v in stats.items() if k != "wall_seconds"}
    if isinstance(stats, list):
        return [_strip_wall(v) for v in stats]
    return stats


def snapshot(out: Path, sizes: list[int], models: list[str], policies: list[str], root: Path) -> None:
    """Write `<model>_<n>.<policy>.mlir` and `.stats.json` for every model, size and policy."""
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(root)}
    table = Table(title=f"snapshot {out} (ttopt from {root})")
    for col in ("model", "ops", "policy", "exit"):
        table.add_column(col)
    for name in models:
        for n in sizes:
            src = out / f"{name}_{n}.input.mlir"
            src.write_text(MODELS[name](n))
            for pol in policies:
                base = out / f"{name}_{n}.{pol}"
                stats = Path(f"{base}.stats.json")
                cmd = [sys.executable, "-m", "ttopt", "opt", str(src), "--ttnn-optimizer", "--memory-layout-analysis-enabled",
                       "--memory-layout-analysis-policy", pol, "-o", str(base) + ".mlir", "--stats", str(stats)]  # fmt: skip
                # cwd=root: `python -m` puts the working directory first on sys.path, ahead of PYTHONPATH,
                # so run from elsewhere it would import that checkout's ttopt instead of root's.
                r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=root)
                (out / f"{name}_{n}.{pol}.stderr").write_text(r.stderr)
                if stats.exists():
                    stats.write_text(json.dumps(_strip_wall(json.loads(stats.read_text())), indent=1, sort_keys=True))
                table.add_row(name, str(n), pol, str(r.returncode))
    Console().print(table)


def compare(a: Path, b: Path) -> int:
    """Print which snapshot files differ between two directories; 1 if any does."""
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    table = Table(title=f"{a} vs {b}")
    table.add_column("file")
    table.add_column("result")
    bad = 0
    for n in names:
        pa, pb = a / n, b / n
        if not pa.exists() or not pb.exists():
            same = "missing in " + (str(a) if not pa.exists() else str(b))
        else:
            same = "identical" if pa.read_bytes() == pb.read_bytes() else "DIFFERS"
        bad += same != "identical"
        table.add_row(n, same)
    Console().print(table)
    Console().print(f"{len(names)} files, {bad} differ")
    return 1 if bad else 0


def main() -> int:
    """Command line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("dir", type=Path)
    s.add_argument("--sizes", default="1000")
    s.add_argument("--models", default=",".join(MODELS))
    s.add_argument("--policies", default=",".join(POLICIES))
    s.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "snapshot":
        snapshot(args.dir.resolve(), [int(x) for x in args.sizes.split(",")], args.models.split(","), args.policies.split(","), args.root.resolve())
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
