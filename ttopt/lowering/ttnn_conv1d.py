"""`ttir.conv1d` -> `ttnn.conv1d` as tt-mlir HEAD's backend pipeline leaves it
(Conv1dOpConversionPattern and the conv operand workaround):

* the channel-last (N, L, C) input, row-major (`ttnn.to_layout`, HEAD's createConvOpOperandsWorkarounds);
* the (O, C/G, K) weight as it is; a (1, 1, O) bias unsqueezed to (1, 1, 1, O);
* scalar `kernel_size`, `stride`, `dilation`, `groups`, a (left, right) `padding`, the lengths and
  channel counts, and `conv2d_config` with `config_tensors_in_dram = false` (tt-metal's conv1d wraps
  conv2d, whose in-DRAM depthwise path hangs);
* the result in conv2d's flattened (1, 1, N * L_out, O) form, reshaped back to (N, L_out, O).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import DenseArrayAttr, DialectAttr, IntegerAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttnn_conv_transpose import attr_ints

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

I32 = ScalarType("i32")


def _scalar(op: Any, name: str, default: int | None = None) -> int:
    vals = attr_ints(op, name, default)
    if len(vals) != 1:
        raise ValueError(f"conv1d {name} must be a scalar or a 1-element array")
    return vals[0]


def _dim(op: Any, name: str, default: int) -> int:
    a = op.get_attr(name)
    return int(getattr(a.resolve(), "value", default)) if a is not None else default


def _conv1d(lw: _Lowering, op: Any) -> Any:
    ins = inputs(op)
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    xs, ws = tuple(x.type.resolve().shape), tuple(w.type.resolve().shape)
    out_t = op.results[0].type.resolve()
    if len(xs) != 3 or len(ws) != 3:
        raise ValueError("takes a rank-3 input and a rank-3 (O, C/G, K) weight")
    batch, length, channel = _dim(op, "batch_dim", 0), _dim(op, "length_dim", 1), _dim(op, "channel_dim", 2)
    if (batch, length, channel) != (0, 1, 2):
        raise ValueError("lowers only in the channel-last (N, L, C) layout")
    pad = attr_ints(op, "padding", 0)
    if len(pad) == 1:
        pad = pad * 2
    if len(pad) != 2:
        raise ValueError("conv1d padding must be a scalar, 1-element, or 2-element array")
    loc = op.location
    elem = out_t.element_type
    n, ln, c = xs
    oc = int(out_t.shape[2])
    if bias is not None:
        bs = tuple(bias.type.resolve().shape)
        bias = lw.reshape(bias, (*bs[:2], 1, *bs[2:]), op, loc)
    dt = lw.layout_type(x.type, op).resolve().encoding.resolve().typed.dtype
    row_major = lw.aliaser.tensor_type(TensorType(xs, x.type.resolve().element_type),
                                       TTNNLayoutAttr.build(xs, dt.value, tiled=False, buffer_type="dram", memory_layout="interleaved"))  # fmt: skip
    x = lw.emit("ttnn.to_layout", [x], row_major, {}, loc)
    properties = {
        "batch_size": IntegerAttr(n, I32), "conv2d_config": DialectAttr("ttnn.conv2d_config", "config_tensors_in_dram = false"),
        "dilation": IntegerAttr(_scalar(op, "dilation", 1), I32), "groups": IntegerAttr(_scalar(op, "groups", 1), I32),
        "in_channels": IntegerAttr(c, I32), "input_length": IntegerAttr(ln, I32), "kernel_size": IntegerAttr(int(ws[2]), I32),
        "out_channels": IntegerAttr(oc, I32), "padding": DenseArrayAttr("i32", pad), "stride": IntegerAttr(_scalar(op, "stride"), I32),
    }  # fmt: skip
    flat = lw.layout_type(TensorType((1, 1, n * int(out_t.shape[1]), oc), elem), op)
    operands = [x, w, *([bias] if bias is not None else []), lw.get_device()]
    y = lw.emit("ttnn.conv1d", operands, flat, properties, loc)
    return lw.reshape(y, tuple(out_t.shape), op, loc)


CONV1D_RULES = {"conv1d": _conv1d}
