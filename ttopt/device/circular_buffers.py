"""Circular-buffer sizes per core (OP-MODEL.md §3, last paragraph). Each formula sits next to its code.

CBs are allocated at low L1 addresses for the duration of an op; their bytes add to the L1 peak
together with the L1 tensors the op touches (reference §4.3).
"""

from __future__ import annotations

from math import ceil
from typing import Sequence

from ttopt.device.layout_info import LayoutInfo

# An interleaved operand streams pages through a double-buffered CB of 2 pages (OP-MODEL §3).
STREAM_PAGES = 2


def page_bytes(info: LayoutInfo, shape: Sequence[int]) -> int:
    """Bytes of one page: a tile for tiled layouts, one row of the collapsed 2-D shape for row-major."""
    if info.tiled:
        return info.element_bytes
    return info.layout.collapsed_2d(shape)[1] * info.element_bytes


def streaming_cb(operands: Sequence[tuple[LayoutInfo, Sequence[int]]]) -> int:
    """Sum over operands (inputs and output): interleaved -> 2 pages; sharded -> 0 (the CB aliases
    the shard). Matches tt-metal's GeluBackward data point: 3 L1-interleaved bf16 tensors -> 12288 B."""
    total = 0
    for info, shape in operands:
        if not info.sharded:
            total += STREAM_PAGES * page_bytes(info, shape)
    return total


def matmul_cb(
    per_core_m: int,
    per_core_n: int,
    in0_block_w: int,
    in0_tile_bytes: int,
    in1_tile_bytes: int,
    out_tile_bytes: int,
    in0_sharded: bool,
    out_sharded: bool,
) -> int:
    """in0: 2 * in0_block_w * per_core_M tiles (0 when in0 is sharded: the CB is its shard);
    in1: 2 * in0_block_w * per_core_N tiles; output: per_core_M * per_core_N tiles, aliased
    (0) when the output is sharded."""
    in0 = 0 if in0_sharded else 2 * in0_block_w * per_core_m * in0_tile_bytes
    in1 = 2 * in0_block_w * per_core_n * in1_tile_bytes
    out = 0 if out_sharded else per_core_m * per_core_n * out_tile_bytes
    return in0 + in1 + out


def conv_act_block_h(override: int, per_core_rows_tiles: int) -> int:
    """Activation block height in tiles: the override / 32 (capped at the shard), 0 = whole shard."""
    if override <= 0:
        return max(1, per_core_rows_tiles)
    return max(1, min(override // 32, per_core_rows_tiles))


def conv_cb(
    act_block_h: int,
    kernel_h: int,
    kernel_w: int,
    in_channels: int,
    per_core_n: int,
    act_tile_bytes: int,
    weight_tile_bytes: int,
) -> tuple[int, int]:
    """(activation CB, weight CB) bytes.

    Activation block: act_block_h x ceil(Kw * Cin / 32) tiles, double-buffered. Weight block: the
    kernel for the core's output channels, Kh x ceil(Kw * Cin / 32) x per_core_N tiles.
    """
    act_w = ceil(kernel_w * in_channels / 32)
    return 2 * act_block_h * act_w * act_tile_bytes, kernel_h * act_w * per_core_n * weight_tile_bytes
