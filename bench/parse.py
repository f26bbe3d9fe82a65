"""Benchmark: ttopt's MLIR parser and printer on large generated TTNN and StableHLO modules.

Run by hand from the repo root (not by CI):

    python bench/parse.py [--sizes 1000,10000,100000] [--repeat 3] [--kinds ttnn,stablehlo]
                          [--profile] [--write DIR] [--oracle] [--print-options debuginfo]
                          [--seed 0] [--no-cold-start]

For each (kind, size) the module text comes from the deterministic generators in bench/gen/
(`random.Random(seed)`), modelled on testdata/ttnn/*.mlir and testdata/jax/*.mlir. Each pair is
measured in a fresh child process (this script with the hidden `--one` flag), so the peak RSS of
one size does not leak into the next. The child warms the parser up on a tiny module of the same
kind and parses and prints the file once untimed (the op count; lazy imports of typed attribute
views, which are process startup), then times `--repeat` runs each of

* parse       `parse_module(text)`
* print       `print_module(module, PrintOptions(...))` of an already-parsed module
* round-trip  `print_module(parse_module(text), ...)` as one unit (the module's teardown untimed)
* verify      `verify(module)` of an already-parsed module (what `ttopt opt` runs after parsing and
              after every pass); "verify growth" is its time over the next smaller size's, beside
              the ratio of their op counts (linear: the two are equal)

and reports the median. ops/s counts every operation `module.walk()` yields (the module and
nested region ops included); MB/s is the size of the generated input text over the time. Peak RSS
is the child's high-water mark after the timed runs (interpreter, imports and input text
included): VmHWM from /proc/self/status, because on Linux `getrusage(RUSAGE_SELF).ru_maxrss`
carries the parent's peak across fork + exec; ru_maxrss where /proc is missing. Generation runs
in child processes too (hidden `--gen`), so the parent stays small either way. After measuring,
the child checks that the printed text parses again ("reparse").

`--profile` adds cProfile's top 25 (by internal time; see --profile-sort) for one parse of the
10k-op TTNN module, `--oracle` verifies the generated files with the real MLIR parser in jaxlib
(when jax is installed) and times MLIR C++ beside ttopt, in process and as whole commands with
startup included, and the startup table times `ttopt opt` on a 10-op file when the CLI
subcommand exists (the row is skipped with a note otherwise).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def ensure_importable() -> None:
    """Make this repository's `ttopt` and `bench.gen` importable ahead of any installed copy
    (as bench/optimizer.py does): the bench measures the checkout it sits in."""
    if str(REPO) in sys.path:
        sys.path.remove(str(REPO))
    sys.path.insert(0, str(REPO))


ensure_importable()

from bench.gen import ATTR_STYLES, KINDS, generate  # noqa: E402
from bench.gen.locations import STYLES, restyle  # noqa: E402

PRINT_FLAGS = ("local_scope", "debuginfo", "generic")


# ---- options ---------------------------------------------------------------------------------------

def parse_size(text: str) -> int:
    """`1000`, `10k`, `1m` -> int."""
    t = text.strip().lower()
    mult = {"k": 1_000, "m": 1_000_000}.get(t[-1:], 1)
    return int(float(t[:-1] if mult > 1 else t) * mult)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="1000,10000,100000", help="comma-separated op counts (10k ok)")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per measurement (median)")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                   help="what parse/print/round-trip time: wall time, or the child's CPU time (steadier on a "
                        "machine shared with other jobs; excludes time spent waiting for a core)")
    p.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, from {', '.join(KINDS)}")
    p.add_argument("--seed", type=int, default=0, help="generator seed")
    p.add_argument("--loc-styles", default="generator",
                   help=f"comma-separated location styles, from {', '.join(STYLES)} (bench/gen/locations.py)")
    p.add_argument("--attrs", choices=ATTR_STYLES, default="default",
                   help="'heavy': every TTNN op with a result also carries dtype and memory_config properties "
                        "(StableHLO modules are generated as usual)")
    p.add_argument("--print-options", default="debuginfo",
                   help=f"PrintOptions flags for print/round-trip: comma-separated from {', '.join(PRINT_FLAGS)}, "
                        "or 'none' (default: debuginfo, so locations are printed too)")
    p.add_argument("--profile", action="store_true", help="cProfile one parse of the 10k-op TTNN module")
    p.add_argument("--profile-sort", default="tottime", help="pstats sort key for --profile")
    p.add_argument("--write", metavar="DIR", help="keep the generated files in DIR (<kind>_<size>.mlir)")
    p.add_argument("--oracle", action="store_true", help="verify generated files with jaxlib's MLIR parser")
    p.add_argument("--oracle-max", type=int, default=10_000, help="largest size --oracle checks")
    p.add_argument("--no-cold-start", action="store_true", help="skip the startup table")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per child process")
    # hidden: child-process entry points
    p.add_argument("--one", nargs=2, metavar=("KIND", "FILE"), help=argparse.SUPPRESS)
    p.add_argument("--oracle-files", nargs="+", help=argparse.SUPPRESS)
    p.add_argument("--gen", nargs=4, metavar=("KIND", "SIZE", "STYLE", "FILE"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.size_list = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    args.kind_list = [k.strip() for k in args.kinds.split(",") if k.strip()]
    args.style_list = [s.strip() for s in args.loc_styles.split(",") if s.strip()]
    bad_styles = [s for s in args.style_list if s not in STYLES]
    if bad_styles:
        p.error(f"unknown location style(s) {', '.join(bad_styles)}; expected {', '.join(STYLES)}")
    bad = [k for k in args.kind_list if k not in KINDS]
    if bad:
        p.error(f"unknown kind(s) {', '.join(bad)}; expected {', '.join(KINDS)}")
    flags = [] if args.print_options.strip() in ("", "none") else args.print_options.split(",")
    bad = [f for f in flags if f not in PRINT_FLAGS]
    if bad:
        p.error(f"unknown print option(s) {', '.join(bad)}; expected {', '.join(PRINT_FLAGS)}")
    args.print_flags = flags
    return args


def print_options(flags: list[str]):
    from ttopt.ir.printer import PrintOptions

    return PrintOptions(**{f: True for f in flags})


# ---- child: measure one (kind, size) ---------------------------------------------------------------

def ru_maxrss_mb() -> float:
    """`getrusage(RUSAGE_SELF).ru_maxrss` in MB (the field is KiB on Linux, bytes on macOS)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB.

    On Linux ru_maxrss survives execve: a child started by fork/vfork + exec reports at least the
    parent's peak at spawn time (checked: a parent that touched 500 MB made `python -c` report
    513 MB). VmHWM in /proc/self/status belongs to the new address space, so it is used when
    present; elsewhere ru_maxrss, which is why the parent also keeps generation in children.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return ru_maxrss_mb()


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def timed(fn, repeat: int, clock: str = "wall") -> tuple[float, object]:
    """Median time (`clock`: wall, or this process's CPU time) of `repeat` calls of `fn` (gc
    collected before each) and the last result."""
    now = CLOCKS[clock]
    times, result = [], None
    for _ in range(repeat):
        result = None
        gc.collect()
        t0 = now()
        result = fn()
        times.append(now() - t0)
    return statistics.median(times), result


