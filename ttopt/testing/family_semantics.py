"""NumPy semantics of the ops the StableHLO/CHLO lowering's per-family modules read and write, for
the reference interpreter (ttir_interpreter.py): sort and top-k, argmax and multi-operand reduces,
CHLO elementwise ops, shifts and rounding, RNG, optimization barriers, quantization.

`SINGLE` maps an op name to `fn(op, inputs, result_type) -> array`; `MULTI` maps ops of several
results to `fn(interpreter, op, inputs) -> [arrays]`. RNG ops draw from a seeded generator: their
values cannot match another implementation's, only their shape, type and range.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ttopt.ir.properties import int_values

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation

Array = Any


def _attr(op: Operation, key: str) -> Any:
    a = op.properties.get(key) or op.attributes.get(key)
    return a.resolve() if a is not None else None


def _val(op: Operation, key: str, default: Any = None) -> Any:
    v = getattr(_attr(op, key), "value", None)
    return default if v is None else v


def _ints(op: Operation, key: str) -> list[int]:
    a = op.properties.get(key) or op.attributes.get(key)
    return list(int_values(a) or ()) if a is not None else []


def stable_order(x: Array, axis: int, descending: bool) -> Array:
    """Indices that sort `x` along `axis`, ties in their original order (NaN last when ascending)."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    _, ranks = np.unique(x, return_inverse=True)  # order-reversing key that cannot overflow
    ranks = ranks.reshape(x.shape)
    return np.argsort(-ranks.astype(np.int64), axis=axis, kind="stable")


def _topk(x: Array, k: int, axis: int, largest: bool) -> tuple[Array, Array]:
    order = stable_order(x, axis, descending=largest)
    idx = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx


_VEC = lambda f: np.vectorize(f, otypes=[np.float64])  # noqa: E731
_ERFC = _VEC(math.erfc)
_ERF = _VEC(math.erf)


def _float(f: Callable[[Array], Array]) -> Callable[..., Array]:
    def run(op: Operation, ins: list[Array], t: Any) -> Array:
        with np.errstate(all="ignore"):
            return f(ins[0].astype(np.float64))

    return run


def _shift(kind: str) -> Callable[..., Array]:
    def run(op: Operation, ins: list[Array], t: Any) -> Array:
        x, s = ins
        bits = x.dtype.itemsize * 8
        unsigned = x.view(np.dtype(f"uint{bits}"))
        amount = s.astype(np.int64)
        big = (amount < 0) | (amount >= bits)
        safe = np.where(big, 0, amount).astype(unsigned.dtype)
        out = (unsigned << safe) if kind == "left" else (unsigned >> safe)
        return np.where(big, 0, out).astype(unsigned.dtype).view(x.dtype)

    return run


def _round_afz(op: Operation, ins: list[Array], t: Any) -> Array:
    x = ins[0]
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _argmax(op: Operation, ins: list[Array], t: Any) -> Array:
    dims = _ints(op, "dim_arg")
    x = ins[0]
    if not dims and _attr(op, "dim_arg") is None:  # all dims: the row-major index of the flattened operand
        return np.argmax(x.reshape(-1))
    if len(dims) != 1:
        raise ValueError("argmax over other than one dimension")
    return np.argmax(x, axis=dims[0] % x.ndim)


def _rng(op: Operation, ins: list[Array], t: Any) -> Array:
    shape = tuple(int(d) for d in t.resolve().shape)
    gen = np.random.default_rng(0)
    if op.name == "ttir.rand":
        lo, hi = float(_val(op, "low", 0.0)), float(_val(op, "high", 1.0))
    else:
        lo, hi = float(ins[0]), float(ins[1])
    return gen.uniform(lo, hi, shape)


def _batch_norm(op: Operation, ins: list[Array], t: Any) -> Array:
    x, scale, offset, mean, var = (v.astype(np.float64) for v in ins)
    axis = int(_val(op, "feature_index" if op.name.startswith("stablehlo") else "dimension"))
    shape = [-1 if i == axis else 1 for i in range(x.ndim)]
    eps = float(_val(op, "epsilon", 0.0))
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * scale.reshape(shape) + offset.reshape(shape)


def _quantize(op: Operation, ins: list[Array], t: Any) -> Array:
    raise ValueError("quantized element types")


SINGLE: dict[str, Callable[[Operation, list[Array], Any], Array]] = {
    **{f"{d}.erfc": _float(_ERFC) for d in ("chlo", "ttir")},
    "ttir.erf": _float(_ERF),
    **{f"{d}.asinh": _float(np.arcsinh) for d in ("chlo", "ttir")},
    **{f"{d}.acos": _float(np.arccos) for d in ("chlo", "ttir")},
    **{f"{d}.asin": _float(np.arcsin) for d in ("chlo", "ttir")},
    **{f"{d}.atan": _float(np.arctan) for d in ("chlo", "ttir")},
    "chlo.tan": _float(np.tan), "chlo.sinh": _float(np.sinh), "chlo.cosh": _float(np.cosh),
    "chlo.acosh": _float(np.arccosh), "chlo.atanh": _float(np.arctanh),
    "ttir.sign": lambda op, ins, t: np.sign(ins[0]),
    "ttir.leaky_relu": lambda op, ins, t: np.where(ins[0] > 0, ins[0], float(_val(op, "parameter", 0.0)) * ins[0].astype(np.float64)),
    "ttir.bitwise_not": lambda op, ins, t: np.invert(ins[0]),
    "stablehlo.round_nearest_afz": _round_afz,
    **{n: _shift("left") for n in ("stablehlo.shift_left", "ttir.logical_left_shift")},
    **{n: _shift("right") for n in ("stablehlo.shift_right_logical", "ttir.logical_right_shift")},
    "ttir.argmax": _argmax,
    "ttir.rand": _rng, "stablehlo.rng": _rng,
    "stablehlo.get_dimension_size": lambda op, ins, t: np.int32(ins[0].shape[int(_val(op, "dimension"))]),
    "stablehlo.batch_norm_inference": _batch_norm, "ttir.batch_norm_inference": _batch_norm,
    **{f"ttir.{n}": _quantize for n in ("quantize", "dequantize", "requantize")},
    **{f"stablehlo.uniform_{n}": _quantize for n in ("quantize", "dequantize")},
}  # fmt: skip


