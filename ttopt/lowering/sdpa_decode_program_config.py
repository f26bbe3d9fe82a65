"""`ttnn-paged-sdpa-decode-program-config`: a paged SDPA decode gets the program config tt-metal's
Blackhole kernel needs (tt-mlir's PagedScaledDotProductAttentionDecodeProgramConfigRewritePattern,
one of its ttnn-workaround decompositions).

On Blackhole every `ttnn.paged_scaled_dot_product_attention_decode` carries a
`#ttnn.sdpa_program_config` with `exp_approx_mode = false`: an existing config keeps its other
parameters; without one it gets tt-metal's paged-decode defaults (the device's worker grid as
`compute_with_storage_grid_size`, chunk sizes 32, `max_cores_per_head_batch = 1`). Other
architectures are left as they are. `ttnn-workaround` applies it with its decompositions, as
tt-mlir's does (for the module's chip); this pass does it alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_attrs import SDPAProgramConfigAttr
from ttopt.ir.attributes import DialectAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

PAGED_SDPA_DECODE = "ttnn.paged_scaled_dot_product_attention_decode"
DECODE_CHUNK = 32  # tt-metal's kDefaultDecodeChunkSize
MAX_CORES_PER_HEAD_BATCH = 1  # tt-metal's kDefaultMaxCoresPerHeadBatch


def program_config(existing: SDPAProgramConfigAttr | None, worker_grid: tuple[int, int]) -> SDPAProgramConfigAttr:
    """The config a Blackhole paged decode runs with: `existing` (or tt-metal's defaults on a
    [rows, columns] worker grid) with `exp_approx_mode = false`."""
    if existing is None:
        values: dict[str, str] = {
            "compute_with_storage_grid_size": f"#ttnn.core_coord<{worker_grid[1]}, {worker_grid[0]}>",
            "q_chunk_size": str(DECODE_CHUNK), "k_chunk_size": str(DECODE_CHUNK),
            "max_cores_per_head_batch": str(MAX_CORES_PER_HEAD_BATCH),
        }  # fmt: skip
    else:
        values = dict(existing.params)
    values["exp_approx_mode"] = "false"
    return SDPAProgramConfigAttr(params=tuple((k, values[k]) for k in SDPAProgramConfigAttr.ORDER if k in values))


def _existing(op: Any) -> SDPAProgramConfigAttr | None:
    attr = op.properties.get("program_config")
    if attr is None:
        return None
    typed = getattr(attr.resolve(), "typed", None)
    if not isinstance(typed, SDPAProgramConfigAttr):
        raise AttrError("program_config is not a #ttnn.sdpa_program_config")
    return typed


def set_program_configs(module: Module, arch: str, worker_grid: tuple[int, int]) -> int:
    """Give every paged SDPA decode of `module` its Blackhole program config; how many changed."""
    if arch != "blackhole":
        return 0
    changed = 0
    for op in module.walk():
        if op.name != PAGED_SDPA_DECODE:
            continue
        try:
            existing = _existing(op)
        except AttrError as e:
            raise Diagnostic(f"'{op.name}' op {e.message}", op_position(module.source, op)) from None
        desired = program_config(existing, worker_grid)
        if existing is not None and existing.params == desired.params:
            continue
        op.properties["program_config"] = DialectAttr.of(desired)
        op.properties = dict(sorted(op.properties.items()))
        changed += 1
    return changed


@register_pass
@dataclass
class TTNNPagedSDPADecodeProgramConfig(Pass):
    """Give Blackhole paged SDPA decodes their program config (tt-mlir's ttnn-workaround decomposition)."""

    name = "ttnn-paged-sdpa-decode-program-config"
    summary = "On Blackhole, every ttnn.paged_scaled_dot_product_attention_decode gets a #ttnn.sdpa_program_config with exp_approx_mode = false (tt-metal's paged-decode defaults when it has none)"

    device: str = option("", "Device preset (wormhole_b0, n150, blackhole) or system-desc file, when the module has no ttcore.system_desc")

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.device.device import load_device

        dev = load_device(self.device or ctx.device, module)
        count = set_program_configs(module, dev.arch, tuple(dev.worker_grid))  # type: ignore[arg-type]
        ctx.stats.setdefault(self.name, {})["configured"] = count
