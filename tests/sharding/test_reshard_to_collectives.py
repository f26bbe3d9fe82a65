"""reshard-to-collectives: each decision step on its own, and through the pass."""

from __future__ import annotations

import pytest

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.sharding.reshard_to_collectives import ReshardToCollectives, plan

X, Y = ("x", 1, 2), ("y", 1, 4)


def _kinds(src, dst):
    return [(s.kind, s.lists or s.params) for s in plan(src, dst)]


def test_axis_moving_between_dims_is_all_to_all() -> None:
    assert _kinds([[X], []], [[], [X]]) == [("all_to_all", [([X], 0, 1)])]


def test_sharded_to_replicated_is_one_all_gather() -> None:
    assert _kinds([[X], [Y]], [[], []]) == [("all_gather", [[X], [Y]])]


def test_replicated_to_sharded_is_all_slice() -> None:
    assert _kinds([[], []], [[X], [Y]]) == [("all_slice", [[X], [Y]])]


def test_same_size_swap_is_collective_permute() -> None:
    a, b = ("a", 1, 2), ("b", 1, 2)
    assert _kinds([[a], [b]], [[b], [a]]) == [("collective_permute", None)]


def test_reorder_then_move() -> None:
    steps = _kinds([[X, Y], []], [[], [Y, X]])
    assert [k for k, _ in steps] == ["collective_permute", "all_to_all"]


def test_extend_and_shrink() -> None:
    assert _kinds([[X]], [[X, Y]]) == [("all_slice", [[Y]])]
    assert _kinds([[X, Y]], [[X]]) == [("all_gather", [[Y]])]
    assert [k for k, _ in _kinds([[Y]], [[X]])] == ["all_gather", "all_slice"]


ONE = ("u", 1, 1)  # an axis of size 1 (seed 004 case 6: "x"=1)
B = ("y", 1, 2)


def test_size_one_axes_are_never_sliced() -> None:
    # Seed 004 case 6, step 10: gather everything (the size-1 axis included), then slice only "y".
    steps = plan([[ONE], [B]], [[], []])
    assert [(s.kind, s.lists) for s in steps] == [("all_gather", [[ONE], [B]])]
    steps = plan([[], []], [[B], [ONE]])
    assert [(s.kind, s.lists, s.after) for s in steps] == [("all_slice", [[B], []], [[B], []])]
    # Nothing to do when only a size-1 axis is missing; a leading one is sliced with what follows.
    assert plan([[], [B]], [[ONE], [B]]) == []
    assert _kinds([[], []], [[ONE, X], []]) == [("all_slice", [[ONE, X], []])]
    # A size-1 axis the target lacks is gathered (no data moves), not permuted.
    assert _kinds([[ONE], [B]], [[], [B]]) == [("all_gather", [[ONE], []])]


def test_pass_rewrites_reshard_with_out_shardings() -> None:
    m = parse_module(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x64xf32> {\n'
        '  %0 = sdy.reshard %a <@mesh, [{}, {"x"}]> : tensor<16x64xf32>\n'
        '  %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<16x64xf32>\n'
        "  return %1 : tensor<16x64xf32>\n}\n"
    )
    ctx = PassContext()
    ReshardToCollectives().run(m, ctx)
    text = print_module(m)
    assert 'sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]>' in text
    assert 'sdy.all_gather [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {}]>' in text
    assert "sdy.reshard" not in text and ctx.stats["reshard-to-collectives"] == {"reshards": 2, "collectives": 2}


def test_reshards_between_equal_shardings_share_one_route() -> None:
    # Both sources and targets are parsed apart (other attribute objects, equal contents): the
    # route is planned once and its collectives' attributes are shared, each op with its own
    # properties dictionary.
    m = parse_module(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},'
        ' %b: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x64xf32>, tensor<8x32xf32>) {\n'
        '  %0 = sdy.reshard %a <@mesh, [{}, {"x"}]> : tensor<16x64xf32>\n'
        '  %1 = sdy.reshard %b <@mesh, [{}, {"x"}]> : tensor<8x32xf32>\n'
        "  return %0, %1 : tensor<16x64xf32>, tensor<8x32xf32>\n}\n"
    )
    ReshardToCollectives().run(m, PassContext())
    text = print_module(m)
    assert 'sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x64xf32>' in text
    assert 'sdy.all_to_all [{"x"}: 0->1] %arg1 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x32xf32>' in text
    first, second = [op for op in m.walk() if op.name == "sdy.all_to_all"]
    assert first.properties is not second.properties
    assert first.properties["params"] is second.properties["params"]
    assert first.properties["out_sharding"] is second.properties["out_sharding"]


