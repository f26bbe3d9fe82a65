"""tt-mlir conformance: tt-mlir's own lit tests, run through ttopt, checked by LLVM FileCheck.

    python bench/ttmlir_conformance.py [--suite stablehlo-to-ttir|backend|optimizer|ttir-fusing|ttir-canonicalize|ttir-transforms|ttir-to-ttnn|ttnn-passes|ttir-verifiers|ttnn-verifiers]
                                       [--mirror DIR] [--commit REV] [--only SUBSTRING] [--show N] [--check]

Suites: `stablehlo-to-ttir` (test/ttmlir/Conversion/StableHLOToTTIR), `backend` (every file under
test/ttmlir whose RUN lines use `--ttir-to-ttnn-backend-pipeline` or `--ttir-to-ttnn-common-pipeline`),
`optimizer` (test/ttmlir/Dialect/TTNN/optimizer/**, with greedy/, op_layout_fallbacks/ and
ttnn_fusing/, where HEAD keeps the TTNN fusing tests), `ttir-to-ttnn`
(test/ttmlir/Conversion/TTIRToTTNN), `ttnn-passes` (the standalone TTNN transforms ttopt has:
test/ttmlir/Dialect/TTNN/{set_compute_kernel_config,kv_cache_conversion,weight_conversion,dispatch_d2m,
Transforms/Workarounds}), `ttir-fusing` (test/ttmlir/Dialect/TTIR/fusing) and `ttir-canonicalize`
(test/ttmlir/Dialect/TTIR/canonicalize: tt-mlir's TTIR folders and canonicalization patterns),
`ttir-transforms` (test/ttmlir/Dialect/TTIR/{Transforms,propagate_weight_dtype,flatten_sliding_window.mlir}:
the RUN lines of the standalone TTIR transforms ttopt has, the CPU fallback's StableHLO hoist among them), `ttir-verifiers` and `ttnn-verifiers`
(the files under test/ttmlir/Dialect/TTIR and TTNN whose RUN line is `not ttmlir-opt %s`: invalid ops
the dialect's verifier must reject with its own message). In every suite but stablehlo-to-ttir, `%system_desc_path%` (the system desc
tt-mlir's lit config queries from the machine's device) stands for ttopt's n150 preset outside
multi-chip directories (n300, llmbox, tg, ...), and RUN lines that only serialize or execute the
output (`ttmlir-translate --ttnn-to-flatbuffer`, `ttrt`) are skipped: they check nothing about
the IR. Each suite has its own known-differences file (bench/ttmlir_<suite>_known_differences.txt).

Reads the lit tests of a suite (a set of directories under tt-mlir's `test/`, and the ttmlir-opt
passes in its scope) from a git mirror of tenstorrent/tt-mlir (`fetch github:tenstorrent/tt-mlir`;
default /work/.mirror/tenstorrent+tt-mlir/repo), so nothing upstream is copied into the project.
Every RUN line is executed as lit would, with `ttmlir-opt` replaced by `ttopt opt` (run in-process:
interpreter start-up would dominate) and its options passed as the test spells them; `FileCheck` is
LLVM's (the tests are written for it), `not` inverts, `2>&1` merges stderr into the pipe, `-o %t`
files are real files, a pipe fails when any stage fails (lit's pipefail).

A file is *runnable* when every RUN line uses only ttmlir-opt with passes in the suite's scope,
FileCheck, `not` and `rm`; otherwise the table counts it as not runnable with the reason (another
tool such as ttmlir-translate or ttrt, a pass outside the suite, `UNSUPPORTED`). A runnable file
passes when all its RUN lines do (a file marked `XFAIL: *` upstream passes when a RUN line fails, as lit
counts an expected failure; passing every line is an XPASS, a failure). When a `--split-input-file` file fails, each `// -----` chunk's
checks are also run against that chunk's output, so a difference is reported per split (`#N`,
1-based). `internal error` counts runs where ttopt raised a Python exception or exited with a
status other than 0, 1 or 2: it must be 0.

Known differences live in bench/ttmlir_known_differences.txt (stablehlo-to-ttir; the other suites
in their own file), one per line:
`<path in the suite>[#split]<TAB><reason>`. `--check` exits 1 on an unexplained failure, an internal
error, or a known-difference line that no longer fails (stale); tests/lowering/test_ttmlir_conformance.py
runs it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import click
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lit_conformance import (  # noqa: E402
    TTMLIR_MIRROR,  # noqa: E402
    ToolResult,
    count,
    find_llvm_filecheck,
    percent,
    print_table,
    prune_known_differences,
    read_known_differences,
    run_ttopt,
)
from bench.lit_conformance import run_filecheck as _run_filecheck  # noqa: E402

DEFAULT_MIRROR = TTMLIR_MIRROR
KNOWN = ROOT / "bench" / "ttmlir_known_differences.txt"
SPLIT = "// -----"

# ttmlir-opt options that are not passes (mlir-opt's own); `o` takes the next word.
GENERIC_FLAGS = frozenset({"split-input-file", "verify-diagnostics", "o", "mlir-print-debuginfo", "mlir-print-local-scope",
                           "mlir-print-op-generic", "mlir-print-ir-after-all", "allow-unregistered-dialect",
                           "mlir-disable-threading", "verify-each"})  # fmt: skip


# Test directories of multi-chip systems: `%system_desc_path%` there is a system desc ttopt has no preset for.
MULTI_CHIP = re.compile(r"/(n300|llmbox|tg|t3k|p150x\d|p300|galaxy)/")
# RUN lines that serialize or execute the checked output (flatbuffer, device run): they check
# nothing about the IR, so the backend suites skip them and run the rest of the file.
SERIALIZATION = re.compile(r"^\s*(ttmlir-translate\s+--ttnn-to-flatbuffer\b|ttrt\s)")

# ttmlir-opt passes of the TTIR -> TTNN backend (the backend, optimizer and TTIRToTTNN suites).
BACKEND_PASSES = frozenset({"ttir-to-ttnn-backend-pipeline", "ttir-to-ttnn-common-pipeline", "convert-ttir-to-ttnn",
                            "ttcore-register-device", "ttcore-mark-functions-as-forward",
                            "ttnn-operation-validation-and-fallback", "ttnn-deallocate", "canonicalize", "cse", "inline",
                            "stablehlo-to-ttir-pipeline", "stablehlo-pipeline", "convert-stablehlo-to-ttir",
                            "ttnn-rm-layout-propagation", "ttnn-decompose-layouts", "ttnn-fusing",
                            "ttnn-greedy-l1-spill-management", "ttnn-set-compute-kernel-config",
                            "ttnn-common-to-runtime-pipeline", "ttcore-wrap-device-module", "ttcore-unwrap-device-module",
                            "ttnn-layout"})  # fmt: skip
# tt-mlir's standalone TTNN transforms that ttopt has as passes of its own.
TTNN_TRANSFORMS = frozenset({"ttnn-set-compute-kernel-config", "ttnn-workaround", "ttnn-weight-dtype-conversion",
                             "ttnn-kv-cache-dtype-conversion", "ttnn-create-d2m-subgraphs"})  # fmt: skip
# tt-mlir's standalone TTIR transforms that ttopt has as passes of its own.
TTIR_TRANSFORMS = frozenset({"ttir-erase-inverse-ops", "ttir-explicate-tms", "ttir-flatten-sliding-window",
                             "ttir-propagate-weight-dtype", "ttir-fold-full-to-scalar",
                             "ttir-consolidate-static-cache-updates", "ttir-infer-kv-cache-argument-types",
                             "ttir-quant-dequant-conversion", "ttir-implicit-broadcast-fold",
                             "cpu-hoist-non-lowerable-shlo-ops"})  # fmt: skip
BACKEND_OUTSIDE = {
    "ttnn-common-to-emitc-pipeline": "tt-mlir's TTNN -> EmitC (C++) lowering (not in ttopt)",
    "ttnn-common-to-emitpy-pipeline": "tt-mlir's TTNN -> EmitPy lowering (not in ttopt)",
    "ttir-to-emitc-pipeline": "tt-mlir's TTIR -> EmitC (C++) pipeline (not in ttopt)",
    "ttir-to-emitpy-pipeline": "tt-mlir's TTIR -> EmitPy pipeline (not in ttopt)",
    "convert-ttnn-to-emitc": "tt-mlir's TTNN -> EmitC conversion (not in ttopt)",
    "ttnn-to-flatbuffer": "tt-mlir's flatbuffer serialization (not in ttopt)",
    "ttnn-tuplify-tensors": "tt-mlir's EmitC calling-convention pass (not in ttopt)",
    "ttnn-load-input-tensors": "tt-mlir's EmitC input-loading pass (not in ttopt)",
    "ttnn-create-input-gens": "tt-mlir's EmitC input-generator pass (not in ttopt)",
    "ttnn-prepare-module-for-export": "tt-mlir's EmitC export preparation (not in ttopt)",
    "ttnn-collect-perf-metrics": "tt-mlir's perf-metrics collection (not in ttopt)",
    "ttnn-adjust-deallocs": "tt-mlir's EmitC deallocation adjustment (not in ttopt)",
    "benchmark": "a ttir-builder benchmark flag, not a ttmlir-opt pass",
    "ttir-quant-data-type-conversion": "tt-mlir's TTIR quantized data-type conversion (not in ttopt)",
    "tt-populate-argument-types": "tt-mlir's argument-type annotation pass, used here on TTNN input outside the backend",
}


@dataclass(frozen=True)
class Suite:
    """Directories of tt-mlir's tests and the ttmlir-opt passes in scope for them."""

    name: str
    dirs: tuple[str, ...]
    passes: frozenset[str]
    # Passes the tests use that belong to another part of tt-mlir: the RUN line is not runnable here.
    outside: dict[str, str] = field(default_factory=dict)
    # Known differences of this suite (keys are paths under its directory).
    known: Path = KNOWN
    # Only files with a RUN line matching this (empty: every file under `dirs`).
    selects: str = ""
    # The table's rows: the first `depth` directories of a file's path under the suite (0: all).
    depth: int = 0
    # Device preset that stands for `%system_desc_path%` (the device tt-mlir's runner queries);
    # empty: the substitution makes the file not runnable.
    system_desc: str = ""
    # RUN lines that only serialize or run the output are skipped (empty: none are).
    skips: re.Pattern[str] | None = None


