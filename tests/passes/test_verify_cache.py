"""Verifying after a pass re-checks only what the pass wrote (ttopt/passes/verify_cache.py, fed by
the edit journal in ttopt/ir/edit_journal.py), and still catches every broken op: the property test
breaks a random op through each way of writing the IR and asserts the same diagnostic as a full
verification of a fresh parse of the same text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.ir.attributes import IntegerAttr, StringAttr
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.operation import Block, Operation
from ttopt.ir.types import ScalarType, TensorType
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.passes.verify_cache import VerifiedOps

TEXT = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.multiply %0, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def checked(module, cache: VerifiedOps) -> list[str]:
    """Verify through the cache; the names of the ops whose checks ran ("*" for a full verification)."""
    cache.verify(module)
    return ["*"] if cache.full else sorted(op.name for op in cache.checked)


def _ops(m) -> list[Operation]:
    return m.functions()[0].regions[0].blocks[0].ops


def test_only_written_ops_are_checked_again() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    assert checked(m, cache) == ["*"]
    # Nothing written: nothing is checked (visibility and symbols neither).
    assert checked(m, cache) == []
    mul = _ops(m)[1]
    del mul.attributes["sdy.sharding"]
    # The op and the ops around it (their checks read their bodies).
    assert checked(m, cache) == ["builtin.module", "func.func", "stablehlo.multiply"]
    assert checked(m, cache) == []


def test_writing_the_same_object_again_is_no_change() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    mul = _ops(m)[1]
    mul.attributes["sdy.sharding"] = mul.attributes["sdy.sharding"]
    mul.operands[0] = mul.operands[0]
    assert checked(m, cache) == []


def test_an_edit_that_breaks_an_op_is_still_caught() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    add = _ops(m)[0]
    add.results[0].type = TensorType((8,), add.results[0].type.element_type)
    with pytest.raises(Diagnostic, match="stablehlo.add"):
        checked(m, cache)


def test_a_changed_mesh_verifies_everything_again() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    mesh = m.op.regions[0].blocks[0].ops[0]
    mesh.properties["mesh"] = parse_module('sdy.mesh @mesh = <["x"=4]>').op.regions[0].blocks[0].ops[0].properties["mesh"]
    assert checked(m, cache) == ["*"]


def test_an_edit_inside_a_region_checks_the_op_owning_it_again() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    ret = _ops(m)[-1]
    narrow = TensorType((8,), ret.operands[0].type.element_type)
    _ops(m)[1].results[0].type = narrow  # the op's result no longer fits its operands, nor the function's result type
    # As MLIR, the op is reported before the return that reads it.
    with pytest.raises(Diagnostic, match="'stablehlo.multiply' op requires compatible shapes"):
        checked(m, cache)


def test_a_region_op_whose_body_gained_an_op_is_checked_again() -> None:
    text = """
