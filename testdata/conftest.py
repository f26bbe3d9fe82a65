"""Collects lit-style tests from `testdata/**/*.mlir`.

* `// RUN: <cmd>` lines (with `\\` continuations) run under bash with `pipefail`, after the
  substitutions `%s` (this file), `%S` (its directory), `%t` (a temp file path); `ttopt` and
  `FileCheck` run with this Python (`-m ttopt`, `-m filecheck`), `not` inverts an exit status.
  Each RUN line is one test; it also fails if anything printed a Python traceback.
* A RUN line that runs a tool needing something a fresh machine may lack (`_NEEDS`: the ODS
  check reads a fetched tt-mlir mirror) is skipped, with the reason, when that is missing.
* `// GOLDEN: <cmd>` runs `<cmd>` and compares its stdout with `<file>.expected.mlir` (or the
  name given by `// GOLDEN-FILE:`). `pytest --update-goldens` rewrites the expected files.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_PRELUDE = "not() { if \"$@\"; then return 1; else return 0; fi; }; "


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite testdata golden outputs")


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    if file_path.suffix == ".mlir" and not file_path.name.endswith(".expected.mlir"):
        text = file_path.read_text(errors="replace")
        if "// RUN:" in text or "// GOLDEN:" in text:
            return MlirFile.from_parent(parent, path=file_path)
    return None


def _directives(text: str, tag: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for no, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if pending is not None:
            if not s.startswith("//"):
                out.append(pending)
                pending = None
                continue
            body = s[2:].strip()
            body = body[len(tag):].strip() if body.startswith(tag) else body
            pending = (pending[0], pending[1][:-1] + " " + body)
        elif s.startswith(f"// {tag}"):
            pending = (no, s[len(f"// {tag}"):].strip())
        if pending is not None and not pending[1].endswith("\\"):
            out.append(pending)
            pending = None
    if pending is not None:
        out.append(pending)
    return out


class MlirFile(pytest.File):
    def collect(self):
        text = self.path.read_text(errors="replace")
        for no, cmd in _directives(text, "RUN:"):
            yield RunItem.from_parent(self, name=f"RUN@{no}", command=cmd)
        goldens = _directives(text, "GOLDEN:")
        golden_file = None
        for _, name in _directives(text, "GOLDEN-FILE:"):
            golden_file = self.path.parent / name
        for no, cmd in goldens:
            expected = golden_file or self.path.with_name(self.path.stem + ".expected.mlir")
            yield GoldenItem.from_parent(self, name=f"GOLDEN@{no}", command=cmd, expected=expected)


def _expand(command: str, path: Path, tmp: Path) -> str:
    py = shlex.quote(sys.executable)
    cmd = command.replace("%s", shlex.quote(str(path))).replace("%S", shlex.quote(str(path.parent)))
    cmd = cmd.replace("%t", shlex.quote(str(tmp)))
    words = []
    prev = "|"
    for w in cmd.split(" "):
        if prev in ("|", "not", "&&", ";") and w == "ttopt":
            w = f"{py} -m ttopt"
        elif prev in ("|", "not", "&&", ";") and w == "FileCheck":
            w = f"{py} -m filecheck"
        words.append(w)
        if w:
            prev = w
    return " ".join(words)


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="160", NO_COLOR="1", PYTHONPATH=str(ROOT))
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", _PRELUDE + command],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=600,
    )


def _ttmlir_mirror() -> str | None:
    """Why tt-mlir's ODS cannot be read from the default mirror (None: it can)."""
    from ttopt.testing.ods_specs import MirrorFiles, OdsUnavailable

    try:
        MirrorFiles()
    except OdsUnavailable as e:
        return f"no tt-mlir mirror to read the ODS from ({e})"
    return None


# Tools a RUN line may pipe into -> what tells why they cannot run here (None: they can).
_NEEDS = {"bench/ttnn_ods_check.py": _ttmlir_mirror}
_MISSING: dict[str, str | None] = {}


def _missing(command: str) -> str | None:
    """Why `command` cannot run on this machine, or None."""
    for tool, probe in _NEEDS.items():
        if tool in command:
            if tool not in _MISSING:
                _MISSING[tool] = probe()
            if _MISSING[tool] is not None:
                return _MISSING[tool]
    return None


class RunItem(pytest.Item):
    def __init__(self, *, command: str, **kw) -> None:
        super().__init__(**kw)
        self.command = command

    def runtest(self) -> None:
        why = _missing(self.command)
        if why is not None:
            pytest.skip(why)
        tmp = Path(self.config._tmp_path_factory.mktemp("run")) / "out.tmp"  # type: ignore[attr-defined]
        cmd = _expand(self.command, self.path, tmp)
        res = _run(cmd, ROOT)
        if res.returncode != 0 or "Traceback (most recent call last)" in res.stderr:
            raise RunFailure(self.command, res)

    def repr_failure(self, excinfo, style=None):  # type: ignore[override]
        if isinstance(excinfo.value, RunFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"{self.path.name}::{self.name}"


class GoldenItem(RunItem):
    def __init__(self, *, expected: Path, **kw) -> None:
        super().__init__(**kw)
        self.expected = expected

    def runtest(self) -> None:
        tmp = Path(self.config._tmp_path_factory.mktemp("golden")) / "out.tmp"  # type: ignore[attr-defined]
        res = _run(_expand(self.command, self.path, tmp), ROOT)
        if res.returncode != 0 or "Traceback (most recent call last)" in res.stderr:
            raise RunFailure(self.command, res)
        if self.config.getoption("--update-goldens"):
            self.expected.write_text(res.stdout)
            return
        if not self.expected.exists():
            raise RunFailure(self.command, res, f"missing golden {self.expected.name}; run pytest --update-goldens")
        want = self.expected.read_text()
        if want != res.stdout:
            import difflib

            diff = "".join(difflib.unified_diff(want.splitlines(True), res.stdout.splitlines(True), "expected", "actual"))
            raise RunFailure(self.command, res, f"output differs from {self.expected.name}:\n{diff}")


class RunFailure(Exception):
    def __init__(self, command: str, res: subprocess.CompletedProcess, extra: str = "") -> None:
        self.command = command
        self.res = res
        self.extra = extra

    def __str__(self) -> str:
        parts = [f"command: {self.command}", f"exit status: {self.res.returncode}"]
        if self.extra:
            parts.append(self.extra)
        if self.res.stdout:
            parts.append("--- stdout ---\n" + self.res.stdout[-4000:])
        if self.res.stderr:
            parts.append("--- stderr ---\n" + self.res.stderr[-4000:])
        return "\n".join(parts)
