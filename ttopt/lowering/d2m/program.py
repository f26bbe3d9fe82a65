"""`#ttnn.program<kernels = [...], cbs = [...], semaphores = []>` as tt-mlir's D2MToTTNN builds it
(TTNNOpsAttrs.td): data-movement kernels on riscv1/noc0 (reader, D2M's dm core 1) and riscv0/noc1
(writer, dm core 0), the compute kernel at HiFi4 with D2M's fixed compute config, one circular
buffer per port (page = one tile), a buffer aliased to a tensor naming it by io index."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class CbDesc:
    """One circular buffer: pages of `page_size` bytes, `pages` of them, optionally a tensor's shard."""

    dtype: str
    page_size: int
    pages: int
    tensor: int | None = None


def core_ranges(grid: tuple[int, int]) -> str:
    """The core range set of a grid at the origin (x is the column)."""
    return f"<[#ttnn.core_range<(0, 0), ({grid[1] - 1}, {grid[0] - 1})>]>"


def _args(items: Sequence[str]) -> str:
    return ", ".join(items)


def data_movement_kernel(symbol: str, grid: tuple[int, int], reader: bool, ct: Sequence[str], common_rt: Sequence[str]) -> str:
    """A `#ttnn.data_movement_kernel` (reader: riscv1 on noc0; writer: riscv0 on noc1)."""
    proc, noc = ("riscv1", "noc0") if reader else ("riscv0", "noc1")
    return (f"#ttnn.data_movement_kernel<symbol_ref = @{symbol}, core_ranges = {core_ranges(grid)}, processor = {proc}, "
            f"noc_index = {noc}, noc_mode = dedicated_noc, ct_args = [{_args(ct)}], common_rt_args = [{_args(common_rt)}], rt_args = []>")  # fmt: skip


def compute_kernel(symbol: str, grid: tuple[int, int], ct: Sequence[str]) -> str:
    """A `#ttnn.compute_kernel` with D2M's compute config (HiFi4, no fp32 DST accumulation)."""
    return (f"#ttnn.compute_kernel<symbol_ref = @{symbol}, core_ranges = {core_ranges(grid)}, math_fidelity = hifi4, "
            "fp32_dest_acc_en = false, dst_full_sync_en = false, unpack_to_dest_modes = [default], bfp8_pack_precise = false, "
            f"math_approx_mode = false, ct_args = [{_args(ct)}], common_rt_args = [], rt_args = []>")  # fmt: skip


def cb_port(port: int) -> str:
    """`#ttnn.kernel_arg_cb_buffer_index<port>`."""
    return f"#ttnn.kernel_arg_cb_buffer_index<{port}>"


def tensor_address(index: int) -> str:
    """`#ttnn.kernel_arg_address_of_tensor<index>` (io index)."""
    return f"#ttnn.kernel_arg_address_of_tensor<{index}>"


def tensor_accessor(index: int) -> str:
    """`#ttnn.kernel_arg_tensor_accessor_args<index>` (io index)."""
    return f"#ttnn.kernel_arg_tensor_accessor_args<{index}>"


def program_body(kernels: Sequence[str], cbs: Sequence[CbDesc], grid: tuple[int, int]) -> str:
    """The body of `#ttnn.program<...>` (array elements of typed parameters print without prefix)."""
    cb_texts = []
    for port, cb in enumerate(cbs):
        text = (f"<total_size = {cb.page_size * cb.pages}, core_ranges = {core_ranges(grid)}, "
                f"formats = [<buffer_index = {port}, dtype = {cb.dtype}, page_size = {cb.page_size}>]")  # fmt: skip
        if cb.tensor is not None:
            text += f", buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<{cb.tensor}>"
        cb_texts.append(text + ">")
    return f"kernels = [{_args(kernels)}], cbs = [{_args(cb_texts)}], semaphores = []"
