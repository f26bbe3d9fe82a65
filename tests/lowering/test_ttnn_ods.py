"""Every TTNN module ttopt prints for the project's corpora conforms to tt-mlir HEAD's ODS (read
from the tt-mlir mirror), except for the problems listed, with the file to fix, in
ttnn_ods_known_violations.txt. A new problem fails the test; so does a listed one no output
shows any more (delete its line: the list only shrinks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.testing.ods_check import Violation, check_module, read_known
from ttopt.testing.ods_specs import OdsSet
from ttopt.testing.ttnn_outputs import corpus_outputs

KNOWN = Path(__file__).with_name("ttnn_ods_known_violations.txt")


@pytest.fixture(scope="module")
def checked(ods: OdsSet) -> tuple[dict[str, int], dict[str, list[tuple[str, Violation]]]]:
    """(output label -> TTNN ops checked, `op: problem` -> [(output label, violation)])."""
    ops: dict[str, int] = {}
    out: dict[str, list[tuple[str, Violation]]] = {}
    for output in corpus_outputs():
        ops[output.label] = sum(1 for op in output.module.walk() if op.name.startswith("ttnn."))
        for v in check_module(output.module, ods):
            out.setdefault(v.key, []).append((output.label, v))
    return ops, out


@pytest.fixture(scope="module")
def seen(checked: tuple[dict[str, int], dict[str, list[tuple[str, Violation]]]]) -> dict[str, list[tuple[str, Violation]]]:
    return checked[1]


def test_known_violations_file_is_well_formed() -> None:
    known = read_known(KNOWN.read_text())
    assert known, "the list is empty: delete the file and this test"
    for key, reason in known.items():
        assert key.startswith("ttnn."), key
        assert "fix in " in reason, f"{key}: the reason must name the file to fix"


def test_corpus_outputs_have_no_unlisted_violation(ods: OdsSet, seen: dict[str, list[tuple[str, Violation]]]) -> None:
    known = read_known(KNOWN.read_text())
    new = sorted(k for k in seen if k not in known)
    lines = [f"{seen[k][0][1].render()}  (in {seen[k][0][0]}; {len(seen[k])} in all)" for k in new]
    assert not new, f"TTNN output that tt-mlir {ods.revision[:12]} rejects:\n" + "\n".join(lines)


def test_every_listed_violation_still_occurs(seen: dict[str, list[tuple[str, Violation]]]) -> None:
    known = read_known(KNOWN.read_text())
    stale = sorted(k for k in known if k not in seen)
    assert not stale, "fixed: delete these lines from ttnn_ods_known_violations.txt:\n" + "\n".join(stale)


def test_every_corpus_and_pipeline_is_checked(checked: tuple[dict[str, int], dict]) -> None:
    """The check is not vacuous: each corpus and each backend-pipeline setting gave TTNN to check."""
    ops = checked[0]
    for part in ("ttnn/", "ttir/", "jax/", "[default]", "[optimization-level=2]", "[enable-greedy-optimizer=true]"):
        assert sum(n for label, n in ops.items() if part in label or label.startswith(part)) >= 20, part
    assert len(ops) >= 40
