"""`stablehlo.uniform_quantize` / `uniform_dequantize` to `ttir.quantize` / `ttir.requantize` /
`ttir.dequantize`, as tt-mlir lowers them: a float input quantizes, a quantized input requantizes
(the scales and zero points stay in the `!quant.uniform` element types). The types of the values
they touch are respelled as MLIR prints them (each scale `%e`: `0.02` -> `2.000000e-02`), in the
enclosing function's signature too, since tt-mlir's tests check the printed types."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import TypeAttr, format_float
from ttopt.ir.types import FunctionType, OpaqueType, TensorType
from ttopt.lowering.stablehlo_to_ttir import Unsupported, _element, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

FLOATS = ("f16", "bf16", "f32", "f64")


def _quantized(element: str) -> bool:
    return element.startswith("!quant.uniform")


# a scale: at the start of the parameters, or after `{` / `,` in a per-axis list (zero points follow `:`)
_SCALE = re.compile(r"(^|[{,])(\s*)([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def _respelled(t: Any) -> Any:
    """`t` with the scales of its `!quant.uniform` element type in MLIR's spelling (else `t`)."""
    r = t.resolve()
    e = r.element_type.resolve() if isinstance(r, TensorType) else None
    if not isinstance(e, OpaqueType) or e.name != "quant.uniform" or e.body is None or ", " not in e.body:
        return t
    head, _, params = e.body.partition(", ")
    params = _SCALE.sub(lambda m: m.group(1) + m.group(2) + format_float(float(m.group(3))), params)
    body = f"{head}, {params}"
    if body == e.body:
        return t
    return TensorType(r.shape, OpaqueType(f"!quant.uniform<{body}>", e.name, body, e.scope), r.encoding)


def _respell_types(low: Lowering, op: Operation) -> None:
    for v in (*op.operands, *op.results):
        v.type = _respelled(v.type)
    for f in low.module.functions():
        a = f.properties.get("function_type")
        ft = a.resolve().type.resolve() if isinstance(a, TypeAttr) else None
        if isinstance(ft, FunctionType):
            new = FunctionType(tuple(_respelled(t) for t in ft.inputs), tuple(_respelled(t) for t in ft.results))
            if new.text != ft.text:
                f.properties["function_type"] = TypeAttr(new)


@lowers("stablehlo.uniform_quantize")
def _quantize(low: Lowering, op: Operation) -> list[Value]:
    _respell_types(low, op)
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
    _respell_types(low, op)
    return [low.emit("dequantize", [op.operands[0]], op.results[0].type)]
