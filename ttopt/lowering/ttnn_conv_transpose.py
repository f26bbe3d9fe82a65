"""`ttir.conv_transpose2d` -> `ttnn.conv_transpose2d` (tt-mlir's ConvTranspose2dOpConversionPattern):
on the input in TTNN's flat `1x1x(N*H*W)xC` form, as for conv2d (ttnn_sliding_window.py: as
`ttir-flatten-sliding-window` left it, or reshaped to it and back); the geometry (channels, batch,
height, width, kernel from the (in, out/groups, kh, kw) weight) and `stride`, `padding` (height,
width: top must equal bottom and left right), `output_padding`, `dilation`, `groups` as TTNN's
i32 arrays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType
from ttopt.lowering.op_error import OpError
from ttopt.lowering.ttnn_sliding_window import flat_input, flat_result_type, result_value, window

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

I32 = ScalarType("i32")


def attr_ints(op: Any, name: str, default: int | None = None) -> tuple[int, ...]:
    """An `I32Attr` or `array<i32: ...>` attribute as integers (`(default,)` when it is absent)."""
    a = op.get_attr(name)
    if a is None:
        if default is None:
            raise ValueError(f"needs a '{name}' attribute")
        return (default,)
    vals = int_values(a)
    if vals is None:
        v = getattr(a.resolve(), "value", None)
        if not isinstance(v, int):
            raise ValueError(f"'{name}' must be an integer or an integer array, got {a.text}")
        vals = (v,)
    return tuple(int(v) for v in vals)


def _ints(op: Any, name: str, n: int) -> tuple[int, ...]:
    """An `I32Attr` or `array<i32: ...>` attribute as n integers (a single value repeated)."""
    vals = attr_ints(op, name)
    return vals * n if len(vals) == 1 else vals


def _conv_transpose2d(lw: _Lowering, op: Any) -> Any:
    ins = inputs(op)
    win = window(op)
    oc = op.results[0].type.resolve().shape[-1]
    pad = _ints(op, "padding", 4)
    if len(pad) == 2:
        pad = (pad[0], pad[1], pad[0], pad[1])
    if len(pad) != 4 or pad[0] != pad[2] or pad[1] != pad[3]:
        raise OpError("TTNN only supports padding height/width attributes. Thus, padding_top/padding_left must equal "
                      "padding_bottom/padding_right for the op to execute as expected.")  # HEAD's wording
    weight = tuple(ins[1].type.resolve().shape)
    properties = {
        "batch_size": IntegerAttr(win.n, I32), "dilation": DenseArrayAttr("i32", _ints(op, "dilation", 2)),
        "groups": IntegerAttr(_ints(op, "groups", 1)[0], I32), "in_channels": IntegerAttr(win.c, I32),
        "input_height": IntegerAttr(win.h, I32), "input_width": IntegerAttr(win.w, I32),
        "kernel_size": DenseArrayAttr("i32", tuple(weight[2:4])), "out_channels": IntegerAttr(oc, I32),
        "output_padding": DenseArrayAttr("i32", _ints(op, "output_padding", 2)),
        "padding": DenseArrayAttr("i32", (pad[0], pad[1])), "stride": DenseArrayAttr("i32", _ints(op, "stride", 2)),
    }  # fmt: skip
    y = lw.emit("ttnn.conv_transpose2d", [flat_input(lw, op, win), *ins[1:], lw.get_device()], flat_result_type(lw, op, win), properties, op.location)
    return result_value(lw, op, win, y)


CONV_TRANSPOSE_RULES = {"conv_transpose2d": _conv_transpose2d}