def first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else repr(e)


def measure_one(kind: str, path: str, repeat: int, flags: list[str], clock: str = "wall") -> dict:
    """Parse / print / round-trip timings, op count and peak RSS for one generated file."""
    from ttopt.ir.diagnostics import Diagnostic
    from ttopt.ir.printer import print_module
    from ttopt.ir.verifier import verify
    from ttopt.parse.parser import parse_module

    opts = print_options(flags)
    print_module(parse_module(generate(kind, 20), "<warmup>"), opts)  # build grammars/tables first
    text = Path(path).read_text()
    out: dict = {"kind": kind, "file": path, "bytes": len(text.encode()), "error": None}
    base_rss = peak_rss_mb()
    stage = "parse"
    try:
        module = parse_module(text, path)
        out["ops"] = sum(1 for _ in module.walk())
        # An untimed print too, as the parse above: the first print of some ops imports their
        # typed attribute views (pydantic, ~0.6 s once per process), which is startup, not throughput.
        print_module(module, opts)
        module = None  # freed before the timed runs
        out["parse_s"], module = timed(lambda: parse_module(text, path), repeat, clock)
        stage = "print"
        out["print_s"], printed = timed(lambda: print_module(module, opts), repeat, clock)
        out["printed_bytes"] = len(printed.encode())
        stage = "verify"  # what `ttopt opt` runs after parsing and after every pass
        out["verify_s"] = timed(lambda: verify(module), repeat, clock)[0]
        module = None

        def roundtrip():
            module = parse_module(text, path)
            return module, print_module(module, opts)  # returning the module keeps its teardown untimed

        stage = "round-trip"
        out["roundtrip_s"] = timed(roundtrip, repeat, clock)[0]
        out["peak_rss_mb"] = peak_rss_mb()
        out["ru_maxrss_mb"] = ru_maxrss_mb()
        out["base_rss_mb"] = base_rss
        stage = "reparse"
        try:
            parse_module(printed, "<printed>")
            out["reparse"] = "ok"
        except Diagnostic as e:
            out["reparse"] = f"FAILED: {first_line(e)}"
    except Exception as e:  # a Diagnostic, or a bug in the code under test: report, don't crash
        out["error"] = f"{stage}: {type(e).__name__}: {first_line(e)}"
    return out


