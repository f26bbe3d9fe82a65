"""insert-explicit-reshards: compatibility, unary shortcut, majority vote, all_reduce, return."""

from __future__ import annotations

from typing import Any

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


SPLIT = (
    'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
    'func.func @main(%a: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})'
    ' -> (tensor<4x16x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) {\n'
    "  %0 = stablehlo.reshape %a : (tensor<64x128xf32>) -> tensor<4x16x128xf32>\n"
    "  %1 = stablehlo.negate %0 : tensor<4x16x128xf32>\n"
    "  return %1 : tensor<4x16x128xf32>\n}\n"
)


def _traced(text: str, pipeline: str) -> tuple[str, list[str]]:
    from ttopt.passes.context import Trace

    class Rec(Trace):
        def __init__(self) -> None:
            super().__init__(True)
            self.lines: list[str] = []

        def print(self, *r) -> None:
            self.lines.extend(str(x) for x in r)

    m = parse_module(text)
    ctx = PassContext(trace=Rec())
    for p in instantiate(parse_pipeline(pipeline)):
        p.run(m, ctx)
    return print_module(m), ctx.trace.lines


def test_conservative_replicates_a_factor_that_would_need_a_sub_axis() -> None:
    # 64 on ("x", "y") -> 4x16: the reshape's factors i=4, j=16 would take "x","y":(1)2 and
    # "y":(2)2. Conservative (the default): i keeps "x", j is replicated, "y" is gathered before
    # the reshape and sliced back after it; no sub-axis anywhere.
    out, trace = _traced(SPLIT, "builtin.module(aggressive-propagation, insert-explicit-reshards, reshard-to-collectives)")
    assert '":(' not in out
    assert 'sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>' in out
    assert 'sdy.all_slice [{}, {"y"}, {}]' in out
    assert any('factor i (size 4): {"y":(1)2} would need a sub-axis -> replicated (conservative)' in t for t in trace)


def test_non_conservative_may_create_sub_axes() -> None:
    pipe = ("builtin.module(aggressive-propagation{conservative=false}, insert-explicit-reshards{conservative=false},"
            " reshard-to-collectives)")  # fmt: skip
    out, _ = _traced(SPLIT, pipe)
    assert '<@mesh, [{"x", "y":(1)2, ?}, {"y":(2)2, ?}, {?}]>' in out


def test_factor_after_a_partly_sharded_factor_is_replicated() -> None:
    # 4x16x64 [{"x"}, {"y"}, {}] -> 64x64 (result [{"x"}, {}]): "y" on the 16 cannot follow the
    # half-sharded 4 in the merged dim, so it is gathered before the reshape (as jaxlib does).
    out = _run(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>}) -> tensor<64x64xf32> {\n'
        "  %0 = stablehlo.reshape %a : (tensor<4x16x64xf32>) -> tensor<64x64xf32>\n"
        "  return %0 : tensor<64x64xf32>\n}\n",
        "builtin.module(aggressive-propagation, insert-explicit-reshards, reshard-to-collectives)",
    )
    assert 'sdy.all_gather [{}, {"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}, {}]>' in out
    assert out.count("sdy.all_") == 1


def test_need_replication_sharding_moves_to_the_batch_dim() -> None:
    # concat on dim 1 of [{}, {"y"}] and [{}, {"z"}]: the concat dim must be whole. Its best
    # sharding ("y": the larger) moves to dim 0 (all_to_all / all_slice) instead of a gather.
    out = _run(
        'sdy.mesh @mesh = <["x"=2, "y"=4, "z"=2]>\n'
        'func.func @main(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},'
        ' %b: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"z"}]>}) -> tensor<16x16xf32> {\n'
        "  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x16xf32>\n"
        "  return %0 : tensor<16x16xf32>\n}\n",
        "builtin.module(aggressive-propagation, insert-explicit-reshards, reshard-to-collectives)",
    )
    assert 'sdy.all_to_all [{"y"}: 1->0] %arg0 out_sharding=<@mesh, [{"y"}, {}]>' in out
    assert 'sdy.all_slice [{"y"}, {}] %arg1 out_sharding=<@mesh, [{"y"}, {"z"}]>' in out
    assert '{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}' in out


