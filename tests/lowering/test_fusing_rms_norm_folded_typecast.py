"""ttir-fusing's rms_norm on an input whose typecasts were folded into its producer (tt-mlir's
revertTypecastFolding): the norm reads the producer cast back to the weight's type, and the
producer's other readers read it rounded through that type, as tt-mlir rewires them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ttopt.ir.verifier import verify
from ttopt.lowering.ttir_fusing import TTIRFusing
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.same_results import function_named, random_args
from ttopt.testing.ttir_interpreter import run

CASE = Path(__file__).resolve().parents[2] / "testdata" / "ttir" / "fusing_rms_norm_folded_typecast.mlir"


def _residual_norm() -> str:
    """The first chunk of the testdata file, without its FileCheck lines."""
    chunk = CASE.read_text().split("// -----")[0]
    return "\n".join(line for line in chunk.splitlines() if not line.startswith("//"))


def test_other_readers_read_the_rounded_value_and_the_norm_matches() -> None:
    before = parse_module(_residual_norm(), "case.mlir")
    after = parse_module(_residual_norm(), "case.mlir")
    p = TTIRFusing()
    p.run(after, PassContext())
    verify(after, check_uses=True)
    assert [d.pattern for d in p.decisions if d.applied][-1] == "rms_norm"
    names = [op.name for op in function_named(after, "residual_norm").regions[0].blocks[0].ops]
    assert names.count("ttir.typecast") == 4 and "ttir.rms_norm" in names

    args = random_args(function_named(before, "residual_norm"))
    (norm_want, next_want), (norm_got, next_got) = run(before, "residual_norm", args), run(after, "residual_norm", args)
    x = np.asarray(args[0], np.float32) + np.asarray(args[1], np.float32)
    rounded = np.asarray(x.astype(args[0].dtype), np.float32)
    # The other reader sees x rounded to bf16 and widened: exactly exp of that, not of x.
    np.testing.assert_array_equal(next_got, np.exp(rounded))
    assert not np.array_equal(next_got, next_want)
    # The norm of the rounded x differs from the f32 one by bf16 rounding only.
    np.testing.assert_allclose(np.asarray(norm_got, np.float64), np.asarray(norm_want, np.float64), rtol=2e-2, atol=2e-2)


def test_no_rewrite_without_a_single_folded_type() -> None:
    text = "\n".join(line for line in CASE.read_text().split("// -----")[1].splitlines() if not line.startswith("//"))
    module = parse_module(text, "case.mlir")
    p = TTIRFusing()
    p.run(module, PassContext())
    assert not any(d.applied and d.pattern == "rms_norm" for d in p.decisions)
    assert not any(op.name == "ttir.rms_norm" for op in module.walk())
