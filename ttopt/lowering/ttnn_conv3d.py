"""`ttir.conv3d` (NDHWC; other layouts are permuted first, conv_layout.py) -> `ttnn.conv3d` as tt-mlir
HEAD's backend pipeline leaves it:

* conversion (Conv3dOpConversionPattern): a `(1, 1, 1, 1, O)` bias reshaped to `(1, O)`, input
  channels padded to a multiple of the tile width (32) with a `ttnn.pad`, the geometry attributes,
  and a complete `#ttnn.conv3d_config`: out blocks 1, `c_out_block` 32, `c_in_block` the least
  multiple of the L1 alignment (16 bytes) that tile-aligns `kernel volume * c_in_block`, at most the
  padded input channels, and the device's worker grid;
* workaround (createConv3dOpOperandsWorkarounds): the input row-major (`ttnn.to_layout`);
* weight preparation (TTNNPrepareConv3dWeights): the raw 5-D weight, row-major on the host,
  through `ttnn.prepare_conv3d_weights` (groups, c_in_block, alignment 32) into a row-major
  `(ceil(C/32) * 32 * KD * KH * KW, O)` DRAM tensor, then `ttnn.to_layout` to tiles;
* the result row-major (HEAD's TTNNLayout does not tilize conv3d results), then tiled for its
  readers.

Only bf16 tensors are lowered (HEAD's workarounds typecast other data types around the op).
"""

from __future__ import annotations

from math import gcd, lcm, prod
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.dialects.ttnn_layout import DEFAULT_WORKER_GRID, TTNNLayoutAttr
from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, DialectAttr, FloatAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

I32, F32 = ScalarType("i32"), ScalarType("f32")
TILE_WIDTH = 32
L1_ALIGNMENT = 16  # bytes: the NOC L1 address alignment of Wormhole and Blackhole system descs


def c_in_block(kernel: tuple[int, int, int], in_channels: int) -> int:
    """HEAD's default c_in_block: the least multiple of the L1 alignment for which
    `kernel volume * c_in_block` fills whole tiles, at most `in_channels`."""
    tile_align = TILE_WIDTH // gcd(prod(kernel), TILE_WIDTH)
    return min(lcm(L1_ALIGNMENT, tile_align), in_channels)


def default_config(kernel: tuple[int, int, int], in_channels: int) -> DialectAttr:
    """The `#ttnn.conv3d_config` HEAD's conversion writes: one voxel per output block, 32 output
    channels, HEAD's c_in_block, the worker grid (`in_channels` already padded to the tile)."""
    grid = "x".join(map(str, DEFAULT_WORKER_GRID))
    return DialectAttr("ttnn.conv3d_config", f"t_out_block = 1, w_out_block = 1, h_out_block = 1, c_out_block = {TILE_WIDTH}, "
                       f"c_in_block = {c_in_block(kernel, in_channels)}, compute_with_storage_grid_size = #ttcore.grid<{grid}>")  # fmt: skip


