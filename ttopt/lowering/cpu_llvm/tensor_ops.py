"""The lowering of each TTIR op the CPU module holds: views for the ops that only move indices,
loop nests writing a fresh buffer for the ones that compute (`lowerable.py` says which ops and
forms reach here)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

import numpy as np

from ttopt.ir.attributes import BoolAttr, DenseElementsAttr, FloatAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.values import Value
from ttopt.lowering.cpu_llvm import scalars
from ttopt.lowering.cpu_llvm.builder import F32, I32, I64, Builder
from ttopt.lowering.cpu_llvm.lowerable import BINARY, COMPARE, LOGICAL, REDUCE, UNARY, element, layer_norm_segments, matmul_shapes, shape
from ttopt.lowering.cpu_llvm.views import ELEMENT, View, row_major, volume
from ttopt.lowering.dense_values import flat_values, splat_value

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation


class Lowering(Protocol):
    """What an op's lowering needs of the function being lowered."""

    b: Builder

    def alloc(self, shape: Sequence[int], element: str) -> View:
        """A fresh buffer the function owns (freed at its end unless returned)."""
        ...

    def global_constant(self, attr: DenseElementsAttr, shape: Sequence[int], element: str) -> Value:
        """The address of a module-level constant holding `attr`."""
        ...


def lower(fn: Lowering, op: Operation, ins: list[View]) -> View:
    """The value of `op` (one result) given its operands' views."""
    name = op.name[len("ttir.") :]
    out_shape, out_el = shape(op.results[0]), element(op.results[0])
    b = fn.b
    if op.name == "stablehlo.dynamic_update_slice":  # the one StableHLO op that reaches here (lowerable.py)
        return _dynamic_update_slice(fn, ins[0], ins[1], ins[2:])
    ints = lambda key: tuple(int_values(op.get_attr(key)) or ())  # noqa: E731
    val = lambda key: int(getattr(op.get_attr(key), "value", 0))  # noqa: E731
    if name in UNARY:
        slope = float(getattr(op.get_attr("parameter"), "value", 0.0))
        return _map(fn, out_shape, out_el, ins, lambda xs: scalars.unary(b, name, out_el, xs[0], slope))
    if name in BINARY:
        return _map(fn, out_shape, out_el, ins, lambda xs: scalars.binary(b, name, out_el, xs[0], xs[1]))
    if name in LOGICAL:
        els = [element(v) for v in op.operands]
        return _map(fn, out_shape, out_el, ins, lambda xs: scalars.convert(
            b, scalars.logical(b, name, [scalars.convert(b, x, el, "i1") for x, el in zip(xs, els)]), "i1", out_el))
    if name == "clamp_scalar":
        lo, hi = (getattr(op.get_attr(k), "value", 0) for k in ("min", "max"))
        return _map(fn, out_shape, out_el, ins, lambda xs: scalars.clamp(b, out_el, xs[0], lo, hi))
    if name == "clamp_tensor":
        return _map(fn, out_shape, out_el, ins, lambda xs: scalars.clamp_values(b, out_el, *xs))
    if name == "arange":
        return _arange(fn, op, out_shape, out_el)
    if name == "pad":
        return _pad(fn, op, ins[0], out_shape)
    if name == "reverse":
        return ins[0].reversed(b, [d % len(out_shape) for d in ints("dimensions")])
    if name in COMPARE:
        src = ins[0].element
        return _map(fn, out_shape, out_el, ins, lambda xs: scalars.convert(b, scalars.compare(b, name, src, xs[0], xs[1]), "i1", out_el))
    if name == "where":
        cond = ins[0].element
        return _map(fn, out_shape, out_el, ins, lambda xs: b.select(scalars.convert(b, xs[0], cond, "i1"), xs[1], xs[2]))
    if name == "typecast":
        src = ins[0].element
        return _map(fn, out_shape, out_el, ins, lambda xs: scalars.convert(b, xs[0], src, out_el))
    if name in ("constant", "full", "zeros", "ones"):
        return _creation(fn, op, name, out_shape, out_el)
    if name == "permute":
        return ins[0].permuted(ints("permutation"))
    if name == "transpose":
        rank = len(ins[0].shape)
        perm = list(range(rank))
        d0, d1 = val("dim0") % rank, val("dim1") % rank
        perm[d0], perm[d1] = perm[d1], perm[d0]
        return ins[0].permuted(perm)
    if name == "broadcast":
        return ins[0].broadcast_to(out_shape)
    if name in ("reshape", "squeeze", "unsqueeze"):  # HEAD: squeeze / unsqueeze are tosa.reshape
        flat = ins[0] if ins[0].contiguous() else copy(fn, ins[0])
        return flat.reshaped(out_shape)
    if name == "slice_static":
        bounds = [slice(x, y, z).indices(n) for x, y, z, n in zip(ints("begins"), ints("ends"), ints("step"), ins[0].shape)]
        return ins[0].sliced(b, [lo for lo, _, _ in bounds], [st for _, _, st in bounds], out_shape)
    if name == "repeat":
        return _repeat(fn, ins[0], out_shape)
    if name == "concat":
        return _concat(fn, ins, val("dim") % len(out_shape), out_shape, out_el)
    if name in REDUCE:
        dims = int_values(op.get_attr("dim_arg"))
        rank = len(ins[0].shape)
        reduced = sorted({d % rank for d in dims} if dims is not None else set(range(rank)))
        return _reduce(fn, name, ins[0], reduced, bool(getattr(op.get_attr("keep_dim"), "value", False)), out_shape)
    if name == "matmul":
        return _matmul(fn, op, ins, out_shape, out_el)
    if name == "embedding":
        return _embedding(fn, ins[0], ins[1], out_shape)
    if name == "linear":
        return _matmul(fn, op, ins, out_shape, out_el)
    if name == "concatenate_heads":  # HEAD: tosa.transpose [0, 2, 1, 3] then tosa.reshape
        return copy(fn, ins[0].permuted([0, 2, 1, 3])).reshaped(out_shape)
    if name == "softmax":
        return _softmax(fn, ins[0], val("dimension") % len(out_shape))
    if name == "argmax":
        dims = int_values(op.get_attr("dim_arg"))
        rank = len(ins[0].shape)
        reduced = sorted({d % rank for d in dims} if dims is not None else set(range(rank)))
        return _argmax(fn, ins[0], reduced, bool(getattr(op.get_attr("keep_dim"), "value", False)), out_shape)
    if name == "layer_norm":
        return _layer_norm(fn, op, ins)
    if name == "cumsum":
        return _cumsum(fn, ins[0], val("dim") % len(out_shape))
    raise ValueError(f"no lowering of '{op.name}' to the LLVM dialect")


