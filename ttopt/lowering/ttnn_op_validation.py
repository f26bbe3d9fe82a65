"""`ttnn-operation-validation-and-fallback`: a TTNN op whose result type is not what the op produces
gets the type it produces, and a `ttnn.to_tensor_spec` back to the type the program expects (the
output-layout revert of tt-mlir's OpValidator pass).

tt-mlir asks the op model for the op's real output; ttopt has no op model library, so the output
is derived the way tt-metal's kernels produce it: the data type and page layout (tile or
row-major) of the op's first tensor operand, in the memory the result type names; sort and top-k
indices come out as ui16 (ui32 past 65535 padded elements), argmax as ui32, as
`ttnn-workaround` knows them. Creation, layout-conversion, device and conv ops (whose output the
op decides from its attributes) are left alone, as are ops whose result already matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.device.tensor import element_dtype
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType
from ttopt.lowering.ttnn_workarounds import WORKAROUNDS
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

# Ops whose output the op's attributes decide (or that move data between layouts): not validated.
SKIPPED = frozenset({
    "ttnn.get_device", "ttnn.deallocate", "ttnn.to_layout", "ttnn.to_memory_config", "ttnn.to_device", "ttnn.from_device",
    "ttnn.typecast", "ttnn.to_dtype", "ttnn.to_tensor_spec", "ttnn.empty", "ttnn.zeros", "ttnn.ones", "ttnn.full",
    "ttnn.constant", "ttnn.arange", "ttnn.rand", "ttnn.conv2d", "ttnn.conv_transpose2d", "ttnn.conv3d", "ttnn.prepare_conv2d_weights",
    "ttnn.prepare_conv2d_bias", "ttnn.embedding", "ttnn.max_pool2d", "ttnn.avg_pool2d", "ttnn.upsample", "ttnn.update_cache",
    "ttnn.fill_cache", "ttnn.paged_update_cache", "ttnn.paged_fill_cache",
})  # fmt: skip
INDEX_RESULTS = {"ttnn.sort": 1, "ttnn.topk": 1, "ttnn.argmax": 0}


def _layout(t: Any) -> TTNNLayoutAttr | None:
    enc = t.encoding if isinstance(t, TensorType) else None
    lay = getattr(enc.resolve(), "typed", None) if enc is not None else None
    return lay if isinstance(lay, TTNNLayoutAttr) else None


def _produced(op: Operation, index: int, aliaser: LayoutAliaser) -> TensorType | None:
    """The type result `index` of `op` comes out in, None when it is the declared one or unknown."""
    declared = op.results[index].type.resolve()
    src = next((v.type.resolve() for v in op.operands if _layout(v.type.resolve()) is not None), None)
    out_lay, in_lay = _layout(declared), _layout(src)
    if out_lay is None or in_lay is None:
        return None
    dtype: DataType | None = element_dtype(src)
    if op.name in INDEX_RESULTS and index == INDEX_RESULTS[op.name]:
        rule = WORKAROUNDS.get(op.name)
        dtype = rule(op)[1][index] if rule is not None else None
        dtype = dtype or element_dtype(declared)
    if dtype is None:
        return None
    tiled = in_lay.is_tiled
    if dtype is element_dtype(declared) and tiled == out_lay.is_tiled:
        return None
    shape = tuple(int(d) for d in declared.shape or () if d is not None)
    return aliaser.tensor_type(declared, out_lay.relayout(shape, dtype=dtype, tiled=tiled))


def validate(module: Module) -> int:
    """Retype every op whose result is not what it produces, reverting through `ttnn.to_tensor_spec`; how many."""
    aliaser = LayoutAliaser(module)
    count = 0
    for func in module.functions():
        if not func.regions or not func.regions[0].blocks:
            continue
        for block in func.regions[0].blocks:
            out: list[Operation] = []
            for op in block.ops:
                out.append(op)
                if not op.name.startswith("ttnn.") or op.name in SKIPPED:
                    continue
                for i, r in enumerate(op.results):
                    try:
                        t = _produced(op, i, aliaser)
                    except (ValueError, TypeError):
                        t = None  # a layout the builder cannot express: leave the op as it is
                    if t is None:
                        continue
                    declared = r.type
                    r.type = t
                    spec = Operation("ttnn.to_tensor_spec", [r], [declared], location=op.location)
                    spec.pos = op.pos
                    r.replace_all_uses_with(spec.results[0], except_in=spec)
                    out.append(spec)
                    count += 1
            for op in out:
                op.parent = block
            block.ops = out
        update_function_type(func)
    return count


@register_pass
@dataclass
class TTNNOperationValidationAndFallback(Pass):
    """Give each TTNN op the output type it produces and revert to the expected one through ttnn.to_tensor_spec."""

    name = "ttnn-operation-validation-and-fallback"
    summary = "TTNN ops get the output data type and page layout their kernels produce, with a ttnn.to_tensor_spec back to the expected type"

    def run(self, module: Module, ctx: PassContext) -> None:
        ctx.stats.setdefault(self.name, {})["reverted"] = validate(module)