def test_chlo_pointwise_ops_are_resharded() -> None:
    # chlo.square has a rule (ttopt extension): a mismatch with its user's sharding is resharded.
    out = _run(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})'
        ' -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {\n'
        "  %0 = chlo.square %a : tensor<8x16xf32> -> tensor<8x16xf32>\n"
        "  return %0 : tensor<8x16xf32>\n}\n",
        "builtin.module(aggressive-propagation, insert-explicit-reshards)",
    )
    assert "chlo.square %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\", ?}, {\"y\", ?}]>]>}" in out
    assert 'sdy.reshard %0 <@mesh, [{"x"}, {}]>' in out


def test_generated_reshape_heavy_module_has_no_sub_axes() -> None:
    """The bench generator's attention-style module (head-splitting and flattening reshapes on a
    2x4 mesh) through steps 5-10 with the defaults: no sub-axis anywhere."""
    from bench.gen.stablehlo import StableHLOGenerator
    from ttopt.ir.verifier import verify

    class Gen(StableHLOGenerator):
        OPS = tuple((n, w) for n, w in StableHLOGenerator.OPS if n != "manual")

    for seed in (2, 3):
        text = Gen(400, seed).text()
        assert "stablehlo.reshape" in text
        out = _run(text, "builtin.module(apply-sharding-constraints, aggressive-propagation, sharding-constraint-to-reshard,"
                         " insert-explicit-reshards, wrap-under-manual-computation, reshard-to-collectives)")  # fmt: skip
        assert '":(' not in out
        verify(parse_module(out))


def test_ops_of_one_pattern_get_the_edits_a_traced_run_makes_op_by_op() -> None:
    """Untraced, the choice and the edits of an op are kept per pattern and replayed on the ops
    that repeat it; traced, every op is worked out on its own. Both give the same module."""
    from bench.gen.stablehlo import StableHLOGenerator

    class Gen(StableHLOGenerator):
        OPS = tuple((n, w) for n, w in StableHLOGenerator.OPS if n != "manual")

    pipe = ("builtin.module(apply-sharding-constraints, aggressive-propagation, sharding-constraint-to-reshard,"
            " insert-explicit-reshards, reshard-to-collectives)")  # fmt: skip
    for seed in (0, 4):
        text = Gen(300, seed).text()
        plain = _run(text, pipe)
        traced, _ = _traced(text, pipe)
        assert plain == traced
        assert plain.count("sdy.all_reduce") > 1 and plain.count("sdy.all_gather") > 1


def test_a_repeated_incompatible_op_is_resharded_each_time_with_one_shared_sharding() -> None:
    m = parse_module(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},'
        ' %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})'
        ' -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {\n'
        '  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>\n'
        '  %1 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>\n'
        '  %2 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>\n'
        "  return %2 : tensor<8x8xf32>\n}\n"
    )
    for p in instantiate(parse_pipeline("builtin.module(insert-explicit-reshards)")):
        p.run(m, PassContext())
    out = print_module(m)
    assert out.count('sdy.reshard %arg1 <@mesh, [{"x"}, {}]>') == 2 and out.count("sdy.reshard") == 2
    reshards = [op for op in m.walk() if op.name == "sdy.reshard"]
    # Each op has its own properties dictionary; the (immutable) attribute is shared.
    assert reshards[0].properties is not reshards[1].properties
    assert reshards[0].properties["sharding"] is reshards[1].properties["sharding"]


