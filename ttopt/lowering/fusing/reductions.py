"""Reductions in the form TTNN runs them.

* A reduction without keep_dim whose only reader is a reshape restoring the reduced dimensions as
  1s -> the reduction with keep_dim (HEAD's ReductionWithReshapePattern, for sum, mean, max, min,
  prod, reduce_and, reduce_or, argmax), anchored on the reshape, whose value the new reduction
  gives. Preconditions, as HEAD: the reduction has one use, that reshape; it has no keep_dim; the
  reshape's shape is the reduction input's with every reduced dimension (all of them without
  dim_arg) set to 1.
* `sum(x, dims) * c` with c a splat of 1 / (product of the reduced sizes), within a relative 1e-4
  -> `mean(x, dims)` (HEAD's ScaledSumToMeanPattern); the sum has dim_arg and one use, and the
  multiply does not broadcast it.
* `mean(x, [1, 2])` of a rank-4 x (NHWC spatial dims) -> `mean(reshape(x, [N, 1, H*W, C]), [2])`,
  reshaped back without keep_dim: one reduction over a single dimension (HEAD's
  SpatialMeanOptimizationPattern; the mean has one use).
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, i32_array, keep_dim, one_use, producer, reduce_dims, shape, splat

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

REDUCTIONS = tuple(f"ttir.{n}" for n in ("sum", "mean", "max", "min", "prod", "reduce_and", "reduce_or", "argmax"))


def match(reshape: Operation) -> Candidate | None:
    """reshape(reduce(x, keep_dim = false)) -> reduce(x, keep_dim = true)."""
    v = inputs(reshape)[0]
    red = producer(v, *REDUCTIONS)
    if red is None or keep_dim(red) or not one_use(v):
        return None
    x = inputs(red)[0]
    xs = shape(x)
    dims = reduce_dims(red)
    want = tuple(1 if dims is None or i in dims else s for i, s in enumerate(xs))
    if shape(reshape.results[0]) != want:
        return None

    def build(b: Builder) -> Value:
        props = {**red.properties, "keep_dim": BoolAttr(True)}
        return b.emit(red.name[5:], [x], reshape.results[0].type, **props)

    return Candidate("reduction_keep_dim", reshape, red.name, build)


def match_spatial_mean(mean: Operation) -> Candidate | None:
    """mean(x, [1, 2]) of an NHWC x -> mean(reshape(x, [N, 1, H * W, C]), [2])."""
    x = inputs(mean)[0]
    xs = shape(x)
    if len(xs) != 4 or sorted(reduce_dims(mean) or ()) != [1, 2] or not one_use(mean.results[0]):
        return None
    flat = (xs[0], 1, xs[1] * xs[2], xs[3])

    def build(b: Builder) -> Value:
        t = x.type.resolve()
        flat_t = TensorType(flat, t.element_type, t.encoding)
        r = b.emit("reshape", [x], flat_t, shape=i32_array(flat))
        out_t = TensorType((xs[0], 1, 1, xs[3]), t.element_type, t.encoding)
        y = b.emit("mean", [r], out_t, keep_dim=BoolAttr(True), dim_arg=i32_array((2,)))
        if keep_dim(mean):
            return y
        return b.emit("reshape", [y], mean.results[0].type, shape=i32_array(shape(mean.results[0])))

    return Candidate("spatial_mean", mean, "ttir.mean", build, note="over one flattened spatial dimension")


def match_scaled_sum(mul: Operation) -> Candidate | None:
    """sum(x) * (1 / N) -> mean(x)."""
    a, b = inputs(mul)[:2]
    red, c = producer(a, "ttir.sum"), b
    if red is None:
        red, c = producer(b, "ttir.sum"), a
    if red is None or red.properties.get("dim_arg") is None or not one_use(red.results[0]):
        return None
    x = inputs(red)[0]
    dims = reduce_dims(red) or []
    n = prod(shape(x)[d] for d in dims)
    value = splat(c)
    if not dims or n <= 0 or value is None or abs(value - 1.0 / n) > max(1e-4, 1e-4 / n):
        return None
    if shape(mul.results[0]) != shape(red.results[0]):
        return None

    def build(b: Builder) -> Value:
        return b.emit("mean", [x], mul.results[0].type, **red.properties)

    return Candidate("scaled_sum_to_mean", mul, "ttir.mean", build)