# A RUN line that only parses and verifies, expecting failure.
VERIFIER_RUN = r"not ttmlir-opt (-?-split-input-file )?%s"

SUITES = {
    "stablehlo-to-ttir": Suite(
        "stablehlo-to-ttir",
        ("test/ttmlir/Conversion/StableHLOToTTIR",),
        frozenset({"stablehlo-to-ttir-pipeline", "stablehlo-pipeline", "convert-stablehlo-to-ttir",
                   "legalize-stablehlo-composite-to-ttir", "convert-arith-to-stablehlo", "canonicalize", "cse",
                   "inline", "sdy-close-shardings", "stablehlo-legalize-composite-to-call"}),  # fmt: skip
        {
            "reoutline-composite": "tt-mlir's StableHLO composite re-outlining (a step of its stablehlo-pipeline that ttopt's seed-004 pipeline does not have)",
            "flatten-or-convert-composites": "tt-mlir's StableHLO composite flattening (a step of its stablehlo-pipeline that ttopt's seed-004 pipeline does not have)",
            "shardy-ccl-canonicalization": "tt-mlir's Shardy CCL canonicalization pass (not in ttopt)",
            "show-dialects": "lists ttmlir-opt's registered dialects (a property of the binary, not a conversion)",
        },
    ),
    "backend": Suite(
        "backend",
        ("test/ttmlir",),
        BACKEND_PASSES,
        BACKEND_OUTSIDE,
        ROOT / "bench" / "ttmlir_backend_known_differences.txt",
        selects=r"--?ttir-to-ttnn-(backend|common)-pipeline",
        depth=3,
        system_desc="n150",
        skips=SERIALIZATION,
    ),
    "optimizer": Suite(
        "optimizer",
        ("test/ttmlir/Dialect/TTNN/optimizer",),
        BACKEND_PASSES,
        BACKEND_OUTSIDE,
        ROOT / "bench" / "ttmlir_optimizer_known_differences.txt",
        depth=1,
        system_desc="n150",
        skips=SERIALIZATION,
    ),
    "ttnn-passes": Suite(
        "ttnn-passes",
        tuple(f"test/ttmlir/Dialect/TTNN/{d}" for d in ("set_compute_kernel_config", "kv_cache_conversion", "weight_conversion", "dispatch_d2m",
                                                        "Transforms/Workarounds")),  # fmt: skip
        BACKEND_PASSES | TTNN_TRANSFORMS,
        BACKEND_OUTSIDE,
        ROOT / "bench" / "ttmlir_ttnn_passes_known_differences.txt",
        selects="--(" + "|".join(sorted(TTNN_TRANSFORMS)) + ")",
        depth=1,
        system_desc="n150",
        skips=SERIALIZATION,
    ),
    "ttir-fusing": Suite(
        "ttir-fusing",
        ("test/ttmlir/Dialect/TTIR/fusing",),
        BACKEND_PASSES | {"ttir-fusing", "ttir-to-ttir-decomposition", "ttir-implicit-broadcast-fold", "ttir-erase-inverse-ops", "ttir-explicate-tms"},
        BACKEND_OUTSIDE,
        ROOT / "bench" / "ttmlir_ttir_fusing_known_differences.txt",
        depth=1,
        system_desc="n150",
        skips=SERIALIZATION,
    ),
    "ttir-canonicalize": Suite(
        "ttir-canonicalize",
        ("test/ttmlir/Dialect/TTIR/canonicalize",),
        BACKEND_PASSES,
        BACKEND_OUTSIDE,
        ROOT / "bench" / "ttmlir_ttir_canonicalize_known_differences.txt",
        system_desc="n150",
        skips=SERIALIZATION,
    ),
    "ttir-transforms": Suite(
        "ttir-transforms",
        ("test/ttmlir/Dialect/TTIR/Transforms", "test/ttmlir/Dialect/TTIR/propagate_weight_dtype",
         "test/ttmlir/Dialect/TTIR/flatten_sliding_window.mlir"),
        BACKEND_PASSES | TTIR_TRANSFORMS | {"ttir-fusing", "ttir-to-ttir-decomposition"},
        BACKEND_OUTSIDE,
        ROOT / "bench" / "ttmlir_ttir_transforms_known_differences.txt",
        selects="--(" + "|".join(sorted(TTIR_TRANSFORMS)) + ")",
        depth=1,
        system_desc="n150",
        skips=SERIALIZATION,
    ),
    # The dialects' verifier tests: invalid ops each RUN line expects `ttmlir-opt` alone to reject
    # with the op's own message (no pass runs: parsing and verification only).
    **{f"{d}-verifiers": Suite(
        f"{d}-verifiers",
        (f"test/ttmlir/Dialect/{d.upper()}",),
        frozenset(),
        BACKEND_OUTSIDE,
        ROOT / "bench" / f"ttmlir_{d}_verifiers_known_differences.txt",
        selects=VERIFIER_RUN,
        depth=1,
    ) for d in ("ttir", "ttnn")},
    "ttir-to-ttnn": Suite(
        "ttir-to-ttnn",
        ("test/ttmlir/Conversion/TTIRToTTNN",),
        BACKEND_PASSES,
        BACKEND_OUTSIDE,
        ROOT / "bench" / "ttmlir_ttir_to_ttnn_known_differences.txt",
        system_desc="n150",
        skips=SERIALIZATION,
    ),
}


