"""ttir.adamw lowers to the in-place ttnn.adamw: no results, each TTIR result replaced by the operand
it updates, a non-bf16 gradient typecast to bf16, and an updated operand read after the step rejected."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

ATTRS = ("lr = 1.000000e-03 : f32, beta1 = 0.899999976 : f32, beta2 = 0.999000012 : f32, beta1_pow = 0.899999976 : f32, "
         "beta2_pow = 0.999000012 : f32, epsilon = 1.000000e-08 : f32, weight_decay = 1.000000e-02 : f32")  # fmt: skip


def _step(dtype: str, amsgrad: bool = False, read_after: bool = False) -> str:
    t = f"tensor<1x1x32x64x{dtype}>"
    n = 5 if amsgrad else 4
    args = ", ".join(f"%a{i}: {t}" for i in range(n))
    ops = ", ".join(f"%a{i}" for i in range(n))
    after = f'  %r = "ttir.add"(%a2, %0#0) : ({t}, {t}) -> {t}\n  return %r : {t}' if read_after else f"  return %0#0 : {t}"
    return (f"func.func @step({args}) -> {t} {{\n"
            f'  %0:{n - 1} = "ttir.adamw"({ops}) <{{{ATTRS}}}> : ({", ".join([t] * n)}) -> ({", ".join([t] * (n - 1))})\n'
            f"{after}\n}}\n")  # fmt: skip


def _ops(module):  # type: ignore[no-untyped-def]
    fn = next(iter(module.functions()))
    return fn, [op for op in fn.regions[0].entry.ops if op.name not in ("ttnn.deallocate", "ttnn.get_device")]


@pytest.mark.parametrize("options", ["", "optimization-level=2"])
def test_adamw_is_in_place_and_returns_the_updated_param(options: str) -> None:
    fn, ops = _ops(run_pipeline(_step("bf16"), "adamw.mlir", BACKEND.format(options)))
    assert [op.name for op in ops] == ["ttnn.adamw", "func.return"]
    adamw, ret = ops
    assert adamw.results == []
    assert adamw.operands == fn.regions[0].entry.args[:4]
    assert ret.operands[0] is fn.regions[0].entry.args[0]
    assert adamw.properties["beta2"].text == "9.990000e-01 : f32"
    assert adamw.properties["lr"].text == "1.000000e-03 : f32"


def test_amsgrad_takes_five_operands() -> None:
    fn, ops = _ops(run_pipeline(_step("bf16", amsgrad=True), "adamw.mlir", BACKEND.format("")))
    assert ops[0].name == "ttnn.adamw" and len(ops[0].operands) == 5


def test_f32_gradient_is_typecast_to_bf16_and_state_stays_f32() -> None:
    fn, ops = _ops(run_pipeline(_step("f32"), "adamw.mlir", BACKEND.format("")))
    assert [op.name for op in ops] == ["ttnn.typecast", "ttnn.adamw", "func.return"]
    cast, adamw, _ = ops
    assert [v.type.resolve().element_type.text for v in adamw.operands] == ["f32", "bf16", "f32", "f32"]
    assert adamw.operands[1] is cast.results[0] and cast.operands[0] is fn.regions[0].entry.args[1]


def test_updated_operand_read_after_the_step_is_an_error_at_the_op() -> None:
    with pytest.raises(Diagnostic, match=r"'ttir.adamw'.*operand 2 is updated in place but read after the step"):
        run_pipeline(_step("bf16", read_after=True), "adamw.mlir", BACKEND.format(""))
