"""ttopt against MLIR's own parser (jaxlib) on the same text: the verdicts and the module read.

A case is one token-level mutation (ttopt/testing/token_mutations.py) of a source text: a
`// -----` chunk of a testdata file in dialects jaxlib registers, or a program JAX lowers in a
child process (ttopt/testing/jax_programs.py). `check` runs `ttopt opt` on it in-process (the
click command itself, so flags and exit codes are the CLI's) and jaxlib's `ir.Module.parse`
(parse + verify) on it, and classifies:

* agree-accept / agree-reject: the same verdict (and, on accept, the same module: below);
* ttopt-only-accepts / mlir-only-accepts: the verdicts differ;
* output-unreadable: both accept, and jaxlib rejects ttopt's output;
* output-mismatch: both accept, and the module jaxlib reads from ttopt's output is not the one it
  reads from the input (both printed by jaxlib in generic form, aliases inlined; locations
  compared when ttopt printed them, with MLIR's implicit `loc("-":line:col)` of a location-less
  op made position-free, since the two texts place the op differently);
* internal-error: ttopt raised, exited 2, or printed a traceback;
* unpositioned-error: ttopt rejected without `file:line:col: error:`;
* mlir-crashed: jaxlib aborted or hung (ttopt/testing/mlir_reader.py), so there is no MLIR
  verdict to compare with: counted, not a disagreement.

jaxlib allows unregistered dialects (an unknown op in a registered dialect is still an error);
ttopt runs with `--allow-unregistered-dialect` when its CLI has that flag, to match.
"""

from __future__ import annotations

import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ttopt.testing.mlir_reader import MlirReader
from ttopt.testing.token_mutations import Mutation, mutate

# Text in dialects jaxlib does not register: jaxlib could only read it as unregistered ops.
FOREIGN = re.compile(r"(?<![\w.$-])[#!\"]?(?:ttnn|ttir|ttcore|emitc|tt)\.")
SPLIT = re.compile(r"^// -----[ \t]*\r?$", re.M)
# Printing flag sets a case runs ttopt with (each case draws one).
PRINT_FLAGS: tuple[tuple[str, ...], ...] = (
    (),
    ("--mlir-print-debuginfo",),
    ("--mlir-print-op-generic",),
    ("--mlir-print-op-generic", "--mlir-print-debuginfo"),
    ("--mlir-print-local-scope", "--mlir-print-debuginfo"),
)
VERDICTS = ("agree-accept", "agree-reject", "mlir-crashed", "ttopt-only-accepts", "mlir-only-accepts", "output-unreadable",
            "output-mismatch", "internal-error", "unpositioned-error")
DISAGREEMENTS = VERDICTS[3:]
_POSITIONED = re.compile(r"^<stdin>:\d+:\d+: error: ", re.M)
_ERROR_LINE = re.compile(r'loc\("-":(\d+):\d+\)|<stdin>:(\d+):\d+')


@dataclass(frozen=True)
class Source:
    """A text the mutations start from: its corpus (testdata folder or "generated") and name."""

    corpus: str
    name: str
    text: str


def sources_in_testdata(root: Path, max_chars: int = 1 << 20) -> list[Source]:
    """Every `// -----` chunk of testdata/*/**.mlir (golden outputs aside) that holds no op, type or
    attribute of a dialect jaxlib does not register, up to `max_chars` long; sorted, so seeds are stable."""
    out = []
    data = root / "testdata"
    for path in sorted(data.rglob("*.mlir")):
        if path.name.endswith(".expected.mlir"):
            continue
        corpus = path.relative_to(data).parts[0]
        text = path.read_text(encoding="utf-8", errors="replace")
        for i, chunk in enumerate(SPLIT.split(text)):
            if chunk.strip() and len(chunk) <= max_chars and not FOREIGN.search(chunk):
                out.append(Source(corpus, f"{path.relative_to(data)}#{i}", chunk))
    return out


