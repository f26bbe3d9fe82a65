"""`ttir-erase-inverse-ops`, `ttir-explicate-tms` and `ttir-implicit-broadcast-fold`: the rewrites
keep what each function computes, the const-eval analysis, the pass's convergence and options
(testdata/ttir/erase_inverse_ops.mlir has the lit-style cases)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ttopt.cli import cli
from ttopt.ir.printer import print_module
from ttopt.lowering.erase_inverse_ops import TTIREraseInverseOps
from ttopt.lowering.erase_inverse_ops.commute import ConstevalAnalysis
from ttopt.lowering.ttir_explicate_tms import TTIRExplicateTMs
from ttopt.lowering.ttir_implicit_broadcast_fold import TTIRImplicitBroadcastFold
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.same_results import assert_same_results

CASES = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "erase_inverse_ops.mlir"
PASSES = {
    "erase": lambda: TTIREraseInverseOps(),
    "up-only": lambda: TTIREraseInverseOps(enable_commute_downwards=False),
    "down-only": lambda: TTIREraseInverseOps(enable_commute_upwards=False),
    "explicate": lambda: TTIRExplicateTMs(),
    "fold": lambda: TTIRImplicitBroadcastFold(),
    "explicate+erase+fold": None,
}


def _functions(module: object) -> list[object]:
    return [op for op in module.walk() if op.name == "func.func"]  # type: ignore[attr-defined]


def _name(f: object) -> str:
    return f.properties["sym_name"].resolve().value  # type: ignore[attr-defined]


def _apply(text: str, which: str) -> tuple[object, PassContext]:
    m = parse_module(text)
    ctx = PassContext()
    passes = [TTIRExplicateTMs(), TTIREraseInverseOps(), TTIRImplicitBroadcastFold()] if PASSES[which] is None else [PASSES[which]()]  # type: ignore[misc]
    for p in passes:
        p.run(m, ctx)
    return m, ctx


@pytest.mark.parametrize("which", sorted(PASSES))
@pytest.mark.parametrize("func", [_name(f) for f in _functions(parse_module(CASES.read_text()))])
def test_every_case_computes_what_it_did(func: str, which: str) -> None:
    text = CASES.read_text()
    before = parse_module(text)
    after, _ = _apply(text, which)
    reparsed = parse_module(print_module(after))  # the output is valid IR
    assert_same_results(before, reparsed, func)


def test_moves_are_counted_and_both_directions_fire() -> None:
    _, ctx = _apply(CASES.read_text(), "erase")
    fired = ctx.stats["ttir-erase-inverse-ops"]
    assert fired["permute-through-elementwise-upwards"] >= 1
    assert fired["permute-through-elementwise-downwards"] >= 1
    assert fired["reshape-through-elementwise-upwards"] >= 1
    assert fired["ttir-permute-reshape-permute-fusion"] == 1


CONSTEVAL = """func.func @f(%x: tensor<4x4xf32>, %w: tensor<4x4xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                 %c: tensor<4x4xf32> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = "ttir.add"(%w, %c) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "ttir.multiply"(%1, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = "ttir.full"() <{shape = array<i32: 4, 4>, fill_value = 1.0 : f32}> : () -> tensor<4x4xf32>
  return %1, %2, %3 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
"""


def test_consteval_analysis_follows_parameters_and_constants_only() -> None:
    f = _functions(parse_module(CONSTEVAL))[0]
    analysis = ConstevalAnalysis(f)  # type: ignore[arg-type]
    ops = {op.name: op for op in f.regions[0].blocks[0].ops}  # type: ignore[attr-defined]
    x, w, c = f.regions[0].blocks[0].args  # type: ignore[attr-defined]
    assert not analysis.traces_to_constant_args(x)
    assert analysis.traces_to_constant_args(w) and analysis.traces_to_constant_args(c)
    assert analysis.traces_to_constant_args(ops["ttir.add"].results[0])
    assert analysis.traces_to_constant_args(ops["ttir.permute"].results[0])
    assert not analysis.traces_to_constant_args(ops["ttir.multiply"].results[0])  # reads %x too
    assert not analysis.traces_to_constant_args(ops["ttir.full"].results[0])  # reaches no argument (HEAD's rule)


def test_a_tm_on_a_const_eval_path_is_not_moved_down() -> None:
    m, _ = _apply(CONSTEVAL, "down-only")
    text = print_module(m)
    assert '"ttir.permute"(%0)' in text and '"ttir.multiply"(%1, %arg0)' in text


def test_not_converging_within_max_iterations_is_an_error() -> None:
    text = CASES.read_text()
    r = CliRunner().invoke(cli, ["opt", "-", "--ttir-erase-inverse-ops=max-iterations=1"], input=text)
    assert r.exit_code == 1
    assert "error: EraseInverseOps: TM count has not converged after 1 iterations." in r.output
    assert "Traceback" not in r.output


def test_force_false_runs_only_on_functions_with_flattened_ops() -> None:
    text = CASES.read_text()
    m = parse_module(text)
    TTIREraseInverseOps(force=False).run(m, PassContext())
    assert print_module(m) == print_module(parse_module(text))  # no flattened sliding-window op here