def child_main(args: argparse.Namespace) -> int:
    kind, path = args.one
    print(json.dumps(measure_one(kind, path, args.repeat, args.print_flags, args.clock)))
    return 0


def gen_child(args: argparse.Namespace) -> int:
    """Hidden entry point: write one generated module (keeps the generator's memory out of the parent)."""
    kind, size, style, path = args.gen
    Path(path).write_text(restyle(generate(kind, int(size), args.seed, args.attrs), style, args.seed))
    return 0


# ---- parent: generate, fan out, collect ------------------------------------------------------------

@dataclass
class Workdir:
    """Where generated inputs live: --write DIR (kept) or a temporary directory (removed)."""

    path: Path
    keep: bool
    attrs: str = "default"
    files: dict[tuple[str, int, str], Path] = field(default_factory=dict)

    @classmethod
    def create(cls, write: str | None, attrs: str = "default") -> "Workdir":
        if write:
            Path(write).mkdir(parents=True, exist_ok=True)
            return cls(Path(write), True, attrs)
        return cls(Path(tempfile.mkdtemp(prefix="ttopt-bench-parse-")), False, attrs)

    def file(self, kind: str, size: int, seed: int, style: str = "generator") -> Path:
        """The generated `<kind>_<size>[_<style>].mlir`, written on first request by a child process."""
        key = (kind, size, style)
        if key not in self.files:
            suffix = ("" if style == "generator" else f"_{style}") + ("" if self.attrs == "default" else f"_{self.attrs}")
            path = self.path / f"{kind}_{size}{suffix}.mlir"
            cmd = [sys.executable, str(Path(__file__).resolve()), "--gen", kind, str(size), style, str(path), "--seed", str(seed),
                   "--attrs", self.attrs]
            subprocess.run(cmd, check=True, env=child_env())
            self.files[key] = path
        return self.files[key]

    def cleanup(self) -> None:
        if not self.keep:
            shutil.rmtree(self.path, ignore_errors=True)


def child_env() -> dict[str, str]:
    """Environment for child processes: they import the same `ttopt` as this process, and bench.gen."""
    import ttopt

    env = dict(os.environ)
    roots = [str(Path(ttopt.__file__).resolve().parents[1]), str(REPO), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(p for p in roots if p))
    return env


def run_child(kind: str, path: Path, args: argparse.Namespace) -> dict:
    """Measure one file in a fresh interpreter (this script with --one)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", kind, str(path),
           "--repeat", str(args.repeat), "--print-options", ",".join(args.print_flags) or "none", "--clock", args.clock]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=child_env())
    except subprocess.TimeoutExpired:
        return {"kind": kind, "file": str(path), "error": f"timed out after {args.timeout:.0f}s"}
    if proc.returncode != 0 or not proc.stdout.strip():
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"kind": kind, "file": str(path), "error": f"child exited {proc.returncode}: {tail}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_all(args: argparse.Namespace, work: Workdir, console) -> list[dict]:
    results = []
    for kind in args.kind_list:
        for style in args.style_list:
            for size in args.size_list:
                path = work.file(kind, size, args.seed, style)
                with console.status(f"{kind} {style} {size:,} ops ({path.stat().st_size / 1e6:.1f} MB) ..."):
                    r = run_child(kind, path, args)
                r["size"], r["locs"] = size, style
                results.append(r)
    return results


# ---- startup (cold start of the CLI) ---------------------------------------------------------------

def time_command(cmd: list[str], repeat: int, cwd: Path) -> tuple[float | None, str]:
    """Median wall time of `cmd`; (None, reason) if it fails."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=child_env(), timeout=120)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0 or (cmd[-1].endswith(".mlir") and not proc.stdout.strip()):
            lines = (proc.stderr or proc.stdout or "").strip().splitlines()
            return None, f"exit {proc.returncode}: {lines[-1] if lines else 'no output'}"
    return statistics.median(times), ""