def _map(fn: Lowering, out_shape: tuple[int, ...], out_el: str, ins: list[View], scalar: Callable[[list[Value]], Value]) -> View:
    """A fresh buffer with `scalar(elements of ins)` at each index (operands broadcast as numpy)."""
    out = fn.alloc(out_shape, out_el)
    views = [v.broadcast_to(out_shape) for v in ins]
    fn.b.nest(out_shape, lambda idx: out.store(fn.b, idx, scalar([v.load(fn.b, idx) for v in views])))
    return out


def copy(fn: Lowering, src: View) -> View:
    """`src` copied into a fresh contiguous buffer."""
    return _map(fn, src.shape, src.element, [src], lambda xs: xs[0])


def _creation(fn: Lowering, op: Operation, name: str, out_shape: tuple[int, ...], out_el: str) -> View:
    b = fn.b
    if name == "constant":
        attr = op.get_attr("value")
        assert attr is not None
        dense = attr.resolve()
        assert isinstance(dense, DenseElementsAttr)
        value = splat_value(dense, out_el)
        if value is None and volume(out_shape) > 1:
            ptr = fn.global_constant(dense, out_shape, out_el)
            return View(ptr, 0, out_shape, row_major(out_shape), out_el)
        if value is None:  # one element written as a list (or none): its only value
            value = flat_values(dense, out_el, out_shape)[0] if volume(out_shape) else 0
    elif name == "full":
        fill = op.get_attr("fill_value")
        r = fill.resolve() if fill is not None else None
        value = r.value if isinstance(r, (FloatAttr, IntegerAttr, BoolAttr)) else 0
    else:
        value = 0 if name == "zeros" else 1
    c = _scalar_const(b, value, out_el)
    out = fn.alloc(out_shape, out_el)
    b.nest(out_shape, lambda idx: out.store(b, idx, c))
    return out


