"""Every TTNN module ttopt prints for the project's corpora conforms to tt-mlir HEAD's ODS (read
from the tt-mlir mirror), except for the problems listed, with the file to fix, in
ttnn_ods_known_violations.txt. A new problem fails the test; so does a listed one no output
shows any more (delete its line: the list only shrinks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.module import Module
from ttopt.testing.ods_check import Violation, check_module, read_known
from ttopt.testing.ods_specs import OdsSet
from ttopt.testing.ttnn_outputs import corpus_outputs

KNOWN = Path(__file__).with_name("ttnn_ods_known_violations.txt")


@pytest.fixture(scope="module")
def checked(ods: OdsSet) -> tuple[dict[str, int], dict[str, list[tuple[str, Violation]]], dict[str, str]]:
    """(output label -> TTNN ops checked, `op: problem` -> [(output label, violation)],
    pipeline output label -> what tt-mlir's flatbuffer translation would miss in it)."""
    ops: dict[str, int] = {}
    out: dict[str, list[tuple[str, Violation]]] = {}
    unserializable: dict[str, str] = {}
    for output in corpus_outputs():
        ops[output.label] = sum(1 for op in output.module.walk() if op.name.startswith("ttnn."))
        for v in check_module(output.module, ods):
            out.setdefault(v.key, []).append((output.label, v))
        if output.pipeline:
            missing = translation_prerequisites_missing(output.module)
            if missing:
                unserializable[output.label] = missing
    return ops, out, unserializable


def translation_prerequisites_missing(module: Module) -> str:
    """What tt-mlir's ttnnToFlatbuffer asserts and looks up that `module` lacks ('' when nothing):
    a device module holding one builtin.module, with the `ttcore.system_desc` attribute and the
    `ttcore.device` symbol its lookupDevice finds."""
    wrappers = [op for op in module.body.ops if op.name == "ttcore.device_module"]
    if len(wrappers) != 1:
        return "no ttcore.device_module"
    inner = wrappers[0].regions[0].entry.ops
    if len(inner) != 1 or inner[0].name != "builtin.module":
        return "the device module does not hold one builtin.module"
    if "ttcore.system_desc" not in inner[0].attributes:
        return "no ttcore.system_desc on the device module's builtin.module"
    if not any(op.name == "ttcore.device" for op in inner[0].regions[0].entry.ops):
        return "no ttcore.device symbol in the device module"
    return ""


@pytest.fixture(scope="module")
def seen(checked: tuple[dict[str, int], dict[str, list[tuple[str, Violation]]], dict[str, str]]) -> dict[str, list[tuple[str, Violation]]]:
    return checked[1]


def test_pipeline_outputs_carry_what_the_flatbuffer_translation_reads(checked: tuple[dict, dict, dict[str, str]]) -> None:
    """Every pipeline output is a device module with the system desc and the device symbol."""
    missing = checked[2]
    assert not missing, "\n".join(f"{label}: {why}" for label, why in sorted(missing.items()))
    assert sum(1 for label in checked[0] if "[" in label) >= 40


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


def test_every_corpus_and_pipeline_is_checked(checked: tuple[dict[str, int], dict, dict]) -> None:
    """The check is not vacuous: each corpus and each backend-pipeline setting gave TTNN to check."""
    ops = checked[0]
    for part in ("ttnn/", "ttir/", "jax/", "[default]", "[optimization-level=2]", "[enable-greedy-optimizer=true]"):
        assert sum(n for label, n in ops.items() if part in label or label.startswith(part)) >= 20, part
    assert len(ops) >= 40