@dataclass
class Stage:
    """One command of a RUN pipe."""

    tool: str
    args: list[str]
    negate: bool = False
    merge_stderr: bool = False


@dataclass
class RunLine:
    """A RUN line as stages, or why it cannot run here."""

    text: str
    stages: list[Stage]
    unsupported: str = ""


@dataclass
class FileResult:
    """The outcome of one test file."""

    path: str  # relative to the suite directory
    directory: str
    runnable: bool
    reason: str = ""  # not runnable: why
    ok: bool = False
    internal_error: str = ""
    failures: list[str] = field(default_factory=list)  # keys: path or path#split
    detail: str = ""
    seconds: float = 0.0


def git(mirror: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(mirror), *args], capture_output=True, text=True, check=True).stdout


def find_filecheck() -> str | None:
    """LLVM's FileCheck (tt-mlir's tests are written for it)."""
    return find_llvm_filecheck()


def run_lines(text: str) -> list[str]:
    """The RUN commands of a test, `\\` continuations joined."""
    out: list[str] = []
    pending = ""
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            if pending:
                out.append(pending)
                pending = ""
            continue
        body = m.group(1).rstrip()
        if body.endswith("\\"):
            pending += body[:-1] + " "
            continue
        out.append(pending + body)
        pending = ""
    if pending:
        out.append(pending)
    return out