def test_ops_of_other_names_and_one_rule_get_one_decision() -> None:
    # add and subtract of one shape and sharding: one decision serves both (only a reshape's
    # name changes what is chosen); each op is computed as its operands are sharded and its
    # result resharded back, and both ops hold the one per-value attribute written for it.
    m = parse_module(
        'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'
        'func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},'
        ' %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})'
        " -> (tensor<8x8xf32>, tensor<8x8xf32>) {\n"
        '  %0 = stablehlo.add %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x8xf32>\n'
        '  %1 = stablehlo.subtract %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x8xf32>\n'
        "  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>\n}\n"
    )
    for p in instantiate(parse_pipeline("builtin.module(insert-explicit-reshards)")):
        p.run(m, PassContext())
    out = print_module(m)
    assert 'stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}' in out
    assert 'stablehlo.subtract %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}' in out
    assert 'sdy.reshard %0 <@mesh, [{}, {"x"}]>' in out and 'sdy.reshard %2 <@mesh, [{}, {"x"}]>' in out
    add, sub = (next(op for op in m.walk() if op.name == name) for name in ("stablehlo.add", "stablehlo.subtract"))
    assert add.attributes["sdy.sharding"] is sub.attributes["sdy.sharding"]


def test_ops_of_one_signature_get_the_first_ones_edits_without_being_read_again(monkeypatch) -> None:
    """An op whose signature (its name, or the pointwise family, types, attributes and operands'
    shardings, equal ones alike) repeats an earlier op's is given that op's edits without its
    shardings being read: the module is the one every op read on its own gives."""
    from bench.gen.stablehlo import StableHLOGenerator
    from ttopt.sharding import explicit_reshards as er

    class Gen(StableHLOGenerator):
        OPS = tuple((n, w) for n, w in StableHLOGenerator.OPS if n != "manual")

    pipe = ("builtin.module(apply-sharding-constraints, aggressive-propagation, sharding-constraint-to-reshard,"
            " insert-explicit-reshards, reshard-to-collectives)")  # fmt: skip
    reads: list[int] = []
    read = er._read
    monkeypatch.setattr(er, "_read", lambda op, c: reads.append(1) or read(op, c))
    for seed in (1, 5):
        text = Gen(600, seed).text()
        reads.clear()
        cached = _run(text, pipe)
        with_cache = len(reads)
        monkeypatch.setattr(er, "_signature", lambda op, c: None)
        reads.clear()
        alone = _run(text, pipe)
        monkeypatch.undo()
        monkeypatch.setattr(er, "_read", lambda op, c: reads.append(1) or read(op, c))
        assert cached == alone
        assert with_cache < 0.8 * len(reads)


def test_an_op_whose_rule_reads_its_operands_producers_is_worked_out_on_its_own(monkeypatch) -> None:
    """dynamic_update_slice's rule reads whether its start indices are constants: two such ops
    alike in types and attributes, one with constant indices, are not given one op's edits."""
    from ttopt.sharding import explicit_reshards as er

    text = (
        'sdy.mesh @mesh = <["x"=2]>\n'
        'func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},'
        ' %u: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %i: tensor<i32>)'
        ' -> (tensor<8x8xf32>, tensor<8x8xf32>) {\n'
        "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %j = stablehlo.add %i, %i : tensor<i32>\n"
        "  %0 = stablehlo.dynamic_update_slice %a, %u, %c, %c : (tensor<8x8xf32>, tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>\n"
        "  %1 = stablehlo.dynamic_update_slice %a, %u, %j, %j : (tensor<8x8xf32>, tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>\n"
        "  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>\n"
        "}\n"
    )

    def run() -> str:
        m = parse_module(text)
        ops = {op.name: op for op in m.walk()}
        # The index producers share one type object, so that the two ops differ in nothing else.
        ops["stablehlo.add"].results[0].type = ops["stablehlo.constant"].results[0].type
        pipe = "builtin.module(insert-explicit-reshards)"
        for p in instantiate(parse_pipeline(pipe)):
            p.run(m, PassContext())
        return print_module(m)

    from ttopt.sharding.factors import collect_meshes

    m = parse_module(text)
    c = er._Ctx(m, collect_meshes(m), None, {})
    assert er._signature(next(op for op in m.walk() if op.name == "stablehlo.dynamic_update_slice"), c) is None
    assert er._signature(next(op for op in m.walk() if op.name == "stablehlo.add"), c) is not None
    cached = run()
    assert cached.count("sdy.reshard") == 1  # only the op with non-constant indices replicates its update
    monkeypatch.setattr(er, "_signature", lambda op, c: None)
    assert cached == run()


