"""Conv3d estimates next to the time of the same arithmetic as one matmul.

Run by hand (not by CI):  python bench/conv3d.py [--device n150|blackhole]

For a few conv3d shapes (tt-mlir HEAD's conv3d lit and silicon tests, and Wan / Mochi VAE layers
from tt-metal's blocking table) and blockings (tt-mlir's conversion default, 1 x 1 x 1 voxel
blocks, and the blocking table's entry where it has one), prints the cost model's estimate of
tt-metal's conv3d program (`conv3d_program.conv3d_terms`, DRAM-interleaved row-major input and
output, tiled DRAM weights, HiFi2) beside:

* ideal: the FLOPs on every core of the grid at the matmul rate (`matmul_cycles_lofi` a 32x32x32
  block x HiFi2's two passes), no data movement;
* im2col matmul: the cost model's DRAM-interleaved matmul of the unfolded patches
  ([voxels, kD*kH*kW*C_in] x [.., C_out]), the program a conv2d-style lowering would run.

No tt-metal conv3d measurement is public at op level (module doc of conv3d_program), so there is
no measured column.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import click  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from ttopt.device import preset  # noqa: E402
from ttopt.device.conv3d_program import Conv3dBlocking, Conv3dShape, conv3d_flops, conv3d_split, conv3d_terms  # noqa: E402
from ttopt.device.cost_model import CostModel  # noqa: E402
from ttopt.device.cost_terms import FIDELITY_PASSES, matmul_terms  # noqa: E402

K3 = (3, 3, 3)
# (name, shape, blockings): blockings as (C_in, C_out, T, H, W) blocks, tt-mlir's default first.
CASES = [
    ("silicon n150 (c_in 32)", Conv3dShape(1, 6, 26, 26, 32, 32, K3), [(32, 32, 1, 1, 1)]),
    ("optimizer smoke (c_in 128)", Conv3dShape(1, 6, 26, 26, 128, 32, K3), [(32, 32, 1, 1, 1), (128, 32, 1, 8, 8)]),
    ("heuristic test 192 -> 384", Conv3dShape(1, 6, 26, 26, 192, 384, K3), [(32, 32, 1, 1, 1), (64, 128, 1, 8, 4)]),
    ("VAE 384 -> 384, 60x106", Conv3dShape(1, 4, 60, 106, 384, 384, K3), [(32, 32, 1, 1, 1), (96, 96, 1, 8, 4)]),
    ("VAE 128 -> 128, 240x424", Conv3dShape(1, 4, 240, 424, 128, 128, K3), [(32, 32, 1, 1, 1), (128, 32, 1, 8, 8)]),
    ("pointwise 256 -> 512", Conv3dShape(1, 8, 32, 32, 256, 512, (1, 1, 1)), [(32, 32, 1, 1, 1), (256, 128, 1, 8, 8)]),
]


def _us(ns: float) -> str:
    return f"{ns / 1000:,.1f}"


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--device", "device_name", default="n150", show_default=True, help="Device preset.")
def main(device_name: str) -> None:
    """Print the table."""
    device = preset(device_name)
    p = CostModel(device).params
    cores = device.num_cores
    l1 = device.l1_size - device.l1_unreserved_base
    per_core = p.matmul_cycles_lofi * FIDELITY_PASSES["HiFi2"] / p.clock_ghz  # ns per 32x32x32 block
    table = Table(title=f"conv3d estimates ({device_name}, {cores} cores, HiFi2, DRAM interleaved)")
    for col in ("conv3d", "blocking C_in/C_out/T/H/W", "cores", "estimate us", "compute / dram / sync us",
                "ideal us", "im2col matmul us", "estimate / matmul"):  # fmt: skip
        table.add_column(col, justify="left" if col.startswith(("conv3d", "blocking")) else "right")
    for name, shape, blockings in CASES:
        flops = conv3d_flops(shape)
        ideal = flops / (2 * 32**3) * per_core / cores
        voxels = shape.batch * shape.t_out * shape.h_out * shape.w_out
        k = shape.kernel_volume * shape.in_channels
        mm = matmul_terms(p, voxels, k, shape.out_channels, "bf16", "bf16", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", cores)
        for c_in, c_out, t, h, w in blockings:
            blocking = Conv3dBlocking(t, w, h, c_out, c_in)
            terms = conv3d_terms(p, shape, blocking, cores, 2, "bf16", "bf16", l1_bytes=l1)
            split = conv3d_split(shape, blocking, cores)
            parts = f"{_us(terms.compute_ns)} / {_us(terms.dram_ns)} / {_us(terms.sync_ns)}"
            table.add_row(
                name, f"{c_in}/{c_out}/{t}/{h}/{w}", str(split.cores), _us(terms.ns), parts, _us(ideal), _us(mm.ns),
                f"{terms.ns / mm.ns:.1f}x",
            )  # fmt: skip
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