def _scalar_const(b: Builder, value: float | int | bool | None, element: str) -> Value:
    """`value` as a constant of `element` (as the TTIR op's fill converts it: to int truncating, to i1 `!= 0`)."""
    v = 0 if value is None else value
    if element == "f32":
        return b.const(float(v), F32)
    if element == "i1":
        return b.const(bool(v), ELEMENT["i1"])
    return b.const(int(v), ELEMENT["i32"])


def _pad(fn: Lowering, op: Operation, src: View, out_shape: tuple[int, ...]) -> View:
    """The padding value everywhere, then the operand copied into the interior."""
    b = fn.b
    pads = int_values(op.get_attr("padding")) or ()
    fill = op.get_attr("value")
    out = fn.alloc(out_shape, src.element)
    c = _scalar_const(b, getattr(fill.resolve() if fill is not None else None, "value", 0), src.element)
    b.nest(out_shape, lambda idx: out.store(b, idx, c))
    if volume(src.shape):
        b.nest(src.shape, _copier(b, src, out.sliced(b, list(pads[0::2]), [1] * len(out_shape), src.shape)))
    return out


def _arange(fn: Lowering, op: Operation, out_shape: tuple[int, ...], out_el: str) -> View:
    """start + i * step along arange_dimension, computed in i64 and converted to the element type."""
    b = fn.b
    start, step, dim = (int(getattr(op.get_attr(k), "value", 0)) for k in ("start", "step", "arange_dimension"))
    dim %= len(out_shape)
    out = fn.alloc(out_shape, out_el)

    def body(idx: list[Value]) -> None:
        v = b.add(b.mul(idx[dim], b.i64(step)), b.i64(start))
        out.store(b, idx, b.cast("sitofp", v, F32) if out_el == "f32" else b.cast("trunc", v, I32))

    b.nest(out_shape, body)
    return out


def _repeat(fn: Lowering, src: View, out_shape: tuple[int, ...]) -> View:
    """out[i] = src[i mod n] per dimension."""
    b = fn.b
    out = fn.alloc(out_shape, src.element)

    def body(idx: list[Value]) -> None:
        at = [i if n == m else b.binary("urem", i, b.i64(n)) for i, n, m in zip(idx, src.shape, out_shape)]
        out.store(b, idx, src.load(b, at))

    b.nest(out_shape, body)
    return out


def _concat(fn: Lowering, ins: list[View], dim: int, out_shape: tuple[int, ...], out_el: str) -> View:
    """Each operand's loop nest writes its part of one fresh buffer."""
    b = fn.b
    out = fn.alloc(out_shape, out_el)
    start = 0
    for v in ins:
        if v.shape[dim]:
            part = out.sliced(b, [start if k == dim else 0 for k in range(len(out_shape))], [1] * len(out_shape), v.shape)
            b.nest(v.shape, _copier(b, v, part))
        start += v.shape[dim]
    return out


def _dynamic_update_slice(fn: Lowering, src: View, update: View, starts: list[View]) -> View:
    """StableHLO's dynamic_update_slice: the operand copied, then the update written at the start
    indices, each clamped into [0, operand size - update size] (as StableHLO specifies and its
    Linalg lowering computes) and read as signed 32-bit."""
    b = fn.b
    out = copy(fn, src)
    offset: Value | None = None
    for start, n, u, stride in zip(starts, src.shape, update.shape, row_major(out.shape)):  # out is fresh, row-major
        at = b.cast("sext", start.load(b, []), I64)
        at = b.select(b.icmp("slt", at, b.i64(0)), b.i64(0), at)
        at = b.select(b.icmp("sgt", at, b.i64(n - u)), b.i64(n - u), at)
        term = at if stride == 1 else b.mul(at, b.i64(stride))
        offset = term if offset is None else b.add(offset, term)
    if volume(update.shape):
        window = replace(out, offset=offset if offset is not None else 0, shape=update.shape, allocated=None)
        b.nest(update.shape, _copier(b, update, window))
    return out