def _signatures(text: str) -> tuple[Any, dict[str, list[Any]]]:
    """The module of `text` and each op's `_signature` by op name (before the pass)."""
    from ttopt.sharding import explicit_reshards as er
    from ttopt.sharding.factors import collect_meshes

    m = parse_module(text)
    c = er._Ctx(m, collect_meshes(m), None, {})
    sigs: dict[str, list[Any]] = {}
    for op in m.walk():
        if op.name.startswith("stablehlo."):
            sigs.setdefault(op.name, []).append(er._signature(op, c))
    return m, sigs


def test_signatures_are_by_content() -> None:
    # Two reduces whose `dimensions` are separate but equal attributes, and an add, a subtract
    # and two compares (other directions) of one type and sharding: each kind shares one
    # signature, the pointwise ops across names and properties; a reduce over another
    # dimension does not.
    text = (
        'sdy.mesh @mesh = <["x"=2]>\n'
        'func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %z: tensor<f32>)'
        " -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {\n"
        '  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>\n'
        '  %1 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>\n'
        '  %2 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>\n'
        '  %3 = stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>\n'
        '  %4 = stablehlo.subtract %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<8xf32>\n'
        "  %5 = stablehlo.compare LT, %0, %1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>\n"
        "  %6 = stablehlo.compare GT, %0, %1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>\n"
        "  return %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>\n}\n"
    )
    m, sigs = _signatures(text)
    reduces = [op for op in m.walk() if op.name == "stablehlo.reduce"]
    assert reduces[0].properties["dimensions"] is not reduces[1].properties["dimensions"]
    r0, r1, r2 = sigs["stablehlo.reduce"]
    assert r0 is not None and r0 == r1 and r0 != r2
    # The reducers' adds (of region arguments) have none; the function's add is the last.
    assert sigs["stablehlo.add"][:3] == [None] * 3
    add = sigs["stablehlo.add"][-1]
    assert add == sigs["stablehlo.subtract"][0] and add[0][0] == "pointwise"
    c0, c1 = sigs["stablehlo.compare"]
    assert c0 == c1 and c0 != add  # another result type
    # Ops of one signature get one op's edits: both compares are computed as their operands
    # are sharded and resharded back to replicated.
    out = _run(text, "builtin.module(insert-explicit-reshards)")
    assert out.count("sdy.all_reduce") == 1 and out.count("sdy.reshard") == 6
    for direction, res in (("LT", 9), ("GT", 11)):
        assert (f"%{res} = stablehlo.compare {direction}, %0, %1 "
                '{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}') in out  # fmt: skip
        assert f"%{res + 1} = sdy.reshard %{res} <@mesh, [{{}}]> : tensor<8xi1>" in out


def test_deferred_block_edits_give_the_module_immediate_edits_give(monkeypatch) -> None:
    """The walk's edits recorded and written out once per block (`BlockCursor.defer`) leave the
    module as edits made one by one do, on generated modules of every op kind."""
    from bench.gen.stablehlo import StableHLOGenerator
    from ttopt.sharding.block_cursor import BlockCursor

    pipe = ("builtin.module(apply-sharding-constraints, aggressive-propagation, sharding-constraint-to-reshard,"
            " insert-explicit-reshards, reshard-to-collectives)")  # fmt: skip
    for seed in (2, 7):
        text = StableHLOGenerator(500, seed).text()
        deferred = _run(text, pipe)
        with monkeypatch.context() as patched:
            patched.setattr(BlockCursor, "defer", lambda self, block: None)
            immediate = _run(text, pipe)
        assert deferred == immediate
        assert "sdy.reshard" in deferred or "sdy.all_" in deferred or "sdy.collective" in deferred
