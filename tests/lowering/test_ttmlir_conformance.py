"""tt-mlir's StableHLOToTTIR lit tests through ttopt (bench/ttmlir_conformance.py): every runnable
file passes or its difference is listed with a reason in bench/ttmlir_known_differences.txt, no run
ends in an internal error, and no listed difference has gone stale. The tests are read from a git
mirror of tenstorrent/tt-mlir (nothing upstream is copied here); without the mirror or LLVM's
FileCheck (the tests are written for its semantics) the test is skipped. Point TTOPT_TTMLIR_MIRROR
at a mirror made elsewhere (`git clone --mirror https://github.com/tenstorrent/tt-mlir`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.ttmlir_conformance import (
    DEFAULT_MIRROR,
    SUITES,
    execute,
    find_filecheck,
    known_differences,
    parse_run,
    run_conformance,
    run_lines,
    split_failures,
)

MIRROR = Path(DEFAULT_MIRROR)
SUITE = SUITES["stablehlo-to-ttir"]
needs_mirror = pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason=f"no tenstorrent/tt-mlir mirror at {MIRROR}")
needs_filecheck = pytest.mark.skipif(find_filecheck() is None, reason="LLVM FileCheck is not installed (tt-mlir's tests need its semantics)")


@needs_mirror
@needs_filecheck
def test_every_stablehlo_to_ttir_difference_is_known() -> None:
    report = run_conformance(MIRROR, "stablehlo-to-ttir")
    assert report.internal == []
    assert report.unexplained == []
    assert report.stale == []
    runnable = sum(c["runnable"] for c in report.per_dir.values())
    assert runnable > 150  # the RUN lines were really run
    assert sum(c["pass"] for c in report.per_dir.values()) >= 153


def test_every_known_difference_has_a_reason() -> None:
    known = known_differences()
    assert known
    assert all(len(reason) > 20 for reason in known.values()), [k for k, r in known.items() if len(r) <= 20]


def test_run_lines_are_read_as_lit_reads_them() -> None:
    text = "// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline \\\n// RUN:   -o %t %s\n// RUN: FileCheck %s --input-file=%t\nmodule {}\n"
    assert [" ".join(line.split()) for line in run_lines(text)] == ["ttmlir-opt --stablehlo-to-ttir-pipeline -o %t %s", "FileCheck %s --input-file=%t"]
    run = parse_run("not ttmlir-opt -split-input-file --stablehlo-to-ttir-pipeline %s 2>&1 | FileCheck %s", SUITE)
    assert run.unsupported == ""
    assert [(s.tool, s.negate, s.merge_stderr) for s in run.stages] == [("ttmlir-opt", True, True), ("FileCheck", False, False)]
    assert "needs ttmlir-translate" == parse_run("ttmlir-translate --ttnn-to-flatbuffer %s", SUITE).unsupported
    assert "--reoutline-composite" in parse_run("ttmlir-opt --reoutline-composite %s", SUITE).unsupported
    assert "outside the stablehlo-to-ttir suite" in parse_run("ttmlir-opt --ttir-to-ttnn-backend-pipeline %s", SUITE).unsupported
    assert "system desc" in parse_run("ttmlir-opt --stablehlo-to-ttir-pipeline=\"x=%system_desc_path%\" %s", SUITE).unsupported


@needs_filecheck
def test_a_failing_split_is_named(tmp_path: Path) -> None:
    good = "func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.abs %x : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n"
    text = ("// RUN: ttmlir-opt -split-input-file --stablehlo-to-ttir-pipeline -o %t %s\n// RUN: FileCheck %s --input-file=%t\n"
            + good + "// CHECK: ttir.abs\n// -----\n" + good + "// CHECK: ttir.nothing\n")  # fmt: skip
    src = tmp_path / "t.mlir"
    src.write_text(text)
    runs = [parse_run(line, SUITE) for line in run_lines(text)]
    filecheck = find_filecheck()
    assert filecheck is not None
    assert execute(runs[0], src, tmp_path / "out", filecheck) == (True, "", "")
    ok, why, internal = execute(runs[1], src, tmp_path / "out", filecheck)
    assert not ok and "ttir.nothing" in why and internal == ""
    assert split_failures(text, runs, src, tmp_path / "out", filecheck) == [2]


@needs_filecheck
def test_a_relative_output_path_lands_in_the_work_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Some upstream RUN lines write `-o name.mlir` where they run: never into the caller's directory."""
    caller = tmp_path / "checkout"
    caller.mkdir()
    monkeypatch.chdir(caller)
    text = "// RUN: ttmlir-opt --stablehlo-to-ttir-pipeline -o out_file.mlir %s\nmodule {}\n"
    src = tmp_path / "t.mlir"
    src.write_text(text)
    run = parse_run(run_lines(text)[0], SUITE)
    filecheck = find_filecheck()
    assert filecheck is not None
    assert execute(run, src, tmp_path / "work" / "t.tmp", filecheck) == (True, "", "")
    assert (tmp_path / "work" / "out_file.mlir").is_file()
    assert list(caller.iterdir()) == []