def directive(text: str, name: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(rf"^\s*//\s*{name}:\s*(.*)$", text, re.M)]


def parse_run(line: str, suite: Suite, path: str = "") -> RunLine:
    """Split a RUN line into stages and decide whether it can run through ttopt."""
    if suite.system_desc and not MULTI_CHIP.search(path):
        line = line.replace("%system_desc_path%", suite.system_desc)
    try:
        words = shlex.split(line)
    except ValueError as e:
        return RunLine(line, [], f"unparsable RUN line ({e})")
    groups: list[list[str]] = [[]]
    redirect = False
    for w in words:
        if redirect:
            # `ttmlir-opt ... > out`: the same file as `-o out`.
            if not groups[-1] or groups[-1][0] != "ttmlir-opt":
                return RunLine(line, [], "shell construct '>' (on another tool than ttmlir-opt)")
            groups[-1] += ["-o", w]
            redirect = False
        elif w == "|":
            groups.append([])
        elif w == ">":
            redirect = True
        elif w in ("&&", ";", ">>", "<"):
            return RunLine(line, [], f"shell construct '{w}'")
        else:
            groups[-1].append(w)
    stages = []
    for g in groups:
        negate = False
        while g and g[0] == "not":
            negate, g = not negate, g[1:]
        merge = "2>&1" in g
        g = [w for w in g if w != "2>&1"]
        if not g:
            return RunLine(line, [], "empty pipe stage")
        tool, args = g[0], g[1:]
        if any(re.search(r"%[A-Za-z_]+%|%ttmlir|%models|%python", a) for a in args):
            return RunLine(line, [], "lit substitution for a tt-mlir build or device (system desc, models)")
        if tool == "ttmlir-opt":
            why = _opt_unsupported(args, suite)
            if why:
                return RunLine(line, [], why)
        elif tool not in ("FileCheck", "rm"):
            return RunLine(line, [], f"needs {tool}")
        stages.append(Stage(tool, args, negate, merge))
    return RunLine(line, stages)


