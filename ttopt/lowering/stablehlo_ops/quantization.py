"""`stablehlo.uniform_quantize` / `uniform_dequantize` to `ttir.quantize` / `ttir.requantize` /
`ttir.dequantize`, as tt-mlir lowers them: a float input quantizes, a quantized input requantizes
(the scales and zero points stay in the `!quant.uniform` element types)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.lowering.stablehlo_to_ttir import Unsupported, _element, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

FLOATS = ("f16", "bf16", "f32", "f64")


def _quantized(element: str) -> bool:
    return element.startswith("!quant.uniform")


@lowers("stablehlo.uniform_quantize")
def _quantize(low: Lowering, op: Operation) -> list[Value]:
    x, r = op.operands[0], op.results[0]
    if not _quantized(_element(r)):
        raise Unsupported(f"result element type {_element(r)} is not a !quant.uniform type")
    if _element(x) in FLOATS:
        return [low.emit("quantize", [x], r.type)]
    if _quantized(_element(x)):
        return [low.emit("requantize", [x], r.type)]
    raise Unsupported(f"input element type {_element(x)} is neither a float nor a quantized type")


@lowers("stablehlo.uniform_dequantize")
def _dequantize(low: Lowering, op: Operation) -> list[Value]:
    return [low.emit("dequantize", [op.operands[0]], op.results[0].type)]