func.func @main(%a: tensor<4xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %0 : tensor<f32>
}
"""
    m = parse_module(text)
    cache = VerifiedOps()
    checked(m, cache)
    assert checked(m, cache) == []
    reduce = _ops(m)[1]
    body = reduce.regions[0].blocks[0]
    body.insert(0, body.ops[0].clone())
    assert checked(m, cache) == ["builtin.module", "func.func", "stablehlo.add", "stablehlo.reduce", "stablehlo.return"]


def test_a_collective_is_checked_again_when_its_operands_sharding_changes() -> None:
    # Shardy checks a collective against the sharding its operand's definer gives the operand.
    text = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<4xf32>
  %1 = sdy.all_gather [{"x"}] %0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""
    m = parse_module(text)
    cache = VerifiedOps()
    checked(m, cache)
    neg = _ops(m)[0]
    neg.attributes["sdy.sharding"] = parse_module(text.replace('[{"x"}]>]>', "[{}]>]>")).functions()[0].regions[0].blocks[0].ops[0].attributes["sdy.sharding"]
    with pytest.raises(Diagnostic) as fresh:
        verify(m)
    with pytest.raises(Diagnostic) as cached:
        checked(m, cache)
    assert cached.value.message == fresh.value.message


def test_collectives_sharing_their_attributes_are_each_checked_against_their_operand() -> None:
    # Within one verification collectives are checked once per distinct set of objects their
    # checks read: a copy of a valid collective (same attribute objects) on an operand of another
    # sharding is still checked, and fails.
    text = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<4xf32>
  %1 = sdy.all_gather [{"x"}] %0 out_sharding=<@mesh, [{}]> : tensor<4xf32>
  %2 = stablehlo.abs %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""
    m = parse_module(text)
    cache = VerifiedOps()
    checked(m, cache)
    gather, replicated = _ops(m)[1], _ops(m)[2]
    copy = Operation(gather.name, [replicated.results[0]], [gather.results[0].type], dict(gather.properties))
    _ops(m)[-1].parent.insert(3, copy)
    with pytest.raises(Diagnostic) as fresh:
        verify(m)
    with pytest.raises(Diagnostic) as cached:
        checked(m, cache)
    assert cached.value.message == fresh.value.message
    assert "can't apply gathering axis \"x\" to operand sharding on dimension 0" in fresh.value.message


def test_an_op_moved_after_its_user_is_caught() -> None:
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    block = _ops(m)[0].parent
    add = block.ops[0]
    block.ops = [block.ops[1], add, block.ops[2]]  # the list replaced wholesale, ops not told
    with pytest.raises(Diagnostic, match="uses a value \\(from stablehlo.add\\) defined later in the block"):
        checked(m, cache)


# -- property: every way of writing the IR is seen --------------------------------------------

BIG = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.multiply %0, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<4xf32>
  %2 = stablehlo.reduce(%1 init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.subtract %3, %1 : tensor<4xf32>
  %5 = func.call @helper(%4) : (tensor<4xf32>) -> tensor<4xf32>
  return %5 : tensor<4xf32>
}
func.func private @helper(%p: tensor<4xf32>) -> tensor<4xf32> {
  %n = stablehlo.negate %p : tensor<4xf32>
  return %n : tensor<4xf32>
}
"""


def _all_ops(m) -> list[Operation]:
    return [op for op in m.walk() if op is not m.op]