# -- several results ---------------------------------------------------------------------------------
def _ttir_sort(it: Any, op: Operation, ins: list[Array]) -> list[Array]:
    x = ins[0]
    axis = int(_val(op, "dim", -1)) % x.ndim
    order = stable_order(x, axis, bool(_val(op, "descending", False)))
    return [np.take_along_axis(x, order, axis=axis), order]


def _ttir_topk(it: Any, op: Operation, ins: list[Array]) -> list[Array]:
    x = ins[0]
    axis = int(_val(op, "dim", -1)) % x.ndim
    return list(_topk(x, int(_val(op, "k")), axis, bool(_val(op, "largest", True))))


def _chlo_top_k(it: Any, op: Operation, ins: list[Array]) -> list[Array]:
    return list(_topk(ins[0], int(_val(op, "k")), ins[0].ndim - 1, True))


def _stablehlo_sort(it: Any, op: Operation, ins: list[Array]) -> list[Array]:
    """Sort by the comparator, evaluated on every pair (stable merge sort of each lane)."""
    axis = int(_val(op, "dimension", -1)) % ins[0].ndim
    body = op.regions[0].blocks[0]
    moved = [np.moveaxis(v, axis, -1) for v in ins]
    lanes = moved[0].shape[:-1]
    out = [np.empty_like(m) for m in moved]
    for lane in np.ndindex(*lanes):
        cols = [m[lane] for m in moved]

        def less(i: int, j: int) -> bool:
            args = []
            for c in cols:
                args += [np.asarray(c[i]), np.asarray(c[j])]
            return bool(it.block(body, args)[0])

        order = _merge_sort(list(range(cols[0].shape[0])), less)
        for o, c in zip(out, cols):
            o[lane] = c[order]
    return [np.moveaxis(o, -1, axis) for o in out]


def _merge_sort(items: list[int], less: Callable[[int, int], bool]) -> list[int]:
    if len(items) <= 1:
        return items
    mid = len(items) // 2
    a, b = _merge_sort(items[:mid], less), _merge_sort(items[mid:], less)
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if less(b[j], a[i]):
            out.append(b[j])
            j += 1
        else:
            out.append(a[i])
            i += 1
    return out + a[i:] + b[j:]


def reduce_several(it: Any, op: Operation, ins: list[Array]) -> list[Array]:
    """A reduce of n operands, folding the reducer body element by element (in index order)."""
    n = len(ins) // 2
    xs, inits = ins[:n], ins[n:]
    dims = sorted(d % xs[0].ndim for d in _ints(op, "dimensions"))
    body = op.regions[0].blocks[0]
    keep = [d for d in range(xs[0].ndim) if d not in dims]
    moved = [np.transpose(x, keep + dims).reshape([xs[0].shape[d] for d in keep] + [-1]) for x in xs]
    outs = [np.empty(m.shape[:-1], m.dtype) for m in moved]
    for lane in np.ndindex(*moved[0].shape[:-1]):
        acc = [np.asarray(i) for i in inits]
        for k in range(moved[0].shape[-1]):
            acc = [np.asarray(v) for v in it.block(body, [*acc, *(np.asarray(m[lane][k]) for m in moved)])]
        for o, a in zip(outs, acc):
            o[lane] = a
    return outs


def _rng_bit_generator(it: Any, op: Operation, ins: list[Array]) -> list[Array]:
    shape = tuple(int(d) for d in op.results[1].type.resolve().shape)
    return [ins[0], np.random.default_rng(0).integers(0, np.iinfo(np.uint64).max, shape, dtype=np.uint64, endpoint=True)]


def _barrier(it: Any, op: Operation, ins: list[Array]) -> list[Array]:
    return list(ins)


MULTI: dict[str, Callable[[Any, Operation, list[Array]], list[Array]]] = {
    "ttir.sort": _ttir_sort, "ttir.topk": _ttir_topk, "chlo.top_k": _chlo_top_k, "stablehlo.sort": _stablehlo_sort,
    "stablehlo.rng_bit_generator": _rng_bit_generator,
    "stablehlo.optimization_barrier": _barrier, "ttcore.optimization_barrier": _barrier,
}  # fmt: skip


def is_multi_reduce(op: Operation) -> bool:
    """A `stablehlo.reduce` the interpreter's one-operand reducer does not cover."""
    return op.name == "stablehlo.reduce" and (len(op.operands) != 2 or len(op.regions[0].blocks[0].ops) != 2)