def _opt_unsupported(args: list[str], suite: Suite) -> str:
    skip_next = False
    for a in args:
        if skip_next:
            skip_next = False
            continue
        if not a.startswith("-") or a == "-":
            continue
        name = a.lstrip("-").split("=", 1)[0]
        if name == "o":
            skip_next = "=" not in a
            continue
        if name in GENERIC_FLAGS:
            continue
        if name in suite.outside:
            return f"--{name}: {suite.outside[name]}"
        if name not in suite.passes:
            return f"--{name} is outside the {suite.name} suite"
    return ""


def substitute(words: list[str], src: Path, tmp: Path) -> list[str]:
    out = []
    for w in words:
        w = w.replace("%s", str(src)).replace("%S", str(src.parent)).replace("%t", str(tmp)).replace("%T", str(tmp.parent))
        out.append(w)
    return out


def run_opt(args: list[str]) -> ToolResult:
    """`ttopt opt` in-process (ttmlir-opt's single-dash long options are ttopt's too)."""
    return run_ttopt(["opt", *args])


def run_filecheck(filecheck: str, args: list[str], stdin: str) -> ToolResult:
    """LLVM FileCheck at `filecheck` on `stdin`."""
    return _run_filecheck([filecheck], args, stdin)


def execute(run: RunLine, src: Path, tmp: Path, filecheck: str) -> tuple[bool, str, str]:
    """Run one RUN line: (passed, failure text, internal error text). `tmp` is lit's `%t`; the line
    runs in its folder (`%T`): some RUN lines write `-o name.mlir` relative to where they run, which
    must not be the checkout."""
    tmp.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.chdir(tmp.parent):
        return _execute(run, src, tmp, filecheck)


