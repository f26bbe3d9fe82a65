"""Shardy conformance: Shardy's own lit tests, run through ttopt, checked per function.

    python bench/shardy_conformance.py [--shardy MIRROR] [--commit REV] [--pass NAME] [--show N]

Reads the lit tests of the Shardy passes ttopt implements from a git mirror of openxla/shardy
(`fetch github:openxla/shardy`; default /work/.mirror/openxla+shardy/repo) at a pinned commit, so
nothing upstream is copied into the project. For every RUN line whose passes all have a ttopt
equivalent, the test file runs through `ttopt opt --split-input-file --pass-pipeline=...`
(in-process), and each `CHECK-LABEL` function's checks are run by FileCheck (LLVM's when installed,
else the Python `filecheck`) against the output:
a function agrees when its checks pass. Files with `-verify-diagnostics` also count their
`expected-error` / `expected-warning` annotations (ttopt's diagnostics must carry the same text at
the same line). Known, explained differences are listed in bench/shardy_known_differences.txt
(`file::function<TAB>reason`); the table separates them from unexplained ones. `--check` exits 1
on an unexplained difference or a stale known line (tests/sharding/test_shardy_conformance.py).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import click
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lit_conformance import count, find_llvm_filecheck, percent, print_table, read_known_differences, run_filecheck, run_ttopt  # noqa: E402

DEFAULT_MIRROR = Path("/work/.mirror/openxla+shardy/repo")
TEST_DIRS = ("shardy/dialect/sdy/transforms/propagation/test", "shardy/dialect/sdy/transforms/export/test",
             "shardy/dialect/sdy/transforms/import/test")
KNOWN = ROOT / "bench" / "shardy_known_differences.txt"
# openxla/shardy main of 2026-08-22 (the mirror's HEAD when the table in docs/sharding.md was made).
PINNED = "a0277a83e7f84d40075be0d71a131cb71d806ff6"

# Shardy pass flag -> (ttopt pass, {shardy option: ttopt option, or None when implied by the pass},
# ttopt options that give Shardy's defaults). ttopt defaults to conservative propagation and
# explicit reshards without sub-axes (DECISIONS.md); Shardy's defaults are ttopt's conservative=false.
PASSES: dict[str, tuple[str, dict[str, str | None], tuple[str, ...]]] = {
    "sdy-aggressive-propagate": ("aggressive-propagation", {"propagation-strategy": "propagation-strategy",
                                                          "conservative-propagation": "conservative-propagation",
                                                          "keep-sharding-rules": "keep-sharding-rules"},
                                 ("conservative=false", "keep-sharding-rules=false")),
    "sdy-basic-propagate": ("basic-propagation", {"conservative-propagation": "conservative-propagation", "keep-sharding-rules": "keep-sharding-rules"},
                            ("conservative=false", "keep-sharding-rules=false")),
    "sdy-op-priority-propagate": ("op-priority-propagation", {"conservative-propagation": "conservative-propagation",
                                                            "keep-sharding-rules": "keep-sharding-rules",
                                                            "run-op-priority-propagation": "run-op-priority-propagation",
                                                            "propagation-strategy": "propagation-strategy"},
                                  ("conservative=false", "keep-sharding-rules=false")),
    "sdy-user-priority-propagate": ("user-priority-propagation", {"conservative-propagation": "conservative-propagation",
                                                                "keep-sharding-rules": "keep-sharding-rules",
                                                                "run-op-priority-propagation": "run-op-priority-propagation",
                                                                "propagation-strategy": "propagation-strategy"},
                                    ("conservative=false", "keep-sharding-rules=false")),
    "sdy-apply-sharding-constraints": ("apply-sharding-constraints", {}, ()),
    "sdy-close-shardings": ("close-shardings", {}, ()),
    "sdy-insert-explicit-reshards": ("insert-explicit-reshards", {"enable-full-version": "enable-full-version"}, ("conservative=false",)),
    "sdy-populate-op-sharding-rules": ("populate-op-sharding-rules", {"conservative-propagation": "conservative-propagation"}, ()),
    "sdy-reshard-to-collectives": ("reshard-to-collectives", {"keep-redundant-reshards": "keep-redundant-reshards"}, ("conservative=false",)),
    "sdy-sharding-constraint-to-reshard": ("sharding-constraint-to-reshard", {}, ()),
}
_FLAG = re.compile(r"""-(sdy-[\w-]+|canonicalize)(?:=("[^"]*"|'[^']*'|\S+))?""")
_LABEL = re.compile(r"//\s*(\w+)-LABEL:\s*(?:func(?:\.func)?\s+)?(?:private\s+)?@([\w$.\-]+)")
_EXPECTED = re.compile(r"//\s*expected-(error|warning|remark)(@[+-]?\d+|@above|@below)?\s*\{\{(.*?)\}\}")