def generated_sources(programs: dict[str, str]) -> list[Source]:
    """Sources for JAX-lowered programs (name -> text)."""
    return [Source("generated", name, text) for name, text in sorted(programs.items())]


# ---- ttopt ------------------------------------------------------------------------------------------
@dataclass
class TtoptRun:
    """`ttopt opt` on one input: exit code, output, diagnostics, and an internal error if any."""

    exit_code: int
    stdout: str
    stderr: str
    internal: str = ""
    args: list[str] = field(default_factory=list)  # the `ttopt opt` arguments it ran with


def _opt_base_args() -> list[str]:
    from ttopt.cli.opt import opt

    names = {p.name for p in opt.params}
    return ["--allow-unregistered-dialect"] if "allow_unregistered_dialect" in names else []


def run_ttopt(data: bytes, flags: tuple[str, ...] = ()) -> TtoptRun:
    """`ttopt opt [flags] -` on `data`, in-process through the click command (what `ttopt` runs)."""
    from click.testing import CliRunner

    from ttopt.cli.opt import opt

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))  # as the console entry point does
    args = [*_opt_base_args(), *flags, "-"]
    r = CliRunner().invoke(opt, args, input=data)
    out = TtoptRun(r.exit_code, r.stdout, r.stderr, args=args)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        out.internal = f"{type(r.exception).__name__}: {r.exception}"[:300]
    elif r.exit_code not in (0, 1):
        out.internal = f"exit {r.exit_code}: {r.stderr.strip()[:200]}"
    elif "Traceback (most recent call last)" in r.output or "ttopt: internal error" in r.stderr:
        out.internal = r.output[-300:]
    return out


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error:" in line:
            return line.strip()
    return stderr.strip().splitlines()[0] if stderr.strip() else "(no message)"


# ---- cases -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One seeded mutation of a source and the print flags ttopt runs it with."""

    seed: int
    source: Source
    mutation: Mutation
    flags: tuple[str, ...]

    @property
    def text(self) -> str:
        """The text both sides read."""
        return self.mutation.text


def make_case(seed: int, sources: list[Source]) -> Case | None:
    """The case for `seed`: a corpus, then a source in it, then an edit, then print flags."""
    rng = random.Random(seed)
    corpora = sorted({s.corpus for s in sources})
    corpus = rng.choice(corpora)
    src = rng.choice([s for s in sources if s.corpus == corpus])
    m = mutate(rng, src.text)
    if m is None:
        return None
    return Case(seed, src, m, rng.choice(PRINT_FLAGS))


def identity_case(source: Source, flags: tuple[str, ...] = ("--mlir-print-debuginfo",)) -> Case:
    """The unmutated source as a case (its mutation detail names the source)."""
    return Case(-1, source, Mutation("identity", source.name, source.text, 0), flags)


def identity_outcomes(sources: list[Source], reader: MlirReader) -> list[Outcome]:
    """Every source unmutated, the print flags taken in turn."""
    return [check(identity_case(s, PRINT_FLAGS[i % len(PRINT_FLAGS)]), reader) for i, s in enumerate(sources)]


def agreed_valid(outcomes: list[Outcome]) -> set[str]:
    """Names of the sources both read the same way: the only ones mutated, so a disagreement a
    mutation shows is the edit's."""
    return {o.case.source.name for o in outcomes if o.verdict == "agree-accept"}


def run_cases(seeds: range, sources: list[Source], reader: MlirReader, valid: set[str]) -> list[Outcome]:
    """`check` on the case of every seed whose source is in `valid` (and takes an edit). Seeds
    index all sources, so a fix that makes another source agree leaves other seeds' cases as
    they were."""
    out = []
    for seed in seeds:
        case = make_case(seed, sources)
        if case is not None and case.source.name in valid:
            out.append(check(case, reader))
    return out


