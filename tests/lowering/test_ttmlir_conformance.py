"""tt-mlir's StableHLOToTTIR lit tests through ttopt (bench/ttmlir_conformance.py): every runnable
file passes or its difference is listed with a reason in bench/ttmlir_known_differences.txt, no run
ends in an internal error, and no listed difference has gone stale. The tests are read from a git
mirror of tenstorrent/tt-mlir (nothing upstream is copied here); without the mirror or LLVM's
FileCheck (the tests are written for its semantics) the test is skipped. Point TTOPT_TTMLIR_MIRROR
at a mirror made elsewhere (`git clone --mirror https://github.com/tenstorrent/tt-mlir`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.ttmlir_conformance import DEFAULT_MIRROR, find_filecheck, known_differences, run_conformance

MIRROR = Path(DEFAULT_MIRROR)

pytestmark = [
    pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason=f"no tenstorrent/tt-mlir mirror at {MIRROR}"),
    pytest.mark.skipif(find_filecheck() is None, reason="LLVM FileCheck is not installed (tt-mlir's tests need its semantics)"),
]


def test_every_stablehlo_to_ttir_difference_is_known() -> None:
    report = run_conformance(MIRROR, "stablehlo-to-ttir")
    assert report.internal == []
    assert report.unexplained == []
    assert report.stale == []
    runnable = sum(c["runnable"] for c in report.per_dir.values())
    assert runnable > 150  # the RUN lines were really run
    assert sum(c["pass"] for c in report.per_dir.values()) >= 60


def test_every_known_difference_has_a_reason() -> None:
    known = known_differences()
    assert known
    assert all(len(reason) > 20 for reason in known.values()), [k for k, r in known.items() if len(r) <= 20]