def _break(m, how: int, pick: int) -> bool:
    """Write the module through one edit path so that it becomes invalid (False: no such edit here)."""
    ops = _all_ops(m)
    op = ops[pick % len(ops)]
    wide = TensorType((9,), ScalarType("f32"))
    if how == 0:  # a result's type (the op and its users read it)
        if not op.results:
            return False
        op.results[0].type = wide
    elif how == 1:  # an operand swapped in place, in the list
        if not op.operands:
            return False
        op.operands[0] = op.results[0] if op.results else op.operands[0]
        if not op.results:
            return False
    elif how == 2:  # the whole operand list replaced
        if op.name == "sdy.mesh":
            return False
        op.operands = [*op.operands, op.operands[0]] if op.operands else [ops[0].results[0]] if ops[0].results else []
        if not op.operands:
            return False
    elif how == 3:  # a property written in place
        if op.name in ("func.call", "stablehlo.broadcast_in_dim") and not op.properties:
            return False  # its properties were dropped by an earlier edit
        if op.name == "func.func":
            op.properties["sym_name"] = StringAttr("main")  # redefinition
        elif op.name == "func.call":
            op.properties["callee"] = op.properties["callee"].__class__("nowhere", ())
        elif op.name == "stablehlo.broadcast_in_dim":
            op.properties["broadcast_dimensions"] = op.properties["broadcast_dimensions"].__class__("i64", (0, 1))
        else:
            return False
    elif how == 4:  # a discardable attribute written in place
        if not op.results or op.name in ("sdy.mesh",):
            return False
        op.attributes["sdy.sharding"] = IntegerAttr(1, ScalarType("i64"))
    elif how == 5:  # the op's block list edited in place: a terminator no longer last
        block = op.parent
        if block is None or len(block.ops) < 2:
            return False
        last = block.ops[-1]
        block.ops.insert(len(block.ops) - 1, block.ops.pop())  # the last op moved one up
        if block.ops[-1] is last:
            return False
    elif how == 6:  # an op removed from its block, its results still used
        if not op.results or not op.results[0].uses or op.parent is None:
            return False
        op.parent.remove(op)
    elif how == 7:  # a block argument's type
        blocks = [b for o in ops for r in o.regions for b in r.blocks if b.args]
        block = blocks[pick % len(blocks)]
        block.args[0].type = wide
    elif how == 8:  # the op renamed
        if op.name in ("func.func", "sdy.mesh", "func.return", "stablehlo.return"):
            return False
        op.name = "stablehlo.reshape" if op.name != "stablehlo.reshape" else "stablehlo.add"
    elif how == 9:  # the whole property dict replaced
        if not op.properties:
            return False
        op.properties = {}
    elif how == 10:  # a new op (with a nested region) built and inserted where its operand is not yet defined
        if op.parent is None or not op.results:
            return False
        block = op.parent
        i = block.index(op)
        clone = op.clone()
        clone.set_operands([op.results[0]] * len(clone.operands))
        if not clone.operands:
            return False
        block.insert(i, clone)
    elif how == 11:  # a block's op list replaced wholesale, reversed
        block = op.parent
        if block is None or len(block.ops) < 2:
            return False
        block.ops = list(reversed(block.ops))
    elif how == 12:  # a region's block gained an empty block (no terminator)
        owners = [o for o in ops if o.regions and o.name != "func.func"]
        if not owners:
            return False
        owners[pick % len(owners)].regions[0].blocks.append(Block())
    elif how == 13:  # an op moved to just before its block's terminator (after its users)
        block = op.parent
        if block is None or len(block.ops) < 3 or op is block.ops[-1]:
            return False
        block.insert(len(block.ops) - 1, op)
    elif how == 14:  # an op moved into another op's region (the reducer body or the helper function)
        bodies = [b for o in ops if o.regions and o is not op and not op.is_ancestor_of(o) for r in o.regions for b in r.blocks]
        if op.parent is None or not bodies or op.name.endswith("return"):
            return False
        bodies[pick % len(bodies)].insert(0, op)
    return True


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 14), st.integers(0, 40)), min_size=1, max_size=3), st.integers(0, 40))
def test_every_edit_path_is_seen(edits: list[tuple[int, int]], benign: int) -> None:
    m = parse_module(BIG)
    cache = VerifiedOps()
    cache.verify(m)
    # A benign write first (verified), so the break comes after an incremental verification.
    op = _all_ops(m)[benign % len(_all_ops(m))]
    op.attributes["note"] = StringAttr("x")
    cache.verify(m)
    broke = False
    for how, pick in edits:
        broke = _break(m, how, pick) or broke
    if not broke:
        return
    try:
        verify(m)
        fresh: str | None = None
    except Diagnostic as d:
        fresh = d.message
    except Exception as e:  # noqa: BLE001 -- a malformed edit may trip a check's own assumptions
        fresh = f"{type(e).__name__}"
    try:
        cache.verify(m)
        cached: str | None = None
    except Diagnostic as d:
        cached = d.message
    except Exception as e:  # noqa: BLE001
        cached = f"{type(e).__name__}"
    assert cached == fresh


def test_a_new_value_retyped_after_it_was_wired_in_is_caught() -> None:
    # An operand replaced by a value of the same type only has its use checked; a new value that
    # is retyped afterwards (it reports nothing itself) still gets its users checked.
    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    add, mul = _ops(m)[0], _ops(m)[1]
    make = Operation("test.make", [], [add.results[0].type])  # an unregistered op: no checks of its own
    add.parent.insert(1, make)
    mul.set_operand(0, make.results[0])  # same type object as the add's result
    make.results[0].type = TensorType((8,), ScalarType("f32"))
    with pytest.raises(Diagnostic) as fresh:
        verify(m)
    with pytest.raises(Diagnostic) as cached:
        checked(m, cache)
    assert cached.value.message == fresh.value.message


def test_a_region_given_to_an_op_is_tracked_for_later_edits() -> None:
    # Pass 1 hands the reduce a new (valid) body; pass 2 breaks that body: still seen.
    text = """
func.func @main(%a: tensor<4xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %0 : tensor<f32>
}
"""
    m = parse_module(text)
    cache = VerifiedOps()
    checked(m, cache)
    reduce = _ops(m)[1]
    body = reduce.clone().regions[0]
    reduce.regions = []
    reduce.add_region(body)
    checked(m, cache)
    block = body.blocks[0]
    block.append(block.ops[0].clone())  # an op after the terminator
    with pytest.raises(Diagnostic, match="stablehlo.reduce' op region block must end with a terminator"):
        checked(m, cache)