def _copier(b: Builder, src: View, dst: View) -> Callable[[list[Value]], None]:
    return lambda idx: dst.store(b, idx, src.load(b, idx))


def chain(b: Builder, shape: Sequence[int], dims: Sequence[int], init: Value, step: str, element: Callable[[list[Value]], Value],
          at: Sequence[Value] = ()) -> Value:  # fmt: skip
    """The reduction over `dims` of a tensor of `shape` as HEAD's createReductionOpChain computes it:
    one TOSA reduction per dimension, the last dimension first, each a sequential `step` from `init`
    (TosaToLinalg's loops), a dimension of size 1 folded away (TOSA's reduce folder) and none
    reduced at all for the element itself. `element(index)` reads the operand; `at` gives the
    indices of the other dimensions."""
    live = sorted(d for d in dims if shape[d] != 1)
    index: list[Value] = list(at) if at else [b.i64(0)] * len(shape)
    for d in dims:
        index[d] = b.i64(0)

    def level(j: int) -> Value:
        if j == len(live):
            return element(list(index))

        def body(iv: Value, acc: list[Value]) -> list[Value]:
            index[live[j]] = iv
            return [b.binary(step, acc[0], level(j + 1))]

        return b.loop(shape[live[j]], [init], body)[0]

    return level(0)


def _reduce(fn: Lowering, name: str, src: View, reduced: list[int], keep: bool, out_shape: tuple[int, ...]) -> View:
    """For each result index, HEAD's chain of one-dimension reductions (`chain`)."""
    b = fn.b
    el = src.element
    out = fn.alloc(out_shape, el)
    kept = [k for k in range(len(src.shape)) if k not in reduced]
    step = scalars.REDUCE_STEP[(name, el)]
    init = _scalar_const(b, scalars.REDUCE_INIT[(name, el)], el)
    # reduce_or over 32-bit elements is their sum compared with 0 (HEAD's ReductionOrPattern).
    nonzero = name == "reduce_or" and el != "i1"

    def load(at: list[Value]) -> Value:
        return src.load(b, at)

    def body(idx: list[Value]) -> None:
        outer = [idx[k] for k in kept] if keep else idx
        at: list[Value] = [b.i64(0)] * len(src.shape)
        for k, i in zip(kept, outer):
            at[k] = i
        acc = chain(b, src.shape, reduced, init, step, load, at)
        if name == "mean":
            acc = b.binary("fdiv", acc, b.const(float(volume([src.shape[k] for k in reduced])), F32))
        if nonzero:
            acc = b.select(scalars.convert(b, acc, el, "i1"), _scalar_const(b, 1, el), _scalar_const(b, 0, el))
        out.store(b, idx, acc)

    b.nest(out_shape, body)
    return out