@dataclass
class Outcome:
    """A case's verdict, both sides' words, and for output faults the first differing line."""

    case: Case
    verdict: str
    mlir: str
    ttopt: str
    diff: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """What the deviations file matches: verdict, mutation kind, mutation detail."""
        return f"{self.verdict} {self.case.mutation.kind} {self.case.mutation.detail}"

    @property
    def match_text(self) -> str:
        """The key and both sides' words: what a deviation pattern is searched in."""
        return f"{self.key} | MLIR {self.mlir} | ttopt {self.ttopt}"

    @property
    def disagrees(self) -> bool:
        """Whether the verdict is one the test fails on (unless a deviation lists it)."""
        return self.verdict in DISAGREEMENTS

    def site(self, width: int = 70) -> str:
        """The text around the edit (for an unmutated source, around the line an error names),
        one line, control characters escaped."""
        text, at = self.case.text, self.case.mutation.at
        if self.case.mutation.kind == "identity":
            m = _ERROR_LINE.search(f"{self.mlir} {self.ttopt}")
            if m is None:
                return "(whole text)"
            line = int(m.group(1) or m.group(2))
            lines = text.splitlines()
            return repr(lines[line - 1][:width * 2]) if 0 < line <= len(lines) else "(whole text)"
        lo = max(0, at - width // 2)
        return repr(text[lo : at + width // 2])

    def summary(self) -> str:
        """A few compact lines: the case, the edit, where, and both verdicts."""
        c = self.case
        seed = f"seed {c.seed} {c.source.name}: " if c.seed >= 0 else ""
        flags = f" [{' '.join(c.flags)}]" if c.flags and self.verdict.startswith("output") else ""
        tail = f"\n    diff: {self.diff}" if self.diff else ""
        return f"{seed}{self.key}{flags}\n    at {self.site()}\n    MLIR: {self.mlir[:160]} | ttopt: {self.ttopt[:160]}{tail}"


def check(case: Case, reader: MlirReader) -> Outcome:
    """Run both parsers on the case's text and classify the pair of answers."""
    text = case.text
    mlir = reader.read(text, case.flags, cache=case.mutation.kind == "identity")
    run = run_ttopt(text.encode(), case.flags)
    mlir_says = "accepts" if mlir.ok else f"rejects: {mlir.error}"
    if run.internal:
        return Outcome(case, "internal-error", mlir_says, run.internal)
    if run.exit_code != 0:
        error = _first_error(run.stderr)
        if not _POSITIONED.search(run.stderr):
            return Outcome(case, "unpositioned-error", mlir_says, f"exit 1: {error}")
        if mlir.crashed:
            return Outcome(case, "mlir-crashed", mlir_says, f"rejects: {error}")
        return Outcome(case, "mlir-only-accepts" if mlir.ok else "agree-reject", mlir_says, f"rejects: {error}")
    if mlir.crashed:
        return Outcome(case, "mlir-crashed", mlir_says, "accepts (exit 0)")
    if not mlir.ok:
        return Outcome(case, "ttopt-only-accepts", mlir_says, "accepts (exit 0)")
    back = reader.read(run.stdout, case.flags)
    if not back.ok:
        return Outcome(case, "output-unreadable", mlir_says, "accepts", diff=f"jaxlib on ttopt's output: {back.error}")
    if mlir.canonical != back.canonical:
        # What MLIR's own printer makes of the module under the same flags may lose the same
        # thing (a default-valued property its custom form elides): then ttopt printed as MLIR does.
        own = reader.read(mlir.printed, case.flags)
        if not (own.ok and own.canonical == back.canonical):
            return Outcome(case, "output-mismatch", mlir_says, "accepts", diff=first_difference(mlir.canonical, back.canonical))
    return Outcome(case, "agree-accept", mlir_says, "accepts")


def first_difference(want: str, got: str) -> str:
    """The first line where two printings differ, clipped around the first differing column."""
    for a, b in zip(want.splitlines(), got.splitlines()):
        if a != b:
            col = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            lo = max(0, col - 50)
            return f"input reads as {a[lo : col + 70]!r}, output as {b[lo : col + 70]!r}"
    return f"the printings differ in length ({len(want.splitlines())} vs {len(got.splitlines())} lines)"


# ---- known deviations -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deviation:
    """A listed, reasoned difference: a regular expression searched in an outcome's match_text."""

    pattern: re.Pattern[str]
    reason: str
    line: int


def read_deviations(path: Path) -> list[Deviation]:
    """`PATTERN  # reason` lines (blank lines and lines starting with '#' skipped); a line
    without a reason is an error, so nothing is listed without one."""
    out = []
    for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, sep, reason = line.partition("  # ")
        if not sep or not reason.strip():
            raise ValueError(f"{path}:{no}: a deviation needs a reason after '  # '")
        out.append(Deviation(re.compile(pattern.strip()), reason.strip(), no))
    return out


def unexplained(outcomes: list[Outcome], deviations: list[Deviation]) -> list[Outcome]:
    """The disagreements no deviation line explains."""
    return [o for o in outcomes if o.disagrees and not any(d.pattern.search(o.match_text) for d in deviations)]


def report(outcomes: list[Outcome], limit: int = 60) -> str:
    """The disagreements grouped by key, most frequent first: a count and the first case of each."""
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(o.key, []).append(o)
    lines = [f"{len(g)}x {g[0].summary()}" for g in sorted(groups.values(), key=lambda g: (-len(g), g[0].key))]
    more = f"\n... and {len(lines) - limit} more distinct keys" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more


def _shape(o: Outcome) -> tuple[str, ...]:
    """What a shrinking repro must keep: the verdict and both sides' words, positions dropped."""
    def strip(s: str) -> str:
        return re.sub(r'loc\("-":\d+:\d+\)|<stdin>:\d+:\d+|\d+', "#", s)

    return (o.verdict, strip(o.mlir), strip(o.ttopt), strip(o.diff) if o.verdict == "output-unreadable" else "")


def _bracket_groups(text: str) -> list[tuple[int, int]]:
    """Spans of balanced (), [], {}, <> groups, largest first."""
    from ttopt.testing.token_mutations import tokenize

    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    spans, stack = [], []
    for t in tokenize(text):
        s = text[t.start : t.end]
        if s in pairs:
            stack.append((s, t.start))
        elif stack and s == pairs[stack[-1][0]]:
            spans.append((stack.pop()[1], t.end))
    return sorted(spans, key=lambda sp: sp[0] - sp[1])


def shrink(outcome: Outcome, reader: MlirReader, budget_s: float = 20.0) -> Outcome:
    """The outcome's case made smaller while both sides still answer as they did: lines removed
    (delta debugging), then bracketed groups; within `budget_s` seconds."""
    target, case = _shape(outcome), outcome.case
    deadline = time.monotonic() + budget_s
    best = outcome

    def keeps(text: str) -> bool:
        nonlocal best
        trial = Case(case.seed, case.source, Mutation(case.mutation.kind, case.mutation.detail, text, 0), case.flags)
        o = check(trial, reader)
        if _shape(o) == target:
            best = o
            return True
        return False

    lines, n = case.text.splitlines(keepends=True), 2
    while len(lines) >= 2 and time.monotonic() < deadline:
        size = max(1, len(lines) // n)
        for i in range(0, len(lines), size):
            if keeps("".join(lines[:i] + lines[i + size :])):
                lines = lines[:i] + lines[i + size :]
                n = max(n - 1, 2)
                break
        else:
            if size == 1:
                break
            n = min(n * 2, len(lines))
    text, progress = "".join(lines), True
    while progress and time.monotonic() < deadline:
        progress = False
        for a, b in _bracket_groups(text):
            if time.monotonic() >= deadline:
                break
            if keeps(text[:a] + text[b:]):
                text, progress = text[:a] + text[b:], True
                break
    return best
