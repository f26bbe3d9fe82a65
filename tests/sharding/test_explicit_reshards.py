"""insert-explicit-reshards: compatibility, unary shortcut, majority vote, all_reduce, return."""

from __future__ import annotations

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.pipeline import instantiate, parse_pipeline

PIPE = ("builtin.module(apply-sharding-constraints, aggressive-propagation, sharding-constraint-to-reshard,"
        " insert-explicit-reshards, reshard-to-collectives)")  # fmt: skip


def _run(text: str, pipeline: str = PIPE) -> str:
    m = parse_module(text)
    ctx = PassContext()
    for p in instantiate(parse_pipeline(pipeline)):
        p.run(m, ctx)
    return print_module(m)


def test_megatron_mlp_has_exactly_one_all_reduce_over_model() -> None:
    out = _run(
        'sdy.mesh @mesh = <["batch"=2, "model"=4]>\n'
        'func.func @main(%x: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>},'
        ' %w1: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},'
        ' %w2: tensor<128x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})'
        ' -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}) {\n'
        "  %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>\n"
        "  %1 = stablehlo.tanh %0 : tensor<16x128xf32>\n"
        "  %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<16x128xf32>, tensor<128x32xf32>) -> tensor<16x32xf32>\n"
        "  return %2 : tensor<16x32xf32>\n}\n"
    )
    collectives = [line.split()[2] for line in out.splitlines() if " = sdy." in line]
    assert collectives == ["sdy.all_reduce"]
    assert 'sdy.all_reduce {"model"} %2 out_sharding=<@mesh, [{"batch", ?}, {?}]>' in out
    assert '<@mesh, [{"batch", ?}, {"model", ?}]>' in out.splitlines()[3]


def test_max_reduce_all_reduce_uses_max() -> None:
    out = _run(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %c: tensor<f32>) -> tensor<64xf32> {\n'
        "  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.maximum across dimensions = [0] : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>\n"
        "  return %0 : tensor<64xf32>\n}\n"
    )
    assert 'sdy.all_reduce max {"x"} %0 out_sharding=<@mesh, [{"y", ?}]>' in out


def test_compatible_op_is_left_alone() -> None:
    src = (
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {\n'
        "  %0 = stablehlo.add %a, %b : tensor<8x8xf32>\n"
        "  return %0 : tensor<8x8xf32>\n}\n"
    )
    assert "sdy.reshard" not in _run(src, "builtin.module(aggressive-propagation, insert-explicit-reshards)")


def test_majority_vote_reshards_the_minority_operand() -> None:
    out = _run(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {\n'
        "  %0 = stablehlo.add %a, %b : tensor<8x8xf32>\n"
        "  return %0 : tensor<8x8xf32>\n}\n",
        "builtin.module(aggressive-propagation, insert-explicit-reshards)",
    )
    # (i, "x") is held by %a and the result: it outvotes (j, "x") held by %b alone.
    assert 'sdy.reshard %arg1 <@mesh, [{"x"}, {}]>' in out and out.count("sdy.reshard") == 1


def test_unary_shortcut_prefers_the_larger_tensor() -> None:
    out = _run(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8xf32> {\n'
        '  %0 = stablehlo.slice %a [0:8, 0:1] : (tensor<8x64xf32>) -> tensor<8x1xf32>\n'
        '  %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x1xf32>\n'
        "  %2 = stablehlo.reshape %1 : (tensor<8x1xf32>) -> tensor<8xf32>\n"
        "  return %2 : tensor<8xf32>\n}\n",
        "builtin.module(apply-sharding-constraints, insert-explicit-reshards)",
    )
    # The slice's operand (512 elements) beats its result (8): the result is resharded after it.
    assert '%1 = sdy.reshard %0 <@mesh, [{"y"}, {}]>' in out


def test_return_is_resharded_to_the_function_result_sharding() -> None:
    out = _run(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {\n'
        "  return %a : tensor<8x8xf32>\n}\n",
        "builtin.module(insert-explicit-reshards, reshard-to-collectives)",
    )
    assert 'sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>' in out


def test_constraint_forces_all_to_all() -> None:
    out = _run(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<32x64xf32> {\n'
        "  %0 = stablehlo.multiply %a, %a : tensor<32x64xf32>\n"
        '  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"x"}]> : tensor<32x64xf32>\n'
        "  return %1 : tensor<32x64xf32>\n}\n"
    )
    assert 'sdy.all_to_all [{"x"}: 0->1] %0 out_sharding=<@mesh, [{}, {"x"}]>' in out
    assert out.count("sdy.all_to_all") == 1 and "sdy.reshard" not in out