def test_many_new_uses_are_checked_use_by_use_and_a_late_definition_is_still_caught(monkeypatch) -> None:
    # More than a thousand new ops (as insert-explicit-reshards makes), each with its operand and
    # its user's operand to check, are checked for visibility one use at a time, not by a walk of
    # the whole module; one new op placed before its operand's definer is still caught, with the
    # full verification's diagnostic.
    from ttopt.ir import verifier

    body = "\n".join(f"  %{i + 1} = stablehlo.negate %{i} : tensor<4xf32>" for i in range(3000))
    text = f"func.func @main(%0: tensor<4xf32>) -> tensor<4xf32> {{\n{body}\n  return %3000 : tensor<4xf32>\n}}"
    walks = []
    whole = verifier._verify_visibility
    monkeypatch.setattr(verifier, "_verify_visibility", lambda module: walks.append(1) or whole(module))
    for late in (False, True):
        m = parse_module(text)
        cache = VerifiedOps()
        cache.verify(m)
        block = _ops(m)[0].parent
        for k, op in enumerate(list(block.ops)[:1200]):
            r = op.results[0]
            users = list(r.uses)
            new = Operation("stablehlo.negate", [r], [r.type])
            block.insert(block.index(op) + 1, new)
            for u in users:
                u.set_operand(0, new.results[0])
            if late and k == 700:
                block.remove(new)
                block.insert(block.index(op), new)  # before its operand's definer
        walks.clear()
        if not late:
            checked(m, cache)
            assert not cache.full and len(cache.checked) >= 1200
            assert walks == []  # no whole-module visibility walk
            continue
        with pytest.raises(Diagnostic) as fresh:
            verify(m)
        with pytest.raises(Diagnostic) as cached:
            cache.verify(m)
        assert cached.value.message == fresh.value.message
        assert "uses a value (from stablehlo.negate) defined later in the block" in cached.value.message


# -- checks of many new ops alike run once per distinct set of what they read ----------------------

ALIKE = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.abs %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %2 = stablehlo.exponential %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x8xf32>
  %3 = stablehlo.reshape %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x8xf32>) -> tensor<64xf32>
  return %a : tensor<8x8xf32>
}
"""


def _gather_properties() -> dict:
    """The properties of `sdy.all_gather [{"x"}, {}] ... out_sharding=<@mesh, [{}, {}]>` (one set of objects)."""
    m = parse_module(ALIKE.replace("  return %a", '  %g = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>\n  return %a'))
    return _ops(m)[4].properties


def _gathers(m, props: dict, definers: list[Operation], location=None) -> list[Operation]:
    """A pass's new all_gathers of the results of `definers`, sharing `props`' objects, each right
    after its operand's definer; the last one at `location`."""
    made = []
    for k, definer in enumerate(definers):
        block = definer.parent
        new = Operation("sdy.all_gather", [definer.results[0]], [definer.results[0].type], dict(props),
                        location=location if k == len(definers) - 1 else None)  # fmt: skip
        block.insert(block.index(definer) + 1, new)
        made.append(new)
    return made


def test_collectives_alike_are_checked_once_and_a_bad_one_among_them_is_reported_at_it(monkeypatch) -> None:
    # Two definers spell the same sharding with attribute objects of their own: their gathers are
    # checked once. A third gather sharing every attribute object but reading an operand sharded
    # along "y" is still checked, and reported at its own location, as a full verification does.
    from ttopt.dialects import sdy_verify
    from ttopt.ir.location import Location

    m = parse_module(ALIKE)
    cache = VerifiedOps()
    cache.verify(m)
    props = _gather_properties()
    runs = []  # the checks of a collective's axes against its operand's sharding
    check = sdy_verify.check_collective
    monkeypatch.setattr(sdy_verify, "check_collective", lambda *args: runs.append(args) or check(*args))
    neg, abs_, exp = _ops(m)[:3]
    _gathers(m, props, [neg, abs_])
    cache.verify(m)
    assert not cache.full and len(runs) == 1
    _gathers(m, props, [neg, abs_, exp], Location.named("bad_gather"))
    with pytest.raises(Diagnostic) as fresh:
        verify(m)
    with pytest.raises(Diagnostic) as cached:
        cache.verify(m)
    assert cached.value.message == fresh.value.message
    assert cached.value.message == ("'sdy.all_gather' op can't apply gathering axis \"x\" to operand sharding on "
                                    "dimension 0 (at bad_gather)")  # fmt: skip


