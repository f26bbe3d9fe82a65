"""TTIR `distributed_layer_norm` -> TTNN as tt-mlir HEAD leaves it after its TTNN decomposition
(DistributedLayerNormDecompositionRewritePattern, which always applies):

1. the residual, when there is one, added to the input first (`ttnn.add`, location suffix
   `_residual_add`); the sum is what both later steps normalize;
2. `ttnn.layer_norm_pre_all_gather`: each device's partial statistics (sum of x and of x^2) of its
   shard, a result whose last dimension is 64 (two tiles wide), the input's element type;
3. `ttnn.all_gather` of those along the last dimension over `cluster_axis` (64 x the devices on
   that axis wide); over an axis of one device the gather is its input (HEAD's folder);
4. `ttnn.layer_norm_post_all_gather(input, stats, weight?, bias?)` with the op's `epsilon`:
   the normalized shard, the result.

HEAD's TTIR verifier's checks (result shape = input shape, cluster_axis 0 or 1, a positive epsilon,
a residual of the input's shape, a weight / bias whose last dimension is the input's) and its TTNN
op's (weight and bias 1-D) are errors at the op.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr, FloatAttr, IntegerAttr
from ttopt.ir.location import suffixed_location
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.sharding.ttnn_collectives import module_mesh

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

# tt-metal's layer_norm_pre_all_gather writes sum(x) and sum(x^2) as two tiles per row
# (HEAD's ttnn::LAYER_NORM_STATS_WIDTH).
STATS_WIDTH = 64
SEGMENTS = "operandSegmentSizes"
F32, SI32 = ScalarType("f32"), ScalarType("si32")


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in v.type.resolve().shape)


def _check(op: Any, x: Any, weight: Any, bias: Any, residual: Any) -> tuple[int, float]:
    """HEAD's DistributedLayerNormOp verifiers (TTIR, then TTNN), their messages; (axis, epsilon)."""
    shape = _shape(x)
    if _shape(op.results[0]) != shape:
        raise ValueError("output shape must match input shape")
    axis = getattr(op.properties.get("cluster_axis"), "value", None)
    if not isinstance(axis, int):
        raise ValueError("needs the attribute cluster_axis")
    if axis > 1:
        raise ValueError("cluster_axis must be 0 or 1")
    eps = op.properties.get("epsilon")
    epsilon = float(eps.value) if eps is not None else 1e-5
    if epsilon <= 0:
        raise ValueError("epsilon must be positive")
    if residual is not None and _shape(residual) != shape:
        raise ValueError("residual tensor shape must match input tensor shape")
    for v, name in ((weight, "weight"), (bias, "bias")):
        if v is None:
            continue
        if _shape(v)[-1:] != shape[-1:]:
            raise ValueError(f"{name} tensor's last dimension must match input's last dimension")
        if len(_shape(v)) != 1:
            raise ValueError(f"{name} tensor must be 1D with size matching the last dimension of input")
    return axis, epsilon


def lower_distributed_layer_norm(lw: _Lowering, op: Any) -> Any:
    """`ttir.distributed_layer_norm` as HEAD's TTNN decomposition leaves it (module doc)."""
    ins = inputs(op)
    seg = list(int_values(op.properties.get(SEGMENTS)) or ())
    if len(seg) != 4 or seg[0] != 1 or max(seg) > 1 or sum(seg) != len(ins):
        raise ValueError("needs operandSegmentSizes (input, weight, bias, residual) matching its operands")
    rest = iter(ins[1:])
    x = ins[0]
    weight, bias, residual = (next(rest) if n else None for n in seg[1:])
    axis, epsilon = _check(op, x, weight, bias, residual)
    mesh = module_mesh(lw.module)
    devices = mesh[axis]
    shape = _shape(x)
    elem = op.results[0].type.resolve().element_type
    loc = op.location

    def t(s: tuple[int, ...]) -> Any:
        return lw.layout_type(TensorType(s, elem), op)

    if residual is not None:
        x = lw.emit("ttnn.add", [x, residual], t(shape), {}, suffixed_location(loc, "_residual_add"))
    stats_shape = (*shape[:-1], STATS_WIDTH)
    stats = lw.emit("ttnn.layer_norm_pre_all_gather", [x], t(stats_shape), {SEGMENTS: DenseArrayAttr("i32", (1, 0, 0))},
                    suffixed_location(loc, "_pre_all_gather"))  # fmt: skip
    if devices != 1:
        props = {"all_gather_dim": IntegerAttr(len(shape) - 1, SI32), "cluster_axis": op.properties["cluster_axis"]}
        stats = lw.emit("ttnn.all_gather", [stats], t((*shape[:-1], STATS_WIDTH * devices)), props, suffixed_location(loc, "_all_gather"))
    eps = op.properties.get("epsilon") or FloatAttr(epsilon, F32)
    operands = [x, stats] + [v for v in (weight, bias) if v is not None]
    props = {"epsilon": eps, SEGMENTS: DenseArrayAttr("i32", (1, 1, int(weight is not None), int(bias is not None)))}
    return lw.emit("ttnn.layer_norm_post_all_gather", operands, t(shape), props, suffixed_location(loc, "_post_all_gather"))
