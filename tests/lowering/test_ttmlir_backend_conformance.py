"""tt-mlir's TTIR -> TTNN lit tests through ttopt (bench/ttmlir_conformance.py, suites `backend`,
`optimizer`, `ttir-to-ttnn`, `ttnn-passes`, `ttir-fusing`, `ttir-canonicalize`, `ttir-verifiers` and `ttnn-verifiers`): every runnable file passes or its difference is listed with a
reason in the suite's known-differences file, no run ends in an internal error, and no listed
difference has gone stale. The tests are read from a git mirror of tenstorrent/tt-mlir (nothing
upstream is copied here); without the mirror or LLVM's FileCheck the tests are skipped.

The whole backend and optimizer suites take minutes (hundreds of files through the backend
pipeline); these tests run fixed directories of them (`only`), so they stay under a minute each:
`python bench/ttmlir_conformance.py --suite backend --check` checks the whole suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.ttmlir_conformance import DEFAULT_MIRROR, SUITES, find_filecheck, known_differences, parse_run, run_conformance

MIRROR = Path(DEFAULT_MIRROR)
needs_mirror = pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason=f"no tenstorrent/tt-mlir mirror at {MIRROR}")
needs_filecheck = pytest.mark.skipif(find_filecheck() is None, reason="LLVM FileCheck is not installed (tt-mlir's tests need its semantics)")

# (suite, directory substring, at least this many runnable files, at least this many passing)
SUBSETS = [
    ("backend", "Dialect/TTNN/eltwise/", 40, 35),
    ("backend", "Silicon/TTNN/n150/eltwise/", 40, 35),
    ("optimizer", "greedy/", 3, 3),
    ("optimizer", "op_layout_fallbacks/", 10, 0),
    ("optimizer", "ttnn_fusing/", 12, 11),
    ("ttir-to-ttnn", "", 5, 0),
    ("ttnn-passes", "", 52, 51),
    ("ttir-fusing", "", 34, 26),
    ("ttir-canonicalize", "", 35, 33),
    ("ttir-verifiers", "", 54, 52),
    ("ttnn-verifiers", "", 49, 46),
]


@needs_mirror
@needs_filecheck
@pytest.mark.parametrize(("suite", "only", "runnable", "passing"), SUBSETS)
def test_every_difference_is_known(suite: str, only: str, runnable: int, passing: int) -> None:
    report = run_conformance(MIRROR, suite, only=only or None)
    assert report.internal == []
    assert report.unexplained == []
    assert report.stale == []
    assert sum(c["runnable"] for c in report.per_dir.values()) >= runnable  # the RUN lines were really run
    assert sum(c["pass"] for c in report.per_dir.values()) >= passing


@pytest.mark.parametrize("suite", ["backend", "optimizer", "ttir-to-ttnn", "ttnn-passes", "ttir-fusing", "ttir-canonicalize", "ttir-verifiers", "ttnn-verifiers"])
def test_every_known_difference_has_a_reason(suite: str) -> None:
    known = known_differences(SUITES[suite].known)
    assert SUITES[suite].known.exists()  # an empty list is fine once every runnable file passes
    assert all(len(reason) > 20 for reason in known.values()), [k for k, r in known.items() if len(r) <= 20]


def test_silicon_run_lines_run_on_the_n150_preset() -> None:
    suite = SUITES["backend"]
    line = 'ttmlir-opt --ttir-to-ttnn-backend-pipeline="system-desc-path=%system_desc_path%" %s > %t.mlir'
    run = parse_run(line, suite, "test/ttmlir/Silicon/TTNN/n150/simple_add.mlir")
    assert run.unsupported == ""
    assert run.stages[0].args == ["--ttir-to-ttnn-backend-pipeline=system-desc-path=n150", "%s", "-o", "%t.mlir"]
    multi = parse_run(line, suite, "test/ttmlir/Silicon/TTNN/n300/simple_add.mlir")
    assert "system desc" in multi.unsupported
    assert suite.skips is not None and suite.skips.search("ttmlir-translate --ttnn-to-flatbuffer -o %t.ttnn %t.mlir")
    assert "--ttnn-common-to-emitc-pipeline" in parse_run("ttmlir-opt --ttnn-common-to-emitc-pipeline %s", suite).unsupported