@dataclass
class Run:
    """One RUN line of a test file, translated (or why not)."""

    file: str
    pipeline: str | None
    prefixes: tuple[str, ...]
    verify_diagnostics: bool
    unsupported: str = ""
    split: bool = True


@dataclass
class Outcome:
    """Per-function results of one run."""

    run: Run
    results: dict[str, str] = field(default_factory=dict)  # function -> "ok" | failure text


def git_show(mirror: Path, commit: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", str(mirror), "show", f"{commit}:{path}"], capture_output=True, text=True, check=True).stdout


def test_files(mirror: Path, commit: str) -> list[str]:
    out = subprocess.run(["git", "--git-dir", str(mirror), "ls-tree", "-r", "--name-only", commit], capture_output=True, text=True, check=True).stdout
    return sorted(p for p in out.splitlines() if p.endswith(".mlir") and p.startswith(TEST_DIRS))


def translate(file: str, run_line: str) -> Run:
    """A RUN line's sdy_opt flags as a ttopt pipeline (or the reason it has none)."""
    cmd, _, check = run_line.partition("| FileCheck")
    prefixes = tuple(re.findall(r"--?check-prefix(?:es)?[= ](\S+)", check)) or ("CHECK",)
    prefixes = tuple(p for item in prefixes for p in item.split(","))
    verify = "-verify-diagnostics" in cmd
    split = "-split-input-file" in cmd
    steps = []
    for m in _FLAG.finditer(cmd):
        flag, raw = m.group(1), m.group(2)
        if flag not in PASSES:
            return Run(file, None, prefixes, verify, f"no ttopt equivalent for -{flag}")
        name, option_map, defaults = PASSES[flag]
        opts = list(defaults)
        for item in shlex.split(raw.strip("\"'")) if raw else []:
            key, _, value = item.partition("=")
            if key not in option_map:
                return Run(file, None, prefixes, verify, f"-{flag} option '{key}' has no ttopt equivalent")
            if option_map[key] is not None:
                opts.append(f"{option_map[key]}={value or 'true'}")
        steps.append(f"{name}{{{' '.join(opts)}}}" if opts else name)
    if not steps:
        return Run(file, None, prefixes, verify, "no pass")
    return Run(file, f"builtin.module({', '.join(steps)})", prefixes, verify, split=split)


def function_checks(text: str, prefixes: tuple[str, ...]) -> dict[str, str]:
    """Check text per CHECK-LABEL function (lines before the first label go with every function)."""
    pre = "|".join(re.escape(p) for p in prefixes)
    line_re = re.compile(rf"//\s*(?:{pre})(?:-[A-Z]+)?:")
    preamble: list[str] = []
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if not line_re.search(line):
            continue
        m = _LABEL.search(line)
        if m and m.group(1) in prefixes:
            name = m.group(2)
            while name in blocks:
                name += "'"
            current = blocks[name] = []
        (current if current is not None else preamble).append(line.strip())
    # The next function's label bounds this one's checks, as in FileCheck on the whole file:
    # without it a trailing CHECK-NOT scans every later function's output too.
    names = list(blocks)
    bounds = {name: [blocks[nxt][0]] for name, nxt in zip(names, names[1:])}
    # A label that is a substring of an earlier one (`..._to_x` after `..._to_xy`) would match
    # that earlier function: the labels from the first such one on come first, as in the file.
    pattern = [blocks[n][0].partition("LABEL:")[2].strip() for n in names]
    starts = {}
    for i, name in enumerate(names):
        first = next((j for j in range(i) if pattern[i] in pattern[j]), None)
        starts[name] = [blocks[names[j]][0] for j in range(first, i)] if first is not None else []
    return {name: "\n".join(preamble + starts[name] + lines + bounds.get(name, [])) + "\n" for name, lines in blocks.items()}


def expected_diagnostics(text: str) -> list[tuple[int, str]]:
    """(line, message) of each `expected-error/warning` annotation, line resolved."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        for m in _EXPECTED.finditer(line):
            where = (m.group(2) or "@")[1:]
            target = i - 1 if where == "above" else i + 1 if where == "below" else i + int(where) if where else i
            out.append((target, m.group(3)))
    return out


def find_filecheck() -> list[str]:
    """LLVM's FileCheck when installed (Shardy's tests are written for it), else the Python port
    (whose CHECK-NOT also scans the line of the following CHECK-NEXT match)."""
    found = find_llvm_filecheck()
    return [found] if found else [sys.executable, "-m", "filecheck"]


def run_file(text: str, run: Run, workdir: Path, filecheck: list[str]) -> Outcome:
    """ttopt on the whole file, then filecheck once per function."""
    outcome = Outcome(run)
    # Split only where the RUN line does: a `// -----` in an unsplit file is a comment, and the
    # functions after it still see the meshes defined before it.
    split = ["--split-input-file"] if run.split else []
    result = run_ttopt(["opt", "-", *split, f"--pass-pipeline={run.pipeline}"], text)
    output = result.stdout + result.stderr
    if result.internal:
        output += f"\ninternal error: {result.internal}"
    out_file = workdir / "out.mlir"
    out_file.write_text(output)
    for name, checks in function_checks(text, run.prefixes).items():
        check_file = workdir / "checks.mlir"
        check_file.write_text(checks)
        args = [str(check_file), "--input-file", str(out_file)]
        for p in run.prefixes:
            args += ["--check-prefix", p]
        r = run_filecheck(filecheck, args)
        outcome.results[name] = "ok" if r.code == 0 else " | ".join(l.strip() for l in (r.stderr or r.stdout).strip().splitlines()[:2])[:260]
    if run.verify_diagnostics:
        for line, message in expected_diagnostics(text):
            found = any(f":{line}:" in l and message in l for l in output.splitlines())
            outcome.results[f"expected@{line}"] = "ok" if found else f"no diagnostic '{message[:80]}' at line {line}"
    return outcome


def known_differences() -> dict[str, str]:
    """`file::function -> reason` from bench/shardy_known_differences.txt."""
    return read_known_differences(KNOWN)


@dataclass
class Conformance:
    """One conformance run: per Shardy pass a Counter of functions / agree / known / unexplained, the
    unexplained differences, known-difference lines that are stale (the function now agrees, or
    no run has it) and the RUN lines skipped, by reason."""

    rev: str
    filecheck: list[str]
    per_pass: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    unexplained: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)


def run_conformance(mirror: Path, commit: str = PINNED, only: str | None = None) -> Conformance:
    """Run every translatable RUN line of Shardy's lit tests at `commit` through ttopt."""
    rev = subprocess.run(["git", "--git-dir", str(mirror), "rev-parse", commit], capture_output=True, text=True, check=True).stdout.strip()
    known = known_differences()
    report = Conformance(rev, find_filecheck())
    seen: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        for path in test_files(mirror, rev):
            text = git_show(mirror, rev, path)
            for run_line in re.findall(r"//\s*RUN:\s*(.*)", text):
                flags = [m.group(1) for m in _FLAG.finditer(run_line)]
                key_pass = next((f for f in flags if f in PASSES), flags[0] if flags else "?")
                if only and only not in flags:
                    continue
                run = translate(path, run_line)
                if run.pipeline is None:
                    report.skipped[run.unsupported] += 1
                    continue
                outcome = run_file(text, run, Path(tmp), report.filecheck)
                for fn, res in outcome.results.items():
                    ident = f"{Path(path).name}::{fn}"
                    seen.add(ident)
                    c = report.per_pass[key_pass]
                    c["functions"] += 1
                    if res == "ok":
                        c["agree"] += 1
                        if ident in known:
                            report.stale.append(f"{ident}: agrees, but is listed as a known difference")
                    elif ident in known:
                        c["known"] += 1
                    else:
                        c["unexplained"] += 1
                        report.unexplained.append(f"{ident} [{key_pass}]: {res}")
    if only is None:
        report.stale += [f"{k}: listed as a known difference, but no RUN line has it" for k in known if k not in seen]
    return report