def cold_start(args: argparse.Namespace, work: Workdir) -> list[tuple[str, float | None, str]]:
    """Rows (label, seconds or None, note) for the interpreter, the parser import and `ttopt opt`."""
    small = work.file("ttnn", 10, args.seed)
    py = sys.executable
    rows = []
    for label, cmd in [("python -c pass", [py, "-c", "pass"]),
                       ("import ttopt.parse.parser", [py, "-c", "import ttopt.parse.parser"])]:
        t, note = time_command(cmd, args.repeat, REPO)
        rows.append((label, t, note))
    commands = [("python -m ttopt opt ttnn_10.mlir", [py, "-m", "ttopt", "opt", str(small)])]
    exe = shutil.which("ttopt")
    if exe:
        commands.insert(0, ("ttopt opt ttnn_10.mlir (console script)", [exe, "opt", str(small)]))
    else:
        rows.append(("ttopt opt (console script)", None, "skipped (no `ttopt` on PATH)"))
    for label, cmd in commands:
        t, note = time_command(cmd, args.repeat, REPO)
        rows.append((label, t, note and f"skipped ({note})"))
    return rows


# ---- oracle (jaxlib) -------------------------------------------------------------------------------

def oracle_child(files: list[str]) -> int:
    """Hidden entry point: parse + verify each file with jaxlib's MLIR; one JSON line per file."""
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib.mlir import ir

    for f in files:
        ctx = jmlir.make_ir_context()
        ctx.allow_unregistered_dialects = True  # #ttnn.* / #ttcore.* / "ttnn.*" ops
        text = Path(f).read_text()
        try:
            ir.Module.parse(text, context=ctx).operation.verify()
        except Exception as e:  # ir.MLIRError, or anything else jaxlib raises
            print(json.dumps({"file": f, "ok": False, "error": " ".join(str(e).split())[:300]}), flush=True)
            continue
        # MLIR C++ (through jaxlib) on the same text: parse, print with locations, median of 3.
        parse_t, print_t = [], []
        for _ in range(3):
            t0 = time.perf_counter()
            module = ir.Module.parse(text, context=ctx)
            t1 = time.perf_counter()
            module.operation.get_asm(enable_debug_info=True)
            parse_t.append(t1 - t0)
            print_t.append(time.perf_counter() - t1)
            del module
        row = {"file": f, "ok": True, "error": "", "parse_s": statistics.median(parse_t), "print_s": statistics.median(print_t)}
        print(json.dumps(row), flush=True)
    return 0


# Whole-command wall time of MLIR C++ (through jaxlib), interpreter and imports included: the
# counterpart of `python -m ttopt opt FILE --mlir-print-debuginfo` (parse, verify, print).
_JAXLIB_OPT = (
    "import sys\n"
    "from jax._src.interpreters import mlir as jmlir\n"
    "from jax._src.lib.mlir import ir\n"
    "ctx = jmlir.make_ir_context()\n"
    "ctx.allow_unregistered_dialects = True\n"
    "module = ir.Module.parse(open(sys.argv[1]).read(), context=ctx)\n"
    "sys.stdout.write(module.operation.get_asm(enable_debug_info=True))\n"
)


def wall_times(files: list[str], repeat: int) -> dict[str, dict]:
    """Per file: median wall seconds of `ttopt opt` and of the jaxlib script, startup included."""
    py = sys.executable
    out: dict[str, dict] = {}
    for f in files:
        ours, note = time_command([py, "-m", "ttopt", "opt", "--mlir-print-debuginfo", f], repeat, REPO)
        theirs, note2 = time_command([py, "-c", _JAXLIB_OPT, f], repeat, REPO)
        out[f] = {"ttopt_wall_s": ours, "mlir_wall_s": theirs, "wall_note": note or note2}
    return out


