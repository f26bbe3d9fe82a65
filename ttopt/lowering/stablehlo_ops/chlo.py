"""CHLO elementwise ops, and the `mhlo.erf` / `mhlo.asinh` custom calls XLA's serialization turns
`chlo.erf` / `chlo.asinh` into.

tt-mlir lowers the custom-call forms to `ttir.erf` / `ttir.asinh`; the CHLO ops with a TTIR
counterpart map to it one to one (erf, erfc, asinh, acos, asin, atan, tan, square). `sinh`, `cosh`,
`acosh` and `atanh` have none and are written with exp/log/sqrt, as CHLO's own expansion writes them
for arguments of moderate size. CHLO ops without either (lgamma, digamma, erf_inv, polygamma, zeta,
bessel_i1e, next_after, ...) stay diagnostics naming the op.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.building import splat
from ttopt.lowering.stablehlo_ops.custom_call import lowers_target

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

ONE_TO_ONE = {
    "chlo.erf": "erf", "chlo.erfc": "erfc", "chlo.asinh": "asinh", "chlo.acos": "acos", "chlo.asin": "asin",
    "chlo.atan": "atan", "chlo.tan": "tan", "chlo.square": "square",
}  # fmt: skip


def _unary(name: str) -> Callable[[Lowering, Operation], list[Value]]:
    def lower(low: Lowering, op: Operation) -> list[Value]:
        if len(op.operands) != 1 or len(op.results) != 1:
            raise Unsupported(f"expected one operand and one result, got {len(op.operands)} and {len(op.results)}")
        return [low.emit(name, [op.operands[0]], op.results[0].type)]

    return lower


for _chlo, _ttir in ONE_TO_ONE.items():
    lowers(_chlo)(_unary(_ttir))
lowers_target("mhlo.erf")(_unary("erf"))
lowers_target("mhlo.asinh")(_unary("asinh"))


@lowers("chlo.sinh", "chlo.cosh")
def _sinh_cosh(low: Lowering, op: Operation) -> list[Value]:
    x, t = op.operands[0], op.results[0].type
    ex = low.emit("exp", [x], t)
    enx = low.emit("exp", [low.emit("neg", [x], t)], t)
    both = low.emit("subtract" if op.name == "chlo.sinh" else "add", [ex, enx], t)
    return [low.emit("multiply", [both, splat(low, t, 0.5)], t)]


@lowers("chlo.acosh")
def _acosh(low: Lowering, op: Operation) -> list[Value]:
    x, t = op.operands[0], op.results[0].type  # log(x + sqrt(x*x - 1))
    root = low.emit("sqrt", [low.emit("subtract", [low.emit("multiply", [x, x], t), splat(low, t, 1.0)], t)], t)
    return [low.emit("log", [low.emit("add", [x, root], t)], t)]


@lowers("chlo.atanh")
def _atanh(low: Lowering, op: Operation) -> list[Value]:
    x, t = op.operands[0], op.results[0].type  # (log1p(x) - log1p(-x)) / 2
    diff = low.emit("subtract", [low.emit("log1p", [x], t), low.emit("log1p", [low.emit("neg", [x], t)], t)], t)
    return [low.emit("multiply", [diff, splat(low, t, 0.5)], t)]