def prepared_weight_shape(in_channels: int, groups: int, kernel: tuple[int, int, int], out_channels: int) -> tuple[int, int]:
    """The 2-D weight `ttnn.prepare_conv3d_weights` returns (HEAD's getPreparedConv3dWeightsOutputTensor)."""
    aligned = -(-(in_channels // groups) // TILE_WIDTH) * TILE_WIDTH
    return (aligned // TILE_WIDTH * prod(kernel) * TILE_WIDTH, out_channels)


def _triple(op: Any, name: str) -> tuple[int, int, int]:
    a = op.get_attr(name)
    vals = int_values(a)
    if vals is None:
        v = getattr(a.resolve(), "value", None) if a is not None else None
        if not isinstance(v, int):
            raise ValueError(f"'{name}' must be an integer or 3 integers")
        vals = (v,) * 3
    if len(vals) != 3:
        raise ValueError(f"Expected 3 elements for '{name}', but got {len(vals)}")
    return tuple(int(v) for v in vals)  # type: ignore[return-value]


def _typed(lw: _Lowering, op: Any, shape: tuple[int, ...], element: Any, *, tiled: bool = True) -> Any:
    """A DRAM-interleaved tensor type, tiled or row-major."""
    t = TensorType(shape, element)
    if tiled:
        return lw.layout_type(t, op)
    dt = lw.layout_type(t, op).resolve().encoding.resolve().typed.dtype
    return lw.aliaser.tensor_type(t, TTNNLayoutAttr.build(shape, dt.value, tiled=False, buffer_type="dram", memory_layout="interleaved"))


def _conv3d(lw: _Lowering, op: Any) -> Any:
    ins = inputs(op)
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    xs, ws = tuple(x.type.resolve().shape), tuple(w.type.resolve().shape)
    out_t = op.results[0].type.resolve()
    if len(xs) != 5 or len(ws) != 5:
        raise ValueError("takes a rank-5 NDHWC input and a rank-5 (O, C/G, KD, KH, KW) weight")
    groups = int(getattr(op.get_attr("groups").resolve(), "value", 1))
    if groups != 1:
        raise ValueError("ttnn.conv3d only supports groups == 1")
    n, d, h, wd, c = xs
    oc = int(out_t.shape[4])
    kernel = (int(ws[2]), int(ws[3]), int(ws[4]))
    elem = out_t.element_type
    loc = op.location
    if bias is not None:
        bias = lw.reshape(bias, (1, prod(bias.type.resolve().shape)), op, loc)
    in_channels = c
    if c % TILE_WIDTH:
        pad = -(-c // TILE_WIDTH) * TILE_WIDTH - c
        in_channels = c + pad
        x = lw.emit("ttnn.pad", [x], _typed(lw, op, (n, d, h, wd, in_channels), elem),
                    {"padding": DenseArrayAttr("i32", (0,) * 9 + (pad,)), "use_multicore": BoolAttr(True),
                     "value": FloatAttr(0.0, F32)}, loc)  # fmt: skip
    x = lw.emit("ttnn.to_layout", [x], _typed(lw, op, tuple(x.type.resolve().shape), elem, tiled=False), {}, loc)
    block = c_in_block(kernel, in_channels)
    config = default_config(kernel, in_channels)
    device = lw.get_device()
    prepared = lw.emit("ttnn.prepare_conv3d_weights", [w, device],
                       _typed(lw, op, prepared_weight_shape(in_channels, groups, kernel, oc), elem, tiled=False),
                       {"alignment": IntegerAttr(TILE_WIDTH, I32), "c_in_block": IntegerAttr(block, I32), "groups": IntegerAttr(groups, I32)},
                       loc)  # fmt: skip
    tiled_w = lw.emit("ttnn.to_layout", [prepared], _typed(lw, op, tuple(prepared.type.resolve().shape), elem), {}, loc)
    properties = {
        "batch_size": IntegerAttr(n, I32), "conv3d_config": config, "groups": IntegerAttr(groups, I32),
        "in_channels": IntegerAttr(in_channels, I32), "input_depth": IntegerAttr(d, I32), "input_height": IntegerAttr(h, I32),
        "input_width": IntegerAttr(wd, I32), "kernel_size": DenseArrayAttr("i32", kernel), "out_channels": IntegerAttr(oc, I32),
        "padding": DenseArrayAttr("i32", _triple(op, "padding")), "stride": DenseArrayAttr("i32", _triple(op, "stride")),
    }  # fmt: skip
    mode = op.get_attr("padding_mode")
    if mode is not None:
        properties["padding_mode"] = mode
    operands = [x, tiled_w, *([bias] if bias is not None else []), device]
    y = lw.emit("ttnn.conv3d", operands, _typed(lw, op, tuple(out_t.shape), elem, tiled=False), dict(sorted(properties.items())), loc)
    return lw.emit("ttnn.to_layout", [y], lw.layout_type(op.results[0].type, op), {}, loc)


CONV3D_RULES = {"conv3d": _conv3d}