def run_oracle(args: argparse.Namespace, work: Workdir) -> list[dict] | str:
    """Verify the generated files (up to --oracle-max ops) with jaxlib, in a child process."""
    try:
        import jax  # noqa: F401
    except ImportError:
        return 'jax is not installed (pip install "jax[cpu]")'
    files = [str(work.file(k, s, args.seed, st)) for k in args.kind_list for st in args.style_list for s in args.size_list if s <= args.oracle_max]
    if not files:
        return f"no generated file has at most {args.oracle_max} ops"
    cmd = [sys.executable, str(Path(__file__).resolve()), "--oracle-files", *files]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=child_env(), timeout=args.timeout)
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 and len(rows) < len(files):
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        rows.append({"file": "(oracle process)", "ok": False, "error": f"exit {proc.returncode}: {tail}"})
    walls = wall_times([r["file"] for r in rows if r.get("ok")], min(args.repeat, 3))
    for r in rows:
        r.update(walls.get(r["file"], {}))
    return rows


# ---- profile ---------------------------------------------------------------------------------------

def profile_parse(args: argparse.Namespace, work: Workdir, top: int = 25) -> str:
    """cProfile top-`top` of one parse of the 10k-op TTNN module (after a warm-up parse)."""
    from ttopt.parse.parser import parse_module

    text = work.file("ttnn", 10_000, args.seed).read_text()
    parse_module(generate("ttnn", 20, args.seed), "<warmup>")
    prof = cProfile.Profile()
    prof.enable()
    parse_module(text, "ttnn_10000.mlir")
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats(args.profile_sort).print_stats(top)
    out = buf.getvalue()
    for prefix in sorted({str(REPO) + "/", *(p + "/" for p in sys.path if "site-packages" in p)}, key=len, reverse=True):
        out = out.replace(prefix, "")
    return out.strip("\n")


# ---- report ----------------------------------------------------------------------------------------

def rate(n: float, seconds: float | None) -> float | None:
    return n / seconds if seconds else None


def fmt(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def describe_ttopt() -> str:
    """Where the benchmarked ttopt lives, with this repository's commit (+dirty) when it is its checkout."""
    import ttopt

    root = Path(ttopt.__file__).resolve().parents[1]
    if root != REPO:
        return f"from {root}"  # an installed copy: a git commit found above it would be some other checkout's
    try:
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, timeout=10)
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "ttopt"],
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return f"from {root}"
    if head.returncode != 0 or top.returncode != 0 or Path(top.stdout.strip()).resolve() != root:
        return f"from {root}"
    return f"from {root} @ {head.stdout.strip()}{'+dirty' if dirty.stdout.strip() else ''}"


def results_table(results: list[dict], args: argparse.Namespace):
    """The main rich table: one row per (kind, size)."""
    from rich.table import Table

    opts = ",".join(args.print_flags) or "defaults"
    table = Table(title=f"ttopt parse / print / round-trip — median {args.clock} time of {args.repeat}, seed {args.seed}, "
                        f"attrs {args.attrs}, PrintOptions({opts}), ttopt {describe_ttopt()}",
                  caption="kops/s = module.walk() ops / s;  MB/s = generated input bytes / s;  peak RSS of a "
                          "fresh child process per row (VmHWM; ru_maxrss where /proc is missing)")
    table.add_column("kind")
    table.add_column("locs")
    table.add_column("ops", justify="right")
    table.add_column("MB", justify="right")
    for stage in ("parse", "print", "round-trip"):
        table.add_column(f"{stage}\nms", justify="right")
        table.add_column(f"{stage}\nkops/s", justify="right")
        table.add_column(f"{stage}\nMB/s", justify="right")
    table.add_column("verify\nms", justify="right")
    table.add_column("verify\ngrowth", justify="right")
    table.add_column("peak RSS\nMB", justify="right")
    table.add_column("reparse")
    previous: dict[tuple[str, str], dict] = {}  # the row of the next smaller size of the same kind
    for r in results:
        if r.get("error"):
            table.add_row(r["kind"], r["locs"], f"{r['size']:,}", "", f"[red]{r['error']}[/red]", *[""] * 12)
            continue
        mb = r["bytes"] / 1e6
        cells = []
        for key in ("parse_s", "print_s", "roundtrip_s"):
            s = r[key]
            cells += [fmt(s * 1e3, ",.1f"), fmt(rate(r["ops"], s) / 1e3, ",.1f"), fmt(rate(mb, s), ",.2f")]
        before = previous.get((r["kind"], r["locs"]))
        growth = ""
        if before is not None and before["verify_s"] > 0:
            growth = f"{r['verify_s'] / before['verify_s']:.1f}x / {r['ops'] / before['ops']:.0f}x ops"
        previous[(r["kind"], r["locs"])] = r
        ok = r["reparse"] == "ok"
        table.add_row(r["kind"], r["locs"], f"{r['ops']:,}", f"{mb:.2f}", *cells, fmt(r["verify_s"] * 1e3, ",.1f"), growth,
                      f"{r['peak_rss_mb']:,.0f}", "[green]ok[/green]" if ok else f"[red]{r['reparse']}[/red]")
    return table


