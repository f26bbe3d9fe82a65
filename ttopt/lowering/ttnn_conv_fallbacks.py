"""Conv config fallbacks of `ttnn-operation-validation-and-fallback`: whether a conv2d /
conv_transpose2d fits in L1 under its `conv2d_slice_config`, and the config tt-mlir's search finds
when it does not.

How a conv uses L1 (tt-metal's structure): the activation is resharded into L1 by rows (height
sharded over the worker cores), the halo step writes a second copy with the window overlap, then
the conv kernel runs with its circular buffers (activation block of `act_block_h_override` rows and
the weight block, `ttopt.device.circular_buffers.conv_cb`) and writes a sharded output in L1 (height
sharded, or block sharded with the channels split over the grid's columns, whichever fits). The
peak is the larger of the halo step (input shard + halo copy) and the kernel step (halo copy + CBs
+ output shard). `l1_full` does that for the whole tensor; `dram_width` / `dram_height` do it for
one slice of the output width / height at a time (num_slices 0: the fewest slices that fit). A
transposed conv runs on its stride-dilated input, which has the output's spatial size.

The search is tt-mlir's `tryConfigFallbacks`: slice types l1_full, dram_width, dram_height; per
slice type `act_block_h_override` 0 then 1024 down to 32 in steps of 32 (0 only for l1_full); the
first that fits wins; each miss counts against max-fallback-attempts.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any, Iterator

from ttopt.device.circular_buffers import conv_act_block_h, conv_cb
from ttopt.device.device import Device
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import Conv2dConfigAttr, Conv2dSliceConfigAttr
from ttopt.ir.attributes import DialectAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType

CONV_OPS = frozenset({"ttnn.conv2d", "ttnn.conv_transpose2d"})
SLICE_TYPES = ("l1_full", "dram_width", "dram_height")
_DRAM_ACT_BLOCK_H = tuple(range(1024, 31, -32))
_L1_ACT_BLOCK_H = (0, *_DRAM_ACT_BLOCK_H)
_TILE = 32
# #ttnn.conv2d_config's parameters that print before act_block_h_override.
_BEFORE_ACT_BLOCK_H = frozenset({"weights_dtype", "activation", "deallocate_activation", "reallocate_halo_output"})


@dataclass(frozen=True, slots=True)
class ConvShape:
    """What the L1 estimate reads from a conv op."""

    batch: int
    in_rows: int  # N*H*W of the activation the halo reads (stride-dilated for a transposed conv)
    in_w: int  # width of that activation
    out_h: int
    out_w: int
    in_channels: int
    out_channels: int
    kernel: tuple[int, int]
    act_tile_bytes: int
    weight_tile_bytes: int

    @property
    def out_rows(self) -> int:
        """N*OH*OW: rows of the flattened output."""
        return self.batch * self.out_h * self.out_w


def _ints(op: Any, name: str) -> tuple[int, ...]:
    return int_values(op.get_attr(name)) or ()


def _int(op: Any, name: str) -> int | None:
    v = getattr(op.get_attr(name), "value", None)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _out_size(op: Any, size: int, axis: int) -> int:
    """Output height (axis 0) or width (axis 1) of the conv along one spatial axis."""
    k = (_ints(op, "kernel_size") or (1, 1))[axis]
    s = (_ints(op, "stride") or (1, 1))[axis]
    d = (_ints(op, "dilation") or (1, 1))[axis]
    pad = _ints(op, "padding") or (0, 0)
    lo, hi = (pad[axis], pad[axis]) if len(pad) == 2 else (pad[2 * axis], pad[2 * axis + 1])
    if op.name == "ttnn.conv_transpose2d":
        out_pad = (_ints(op, "output_padding") or (0, 0))[axis]
        return (size - 1) * s - lo - hi + d * (k - 1) + out_pad + 1
    return (size + lo + hi - d * (k - 1) - 1) // s + 1


def conv_shape(op: Any) -> ConvShape | None:
    """The conv's sizes from its attributes and operand types, None when they are incomplete."""
    ints = [_int(op, k) for k in ("batch_size", "input_height", "input_width", "in_channels", "out_channels")]
    kernel = _ints(op, "kernel_size")
    if any(v is None for v in ints) or len(kernel) != 2 or len(op.operands) < 2:
        return None
    n, h, w, cin, cout = (int(v or 0) for v in ints)
    oh, ow = _out_size(op, h, 0), _out_size(op, w, 1)
    if min(oh, ow) <= 0:
        return None
    transposed = op.name == "ttnn.conv_transpose2d"
    in_rows, in_w = (n * oh * ow, ow) if transposed else (n * h * w, w)
    x, wt = op.operands[0].type.resolve(), op.operands[1].type.resolve()
    act = _dtype(x) or DataType.BF16
    cfg = _config(op)
    wdt = cfg.weights_dtype if cfg is not None and cfg.weights_dtype is not None else (_dtype(wt) or act)
    return ConvShape(n, in_rows, in_w, oh, ow, cin, cout, (kernel[0], kernel[1]), act.tile_bytes(), wdt.tile_bytes())


def _dtype(t: Any) -> DataType | None:
    from ttopt.device.tensor import element_dtype

    return element_dtype(t) if isinstance(t, TensorType) else None


def _config(op: Any) -> Conv2dConfigAttr | None:
    typed = getattr(op.get_attr("conv2d_config"), "typed", None)
    return typed if isinstance(typed, Conv2dConfigAttr) else None


