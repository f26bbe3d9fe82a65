"""`ttopt layouts TENSOR_TYPE`: the candidate layout pool of a tensor type (seed 002 §3.1.2-3.1.3).

Exit codes: 0 ok, 2 usage error (bad tensor type, unknown device preset, bad cap). rich and the
device model are imported inside the command so `ttopt --help` stays fast.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

DEVICE_HELP = "Device preset (wormhole_b0, n150, blackhole) or a system-desc file (.mlir, .yaml, .json)."


def console() -> Any:
    """A rich console on stdout; wide and colourless when stdout is not a terminal (pipes, tests)."""
    from rich.console import Console

    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, width=240, color_system=None)


def load_device_or_exit(spec: str | None, module: Any = None, cap: float | None = None, input_name: str = "") -> Any:
    """`load_device`, turning DeviceError into a usage error (exit 2) or an input error (exit 1)."""
    from ttopt.device import DeviceError, load_device

    try:
        return load_device(spec, module=module, cap=cap)
    except DeviceError as e:
        if e.usage:
            raise click.UsageError(e.message) from None
        from ttopt.ir.diagnostics import Diagnostic

        sys.stderr.write(Diagnostic(e.message, e.pos).render(input_name or "<input>") + "\n")
        sys.exit(1)


def check_device_flags(spec: str | None, cap: float | None, max_legal_layouts: int) -> None:
    """The device flags checked as `opt --ttnn-optimizer` checks them: a usage error (exit 2)
    before any input is read."""
    from ttopt.device import DeviceError, check_device_options

    try:
        check_device_options(spec, cap, max_legal_layouts)
    except DeviceError as e:
        raise click.UsageError(e.message) from None


def core_ranges_text(ranges: tuple[tuple[int, int, int, int], ...]) -> str:
    """`[(0,0)-(7,0), (0,1)-(3,1)]`."""
    return "[" + ", ".join(f"({x0},{y0})-({x1},{y1})" for x0, y0, x1, y1 in ranges) + "]"


def layout_record(index: int, layout: Any, kind: str) -> dict[str, Any]:
    """JSON-ready description of one candidate layout."""
    from ttopt.device import layout_info

    info = layout_info(layout)
    return {
        "index": index,
        "kind": kind,
        "page_layout": "tile" if info.tiled else "row_major",
        "buffer": info.buffer.value,
        "memory_layout": info.memory_layout.value if info.memory_layout else None,
        "grid": list(info.grid),
        "shard_shape": list(info.shard_shape),
        "shard_unit": "tiles" if info.tiled else "elements",
        "shard_bytes": info.shard_bytes,
        "bytes_per_core": info.per_core_bytes,
        "core_ranges": [list(r) for r in info.ranges] if info.sharded else [],
        "layout": layout.text,
    }


@click.command("layouts")
@click.argument("tensor_type", metavar="TENSOR_TYPE")
@click.option("--device", "device_spec", default=None, metavar="D", help=DEVICE_HELP)
@click.option("--max-legal-layouts", type=int, default=8, show_default=True,
              help="Sharded layouts kept per op (the first N by grid volume), >= 0.")
@click.option("--row-major-enabled", is_flag=True, help="Also generate row-major layouts.")
@click.option("--all", "show_all", is_flag=True, help="Show the whole pool, not only what an op would get.")
@click.option("--tensor-l1-usage-cap", "cap", type=float, default=None,
              help="Fraction of L1 usable by tensors, in (0, 1] (default 1.0).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def layouts(tensor_type: str, device_spec: str | None, max_legal_layouts: int, row_major_enabled: bool,
            show_all: bool, cap: float | None, as_json: bool) -> None:  # fmt: skip
    """Candidate layouts of TENSOR_TYPE (e.g. 64x64xbf16, 1x1x8x64xbf16, 'tensor<32x32xf32>'),
    in the order the optimizer tries them: interleaved first, then sharded by grid volume."""
    from ttopt.device import TensorTypeError, layout_pool, parse_tensor_type

    check_device_flags(device_spec, cap, max_legal_layouts)
    try:
        desc = parse_tensor_type(tensor_type)
    except TensorTypeError as e:
        raise click.BadParameter(e.message, param_hint="TENSOR_TYPE") from None
    device = load_device_or_exit(device_spec, cap=cap)
    pool = layout_pool(desc.shape, desc.dtype, device.worker_grid, row_major_enabled)
    if show_all:
        entries = [(lay, "interleaved") for lay in pool.interleaved] + [(lay, "sharded") for lay in pool.sharded_row_major + pool.sharded]
    else:
        entries = [(lay, "interleaved") for lay in pool.interleaved] + [(lay, "sharded") for lay in pool.top_sharded(max_legal_layouts)]
    n_sharded = len(pool.sharded) + len(pool.sharded_row_major)
    records = [layout_record(i, lay, kind) for i, (lay, kind) in enumerate(entries)]
    if as_json:
        doc = {
            "tensor": desc.text,
            "device": {"name": device.name, "arch": device.arch, "worker_grid": list(device.worker_grid),
                       "usable_l1": device.usable_l1},
            "max_legal_layouts": None if show_all else max_legal_layouts,
            "row_major_enabled": row_major_enabled,
            "pool": {"interleaved": len(pool.interleaved), "sharded": n_sharded},
            "layouts": records,
        }  # fmt: skip
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return
    from rich.table import Table

    shown = sum(1 for _, k in entries if k == "sharded")
    title = (
        f"{desc.text} on {device.name} ({device.worker_grid[0]}x{device.worker_grid[1]} cores): "
        f"{len(pool.interleaved)} interleaved + {shown} of {n_sharded} sharded candidates"
        + ("" if show_all else f" (max-legal-layouts {max_legal_layouts})")
    )
    table = Table()
    right = ("#", "bytes/core")
    for col in ("#", "page", "buffer", "memory layout", "grid", "shard", "bytes/core", "core ranges"):
        table.add_column(col, justify="right" if col in right else "left", overflow="fold")
    for r in records:
        unit = "tiles" if r["shard_unit"] == "tiles" else "elems"
        table.add_row(
            str(r["index"]), "tile" if r["page_layout"] == "tile" else "row_major", r["buffer"], r["memory_layout"] or "-",
            "x".join(map(str, r["grid"])), f"{r['shard_shape'][0]}x{r['shard_shape'][1]} {unit}",
            str(r["bytes_per_core"]) if r["buffer"] == "l1" else "- (DRAM)",
            core_ranges_text(tuple(tuple(x) for x in r["core_ranges"])) if r["core_ranges"] else "-",
        )  # fmt: skip
    con = console()
    con.print(title)
    con.print(table)
    con.print(f"usable L1 per core on {device.name}: {device.usable_l1} B (tensor L1 usage cap {device.l1_usage_cap})")