def _matmul(fn: Lowering, op: Operation, ins: list[View], out_shape: tuple[int, ...], out_el: str) -> View:
    """out[..., m, n] = sum_k a[..., m, k] * b[..., k, n] (batch dimensions broadcast), from 0 in
    the element type as linalg.batch_matmul; a linear's bias added after (HEAD's tosa.add)."""
    dims = matmul_shapes(op)
    assert dims is not None
    batch, m, k, n = dims
    b = fn.b
    a, w = ins[:2]
    bias = ins[2].broadcast_to(out_shape) if len(ins) > 2 else None
    if getattr(op.get_attr("transpose_a"), "value", False):
        a = a.permuted([*range(len(a.shape) - 2), len(a.shape) - 1, len(a.shape) - 2])
    if getattr(op.get_attr("transpose_b"), "value", False):
        w = w.permuted([*range(len(w.shape) - 2), len(w.shape) - 1, len(w.shape) - 2])
    a = a.broadcast_to((*batch, m, k))
    w = w.broadcast_to((*batch, k, n))
    out = fn.alloc(out_shape, out_el)
    mul, add = ("fmul", "fadd") if out_el == "f32" else ("mul", "add")
    zero = _scalar_const(b, 0, out_el)

    def body(idx: list[Value]) -> None:
        *bi, mi, ni = idx

        def step(kk: list[Value], acc: Value) -> Value:
            return b.binary(add, acc, b.binary(mul, a.load(b, [*bi, mi, kk[0]]), w.load(b, [*bi, kk[0], ni])))

        acc = b.fold([k], zero, step)
        out.store(b, idx, acc if bias is None else b.binary("fadd", acc, bias.load(b, idx)))

    b.nest(out_shape, body)
    return out


def _embedding(fn: Lowering, indices: View, weight: View, out_shape: tuple[int, ...]) -> View:
    """HEAD's EmbeddingOpConversionPattern: out[i..., d] = weight[0..., index, d] with index = indices[i...]
    (f32 by fptosi to i32, then sign-extended, as its arith.fptosi + index_cast). An index outside
    the table reads outside it, as HEAD's tensor.extract (TTIR requires valid indices)."""
    b = fn.b
    out = fn.alloc(out_shape, weight.element)
    lead = len(weight.shape) - 2

    def body(idx: list[Value]) -> None:
        i = indices.load(b, idx[:-1])
        if indices.element == "f32":
            i = b.cast("fptosi", i, I32)
        row = b.cast("sext", i, I64)
        out.store(b, idx, weight.load(b, [b.i64(0)] * lead + [row, idx[-1]]))

    b.nest(out_shape, body)
    return out


def _cumsum(fn: Lowering, src: View, dim: int) -> View:
    """HEAD's CumSumOpConversionPattern: along `dim`, a running sum from 0 in the element type
    (`fadd` / `add`, in index order), each step stored."""
    b = fn.b
    out = fn.alloc(src.shape, src.element)
    outer = tuple(1 if k == dim else n for k, n in enumerate(src.shape))
    add = "fadd" if src.element == "f32" else "add"

    def body(idx: list[Value]) -> None:
        def step(i: Value, acc: list[Value]) -> list[Value]:
            at = [i if k == dim else v for k, v in enumerate(idx)]
            s = b.binary(add, acc[0], src.load(b, at))
            out.store(b, at, s)
            return [s]

        b.loop(src.shape[dim], [_scalar_const(b, 0, src.element)], step)

    b.nest(outer, body)
    return out


def _softmax(fn: Lowering, src: View, dim: int) -> View:
    """HEAD's SoftmaxOpConversionPattern: m = reduce_max (from -FLT_MAX), e = exp(x - m),
    s = reduce_sum(e), out = e * (1 / s)."""
    b = fn.b
    out = fn.alloc(src.shape, "f32")
    outer = tuple(1 if k == dim else n for k, n in enumerate(src.shape))

    def body(idx: list[Value]) -> None:
        mx = chain(b, src.shape, [dim], b.const(-scalars.FLT_MAX, F32), "intr.maximum", lambda at: src.load(b, at), idx)
        exp = lambda at: b.op("llvm.intr.exp", [b.binary("fsub", src.load(b, at), mx)], F32)  # noqa: E731
        recip = b.binary("fdiv", b.const(1.0, F32), chain(b, src.shape, [dim], b.const(0.0, F32), "fadd", exp, idx))

        def store(i: Value, _: list[Value]) -> list[Value]:
            at = [i if k == dim else v for k, v in enumerate(idx)]
            out.store(b, at, b.binary("fmul", exp(at), recip))
            return []

        b.loop(src.shape[dim], [], store)

    b.nest(outer, body)
    return out


