"""A `ttir.conv2d` / `ttir.conv_transpose2d` (or `ttir.conv3d`, with `depth_dim`) whose `batch_dim` /
`height_dim` / `width_dim` / `channel_dim` are not NHWC (0, 1, 2, 3) becomes permute -> the NHWC
conv -> permute back, with the bias permuted the same way
(tt-mlir's ConvChannelLastDecompositionPattern in TTIRToTTIRDecomposition). The weight keeps its
(O, C/G, KH, KW) form (a transposed conv's (C, O/G, KH, KW)), which does not depend on the
activation layout."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType

if TYPE_CHECKING:
    from ttopt.ir.values import Value

DIMS = ("batch_dim", "height_dim", "width_dim", "channel_dim")
# Each conv's layout dimensions in channel-last order (conv3d: HEAD's Conv3dChannelLastDecompositionPattern).
DIMS_OF = {"ttir.conv2d": DIMS, "ttir.conv_transpose2d": DIMS, "ttir.conv3d": ("batch_dim", "depth_dim", "height_dim", "width_dim", "channel_dim")}


def _dim(op: Operation, name: str, default: int) -> int:
    v = getattr(op.get_attr(name), "value", None) if op.get_attr(name) is not None else None
    return v if isinstance(v, int) else default


def _permute(op: Operation, v: Value, perm: list[int]) -> Value:
    t = v.type.resolve()
    shape = tuple(t.shape[p] for p in perm)
    new = Operation("ttir.permute", [v], [TensorType(shape, t.element_type, t.encoding)],
                    properties={"permutation": DenseArrayAttr("i64", tuple(perm))}, location=op.location)  # fmt: skip
    new.pos = op.pos
    block = op.parent
    block.insert(block.index(op), new)  # type: ignore[union-attr]
    return new.results[0]


def channel_last_conv(op: Operation) -> Value | None:
    """The channel-last (NHWC / NDHWC) form of a conv2d / conv3d in another layout (its replacement
    value), or None when it is channel-last already."""
    dims = DIMS_OF[op.name]
    to_nhwc = [_dim(op, name, i) for i, name in enumerate(dims)]
    identity = list(range(len(dims)))
    if to_nhwc == identity or op.get_attr("flattened_compat_info") is not None:
        return None  # a flattened conv reads 1x1x(N*H*W)xC: other layout dims are the lowering's error
    if sorted(to_nhwc) != identity:
        return None  # not a permutation: the verifier reports it, the lowering names it
    ins = inputs(op)
    x = _permute(op, ins[0], to_nhwc)
    operands: list[Any] = [x, ins[1]]
    if len(ins) > 2:
        operands.append(_permute(op, ins[2], to_nhwc))
    out = op.results[0].type.resolve()
    nhwc = TensorType(tuple(out.shape[p] for p in to_nhwc), out.element_type, out.encoding)
    properties = {k: v for k, v in op.properties.items() if k not in dims}
    if "operandSegmentSizes" in properties:
        properties["operandSegmentSizes"] = DenseArrayAttr("i32", (1, 1, int(len(operands) > 2)))
    conv = Operation(op.name, operands, [nhwc], properties=properties, location=op.location)
    conv.pos = op.pos
    block = op.parent
    block.insert(block.index(op), conv)  # type: ignore[union-attr]
    back = [to_nhwc.index(i) for i in identity]
    return _permute(op, conv.results[0], back)
