"""reshard-to-collectives: each decision step on its own, and through the pass."""

from __future__ import annotations

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