def _execute(run: RunLine, src: Path, tmp: Path, filecheck: str) -> tuple[bool, str, str]:
    data = ""
    for stage in run.stages:
        args = substitute(stage.args, src, tmp)
        if stage.tool == "rm":
            for a in args:
                if not a.startswith("-"):
                    p = Path(a)
                    shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
            continue
        if stage.tool == "ttmlir-opt":
            r = run_opt(args)
            if r.internal:
                return False, f"ttopt: internal error: {r.internal}", r.internal
        else:
            r = run_filecheck(filecheck, args, data)
        ok = (r.code != 0) if stage.negate else (r.code == 0)
        if not ok:
            what = "succeeded (expected a failure)" if stage.negate else f"exited {r.code}"
            lines = [l.strip() for l in (r.stderr or r.stdout).strip().splitlines() if l.strip()]
            first = [l for l in lines if "error" in l.lower()][:1] or lines[:1]
            tail = " | ".join(first + [l for l in lines if l not in first][:2])[:300]
            return False, f"{stage.tool} {what}: {tail}", ""
        data = r.stdout + (r.stderr if stage.merge_stderr else "")
    return True, "", ""


def split_failures(text: str, runs: list[RunLine], src: Path, tmp: Path, filecheck: str) -> list[int]:
    """1-based `// -----` chunks that fail on their own: each chunk (at its line numbers) through the
    ttmlir-opt command without --split-input-file, its own checks against its own output (the
    FileCheck of the same RUN line, or of a later one reading the `-o` file). Empty when the
    command does not split or every chunk passes alone (the failure is then the file's)."""
    stages = [s for r in runs for s in r.stages]
    at = next((i for i, s in enumerate(stages) if s.tool == "ttmlir-opt"), None)
    opt = stages[at] if at is not None else None
    check = next((s for s in stages[at:] if s.tool == "FileCheck"), None) if at is not None else None
    if opt is None or check is None or not any(a.lstrip("-") == "split-input-file" for a in opt.args):
        return []
    chunks = re.split(r"^// -----\s*$", text, flags=re.M)
    if len(chunks) < 2:
        return []
    failing = []
    line0 = 0
    for i, chunk in enumerate(chunks, 1):
        piece = src.with_name(f"{src.stem}.split{i}{src.suffix}")
        piece.write_text("\n" * line0 + chunk)  # the chunk at its lines in the file
        line0 += chunk.count("\n")
        words = [w.replace("%s", str(piece)) for w in opt.args if w.lstrip("-") != "split-input-file"]
        args = substitute(words, piece, tmp)
        out_at = next((j for j, a in enumerate(args) if a == "-o"), None)
        if out_at is not None:
            del args[out_at : out_at + 2]
        r = run_opt(args)
        if r.internal:
            failing.append(i)
            continue
        produced = r.stdout + (r.stderr if opt.merge_stderr or opt.negate else "")
        cargs = [a for a in substitute([w.replace("%s", str(piece)) for w in check.args], piece, tmp)]
        cargs = [a for j, a in enumerate(cargs) if not a.startswith(("--input-file", "-input-file"))
                 and not (j > 0 and cargs[j - 1] in ("--input-file", "-input-file"))]  # fmt: skip
        ok_code = r.code != 0 if opt.negate else r.code == 0
        if not (ok_code or opt.negate) or run_filecheck(filecheck, cargs, produced).code != 0:
            failing.append(i)
    return failing


def test_paths(mirror: Path, rev: str, suite: Suite) -> list[str]:
    """The suite's test files at `rev` (with a RUN line matching its `selects`)."""
    out = git(mirror, "ls-tree", "-r", "--name-only", rev, "--", *suite.dirs)
    paths = sorted(p for p in out.splitlines() if p.endswith(".mlir"))
    if not suite.selects:
        return paths
    # One `git grep` for the whole tree: reading each file to look at its RUN lines would take minutes.
    hits = subprocess.run(["git", "--git-dir", str(mirror), "grep", "-l", "-E", rf"RUN:.*({suite.selects})", rev, "--", *suite.dirs],
                          capture_output=True, text=True).stdout  # fmt: skip
    selected = {line.partition(":")[2] for line in hits.splitlines()}
    return [p for p in paths if p in selected]