def test_reshard_across_meshes_with_other_axes_is_kept_for_each_source() -> None:
    # Legality is remembered per (source, target) attribute pair: the replicated target is
    # lowered for one source, the sharded target between meshes with other axes is kept.
    m = parse_module(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'sdy.mesh @other = <["z"=8]>\n'
        'func.func @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@other, [{"z"}, {}]>}) -> (tensor<16x64xf32>, tensor<16x64xf32>) {\n'
        '  %0 = sdy.reshard %a <@mesh, [{}, {"x"}]> : tensor<16x64xf32>\n'
        '  %1 = sdy.reshard %a <@mesh, [{}, {}]> : tensor<16x64xf32>\n'
        "  return %0, %1 : tensor<16x64xf32>, tensor<16x64xf32>\n}\n"
    )
    ctx = PassContext()
    ReshardToCollectives().run(m, ctx)
    text = print_module(m)
    assert 'sdy.reshard %arg0 <@mesh, [{}, {"x"}]>' in text
    assert 'sdy.all_gather [{"z"}, {}] %arg0 out_sharding=<@other, [{}, {}]>' in text
    assert ctx.stats["reshard-to-collectives"] == {"reshards": 1, "collectives": 1}


def test_collective_check_remembers_only_what_passed() -> None:
    from ttopt.dialects.sdy_attrs import AxisRef, ListOfAxisRefListsAttr, MeshAttr
    from ttopt.dialects.sdy_collectives import check_collective
    from ttopt.ir.attributes import DialectAttr

    def sharding(text: str):
        return DialectAttr("sdy.sharding", text, f"#sdy.sharding<{text}>").typed

    mesh = DialectAttr("sdy.mesh", '["x"=2, "y"=4]', '#sdy.mesh<["x"=2, "y"=4]>').typed
    assert isinstance(mesh, MeshAttr)
    operand, gathered = sharding('@mesh, [{"x"}, {}]'), sharding("@mesh, [{}, {}]")
    good = ListOfAxisRefListsAttr(lists=((AxisRef(name="x"),), ()))
    bad = ListOfAxisRefListsAttr(lists=((AxisRef(name="y"),), ()))
    for _ in range(2):
        check_collective("all_gather", good, operand, gathered, mesh)
        with pytest.raises(ValueError, match='can\'t apply gathering axis "y" to operand sharding on dimension 0'):
            check_collective("all_gather", bad, operand, gathered, mesh)


def test_reshards_in_nested_regions_are_lowered_in_walk_order() -> None:
    # One reshard before a while, one in its body, one after it: each block's op list is rebuilt
    # once, the collectives take the reshards' places, the body's uses follow its collective.
    m = parse_module(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x64xf32> {\n'
        '  %0 = sdy.reshard %a <@mesh, [{}, {}]> : tensor<16x64xf32>\n'
        "  %1 = stablehlo.while(%iter = %0) : tensor<16x64xf32>\n"
        "    cond {\n"
        "      %c = stablehlo.constant dense<true> : tensor<i1>\n"
        "      stablehlo.return %c : tensor<i1>\n"
        "    } do {\n"
        '      %2 = sdy.reshard %iter <@mesh, [{}, {"y"}]> : tensor<16x64xf32>\n'
        "      %3 = stablehlo.negate %2 : tensor<16x64xf32>\n"
        "      stablehlo.return %3 : tensor<16x64xf32>\n"
        "    }\n"
        '  %4 = sdy.reshard %1 <@mesh, [{"x"}, {}]> : tensor<16x64xf32>\n'
        "  return %4 : tensor<16x64xf32>\n}\n"
    )
    ctx = PassContext()
    ReshardToCollectives().run(m, ctx)
    func = next(op for op in m.walk() if op.name == "func.func")
    assert [op.name for op in func.regions[0].blocks[0].ops] == ["sdy.all_gather", "stablehlo.while", "sdy.all_slice", "func.return"]
    body = next(op for op in m.walk() if op.name == "stablehlo.while").regions[1].blocks[0]
    assert [op.name for op in body.ops] == ["sdy.all_slice", "stablehlo.negate", "stablehlo.return"]
    assert body.ops[1].operands[0] is body.ops[0].results[0]
    assert all(op.parent is body for op in body.ops)
    assert ctx.stats["reshard-to-collectives"] == {"reshards": 3, "collectives": 3}


def test_gathers_of_equal_axes_share_their_axis_lists() -> None:
    # Two routes (other sources and targets) gather the same axes: one `gathering_axes` attribute
    # serves both.
    m = parse_module(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},'
        ' %b: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<16x64xf32>, tensor<16x64xf32>) {\n'
        '  %0 = sdy.reshard %a <@mesh, [{}, {}]> : tensor<16x64xf32>\n'
        '  %1 = sdy.reshard %b <@mesh, [{}, {"y"}]> : tensor<16x64xf32>\n'
        "  return %0, %1 : tensor<16x64xf32>, tensor<16x64xf32>\n}\n"
    )
    ReshardToCollectives().run(m, PassContext())
    text = print_module(m)
    assert 'sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>' in text
    assert 'sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {"y"}]>' in text
    first, second = [op for op in m.walk() if op.name == "sdy.all_gather"]
    assert first.properties["gathering_axes"] is second.properties["gathering_axes"]
    assert first.properties["out_sharding"] is not second.properties["out_sharding"]
