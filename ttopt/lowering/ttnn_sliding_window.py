"""How `convert-ttir-to-ttnn` reads a sliding-window op (conv2d, conv_transpose2d, the 2-D pools):
TTNN's kernels take the NHWC input flattened to `1x1x(N*H*W)xC`, with N, H and W as attributes,
and write their result flattened the same way.

* Flattened by `ttir-flatten-sliding-window` (a `flattened_compat_info`): the op's input and
  results are in that form already; N, H and W come from the attribute, C from the input. The
  conversion adds no reshape (as HEAD's).
* Plain NHWC (the op converted alone, without the pass): the input is reshaped to the flat form,
  N, H and W are its dimensions, and each result is reshaped back to the op's result type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir_attrs import flattened_compat_info
from ttopt.ir.properties import props
from ttopt.ir.types import TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

LAYOUT_DIMS = ("batch_dim", "height_dim", "width_dim", "channel_dim")


@dataclass(frozen=True)
class Window:
    """The NHWC geometry of a sliding-window op's input, and whether the op is flattened."""

    n: int
    h: int
    w: int
    c: int
    flattened: bool  # the TTIR op was flattened: its results are flat too


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(v.type.resolve().shape or ())


def _nhwc_layout(op: Any) -> None:
    """A conv's layout dimensions must be NHWC's (`ttir-to-ttir-decomposition` makes them so first)."""
    p = props(op)
    dims = tuple(getattr(p, d) for d in LAYOUT_DIMS) if "conv" in op.name else (0, 1, 2, 3)
    if dims != (0, 1, 2, 3):
        raise ValueError(f"lowers only in NHWC layout (batch, height, width, channel dims {list(dims)})")


def window(op: Any) -> Window:
    """The op's input geometry: from its `flattened_compat_info`, else from its NHWC input."""
    _nhwc_layout(op)
    s = _shape(op.operands[0])
    info = flattened_compat_info(op)
    if info is not None:
        if len(s) != 4 or s[:2] != (1, 1) or s[2] != info.rows:
            raise ValueError(f"is flattened ({info.text}) but its input is {list(s)}, not [1, 1, {info.rows}, C]")
        return Window(info.batch_size, info.input_height, info.input_width, s[3], True)
    if len(s) != 4:
        raise ValueError(f"input has rank {len(s)}; {op.name.removeprefix('ttir.')} takes NHWC rank-4 tensors")
    return Window(s[0], s[1], s[2], s[3], False)


def flat_input(lw: _Lowering, op: Any, win: Window) -> Any:
    """The op's input as TTNN takes it: as it is when flattened, else reshaped to `1x1x(N*H*W)xC`."""
    x = op.operands[0]
    return x if win.flattened else lw.reshape(x, (1, 1, win.n * win.h * win.w, win.c), op, op.location)


def flat_result_type(lw: _Lowering, op: Any, win: Window, index: int = 0) -> Any:
    """The laid-out type of the TTNN op's result `index`: `1x1x(N*OH*OW)xOC`."""
    t = op.results[index].type.resolve()
    s = _shape(op.results[index])
    if win.flattened:
        return lw.layout_type(t, op)
    if len(s) != 4:
        raise ValueError(f"result has rank {len(s)}; expected an NHWC rank-4 tensor")
    return lw.layout_type(TensorType((1, 1, s[0] * s[1] * s[2], s[3]), t.element_type), op)


def result_value(lw: _Lowering, op: Any, win: Window, y: Any, index: int = 0) -> Any:
    """The TTNN value that replaces the op's result `index`: `y` itself, or `y` reshaped back to NHWC."""
    return y if win.flattened else lw.reshape(y, _shape(op.results[index]), op, op.location)
