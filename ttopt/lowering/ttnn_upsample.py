"""`ttir.upsample2d` -> `ttnn.upsample` (tt-mlir's UpsampleOpConversionPattern): the same NHWC input,
`scale_factor` (si32, or one per spatial dimension) and `mode` (`nearest` / `bilinear`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import StringAttr

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering


def _upsample(lw: _Lowering, op: Any) -> Any:
    factor = op.get_attr("scale_factor")
    if factor is None:
        raise ValueError("needs a 'scale_factor'")
    properties = {"scale_factor": factor, "mode": op.get_attr("mode") or StringAttr("nearest")}
    return lw.emit("ttnn.upsample", inputs(op)[:1], lw.layout_type(op.results[0].type, op), properties, op.location)


UPSAMPLE_RULES = {"upsample2d": _upsample}