def _argmax(fn: Lowering, src: View, reduced: list[int], keep: bool, out_shape: tuple[int, ...]) -> View:
    """HEAD's ArgMaxOpConversionPattern: over the reduced dims in index order, the row-major index
    (i32) of the first element greater (ordered: NaN never is) than the running maximum, which
    starts at -inf (INT32_MIN for i32) with index 0."""
    b = fn.b
    el = src.element
    out = fn.alloc(out_shape, "i32")
    kept = [k for k in range(len(src.shape)) if k not in reduced]
    start = b.const(float("-inf"), F32) if el == "f32" else b.const(scalars.INT32_MIN, I32)

    def body(idx: list[Value]) -> None:
        at: list[Value] = [b.i64(0)] * len(src.shape)
        for k, i in zip(kept, [idx[k] for k in kept] if keep else idx):
            at[k] = i

        def level(j: int, linear: Value, carried: list[Value]) -> list[Value]:
            if j == len(reduced):
                x = src.load(b, at)
                greater = b.fcmp("ogt", x, carried[0]) if el == "f32" else b.icmp("sgt", x, carried[0])
                return [b.select(greater, x, carried[0]), b.select(greater, b.cast("trunc", linear, I32), carried[1])]
            d = reduced[j]

            def step(i: Value, vals: list[Value]) -> list[Value]:
                at[d] = i
                return level(j + 1, b.add(b.mul(linear, b.i64(src.shape[d])), i), vals)

            return b.loop(src.shape[d], carried, step)

        out.store(b, idx, level(0, b.i64(0), [start, b.const(0, I32)])[1])

    b.nest(out_shape, body)
    return out


def _layer_norm(fn: Lowering, op: Operation, ins: list[View]) -> View:
    """HEAD's LayerNormOpConversionPattern over the trailing normalized dims (N elements):
    mean = sum * (1/N), c = x - mean, var = sum(c * c) * (1/N), y = c * (1 / sqrt(var + eps)),
    then * weight, + bias; the sums HEAD's reduction chains."""
    b = fn.b
    src = ins[0]
    rank = len(src.shape)
    norm = list(range(rank - len(int_values(op.get_attr("normalized_shape")) or ()), rank))
    has_weight, has_bias = layer_norm_segments(op) or (False, False)
    rest = iter(ins[1:])
    weight = next(rest) if has_weight else None
    bias = next(rest) if has_bias else None
    eps = float(np.float32(getattr(op.get_attr("epsilon"), "value", 1e-5)))
    recip_n = b.const(float(np.float32(1.0) / np.float32(volume([src.shape[d] for d in norm]))), F32)
    out = fn.alloc(src.shape, "f32")
    outer = tuple(1 if k in norm else n for k, n in enumerate(src.shape))

    def body(idx: list[Value]) -> None:
        mean = b.binary("fmul", chain(b, src.shape, norm, b.const(0.0, F32), "fadd", lambda at: src.load(b, at), idx), recip_n)
        centered = lambda at: b.binary("fsub", src.load(b, at), mean)  # noqa: E731

        def square(at: list[Value]) -> Value:
            c = centered(at)
            return b.binary("fmul", c, c)

        var = b.binary("fmul", chain(b, src.shape, norm, b.const(0.0, F32), "fadd", square, idx), recip_n)
        inv = b.binary("fdiv", b.const(1.0, F32), b.op("llvm.intr.sqrt", [b.binary("fadd", var, b.const(eps, F32))], F32))

        def store(at: list[Value]) -> None:
            y = b.binary("fmul", centered(at), inv)
            if weight is not None:
                y = b.binary("fmul", y, weight.load(b, at[rank - len(norm) :]))
            if bias is not None:
                y = b.binary("fadd", y, bias.load(b, at[rank - len(norm) :]))
            out.store(b, at, y)

        def inner(j: int, at: list[Value]) -> None:
            if j == len(norm):
                store(at)
                return
            d = norm[j]

            def step(i: Value, _: list[Value]) -> list[Value]:
                inner(j + 1, [i if k == d else v for k, v in enumerate(at)])
                return []

            b.loop(src.shape[d], [], step)

        inner(0, idx)

    b.nest(outer, body)
    return out