def startup_table(rows: list[tuple[str, float | None, str]], repeat: int):
    from rich.table import Table

    table = Table(title=f"startup (wall time, median of {repeat})")
    table.add_column("command")
    table.add_column("ms", justify="right")
    table.add_column("note")
    for label, t, note in rows:
        table.add_row(label, fmt(t and t * 1e3, ",.0f"), note)
    return table


def oracle_table(rows: list[dict], results: list[dict]):
    """jaxlib's verdict on each generated file, and MLIR C++ beside ttopt on the same text."""
    from rich.table import Table

    ours = {r.get("file"): r for r in results}
    table = Table(title="MLIR C++ (jaxlib: ir.Module.parse + verify, allow_unregistered_dialects) on the same files",
                  caption="round-trip = parse + print with locations (in process); ratio = ttopt round-trip / MLIR C++ round-trip; "
                          "wall = the whole command, interpreter and imports included: `python -m ttopt opt --mlir-print-debuginfo FILE` "
                          "vs a python script that parses (and verifies) the file with jaxlib and prints it with locations")
    cols = ("file", "verifies", "MLIR parse ms", "MLIR print ms", "MLIR round-trip ms", "ttopt round-trip ms", "ratio",
            "MLIR wall ms", "ttopt wall ms", "wall ratio", "error")
    for col in cols:
        table.add_column(col, justify="left" if col in ("file", "verifies", "error") else "right")
    for r in rows:
        mine = ours.get(r["file"], {})
        mlir_rt = r["parse_s"] + r["print_s"] if r.get("ok") else None
        ttopt_rt = mine.get("roundtrip_s")
        ratio = f"{ttopt_rt / mlir_rt:.1f}x" if mlir_rt and ttopt_rt else ""
        mw, tw = r.get("mlir_wall_s"), r.get("ttopt_wall_s")
        wall_ratio = f"{tw / mw:.1f}x" if mw and tw else ""
        table.add_row(Path(r["file"]).name, "[green]yes[/green]" if r["ok"] else "[red]no[/red]",
                      fmt(r.get("parse_s") and r["parse_s"] * 1e3, ",.1f"), fmt(r.get("print_s") and r["print_s"] * 1e3, ",.1f"),
                      fmt(mlir_rt and mlir_rt * 1e3, ",.1f"), fmt(ttopt_rt and ttopt_rt * 1e3, ",.1f"), ratio,
                      fmt(mw and mw * 1e3, ",.0f"), fmt(tw and tw * 1e3, ",.0f"), wall_ratio, r["error"] or r.get("wall_note", ""))
    return table


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.one:
        return child_main(args)
    if args.oracle_files:
        return oracle_child(args.oracle_files)
    if args.gen:
        return gen_child(args)

    from rich.console import Console

    console = Console(width=None if sys.stdout.isatty() else 180)
    work = Workdir.create(args.write, args.attrs)
    try:
        results = run_all(args, work, console)
        console.print(results_table(results, args))
        if not args.no_cold_start:
            console.print(startup_table(cold_start(args, work), args.repeat))
        if args.oracle:
            rows = run_oracle(args, work)
            console.print(oracle_table(rows, results) if isinstance(rows, list) else f"oracle skipped: {rows}")
        if args.profile:
            console.print(f"\n[bold]cProfile: one parse of ttnn_10000.mlir, top 25 by {args.profile_sort}[/bold]")
            print(profile_parse(args, work), flush=True)
        if args.write:
            console.print(f"generated files kept in {work.path}")
    finally:
        work.cleanup()
    return 1 if any(r.get("error") or r.get("reparse", "ok") != "ok" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
