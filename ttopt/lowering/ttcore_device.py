"""`ttcore-register-device` and `ttcore-mark-functions-as-forward`, as ttmlir-opt runs them first in
tt-mlir's lit tests and pipelines.

`ttcore-register-device` puts the system the program targets into the module, as tt-mlir's
TTCoreRegisterDevice does: a `ttcore.system_desc` module attribute (the chip descriptor of a
device preset, kept when the module already has one) and a `ttcore.device @default_device`
symbol (worker grid, DRAM grid, address maps, mesh shape, chip ids) unless the module has one; in
a module already wrapped in a `ttcore.device_module`, both go to its inner module.
tt-mlir reads `system-desc-path` as a flatbuffer system desc captured from a machine; ttopt reads
it as one of its device presets (wormhole_b0, n150, blackhole) or a ttopt device file (`.mlir`
with a system desc, YAML/JSON chip fields; chip 0 is registered); without it the mock desc of
`mock-system-desc-arch` is used (tt-mlir's SystemDescAttr::getDefault).

`ttcore-mark-functions-as-forward` tags every public `func.func` that has no
`tt.function_type` with `tt.function_type = "forward_device"` (the optimizer's forward functions).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.device.device import Device, DeviceError, from_module_desc, load_device
from ttopt.device.presets import CHIP_PRESETS, ChipPreset
from ttopt.ir.attributes import DialectAttr, StringAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.operation import Operation
from ttopt.lowering.device_module import device_inner_module
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

FUNCTION_TYPE = "tt.function_type"
FORWARD_DEVICE = "forward_device"
DEVICE_NAME = "default_device"
SYSTEM_DESC = "ttcore.system_desc"
MOCK_ARCHS = ("wormhole_b0", "blackhole", "quasar")
TOPOLOGIES = ("ring", "linear", "disabled")

# The data types and tile sizes every tt-mlir system desc lists (SystemDescAttr::getDefault).
_DATA_TYPES = "[<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>]"
_TILE_SIZES = "[ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32]"
# Wormhole's DRAM bank -> nearest worker core, per NoC (getDefault's wormhole_b0 tables).
_WORMHOLE_DRAM_NOC = (
    "dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), (0, 4), (4, 0), (4, 4), (7, 7), (7, 0), (0, 7), (3, 3), (4, 7), (7, 4), (3, 0)], "
    "dram_bank_to_logical_worker_noc1 = [(7, 4), (0, 1), (0, 5), (4, 1), (4, 5), (7, 6), (7, 1), (0, 6), (3, 4), (4, 6), (7, 5), (3, 1)]"
)
_DRAM_MAP = ("(d0, d1, d2)[s0, s1, s2, s3, s4, s5, s6] -> (0, 0, (((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) floordiv s4) mod {n}, "
             "((((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) floordiv s4) floordiv {n}) * s4 + ((d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2) mod s4 + s5)")  # fmt: skip


def chip_desc_text(chip: ChipPreset) -> str:
    """One chip descriptor, spelled as tt-mlir prints it."""
    dram_noc = f", {_WORMHOLE_DRAM_NOC}" if chip.arch == "wormhole_b0" else ""
    return (f"{{arch = <{chip.arch}>, grid = {chip.grid[0]}x{chip.grid[1]}, coord_translation_offsets = 18x18, l1_size = {chip.l1_size}, "
            f"num_dram_channels = {chip.num_dram_channels}, dram_channel_size = {chip.dram_channel_size}, noc_l1_address_align_bytes = 16, "
            f"pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = {chip.l1_unreserved_base}, "
            f"erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = {chip.dram_channel_size}, "
            f"supported_data_types = {_DATA_TYPES}, supported_tile_sizes = {_TILE_SIZES}, dst_physical_size_tiles = {chip.dst_physical_size_tiles}, "
            f"num_cbs = {chip.num_cbs}, num_compute_threads = 1, num_datamovement_threads = 2, "
            f"dram_grid = {chip.dram_grid[0]}x{chip.dram_grid[1]}{dram_noc}}}")  # fmt: skip


def chip_of(device: Device) -> ChipPreset:
    """The chip fields of a device read from a file, as a preset (the fields a file does not give keep tt-mlir's defaults)."""
    return ChipPreset(device.name, device.arch, device.worker_grid, device.l1_size, device.l1_unreserved_base,
                      device.num_dram_channels, device.dram_channel_size, device.dram_grid, device.dst_physical_size_tiles,
                      32, device.source)  # fmt: skip


def system_desc_body(chip: ChipPreset, chips: int = 1) -> str:
    """A `#ttcore.system_desc` body: one host CPU and `chips` identical chips on a row of the mesh."""
    indices = ", ".join("0" for _ in range(chips))
    caps = ", ".join("1 : i32" for _ in range(chips))
    coords = ", ".join(f" 0x0x0x{i}" for i in range(chips))
    return f'[{{role = host, target_triple = "x86_64-pc-linux-gnu"}}], [{chip_desc_text(chip)}], [{indices}], [{caps}], [{coords}]'


def device_body(chip: ChipPreset, mesh: list[int], topology: list[str]) -> str:
    """A `#ttcore.device` body for `chip` on `mesh` (empty: the single device tt-mlir leaves unshaped)."""
    rows, cols = chip.grid
    chips = 1
    for d in mesh:
        chips *= d
    grid = f"#ttcore.grid<{rows}x{cols}, virt_to_physical_map = (d0, d1) -> (0, d0, d1), physical_to_virt_map = (d0, d1, d2) -> (d1, d2)>"
    text = (f"workerGrid = {grid}, dramGrid = #ttcore.grid<{chip.dram_grid[0]}x{chip.dram_grid[1]}>, "
            f"l1Map = (d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0), dramMap = {_DRAM_MAP.format(n=chip.num_dram_channels)}, "
            f"meshShape = {'x'.join(map(str, mesh))}, chipIds = [{', '.join(str(i) for i in range(chips))}]")  # fmt: skip
    if topology:
        text += f", meshTopology = [{', '.join(topology)}]"
    return text


@register_pass
@dataclass
class TTCoreRegisterDevice(Pass):
    """Add the `ttcore.system_desc` module attribute and the `ttcore.device @default_device` symbol."""

    name = "ttcore-register-device"
    summary = "Register the target device: the ttcore.system_desc module attribute and ttcore.device @default_device"

    system_desc_path: str = option("", "Device preset (wormhole_b0, n150, blackhole) or ttopt device file (.mlir, YAML, JSON) standing for tt-mlir's system-desc file")
    mock_system_desc_arch: str = option("wormhole_b0", "Arch of the mock system desc used without system-desc-path", choices=MOCK_ARCHS)
    mesh_shape: list[int] = option([], "Device mesh AxB (default: the module's ttcore.meshes, else a single device)")
    mesh_topology: list[str] = option([], "Per-axis mesh topology: ring, linear or disabled")

    def validate(self) -> None:
        """Preset names, arch, mesh and topology are checked before the input is read."""
        if self.system_desc_path and self.system_desc_path not in CHIP_PRESETS:
            self.chip()
        if not self.system_desc_path and self.mock_system_desc_arch == "quasar":
            raise ValueError("mock-system-desc-arch=quasar: ttopt has no quasar chip preset (wormhole_b0, blackhole)")
        if self.mesh_shape and (len(self.mesh_shape) not in (1, 2) or any(int(d) < 1 for d in self.mesh_shape)):
            raise ValueError(f"mesh-shape must be one or two positive sizes (AxB), got {','.join(map(str, self.mesh_shape))}")
        bad = [t for t in self.mesh_topology if t not in TOPOLOGIES]
        if bad:
            raise ValueError(f"mesh-topology: unknown topology '{bad[0]}' (one of {', '.join(TOPOLOGIES)})")

    def chip(self) -> ChipPreset:
        """The chip the options name: a preset, or chip 0 of a device file (ValueError if unreadable)."""
        name = self.system_desc_path or self.mock_system_desc_arch
        if name in CHIP_PRESETS:
            return CHIP_PRESETS[name]
        if not os.path.isfile(name):
            raise ValueError(f"system-desc-path: '{name}' is neither a device preset ({', '.join(CHIP_PRESETS)}) nor a file; "
                             "ttopt does not read tt-mlir's flatbuffer system descs")  # fmt: skip
        try:
            return chip_of(load_device(name))
        except DeviceError as e:
            raise ValueError(f"system-desc-path: {e.message}") from None

    def run(self, module: Module, ctx: PassContext) -> None:
        """Set the system desc (unless present, or replace it when a preset is named) and add the device symbol."""
        target = device_inner_module(module)
        mesh = self._mesh(module, target)
        chips = 1
        for d in mesh:
            chips *= d
        if self.system_desc_path or SYSTEM_DESC not in target.attributes:
            chip = self.chip()
            desc = DialectAttr("ttcore.system_desc", system_desc_body(chip, chips))
            target.attributes[SYSTEM_DESC] = module.aliases.add_attr("system_desc", desc)
        else:
            # The device is the chip of the system desc the module has (as tt-mlir builds it from that desc).
            try:
                found = from_module_desc(module)
            except DeviceError as e:
                raise Diagnostic(f"{self.name}: {e.message}", e.pos or op_position(module.source, target)) from None
            chip = chip_of(found) if found is not None else self.chip()
        body = target.regions[0].entry
        if any(op.name == "ttcore.device" for op in body.ops):
            return
        device = Operation("ttcore.device", properties={"sym_name": StringAttr(DEVICE_NAME),
                                                        "device_attr": DialectAttr("ttcore.device", device_body(chip, mesh, self.mesh_topology))})  # fmt: skip
        body.insert(0, device)

    def _mesh(self, module: Module, target: Operation) -> list[int]:
        """tt-mlir's determineMeshShape: the module's first ttcore.meshes mesh, which mesh-shape must equal."""
        want = [int(d) for d in self.mesh_shape]
        want = [1, *want] if len(want) == 1 else want
        attr = target.attributes.get("ttcore.meshes")
        typed = getattr(attr.resolve(), "typed", None) if attr is not None else None
        meshes = getattr(typed, "meshes", ()) if typed is not None else ()
        if not meshes:
            return want
        have = list(meshes[0].shape)
        if want and want != have:
            raise Diagnostic(f"{self.name}: mesh-shape {'x'.join(map(str, want))} differs from the module's mesh "
                             f"{'x'.join(map(str, have))} (ttcore.meshes)", op_position(module.source, module.op))  # fmt: skip
        return have


@register_pass
@dataclass
class TTCoreMarkFunctionsAsForward(Pass):
    """Tag public functions without a `tt.function_type` as forward device functions."""

    name = "ttcore-mark-functions-as-forward"
    summary = 'Tag every public func.func without tt.function_type as tt.function_type = "forward_device"'

    def run(self, module: Module, ctx: PassContext) -> None:
        """Set the attribute on every untagged public function (private ones are helpers)."""
        for fn in module.functions():
            visibility = fn.properties.get("sym_visibility")
            if FUNCTION_TYPE in fn.attributes or getattr(visibility, "value", None) == "private":
                continue
            fn.attributes[FUNCTION_TYPE] = StringAttr(FORWARD_DEVICE)