def test_a_collective_alike_but_for_its_result_type_is_checked_against_it() -> None:
    # Same attribute objects and operand sharding as a valid gather, a result of another rank: the
    # out_sharding no longer fits it.
    from ttopt.ir.location import Location

    m = parse_module(ALIKE)
    cache = VerifiedOps()
    cache.verify(m)
    props = _gather_properties()
    good = _gathers(m, props, [_ops(m)[0]])[0]
    flat = _ops(m)[4].results[0].type  # the reshape's, tensor<64xf32>
    bad = Operation("sdy.all_gather", [good.operands[0]], [flat], dict(props), location=Location.named("flat"))
    good.parent.insert(good.parent.index(good) + 1, bad)
    with pytest.raises(Diagnostic) as fresh:
        verify(m)
    with pytest.raises(Diagnostic) as cached:
        cache.verify(m)
    assert cached.value.message == fresh.value.message
    assert cached.value.message == "'sdy.all_gather' op sharding doesn't match tensor rank: 2 != 1 (at flat)"


def test_reshards_sharing_a_sharding_are_checked_against_each_operand() -> None:
    # New reshards (as insert-explicit-reshards builds) share one sharding attribute: it fits the
    # rank-2 values and is checked once for them; on the reshape's rank-1 value it does not fit,
    # and that reshard is reported at its location, as a full verification does.
    from ttopt.ir.location import Location

    m = parse_module(ALIKE)
    cache = VerifiedOps()
    cache.verify(m)
    sharding = _gather_properties()["out_sharding"]  # <@mesh, [{}, {}]>
    neg, abs_, _exp, reshape = _ops(m)[:4]
    for definer in (neg, abs_, reshape):
        r = definer.results[0]
        where = Location.named("flat_reshard") if definer is reshape else None
        new = Operation("sdy.reshard", [r], [r.type], {"sharding": sharding}, location=where)
        definer.parent.insert(definer.parent.index(definer) + 1, new)
    with pytest.raises(Diagnostic) as fresh:
        verify(m)
    with pytest.raises(Diagnostic) as cached:
        cache.verify(m)
    assert cached.value.message == fresh.value.message
    assert cached.value.message == "'sdy.reshard' op sharding doesn't match tensor rank: 2 != 1 (at flat_reshard)"


def test_an_op_untracked_when_dropped_is_checked_as_new_when_put_back() -> None:
    # A pass drops an op (its block's op list rebuilt, the op untracked, its operands cleared
    # unreported); put back later, it is a new op again: checked whole, and tracked afresh.
    from ttopt.ir.edit_journal import is_tracked_op, untrack_op

    m = parse_module(TEXT)
    cache = VerifiedOps()
    checked(m, cache)
    add, mul = _ops(m)[0], _ops(m)[1]
    block = add.parent
    block.ops = [op for op in block.ops if op is not mul]
    mul.results[0].replace_all_uses_with(add.results[0])
    for v in mul.operands:
        v.uses.remove(mul)
    untrack_op(mul)
    mul.operands = []
    mul.parent = None
    assert checked(m, cache) == ["builtin.module", "func.func", "func.return"]
    assert not is_tracked_op(mul)
    mul.set_operands([add.results[0], add.results[0]])
    mul.operands[1] = mul.results[0]  # unreported while untracked: it uses its own result
    block.insert(0, mul)
    mul.parent = block
    with pytest.raises(Diagnostic) as fresh:
        verify(m)
    with pytest.raises(Diagnostic) as cached:
        cache.verify(m)
    assert cached.value.message == fresh.value.message
    assert "'stablehlo.multiply' op uses a value" in cached.value.message
