"""MLIR's `!quant.uniform` element types: parsed, re-spelled as MLIR prints them, and the
`ttir.quantize` / `dequantize` / `requantize` ops unrolled into their `*_unrolled` forms with scale
and zero-point constants (HEAD's QuantizeOpPattern, DequantizeOpPattern and RequantizeOpPattern in
TTIRToTTIRDecomposition).

MLIR prints a uniform type as `!quant.uniform<storage:expressed[:axis], params>`: a per-tensor
`scale[:zero_point]` or a per-axis `{scale[:zero_point],...}`, each scale as a double in `%e` form
(`1.000000e-01`) and a zero point only when it is not 0.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import Attribute, DenseElementsAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import OpaqueType, ScalarType, TensorType, Type

if TYPE_CHECKING:
    from ttopt.ir.values import Value

_UNIFORM = re.compile(r"!quant\.uniform<\s*([su]?i\d+(?:<[^>]*>)?)\s*:\s*(\w+)\s*(?::\s*(\d+))?\s*,\s*(.*)>\s*$", re.S)
_PARAM = re.compile(r"\s*([-+0-9.eE]+|inf|nan)\s*(?::\s*(-?\d+))?\s*$")


@dataclass(frozen=True)
class UniformType:
    """A `!quant.uniform` type: storage and expressed types, the quantized axis (per-axis types)
    and one (scale, zero point) pair per slice."""

    storage: str
    expressed: str
    axis: int | None
    params: tuple[tuple[float, int], ...]

    @property
    def mlir_text(self) -> str:
        """The type as MLIR prints it."""
        body = ",".join(f"{s:e}" + (f":{z}" if z else "") for s, z in self.params)
        if self.axis is None:
            return f"!quant.uniform<{self.storage}:{self.expressed}, {body}>"
        return f"!quant.uniform<{self.storage}:{self.expressed}:{self.axis}, {{{body}}}>"


def parse_uniform(text: str) -> UniformType | None:
    """`text` as a uniform quantized type, None when it is not one."""
    m = _UNIFORM.match(text.strip())
    if m is None:
        return None
    storage, expressed, axis, rest = m.groups()
    rest = rest.strip()
    per_axis = rest.startswith("{") and rest.endswith("}")
    if per_axis != (axis is not None):
        return None
    params = []
    for item in (rest[1:-1].split(",") if per_axis else [rest]):
        p = _PARAM.match(item)
        if p is None:
            return None
        params.append((float(p.group(1)), int(p.group(2) or 0)))
    return UniformType(storage, expressed, None if axis is None else int(axis), tuple(params))


def respelled(element: Type) -> Type:
    """A quantized element type re-spelled as MLIR prints it; any other element type unchanged."""
    if isinstance(element, OpaqueType):
        q = parse_uniform(element.text)
        if q is not None and q.mlir_text != element.text:
            return OpaqueType(q.mlir_text, element.name)
    return element


def _constant(anchor: Operation, shape: tuple[int, ...], values: list[str], element: str) -> Value:
    t = TensorType(shape, ScalarType(element))
    body = values[0] if len(set(values)) == 1 else "[" + ", ".join(values) + "]"  # MLIR stores equal values as a splat
    op = Operation("ttir.constant", [], [t], properties={"value": DenseElementsAttr(body, t)}, location=anchor.location)
    op.pos = anchor.pos
    block = anchor.parent
    block.insert(block.index(anchor), op)  # type: ignore[union-attr]
    return op.results[0]


def _scale_and_zero_point(anchor: Operation, q: UniformType) -> list[Value]:
    n = (len(q.params),)
    scales = [repr(_f32(s)) for s, _ in q.params]
    return [_constant(anchor, n, scales, "f32"), _constant(anchor, n, [str(z) for _, z in q.params], "si32")]


def _f32(x: float) -> float:
    """`x` rounded to f32, as HEAD's `float scaleValue` holds it."""
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _quant_of(v: Value) -> UniformType | None:
    t = v.type.resolve()
    return parse_uniform(t.element_type.resolve().text) if isinstance(t, TensorType) else None


def unrolled(op: Operation) -> Value | None:
    """`ttir.quantize` / `dequantize` / `requantize` as their `*_unrolled` op with scale and
    zero-point constants read from the quantized type(s); None when the types are not uniform ones."""
    x = inputs(op)[0]
    out = op.results[0]
    kind = op.name.removeprefix("ttir.")
    if kind == "requantize":
        qi, qo = _quant_of(x), _quant_of(out)
        if qi is None or qo is None:
            return None
        operands = [x, *_scale_and_zero_point(op, qi), *_scale_and_zero_point(op, qo)]
        axis = qi.axis
    else:
        q = _quant_of(out) if kind == "quantize" else _quant_of(x)
        if q is None:
            return None
        operands = [x, *_scale_and_zero_point(op, q)]
        axis = q.axis
    properties: dict[str, Attribute] = {} if axis is None else {"axis": IntegerAttr(axis, ScalarType("i32"))}
    new = Operation(f"ttir.{kind}_unrolled", operands, [out.type], properties=properties, location=op.location)
    new.pos = op.pos
    block = op.parent
    block.insert(block.index(op), new)  # type: ignore[union-attr]
    return new.results[0]