@click.command()
@click.option("--shardy", "mirror", type=click.Path(path_type=Path), default=DEFAULT_MIRROR, show_default=True,
              help="Bare git mirror (or .git directory) of openxla/shardy.")
@click.option("--commit", default=PINNED, show_default=True, help="Revision of the tests (default: the pinned one).")
@click.option("--pass", "only", default=None, help="Only RUN lines using this Shardy pass flag (e.g. sdy-basic-propagate).")
@click.option("--show", default=15, show_default=True, type=click.IntRange(0), help="Unexplained differences to list.")
@click.option("--check", is_flag=True, help="Exit 1 on an unexplained difference or a stale known-difference line.")
def main(mirror: Path, commit: str, only: str | None, show: int, check: bool) -> None:
    """Run Shardy's lit tests through ttopt and print the per-pass conformance table."""
    console = Console()
    if not (mirror / "HEAD").exists():
        raise click.UsageError(f"{mirror} is not a git mirror of openxla/shardy (fetch github:openxla/shardy)")
    report = run_conformance(mirror, commit, only)
    title = f"Shardy lit tests through ttopt — openxla/shardy @ {report.rev[:12]}, {Path(report.filecheck[-1]).name}"
    columns = [count("functions"), count("agree"), percent("agree", "functions"), count("known", "known difference"), count("unexplained")]
    print_table(console, title, "Shardy pass", report.per_pass, columns)
    if report.skipped:
        console.print("RUN lines not run: " + "; ".join(f"{why} ×{n}" for why, n in report.skipped.most_common()))
    for line in report.unexplained[:show] + report.stale:
        print(line)
    if check and (report.unexplained or report.stale):
        sys.exit(1)


if __name__ == "__main__":
    main()
