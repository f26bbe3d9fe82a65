"""The largest chip the device model accepts (docs/device-model.md, "Limits").

A system desc, device file or preset outside these bounds is rejected before anything is sized
from it: the layout pools, grids and core-range sets the optimizer builds grow with the worker
grid, so an absurd grid (100000x100000) would otherwise exhaust memory instead of failing. The
bounds are generous multiples of the real chips (Wormhole 8x8 workers, Blackhole 10x13, 1.5 MB of
L1 per core, 12 / 8 DRAM channels of at most 4 GB) so that hypothetical larger chips still load.
"""

from __future__ import annotations

MAX_GRID_DIM = 64  # worker (and DRAM) grid rows / columns
MAX_L1_SIZE = 64 * 2**20  # bytes of L1 per core
MAX_DRAM_CHANNELS = 64
MAX_DRAM_CHANNEL_SIZE = 2**40  # bytes
MAX_DST_TILES = 1024  # dst_physical_size_tiles


class LimitError(ValueError):
    """A device number outside the documented limits (the message names the field and the limit)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field  # the system-desc field at fault


def check_grid(what: str, grid: tuple[int, ...]) -> None:
    """`grid` must be 2-D with every axis in [1, MAX_GRID_DIM]."""
    if len(grid) != 2 or min(grid) <= 0:
        raise LimitError(f"{what} must be 2-D and positive, got {'x'.join(map(str, grid)) or 'nothing'}", what)
    if max(grid) > MAX_GRID_DIM:
        raise LimitError(f"{what} {grid[0]}x{grid[1]} exceeds the device model's limit of {MAX_GRID_DIM} cores per axis", what)


def _at_most(what: str, value: int, limit: int) -> None:
    if value > limit:
        raise LimitError(f"{what} {value} exceeds the device model's limit of {limit}", what)


def check_limits(
    worker_grid: tuple[int, ...],
    dram_grid: tuple[int, ...] | None = None,
    l1_size: int = 0,
    num_dram_channels: int = 0,
    dram_channel_size: int = 0,
    dst_physical_size_tiles: int | None = None,
) -> None:
    """Raise LimitError for the first chip number outside the documented limits."""
    check_grid("grid", worker_grid)
    if dram_grid is not None:
        check_grid("dram_grid", dram_grid)
    _at_most("l1_size", l1_size, MAX_L1_SIZE)
    _at_most("num_dram_channels", num_dram_channels, MAX_DRAM_CHANNELS)
    _at_most("dram_channel_size", dram_channel_size, MAX_DRAM_CHANNEL_SIZE)
    if dst_physical_size_tiles is not None:
        _at_most("dst_physical_size_tiles", dst_physical_size_tiles, MAX_DST_TILES)
