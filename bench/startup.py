"""Benchmark: how long `ttopt` takes to start, in CPU time, with compiled bytecode.

Run by hand from the repo root (not by CI):

    python bench/startup.py [--repeat 10] [--input testdata/ttnn/device_module_generic_form.mlir]

Each command runs `--repeat` times in a fresh interpreter (after one untimed run, so `.pyc` files
exist: PYTHONDONTWRITEBYTECODE is dropped from the children's environment) and the table gives the
median and the minimum of the child's user + system CPU time (`getrusage(RUSAGE_CHILDREN)`), which
waiting for a core on a shared machine does not inflate as it does wall time. Rows:

* `python -c pass`                    the interpreter alone, for scale
* `ttopt opt SMALL`                   parse, verify and print a small module (the cold-start target)
* `ttopt opt JAX`                     the same for a small JAX module with Shardy shardings
* `ttopt --help`, `ttopt opt --help`, `ttopt --version`

The second table is `python -X importtime -m ttopt opt SMALL` (the minimum of three runs):
cumulative import time of each top-level import, grouped by package, and whether the packages a
plain parse/print should not load (numpy, pydantic, scipy, rich, ttopt.device) were imported.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SMALL = REPO / "testdata" / "ttnn" / "device_module_generic_form.mlir"
JAX = REPO / "testdata" / "jax" / "mlp_sharded.mlir"
HEAVY = ("numpy", "pydantic", "scipy", "highspy", "rich", "ttopt.device", "ttopt.sharding", "ttopt.lowering", "ttopt.optimizer")


def child_env() -> dict[str, str]:
    """This checkout's ttopt first on the path; bytecode written and used."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return env


def cpu_seconds(cmd: list[str], repeat: int) -> tuple[float, float, int]:
    """(median, min) CPU seconds of `cmd` over `repeat` runs after one untimed run, and its exit code."""
    env = child_env()
    rc = subprocess.run(cmd, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times), min(times), rc


_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def import_times(cmd: list[str], runs: int = 3) -> tuple[dict[str, float], set[str]]:
    """Top-level imports of `cmd` grouped by package -> cumulative ms (min over runs), and every
    module imported."""
    best: dict[str, float] = {}
    loaded: set[str] = set()
    for _ in range(runs):
        r = subprocess.run([sys.executable, "-X", "importtime", *cmd], env=child_env(), cwd=REPO, capture_output=True, text=True)
        totals: dict[str, float] = {}
        for m in _LINE.finditer(r.stderr):
            cumulative, indent, name = int(m.group(2)), len(m.group(3)), m.group(4)
            loaded.add(name)
            if indent == 1:  # imported by the program itself, not by another module
                key = ".".join(name.split(".")[:2]) if name.startswith("ttopt.") else name.split(".")[0]
                totals[key] = totals.get(key, 0.0) + cumulative / 1e3
        for key, ms in totals.items():
            best[key] = min(ms, best.get(key, ms))
    return best, loaded


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10, help="timed runs per command (median and min reported)")
    ap.add_argument("--input", default=str(SMALL), help="the small module `ttopt opt` reads")
    ap.add_argument("--jax-input", default=str(JAX), help="a small JAX module with Shardy shardings")
    args = ap.parse_args(argv)

    py = sys.executable
    commands = [
        ("python -c pass", [py, "-c", "pass"]),
        (f"ttopt opt {Path(args.input).name}", [py, "-m", "ttopt", "opt", args.input]),
        (f"ttopt opt {Path(args.jax_input).name}", [py, "-m", "ttopt", "opt", args.jax_input]),
        ("ttopt --help", [py, "-m", "ttopt", "--help"]),
        ("ttopt opt --help", [py, "-m", "ttopt", "opt", "--help"]),
        ("ttopt --version", [py, "-m", "ttopt", "--version"]),
    ]
    print(f"CPU time (user + sys) per command, {args.repeat} runs after one untimed run, compiled bytecode")
    print(f"{'command':<46} {'median ms':>10} {'min ms':>8}  exit")
    for label, cmd in commands:
        med, low, rc = cpu_seconds(cmd, args.repeat)
        print(f"{label:<46} {med * 1e3:>10.0f} {low * 1e3:>8.0f}  {rc}")

    totals, loaded = import_times(["-m", "ttopt", "opt", args.input])
    print(f"\nimport time of `ttopt opt {Path(args.input).name}` by top-level import (min of 3 runs, -X importtime)")
    print(f"{'module':<46} {'ms':>10}")
    for key, ms in sorted(totals.items(), key=lambda kv: -kv[1]):
        if ms >= 1.0:
            print(f"{key:<46} {ms:>10.1f}")
    print(f"{'total':<46} {sum(totals.values()):>10.1f}")
    heavy = {h: any(m == h or m.startswith(h + ".") for m in loaded) for h in HEAVY}
    print("\nloaded by a plain parse/print: " + ", ".join(f"{h} {'YES' if v else 'no'}" for h, v in heavy.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
