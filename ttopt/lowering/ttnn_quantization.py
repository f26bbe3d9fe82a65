"""Quantized tensors and ops: `ttir.quantize_unrolled` / `dequantize_unrolled` /
`requantize_unrolled` -> `ttnn.quantize` / `dequantize` / `requantize` (HEAD's
QuantizationOpConversionPattern and RequantizeOpConversionPattern).

A tensor of `!quant.uniform<storage:expressed, ...>` elements keeps that element type; its TTNN
layout holds the storage type's data type (HEAD's TTNNLayout: "the tile type for a quantized type
is the storage type"), normalized as any integer (i32 -> si32, i8 -> u8). The ops take the input,
the scale and zero-point tensors as they are, the optional `axis` and `output_dtype`: the data type
of the result's element type (its storage type for a quantized result).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DialectAttr

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

_STORAGE = re.compile(r"!quant\.uniform<([su]?i\d+)")


def quant_storage(element: str) -> str | None:
    """The storage type of a `!quant.uniform<...>` element type (`i32`), None for other types."""
    m = _STORAGE.match(element)
    return m.group(1) if m else None


def _output_dtype(lw: _Lowering, op: Any) -> DialectAttr:
    """`#ttcore.supportedDataTypes<...>` of the op's result: its layout's data type."""
    laid = lw.layout_type(op.results[0].type, op).resolve()
    return DialectAttr("ttcore.supportedDataTypes", laid.encoding.resolve().typed.dtype.value)


def _quantization(name: str, operands: int) -> Any:
    def rule(lw: _Lowering, op: Any) -> Any:
        ins = inputs(op)
        if len(ins) != operands:
            raise ValueError(f"has {len(ins)} operands; expected {operands}")
        properties: dict[str, Any] = {}
        axis = op.get_attr("axis")
        if axis is not None:
            properties["axis"] = axis
        properties["output_dtype"] = _output_dtype(lw, op)
        return lw.emit(f"ttnn.{name}", ins, lw.layout_type(op.results[0].type, op), properties, op.location)

    return rule


QUANTIZATION_RULES = {
    "quantize_unrolled": _quantization("quantize", 3),
    "dequantize_unrolled": _quantization("dequantize", 3),
    "requantize_unrolled": _quantization("requantize", 5),
}