def run_file(mirror: Path, rev: str, suite: Suite, path: str, workdir: Path, filecheck: str) -> FileResult:
    # Paths are read under the directories' common parent, so a suite of several directories keeps their names.
    base = os.path.commonpath(suite.dirs) if len(suite.dirs) > 1 else next(d for d in suite.dirs if path.startswith(d + "/"))
    rel = path[len(base) + 1 :]
    parts = Path(rel).parent.parts
    directory = "/".join(parts[: suite.depth] if suite.depth else parts) or "."
    text = git(mirror, "show", f"{rev}:{path}")
    res = FileResult(rel, directory, runnable=False)
    if any(u.strip() in ("true", "*") for u in directive(text, "UNSUPPORTED")):
        res.reason = "UNSUPPORTED upstream"
        return res
    lines = run_lines(text)
    if not lines:
        res.reason = "no RUN line"
        return res
    if suite.skips is not None:
        lines = [line for line in lines if not suite.skips.search(line)]
    runs = [parse_run(line, suite, path) for line in lines]
    bad = next((r for r in runs if r.unsupported), None)
    if bad is not None:
        res.reason = bad.unsupported
        return res
    if not any(s.tool == "ttmlir-opt" for r in runs for s in r.stages):
        res.reason = "no ttmlir-opt RUN line"
        return res
    res.runnable = True
    # lit's XFAIL: the file is expected to fail; a failing RUN line is the expected result and a
    # file that passes every line is an unexpected pass, which lit counts as a failure.
    xfail = any(u.strip() in ("true", "*") for u in directive(text, "XFAIL"))
    src = workdir / Path(rel).name
    src.write_text(text)
    tmp = workdir / "out.tmp"
    t0 = time.perf_counter()
    for run in runs:
        ok, why, internal = execute(run, src, tmp, filecheck)
        if internal:
            res.internal_error = internal
        if not ok:
            res.detail = why
            splits = split_failures(text, runs[: runs.index(run) + 2], src, tmp, filecheck)
            res.failures = [f"{rel}#{i}" for i in splits] or [rel]
            break
    else:
        res.ok = True
    if xfail:
        res.ok, res.failures = (not res.ok), ([] if not res.ok else [rel])
        res.detail = "XFAIL upstream, and it fails here too" if res.ok else "XFAIL upstream, but every RUN line passes (XPASS)"
    res.seconds = time.perf_counter() - t0
    for p in workdir.iterdir():
        p.unlink() if p.is_file() else shutil.rmtree(p, ignore_errors=True)
    return res


def known_differences(path: Path = KNOWN) -> dict[str, str]:
    """`path[#split]` -> reason, from the known-differences file."""
    return read_known_differences(path)


@dataclass
class Conformance:
    """One run: per directory a Counter (files, runnable, pass, known, unexplained, internal), the
    unexplained failures, stale known lines, not-runnable reasons and every file's result."""

    rev: str
    suite: str
    filecheck: str
    per_dir: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    results: list[FileResult] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    not_runnable: Counter = field(default_factory=Counter)


def run_conformance(mirror: Path, suite_name: str = "stablehlo-to-ttir", commit: str = "HEAD", only: str | None = None,
                    known_file: Path | None = None) -> Conformance:  # fmt: skip
    """Run every file of the suite at `commit` through ttopt and FileCheck."""
    suite = SUITES[suite_name]
    known_file = known_file or suite.known
    filecheck = find_filecheck()
    if filecheck is None:
        raise click.UsageError("LLVM FileCheck is not installed (tt-mlir's tests need its semantics)")
    rev = git(mirror, "rev-parse", commit).strip()
    known = known_differences(known_file)
    report = Conformance(rev, suite_name, filecheck)
    with tempfile.TemporaryDirectory() as tmp:
        for path in test_paths(mirror, rev, suite):
            if only and only not in path:
                continue
            r = run_file(mirror, rev, suite, path, Path(tmp), filecheck)
            report.results.append(r)
            c = report.per_dir[r.directory]
            c["files"] += 1
            if not r.runnable:
                c["not runnable"] += 1
                report.not_runnable[r.reason] += 1
                continue
            c["runnable"] += 1
            if r.internal_error:
                c["internal error"] += 1
                report.internal.append(f"{r.path}: {r.internal_error}")
            if r.ok:
                c["pass"] += 1
                report.stale += [f"{k}: passes, but is listed as a known difference" for k in known
                                 if k == r.path or k.startswith(r.path + "#")]  # fmt: skip
            elif all(k in known for k in r.failures) or r.path in known:
                c["known"] += 1
                listed = [k for k in known if k.startswith(r.path + "#") and k not in r.failures]
                report.stale += [f"{k}: this split passes, but is listed as a known difference" for k in listed
                                 if r.failures != [r.path]]  # fmt: skip
            else:
                c["unexplained"] += 1
                report.unexplained.append(f"{', '.join(k for k in r.failures if k not in known)}: {r.detail}")
    if only is None:
        seen = {r.path for r in report.results if r.runnable}
        report.stale += [f"{k}: listed as a known difference, but no runnable file has it" for k in known if k.partition("#")[0] not in seen]
    return report


