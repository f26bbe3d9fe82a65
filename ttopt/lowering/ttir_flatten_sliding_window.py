"""`ttir-flatten-sliding-window`: the sliding-window ops read and write their NHWC tensors flattened
to `1x1x(N*H*W)xC`, the form TTNN's conv and pool kernels take (tt-mlir's TTIRFlattenSlidingWindow;
the backend pipeline runs it after `ttir-fusing`).

Each `ttir.conv2d`, `ttir.conv_transpose2d`, `ttir.max_pool2d`, `ttir.max_pool2d_with_indices` and
`ttir.avg_pool2d` without a `flattened_compat_info` becomes

    %x_flat = "ttir.reshape"(%x)      // N x H x W x C -> 1 x 1 x (N*H*W) x C
    %y_flat = the op on %x_flat, with flattened_compat_info = #ttir<flattened_compat batch_size = N,
              input_height = H, input_width = W> and result 1 x 1 x (N*OH*OW) x OC
    %y      = "ttir.reshape"(%y_flat) // back to the op's result type

so consecutive sliding-window ops have reshape pairs between them that `ttir-erase-inverse-ops`
can cancel. Weight and bias operands and every attribute stay as they were (the discardable
ones too); a destination-passing `ttir.empty` output of older TTIR is dropped, except that
`max_pool2d_with_indices`, destination-passing in HEAD, gets two new ones of its flattened result
types, and both of its results are reshaped back. As HEAD's, the input reshape is located at the
input's location with `_reshape` appended (a named location; any other stays as it is), the
output reshapes at the op's, the new op and its outputs at the op's own.

Left alone: an op flattened already; a conv whose `batch_dim` / `height_dim` / `width_dim` /
`channel_dim` are not NHWC (0, 1, 2, 3) — HEAD's pipeline makes every conv NHWC first
(`ttir-to-ttir-decomposition`), ttopt's conversion does it when it converts the op, which it
then converts unflattened; and an op whose input or results are not static rank-4 tensors (HEAD
asserts there), which the conversion reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import SLIDING_WINDOW, inputs
from ttopt.dialects.ttir_attrs import FLATTENED_COMPAT_INFO, FlattenedCompatInfo
from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.location import suffixed_location
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType, TensorType
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.location import Location
    from ttopt.ir.module import Module
    from ttopt.ir.types import Type
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

I32 = ScalarType("i32")
LAYOUT_DIMS = ("batch_dim", "height_dim", "width_dim", "channel_dim")
WITH_INDICES = "ttir.max_pool2d_with_indices"


def _nhwc_shape(v: Value) -> tuple[int, int, int, int] | None:
    """The static rank-4 shape of a tensor value, else None."""
    t = v.type.resolve()
    shape = getattr(t, "shape", None) if isinstance(t, TensorType) else None
    if shape is None or len(shape) != 4 or not all(isinstance(d, int) and d >= 0 for d in shape):
        return None
    return (shape[0], shape[1], shape[2], shape[3])


def _is_nhwc(op: Operation) -> bool:
    """The conv's layout dimensions are the default NHWC ones (pools are always NHWC)."""
    for i, name in enumerate(LAYOUT_DIMS):
        a = op.get_attr(name)
        if a is not None and getattr(a.resolve(), "value", None) != i:
            return False
    return True


def flattenable(op: Operation) -> bool:
    """`op` is a sliding-window op in plain NHWC form, all of its tensors static rank-4."""
    if op.name not in SLIDING_WINDOW or op.get_attr(FLATTENED_COMPAT_INFO) is not None or not op.operands:
        return False
    return _is_nhwc(op) and _nhwc_shape(op.operands[0]) is not None and all(_nhwc_shape(r) is not None for r in op.results)


def _flat_type(v: Value) -> TensorType:
    """`v`'s NHWC tensor type as `1x1x(N*H*W)xC` (HEAD's getNHWFlattenedType: no encoding)."""
    n, h, w, c = _nhwc_shape(v)  # type: ignore[misc]  # flattenable() checked every shape
    return TensorType((1, 1, n * h * w, c), v.type.resolve().element_type)


def _location(v: Value) -> Location | None:
    """Where `v` is defined: its op's location, or the block argument's."""
    producer = getattr(v, "op", None)
    return producer.location if producer is not None else getattr(v, "location", None)


def _reshape(v: Value, t: Type, location: Location | None) -> Operation:
    """`ttir.reshape` of `v` to the static tensor type `t`, its shape an i32 array as HEAD's builder writes it."""
    shape = ArrayAttr(tuple(IntegerAttr(int(d or 0), I32) for d in getattr(t.resolve(), "shape", None) or ()))
    return Operation("ttir.reshape", [v], [t], {"shape": shape}, location=suffixed_location(location, "_reshape"))


def flatten(op: Operation) -> list[Operation]:
    """Rewrite one flattenable op (see the module docstring); the ops it created."""
    x = op.operands[0]
    n, h, w, _ = _nhwc_shape(x)  # type: ignore[misc]
    ins = inputs(op)
    dps = op.operands[len(ins):]
    created: list[Operation] = [_reshape(x, _flat_type(x), _location(x))]
    operands: list[Any] = [created[0].results[0], *ins[1:]]
    if op.name == WITH_INDICES:
        empties = [Operation("ttir.empty", [], [_flat_type(r)], location=op.location) for r in op.results]
        created += empties
        operands = [operands[0], *(e.results[0] for e in empties)]
    properties = dict(op.properties)
    properties[FLATTENED_COMPAT_INFO] = FlattenedCompatInfo(batch_size=n, input_height=h, input_width=w).to_attr()
    if "operandSegmentSizes" in properties and "conv" in op.name:  # input, weight, optional bias
        properties["operandSegmentSizes"] = DenseArrayAttr("i32", (1, 1, int(len(operands) > 2)))
    new = Operation(op.name, operands, [_flat_type(r) for r in op.results], properties, dict(op.attributes), location=op.location)
    created.append(new)
    backs = [_reshape(flat, r.type, op.location) for flat, r in zip(new.results, op.results)]
    created += backs
    for made in created:
        made.pos = op.pos
        insert_before(op, made)
    for r, back in zip(op.results, backs):
        r.replace_all_uses_with(back.results[0])
    op.erase()
    for v in dps:  # the old destinations, now read by nothing
        producer = getattr(v, "op", None)
        if producer is not None and producer.name == "ttir.empty" and not v.uses and producer.parent is not None:
            producer.erase()
    return created


@register_pass
@dataclass
class TTIRFlattenSlidingWindow(Pass):
    """Flatten the NHWC tensors of conv2d / conv_transpose2d / pooling to 1x1x(N*H*W)xC between reshapes (tt-mlir's TTIRFlattenSlidingWindow)."""

    name = "ttir-flatten-sliding-window"
    summary = ("conv2d, conv_transpose2d, max_pool2d(_with_indices) and avg_pool2d read and write 1x1x(N*H*W)xC between ttir.reshapes, "
               "marked with #ttir<flattened_compat ...> (NHWC ops with static rank-4 tensors)")  # fmt: skip

    def run(self, module: Module, ctx: PassContext) -> None:
        counts: dict[str, int] = {}
        for op in [o for o in module.walk() if flattenable(o)]:
            flatten(op)
            counts[op.name] = counts.get(op.name, 0) + 1
        ctx.stats.setdefault(self.name, {}).update(counts)
        if ctx.trace.enabled and counts:
            ctx.trace.print(f"[bold]{self.name}[/bold]: " + ", ".join(f"{k} x{v}" for k, v in sorted(counts.items())))
