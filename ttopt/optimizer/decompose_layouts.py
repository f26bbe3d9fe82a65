"""`ttnn-decompose-layouts`: every `ttnn.to_tensor_spec` between two device layouts becomes the
conversion ops tt-mlir's TTNNDecomposeLayouts emits for it (`memory_move.conversion_ops`,
planned by `device/conversion_steps.py`: `ttnn.to_layout` for a page-layout change, `ttnn.typecast`
for a data-type change, `ttnn.to_memory_config` for a memory change, in the order tt-metal can run
them); one between equal layouts is dropped.

One to or from host memory crosses there as tt-mlir's does: device to host is `ttnn.from_device`
and then, on the host, a `ttnn.to_layout` for the page layout and data type; host to device the
`ttnn.to_layout` on the host first, then `ttnn.to_device` into the target memory (with the block's
`ttnn.get_device`, one put at the block's start when there is none); host to host the `ttnn.to_layout`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttnn_device import GET_DEVICE, new_device
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import ranked_shape
from ttopt.optimizer.memory_move import conversion_ops
from ttopt.optimizer.rewrite import LayoutAliaser
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

TO_TENSOR_SPEC = "ttnn.to_tensor_spec"


def _layout(t: Any) -> TTNNLayoutAttr | None:
    t = t.resolve()
    if not isinstance(t, TensorType) or t.encoding is None:
        return None
    lay = getattr(t.encoding.resolve(), "typed", None)
    return lay if isinstance(lay, TTNNLayoutAttr) else None


def decompose(module: Module, worker_grid: tuple[int, int]) -> int:
    """Replace the device-to-device `ttnn.to_tensor_spec` ops of every function; how many."""
    aliaser = LayoutAliaser(module)
    count = 0
    for func in module.functions():
        for region in func.regions:
            for block in region.blocks:
                out: list[Any] = []
                for op in block.ops:
                    if op.name != TO_TENSOR_SPEC or len(op.operands) != 1 or len(op.results) != 1:
                        out.append(op)
                        continue
                    src, dst = _layout(op.operands[0].type), _layout(op.results[0].type)
                    if src is None or dst is None:
                        out.append(op)
                        continue
                    if src.is_system_memory or dst.is_system_memory:
                        new = _host_crossing(module, block, out, op, src, dst, aliaser)
                        op.results[0].replace_all_uses_with(new[-1].results[0] if new else op.operands[0])
                        op.drop_all_references()
                        for n in new:
                            n.parent = block
                        out.extend(new)
                        count += 1
                        continue
                    name = op.location.name if op.location is not None else None
                    new = conversion_ops(op.operands[0], src, dst, aliaser.tensor_type, name or "to_tensor_spec", worker_grid,
                                         location=op.location)  # fmt: skip
                    result = new[-1].results[0] if new else op.operands[0]
                    if new and _layout(result.type) == dst:
                        # The spec's own spelling of the element type: a quantized type's layout
                        # holds only its storage type, which the conversion ops would print instead.
                        result.type = op.results[0].type
                    op.results[0].replace_all_uses_with(result)
                    op.drop_all_references()
                    for n in new:
                        n.parent = block
                    out.extend(new)
                    count += 1
                block.ops = out
    return count


def _host_crossing(module: Module, block: Any, out: list[Any], op: Any, src: TTNNLayoutAttr, dst: TTNNLayoutAttr,
                   aliaser: LayoutAliaser) -> list[Any]:  # fmt: skip
    """The ops taking `op`'s operand across the host boundary to `dst` (the last one's result)."""
    t = op.results[0].type.resolve()
    shape = ranked_shape(t)
    ops: list[Any] = []
    cur = op.operands[0]

    def emit(name: str, operands: list[Any], lay: TTNNLayoutAttr) -> None:
        nonlocal cur
        new = Operation(name, operands, [aliaser.tensor_type(t, lay)], location=op.location)
        new.pos = op.pos
        ops.append(new)
        cur = new.results[0]

    if not src.is_system_memory:
        src = TTNNLayoutAttr.build(shape, src.dtype, tiled=src.is_tiled, buffer_type="system_memory")
        emit("ttnn.from_device", [cur], src)
    on_host = TTNNLayoutAttr.build(shape, dst.dtype, tiled=dst.is_tiled, buffer_type="system_memory")
    if (src.dtype, src.is_tiled) != (on_host.dtype, on_host.is_tiled):
        emit("ttnn.to_layout", [cur], on_host)
    if not dst.is_system_memory:
        emit("ttnn.to_device", [cur, _device(module, block, out)], dst)
    if ops:
        ops[-1].results[0].type = op.results[0].type
    return ops


def _device(module: Module, block: Any, out: list[Any]) -> Any:
    """The block's `ttnn.get_device` result (one put at the start of `out` when there is none)."""
    found = next((o for o in [*out, *block.ops] if o.name == GET_DEVICE and not o.operands), None)
    if found is None:
        found = new_device(module)
        found.parent = block
        out.insert(0, found)
    return found.results[0]


@register_pass
@dataclass
class TTNNDecomposeLayouts(Pass):
    """Lower ttnn.to_tensor_spec to the to_layout / to_memory_config ops that perform it."""

    name = "ttnn-decompose-layouts"
    summary = (
        "Each device-to-device ttnn.to_tensor_spec becomes ttnn.to_layout / ttnn.to_memory_config ops (tt-mlir's TTNNDecomposeLayouts)"
    )

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.device.device import load_device

        ctx.stats.setdefault(self.name, {})["decomposed"] = decompose(module, load_device(None, module).worker_grid)