def render(report: Conformance, console: Console) -> None:
    """The per-directory table."""
    title = f"tt-mlir {report.suite} lit tests through ttopt — tenstorrent/tt-mlir @ {report.rev[:12]}, {report.filecheck}"
    columns = [count("files"), count("runnable"), count("pass"), percent("pass", "runnable"), count("known", "known difference"),
               count("unexplained"), count("internal error"), count("not runnable")]  # fmt: skip
    print_table(console, title, "directory", report.per_dir, columns, order=lambda d: (d != ".", d))
    if report.not_runnable:
        console.print("[bold]not runnable[/bold]:")
        for why, n in report.not_runnable.most_common():
            console.print(f"  {n} × {why}")


@click.command()
@click.option("--suite", "suite_name", type=click.Choice(sorted(SUITES)), default="stablehlo-to-ttir", show_default=True)
@click.option("--mirror", type=click.Path(path_type=Path), default=DEFAULT_MIRROR, show_default=True,
              help="Bare git mirror (or .git directory) of tenstorrent/tt-mlir.")
@click.option("--commit", default="HEAD", show_default=True, help="Revision of the tests.")
@click.option("--only", default=None, help="Only files whose path contains this text.")
@click.option("--show", default=40, show_default=True, type=click.IntRange(0), help="Failures to list.")
@click.option("--known", "known_file", type=click.Path(path_type=Path), default=None,
              help="Known-differences file (default: the suite's, bench/ttmlir_known_differences.txt for stablehlo-to-ttir).")
@click.option("--all-failures", is_flag=True, help="Also list failures that are known differences.")
@click.option("--check", is_flag=True, help="Exit 1 on an unexplained failure, an internal error or a stale known line.")
@click.option("--prune-stale", is_flag=True, help="Remove known-difference lines whose files now pass (after lowerings land).")
def main(suite_name: str, mirror: Path, commit: str, only: str | None, show: int, known_file: Path | None, all_failures: bool,
         check: bool, prune_stale: bool) -> None:  # fmt: skip
    """Run tt-mlir's lit tests of a suite through ttopt and print the per-directory table."""
    console = Console(width=200)
    if not (mirror / "HEAD").exists():
        raise click.UsageError(f"{mirror} is not a git mirror of tenstorrent/tt-mlir (fetch github:tenstorrent/tt-mlir)")
    t0 = time.perf_counter()
    report = run_conformance(mirror, suite_name, commit, only, known_file)
    render(report, console)
    console.print(f"{time.perf_counter() - t0:.1f} s")
    if all_failures:
        for r in report.results:
            if r.runnable and not r.ok:
                print(f"{', '.join(r.failures)}: {r.detail}")
    for line in report.internal + report.unexplained[:show] + report.stale:
        print(line)
    known_file = known_file or SUITES[suite_name].known
    if prune_stale and report.stale:
        gone = prune_known_differences(known_file, {line.partition(":")[0] for line in report.stale})
        print(f"removed {gone} stale line(s) from {known_file}")
        report.stale = []
    if check and (report.unexplained or report.stale or report.internal):
        sys.exit(1)


if __name__ == "__main__":
    main()
