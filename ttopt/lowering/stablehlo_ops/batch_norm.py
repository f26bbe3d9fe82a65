"""The StableHLO batch norms to TTIR, as tt-mlir lowers them:

* `batch_norm_inference` -> `ttir.batch_norm_inference` (operand, scale, offset, mean, variance;
  `dimension` the feature index as i32, `epsilon` kept);
* `batch_norm_training` -> `ttir.batch_norm_training` with a running mean of zeros and a running
  variance of ones (`ttir.zeros` / `ttir.ones`) and momentum 1, so its batch statistics are the
  op's own;
* `batch_norm_grad` -> its formula in elementwise ops and sums over every dimension but the
  feature one (HEAD's decomposition, op for op): with c = x - mean, s = sqrt(var + eps) and
  n = elements per feature, grad_operand = scale / s / n * (g * n - sum(g) - sum(g * c) * c / (var + eps)),
  grad_scale = sum(g * c / s), grad_offset = sum(g).
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import ArrayAttr, BoolAttr, DenseArrayAttr, FloatAttr, IntegerAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.building import emit_results, splat
from ttopt.sharding.ir_views import static_tensor

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I32, F32 = ScalarType("i32"), ScalarType("f32")


def _attrs(op: Operation) -> tuple[int, IntegerAttr, FloatAttr]:
    get = lambda key: op.properties.get(key) or op.attributes.get(key)  # noqa: E731
    feature, eps = get("feature_index"), get("epsilon")
    if feature is None or eps is None:
        raise Unsupported("missing feature_index or epsilon")
    index = int(feature.resolve().value)
    # the epsilon is reprinted in MLIR's spelling
    return index, IntegerAttr(index, I32), FloatAttr(float(eps.resolve().value), F32)


@lowers("stablehlo.batch_norm_inference")
def _batch_norm_inference(low: Lowering, op: Operation) -> list[Value]:
    _, dim, epsilon = _attrs(op)
    return [low.emit("batch_norm_inference", list(op.operands), op.results[0].type, dimension=dim, epsilon=epsilon)]


@lowers("stablehlo.batch_norm_training")
def _batch_norm_training(low: Lowering, op: Operation) -> list[Value]:
    _, dim, epsilon = _attrs(op)
    mean_t, var_t = (r.type for r in op.results[1:])
    shape = lambda t: DenseArrayAttr("i32", tuple(t.resolve().shape))  # noqa: E731
    running_mean = low.emit("zeros", [], mean_t, shape=shape(mean_t))
    running_var = low.emit("ones", [], var_t, shape=shape(var_t))
    return emit_results(low, "batch_norm_training", [*op.operands, running_mean, running_var], [r.type for r in op.results],
                        dimension=dim, epsilon=epsilon, momentum=FloatAttr(1.0, F32))  # fmt: skip


def _to_shape(low: Lowering, v: Value, t: Any, feature: int) -> Value:
    """A per-feature (rank 1) or scalar value broadcast to the operand type `t` along `feature`."""
    shape = tuple(t.shape)
    src = v.type.resolve()
    unsqueezed = [1] * len(shape)
    if src.shape:
        unsqueezed[feature] = src.shape[0]
    v = low.reshape(v, tuple(unsqueezed))
    return low.broadcast(v, static_tensor(t), list(range(len(shape))))


@lowers("stablehlo.batch_norm_grad")
def _batch_norm_grad(low: Lowering, op: Operation) -> list[Value]:
    feature, _, epsilon = _attrs(op)
    x, scale, mean, var, grad = op.operands
    t = x.type.resolve()
    shape = tuple(t.shape)
    for name, v in (("scale", scale), ("mean", mean), ("variance", var)):
        s = tuple(v.type.resolve().shape)
        if len(s) != 1 or s[0] != shape[feature]:
            raise Unsupported(f"its {name} is not a 1-D tensor of the feature dimension's size")
    element = t.element_type
    scalar = TensorType((), element, None)
    dims = ArrayAttr(tuple(IntegerAttr(d, I32) for d in range(len(shape)) if d != feature))
    keep = BoolAttr(False)
    e = lambda name, *ins, ty=t: low.emit(name, list(ins), ty)  # noqa: E731
    scale_b, mean_b, var_b = (_to_shape(low, v, t, feature) for v in (scale, mean, var))
    eps_b = _to_shape(low, splat(low, scalar, float(epsilon.value)), t, feature)
    centered = e("subtract", x, mean_b)
    var_eps = e("add", var_b, eps_b)
    stddev = e("sqrt", var_eps)
    normalized = e("div", centered, stddev)
    n_b = _to_shape(low, splat(low, scalar, prod(shape) / shape[feature]), t, feature)
    i1 = e("multiply", grad, n_b, ty=grad.type)
    i2 = _to_shape(low, low.emit("sum", [grad], scale.type, keep_dim=keep, dim_arg=dims), t, feature)
    i3 = _to_shape(low, low.emit("sum", [e("multiply", grad, centered)], scale.type, keep_dim=keep, dim_arg=dims), t, feature)
    i5 = e("div", e("multiply", i3, centered), var_eps)
    i6 = e("subtract", e("subtract", i1, i2), i5)
    grad_operand = e("multiply", e("div", e("div", scale_b, stddev), n_b), i6, ty=op.results[0].type)
    grad_scale = low.emit("sum", [e("multiply", grad, normalized)], op.results[1].type, keep_dim=keep, dim_arg=dims)
    grad_offset = low.emit("sum", [grad], op.results[2].type, keep_dim=keep, dim_arg=dims)
    return [grad_operand, grad_scale, grad_offset]