def _slice(op: Any) -> Conv2dSliceConfigAttr | None:
    typed = getattr(op.get_attr("conv2d_slice_config"), "typed", None)
    return typed if isinstance(typed, Conv2dSliceConfigAttr) else None


def _rows_tiles(rows: int, cores: int) -> int:
    return ceil(ceil(rows / cores) / _TILE)


def _peak(shape: ConvShape, act_block_h: int, slices: int, by_width: bool, row_cores: int, channel_cores: int) -> int:
    """The peak with the rows split over `row_cores` and the channels over `channel_cores`."""
    in_t = _rows_tiles(ceil(shape.in_rows / slices), row_cores)
    out_t = _rows_tiles(ceil(shape.out_rows / slices), row_cores)
    cin_t = ceil(ceil(shape.in_channels / _TILE) / channel_cores)
    cout_t = ceil(ceil(shape.out_channels / _TILE) / channel_cores)
    input_shard = in_t * cin_t * shape.act_tile_bytes
    # The halo copy adds the window overlap: (kernel height - 1) input rows of the slice's width.
    overlap = _rows_tiles((shape.kernel[0] - 1) * ceil(shape.in_w / (slices if by_width else 1)), 1)
    halo = (in_t + overlap) * cin_t * shape.act_tile_bytes
    act_cb, weight_cb = conv_cb(conv_act_block_h(act_block_h, out_t), shape.kernel[0], shape.kernel[1],
                                ceil(shape.in_channels / channel_cores), cout_t, shape.act_tile_bytes,
                                shape.weight_tile_bytes)  # fmt: skip
    output_shard = out_t * cout_t * shape.act_tile_bytes
    return max(input_shard + halo, halo + act_cb + weight_cb + output_shard)


def peak_l1(shape: ConvShape, act_block_h: int, slices: int, device: Device, by_width: bool = True) -> int:
    """Bytes per core at the conv's L1 peak when it runs in `slices` equal slices (of the width or
    the height): height sharded (every core all channels) or block sharded (the worker grid's rows
    split the pixels, its columns the channels), whichever needs less, as the op picks."""
    gy, gx = device.worker_grid
    height = _peak(shape, act_block_h, slices, by_width, device.num_cores, 1)
    block = _peak(shape, act_block_h, slices, by_width, gy, gx)
    return min(height, block)


def fits(shape: ConvShape, slice_type: str, num_slices: int, act_block_h: int, device: Device) -> bool:
    """Whether the conv fits in L1 under this slice config (num_slices 0: the fewest that fit)."""
    if slice_type == "l1_full":
        return peak_l1(shape, act_block_h, 1, device) <= device.usable_l1
    most = shape.out_w if slice_type == "dram_width" else shape.out_h
    if slice_type not in ("dram_width", "dram_height") or most <= 0:
        return False
    by_width = slice_type == "dram_width"
    # The peak only falls as slices are added: with num_slices 0 the most slices decide whether any count fits.
    n = min(num_slices, most) if num_slices > 0 else most
    return peak_l1(shape, act_block_h, n, device, by_width) <= device.usable_l1


def current_fits(op: Any, device: Device) -> bool | None:
    """Whether the conv fits as the IR has it (no slice config: tt-metal picks one), None when its
    sizes are unknown."""
    shape = conv_shape(op)
    if shape is None:
        return None
    cfg = _config(op)
    abh = (cfg.get_int("act_block_h_override") if cfg is not None else None) or 0
    sc = _slice(op)
    if sc is None:
        return any(fits(shape, t, 0, abh, device) for t in SLICE_TYPES)
    return fits(shape, sc.slice_type, sc.num_slices, abh, device)


def candidates() -> Iterator[tuple[str, int]]:
    """(slice type, act_block_h_override) in tt-mlir's search order."""
    for slice_type in SLICE_TYPES:
        for abh in _L1_ACT_BLOCK_H if slice_type == "l1_full" else _DRAM_ACT_BLOCK_H:
            yield slice_type, abh


def search(op: Any, device: Device, max_attempts: int) -> tuple[tuple[str, int] | None, int]:
    """The first (slice type, act_block_h_override) that fits (None when none does within
    `max_attempts` misses, 0: no limit) and how many configs missed."""
    shape = conv_shape(op)
    if shape is None:
        return None, 0
    failed = 0
    for slice_type, abh in candidates():
        if fits(shape, slice_type, 0, abh, device):
            return (slice_type, abh), failed
        failed += 1
        if 0 < max_attempts <= failed:
            break
    return None, failed


def apply(op: Any, slice_type: str, act_block_h: int) -> None:
    """Set the conv's slice config (auto slice count) and its config's act_block_h_override (in
    place when the config has one, else after the keys tt-mlir prints before it)."""
    cfg = _config(op)
    items = list(cfg.params) if cfg is not None else []
    keys = [k for k, _ in items]
    if "act_block_h_override" in keys:
        items[keys.index("act_block_h_override")] = ("act_block_h_override", str(act_block_h))
    else:
        at = max((i + 1 for i, k in enumerate(keys) if k in _BEFORE_ACT_BLOCK_H), default=0)
        items.insert(at, ("act_block_h_override", str(act_block_h)))
    op.properties["conv2d_config"] = DialectAttr.of(Conv2dConfigAttr(params=tuple(items)))
    op.properties["conv2d_slice_config"] = DialectAttr.of(Conv2dSliceConfigAttr(slice_type=slice_type, num_slices=0))
