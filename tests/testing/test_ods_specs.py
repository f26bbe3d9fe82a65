"""ODS records -> op specs: operands and their arity, attributes with required/optional/default and
their kinds, traits, ops taking arguments from a base class; and, when the tt-mlir mirror is
present, every op TTNNOps.td defines."""

from __future__ import annotations

import re

import pytest

from ttopt.testing.ods_specs import (
    DEFAULT_MIRROR,
    TTNN_OPS_TD,
    AttrConstraint,
    MirrorFiles,
    OdsSet,
    OdsUnavailable,
    TypeConstraint,
    ValueSpec,
    load_ods,
)


def test_ops_of_the_dialect_only(toy: OdsSet) -> None:
    assert sorted(toy.ops) == ["toy.later", "toy.make", "toy.mix", "toy.neg", "toy.scale"]
    assert toy.revision == "toy-rev" and toy.missing_includes == ("mlir/IR/OpBase.td",)


def test_arguments_from_a_base_class_and_overridden_ones(toy: OdsSet) -> None:
    neg, scale = toy.ops["toy.neg"], toy.ops["toy.scale"]
    tensor = TypeConstraint("AnyRankedTensor", "ranked_tensor")
    assert neg.operands == (ValueSpec("input", tensor),) and neg.results == (ValueSpec("result", tensor),)
    assert neg.attributes == () and neg.record == "Toy_NegOp" and neg.traits == ("Pure",)
    assert [a.name for a in scale.attributes] == ["factor"] and scale.results == neg.results
    assert scale.attributes[0].constraint == AttrConstraint("F32Attr", "float", "f32") and scale.attributes[0].required


def test_operands_and_results_with_arity(toy: OdsSet) -> None:
    mix = toy.ops["toy.mix"]
    assert [v.text() for v in mix.operands] == ["inputs*", "bias?", "device"]
    assert mix.operands[2].type == TypeConstraint("Toy_Device", "dialect_type", "toy.device")
    assert [v.text() for v in mix.results] == ["out", "extra?"]
    assert mix.attr_sized_operands and not mix.attr_sized_results
    assert mix.traits == ("Pure", "AttrSizedOperandSegments")


def test_attribute_kinds_requiredness_and_defaults(toy: OdsSet) -> None:
    got = {a.name: (a.constraint.kind, a.constraint.param, a.required, a.default) for a in toy.ops["toy.mix"].attributes}
    assert got == {
        "dim": ("int", "si32", False, None),
        "flag": ("bool", "", False, "false"),
        "count": ("int", "i64", True, None),
        "shape": ("dialect", "toy.shape", True, None),
        "mode": ("dialect", "toy.mode", False, None),
        "fill": ("any_of", "", True, None),
        "pads": ("dense_array", "i32", True, None),
        "dims": ("array_of", "", False, None),
        "fast": ("unit", "", False, None),
    }
    mix = toy.ops["toy.mix"]
    assert mix.attribute("count").constraint.ods == "ConfinedAttr<I64Attr, [IntMinValue<0>]>"
    assert [o.ods for o in mix.attribute("fill").constraint.options] == ["F32Attr", "I32Attr"]
    assert mix.attribute("dims").constraint.options == (AttrConstraint("I32Attr", "int", "i32"),)
    make = toy.ops["toy.make"]
    assert [v.text() for v in make.operands] == ["device?"]
    assert [(a.name, a.constraint.kind, a.constraint.param) for a in make.attributes] == [
        ("value", "elements", ""), ("callee", "symbol", "flat")]


def test_forward_references_resolve_and_unknown_constraints_are_listed(toy: OdsSet) -> None:
    later = toy.ops["toy.later"]
    assert later.attribute("late").constraint == AttrConstraint("DefinedLaterAttr", "dialect", "toy.later")
    assert later.operands == (ValueSpec("odd", TypeConstraint("MysteryConstraint", "unknown")),)
    assert toy.unknown_constraints == ("MysteryConstraint",)


def test_an_unreadable_mirror_is_reported(tmp_path) -> None:
    with pytest.raises(OdsUnavailable, match="not a tt-mlir checkout or git mirror"):
        load_ods(str(tmp_path / "none"))
    (tmp_path / "include").mkdir()
    with pytest.raises(OdsUnavailable, match="TTNNOps.td: file not found"):
        load_ods(str(tmp_path))
    (tmp_path / "include" / "x.td").write_text("def X : Y<;")
    with pytest.raises(OdsUnavailable, match="x.td:1:11: expected a value"):
        load_ods(str(tmp_path), main="x.td")


def test_a_checkout_directory_is_read(tmp_path) -> None:
    td = tmp_path / "include" / TTNN_OPS_TD
    td.parent.mkdir(parents=True)
    td.write_text('def TTNN_Dialect : Dialect { let name = "ttnn"; }\n'
                  'def TTNN_AbsOp : Op<TTNN_Dialect, "abs"> { let arguments = (ins AnyRankedTensor:$input); }\n')
    ods = load_ods(str(tmp_path))
    assert list(ods.ops) == ["ttnn.abs"] and ods.revision == "working tree"


# -- tt-mlir HEAD ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def head() -> tuple[OdsSet, str]:
    try:
        ods = load_ods()
    except OdsUnavailable as e:
        pytest.skip(f"no tt-mlir mirror at {DEFAULT_MIRROR}: {e}")
    with MirrorFiles() as files:
        text = files.read(f"include/{TTNN_OPS_TD}") or ""
    return ods, text


# `def Name : Class<"mnemonic"` where Class is an op class (TTNN_..Op, TTNN_..Op<...>, or MLIR's Op
# with the dialect first), the way TTNNOps.td defines its ops.
_OP_DEF = re.compile(r'^\s*def\s+(\w+)\s*:\s*(?:(TTNN_\w*Op)<\s*"([\w.]+)"|Op<\s*TTNN_Dialect\s*,\s*"([\w.]+)")', re.M)


def test_reader_finds_every_op_of_ttnn_ops_td(head: tuple[OdsSet, str]) -> None:
    ods, text = head
    defined = {m.group(1): m.group(3) or m.group(4) for m in _OP_DEF.finditer(text)}
    assert len(defined) > 150  # the regex still matches the file's style
    by_record = {s.record: s.name for s in ods.ops.values()}
    assert {r: f"ttnn.{m}" for r, m in defined.items()} == {r: n for r, n in by_record.items() if r in defined}
    assert set(by_record) == set(defined)  # no op comes from anywhere else
    assert all(s.loc[0] == TTNN_OPS_TD for s in ods.ops.values())


def test_head_needs_no_unknown_constraint_and_reads_known_ops(head: tuple[OdsSet, str]) -> None:
    ods, _ = head
    assert ods.unknown_constraints == ()
    assert len(ods.revision) == 40
    add = ods.ops["ttnn.add"]
    assert [v.text() for v in add.operands] == ["lhs", "rhs"] and [v.text() for v in add.results] == ["result"]
