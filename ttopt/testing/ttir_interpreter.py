"""A small numpy reference interpreter of `func.func` bodies in StableHLO and in TTIR.

It runs the ops `convert-stablehlo-to-ttir` produces and consumes (elementwise, compare, select/where,
convert/typecast, dot_general/matmul, convolution/conv2d, reductions, broadcast, data movement,
iota/arange, constants, func.call, ttcore.composite) on float, integer and bool tensors, so a test can check that a
lowering keeps the numbers: `run(module, "main", inputs)` on the input and on the output must agree.
Dot products and convolutions accumulate in float64 and round once to the result type, so different
but equivalent formulations (matmul vs. dot_general, permuted convolutions) round alike.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ttopt.dialects.format_base import enum_value
from ttopt.dialects.stablehlo_attrs import ConvDimensionNumbers, DotDimensionNumbers
from ttopt.ir.attributes import DenseElementsAttr
from ttopt.ir.properties import int_values, props
from ttopt.ir.types import TensorType
from ttopt.lowering.dense_values import DenseValueError, flat_values
from ttopt.testing import indexing_semantics as ix
from ttopt.testing import sliding_window_semantics as sw
from ttopt.testing.family_semantics import MULTI, SINGLE, is_multi_reduce, reduce_several
from ttopt.testing.fused_semantics import FUSED, FUSED_MULTI
from ttopt.testing.sliding_window_semantics import conv_nchw

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation

try:  # bf16 as a real 16-bit float when ml_dtypes (a jax dependency) is installed
    from ml_dtypes import bfloat16 as _BF16
except ImportError:  # pragma: no cover - float32 stands in
    _BF16 = np.float32

Array = Any  # np.ndarray
DTYPES: dict[str, Any] = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16, "bf16": _BF16, "i1": np.bool_,
    **{f"{p}{b}": getattr(np, f"{'u' if p == 'ui' else ''}int{b}") for p in ("i", "si", "ui") for b in (8, 16, 32, 64)},
}  # fmt: skip


class Unsupported(Exception):
    """The interpreter does not know this op (or this form of it)."""


def dtype_of(t: Any) -> Any:
    """The numpy dtype of a tensor type's element type."""
    name = t.resolve().element_type.resolve().text
    if name not in DTYPES:
        raise Unsupported(f"element type {name}")
    return DTYPES[name]


def shape_of(t: Any) -> tuple[int, ...]:
    """The static shape of a tensor type."""
    t = t.resolve()
    if not isinstance(t, TensorType) or t.shape is None or any(d is None for d in t.shape):
        raise Unsupported(f"dynamic or unranked type {t.text}")
    return tuple(int(d) for d in t.shape if d is not None)


def dense(attr: Any, t: Any) -> Array:
    """The value of a `dense<..>` literal of type `t`, read as MLIR reads it: hex blobs little-endian
    (i1 one byte each), a hex literal for a float element type as its bit pattern."""
    a = attr.resolve()
    if not isinstance(a, DenseElementsAttr):
        raise Unsupported(f"constant {a.text}")
    dt, shape = dtype_of(t), shape_of(t)
    element = t.resolve().element_type.resolve().text
    body = a.body.strip()
    if body.startswith('"0x'):
        raw = bytes.fromhex(body[3:-1])
        blob = np.frombuffer(raw, np.uint8).astype(bool) if dt is np.bool_ else np.frombuffer(raw, dt)
        return np.broadcast_to(blob, shape).copy() if blob.size == 1 else blob.reshape(shape).copy()
    try:
        flat = flat_values(a, element, shape)
    except DenseValueError as e:
        raise Unsupported(f"constant {a.text[:60]}: {e}") from None
    return np.array(flat, dtype=np.float64 if element in ("bf16", "f16") else dt).astype(dt).reshape(shape)


def _logic(name: str) -> Callable[..., Array]:
    ops = {"and": (np.logical_and, np.bitwise_and), "or": (np.logical_or, np.bitwise_or),
           "xor": (np.logical_xor, np.bitwise_xor), "not": (np.logical_not, np.invert)}  # fmt: skip
    logical, bitwise = ops[name]
    return lambda *xs: logical(*xs) if xs[0].dtype == np.bool_ else bitwise(*xs)


def _div(a: Array, b: Array) -> Array:
    if np.issubdtype(a.dtype, np.integer):
        with np.errstate(divide="ignore"):
            return np.where(b == 0, 0, np.sign(a) * np.sign(b) * (np.abs(a) // np.where(b == 0, 1, np.abs(b))))
    return a / b


_ERF = np.vectorize(math.erf, otypes=[np.float64])
COMPARE = {"EQ": np.equal, "NE": np.not_equal, "GT": np.greater, "GE": np.greater_equal, "LT": np.less, "LE": np.less_equal}
# StableHLO and TTIR elementwise ops (by name after the dialect prefix) -> numpy.
ELEMENTWISE: dict[str, Callable[..., Array]] = {
    "abs": np.abs, "negate": np.negative, "neg": np.negative, "exponential": np.exp, "exp": np.exp, "log": np.log,
    "tanh": np.tanh, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "logistic": lambda x: 1 / (1 + np.exp(-x)),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "ceil": np.ceil, "floor": np.floor, "sine": np.sin, "sin": np.sin,
    "cosine": np.cos, "cos": np.cos, "tan": np.tan, "cbrt": np.cbrt, "sign": np.sign, "exponential_minus_one": np.expm1,
    "expm1": np.expm1, "log_plus_one": np.log1p, "log1p": np.log1p, "is_finite": np.isfinite, "isfinite": np.isfinite,
    "erf": _ERF, "square": np.square, "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": _div,
    "div": _div, "reciprocal": lambda x: 1 / x, "maximum": np.maximum, "minimum": np.minimum, "power": np.power, "pow": np.power, "remainder": np.fmod,
    "atan2": np.arctan2, **{n: _logic(n) for n in ("and", "or", "xor", "not")},
    **{f"logical_{n}": _logic(n) for n in ("and", "or", "xor", "not")}, **{f"bitwise_{n}": _logic(n) for n in ("and", "or", "xor", "not")},
    **{d.lower(): f for d, f in COMPARE.items()}, "select": np.where, "where": np.where,
    "clamp": lambda lo, x, hi: np.minimum(np.maximum(x, lo), hi), "clamp_tensor": lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi),
}  # fmt: skip
# Ops evaluated by `Interpreter._indexing`.
INDEXING_OPS = frozenset({
    *(f"stablehlo.{n}" for n in ("gather", "scatter", "reduce_window", "select_and_scatter", "pad", "dynamic_slice", "dynamic_update_slice")),
    *(f"ttir.{n}" for n in ("embedding", "embedding_backward", "gather", "scatter", "slice_dynamic", "pad", "full", "empty", "cumsum",
                             "cumprod", "max_pool2d", "avg_pool2d", "max_pool2d_with_indices", "repeat", "clamp_scalar")),
})  # fmt: skip
REDUCERS = {"add": np.add, "maximum": np.maximum, "minimum": np.minimum, "multiply": np.multiply, "and": np.logical_and, "or": np.logical_or,
            "sum": np.add, "max": np.maximum, "min": np.minimum, "prod": np.multiply, "reduce_and": np.logical_and, "reduce_or": np.logical_or}  # fmt: skip


def dot_general(a: Array, b: Array, lb: list[int], rb: list[int], lc: list[int], rc: list[int]) -> Array:
    """StableHLO dot_general: result dims are batch, lhs free, rhs free (accumulated in float64)."""
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    la = [next(letters) for _ in range(a.ndim)]
    ra = [next(letters) for _ in range(b.ndim)]
    for x, y in zip(lb + lc, rb + rc):
        ra[y] = la[x]
    out = [la[i] for i in lb] + [la[i] for i in range(a.ndim) if i not in lb + lc] + [ra[i] for i in range(b.ndim) if i not in rb + rc]
    wide = np.complex128 if np.iscomplexobj(a) else np.float64
    return np.einsum(f"{''.join(la)},{''.join(ra)}->{''.join(out)}", a.astype(wide), b.astype(wide))


def _batch_offset(op: Operation) -> int:
    return int(getattr(op.get_attr("batch_offset"), "value", 0))


def _update_cache(op: Operation, ins: list[Array]) -> None:
    """cache[offset + u, :, index, :] = input[0, :, u, :] for every user u (input [1, heads, users, dim])."""
    cache, x, index = ins[:3]
    pos, off = int(np.asarray(index).reshape(-1)[0]), _batch_offset(op)
    for u in range(x.shape[2]):
        cache[off + u, :, pos, :] = x[0, :, u, :]


def _fill_cache(op: Operation, ins: list[Array]) -> None:
    """cache[offset, :, :S, :] = input[0] (input [1, heads, S, dim])."""
    cache, x = ins[:2]
    cache[_batch_offset(op), :, : x.shape[2], :] = x[0]


def _paged_update_cache(op: Operation, ins: list[Array]) -> None:
    """cache[block, :, pos % block_size, :] = input[0, u, :heads, :] for every user u at pos = index[u].

    The block is the user's page-table entry for pos // block_size (clamped to the table and the
    cache, as HEAD's golden clamps), or without a page table the user's own row of a static cache
    (tt-metal's kernel; HEAD's golden, which walks the input's dim 1 as a sequence of one user,
    agrees with it when a page table is given to one user)."""
    cache, x, index = ins[:3]
    table = np.asarray(ins[3]).astype(np.int64) if len(ins) > 3 else None
    positions = np.asarray(index).astype(np.int64).reshape(-1)
    blocks, block_size, heads = cache.shape[0], cache.shape[2], cache.shape[1]
    for u, pos in enumerate(positions):
        if table is None:
            block, row = u, int(pos)
        else:
            block, row = int(table[u, min(max(int(pos) // block_size, 0), table.shape[1] - 1)]), int(pos) % block_size
        cache[min(max(block, 0), blocks - 1), :, row, :] = x[0, u, :heads, :]


# Ops without results that write their first operand in place (the cache ops).
IN_PLACE: dict[str, Callable[[Operation, list[Array]], None]] = {
    "ttir.update_cache": _update_cache, "ttir.fill_cache": _fill_cache, "ttir.paged_update_cache": _paged_update_cache}


class Interpreter:
    """Evaluates the functions of one module."""

    def __init__(self, module: Module) -> None:
        # Every definition, the host functions of a ttcore.cpu_module included (a CPU-hoisted call's callee).
        self.funcs = {getattr(f.properties.get("sym_name"), "value", ""): f for f in module.walk()
                      if f.name == "func.func" and f.regions and f.regions[0].blocks}  # fmt: skip
        self.lanes = 0  # > 0 while a scalar region body runs on arrays (results keep their lanes)

    def call(self, name: str, args: list[Array]) -> list[Array]:
        f = self.funcs.get(name)
        if f is None:
            raise Unsupported(f"no function @{name}")
        return self.block(f.regions[0].blocks[0], args)

    def block(self, block: Block, args: list[Array]) -> list[Array]:
        env: dict[int, Array] = {id(a): v for a, v in zip(block.args, args)}
        for op in block.ops:
            ins = [env[id(v)] for v in op.operands]
            if op.name in ("func.return", "stablehlo.return"):
                return ins
            if op.name in ("func.call", "ttcore.load_cached"):  # a const-eval function runs as a call
                outs = self.call(op.properties["callee"].resolve().root, ins)
            elif op.name == "ttcore.composite":  # its decomposition function defines it
                outs = self.call(op.properties["decomposition"].resolve().root, ins)
            elif op.name in IN_PLACE:
                IN_PLACE[op.name](op, ins)
                outs = []
            elif op.name in MULTI or op.name in FUSED_MULTI or is_multi_reduce(op):
                fn = MULTI.get(op.name) or FUSED_MULTI.get(op.name, reduce_several)
                outs = [np.asarray(v).astype(dtype_of(r.type)).reshape(shape_of(r.type)) for r, v in zip(op.results, fn(self, op, ins))]
            elif len(op.results) > 1:
                outs = [np.asarray(v).astype(dtype_of(r.type), copy=False) for v, r in zip(self._indexing(op, ins), op.results)]
            else:
                outs = [self.op(op, ins)]
            for r, v in zip(op.results, outs):
                env[id(r)] = v
        return []

    def op(self, op: Operation, ins: list[Array]) -> Array:
        """The value of a single-result op."""
        t = op.results[0].type
        out = self._eval(op, op.name.partition(".")[2], ins, t)
        dt = dtype_of(t)
        out = np.asarray(out).astype(dt, copy=False)
        return out if self.lanes else out.reshape(shape_of(t))

    def _eval(self, op: Operation, name: str, ins: list[Array], t: Any) -> Array:
        a = op.get_attr
        ints = lambda key: list(int_values(a(key)) or ())  # noqa: E731
        val: Callable[[str], Any] = lambda key: getattr(a(key), "value", None)  # noqa: E731
        family = SINGLE.get(op.name) or FUSED.get(op.name)
        if family is not None:
            try:
                return family(op, ins, t)
            except ValueError as e:
                raise Unsupported(f"{op.name}: {e}") from None
        if op.name == "stablehlo.compare":
            return COMPARE[str(enum_value(a("comparison_direction")))](*ins)
        if name in ELEMENTWISE and op.dialect in ("stablehlo", "ttir", "chlo"):
            return ELEMENTWISE[name](*ins)
        if name in ("convert", "typecast", "to_layout"):  # to_layout: the CPU hoisting's 32-bit conversions
            return ins[0].astype(dtype_of(t))
        if name == "bitcast_convert":
            return ins[0].view(dtype_of(t))
        if name == "constant":
            return dense(a("value"), t)
        if name in ("iota", "arange"):
            shape = shape_of(t)
            dim = val("iota_dimension" if name == "iota" else "arange_dimension")
            start, step = (val("start"), val("step")) if name == "arange" else (0, 1)
            line = np.arange(start, start + step * shape[dim], step)
            return np.broadcast_to(line.reshape([-1 if i == dim else 1 for i in range(len(shape))]), shape)
        if name == "broadcast_in_dim":
            shape, dims = shape_of(t), ints("broadcast_dimensions")
            src = [1] * len(shape)
            for i, d in enumerate(dims):
                src[d] = ins[0].shape[i]
            order = sorted(range(len(dims)), key=lambda i: dims[i])
            return np.broadcast_to(ins[0].transpose(order).reshape(src), shape)
        if name == "broadcast":
            factors = ints("broadcast_dimensions")
            if any(f != 1 and s != 1 for f, s in zip(factors, ins[0].shape)):
                raise Unsupported(f"ttir.broadcast by {factors} of a non-unit dimension of {list(ins[0].shape)}")
            return np.broadcast_to(ins[0], [s * f for s, f in zip(ins[0].shape, factors)])
        if name == "reshape" or (op.dialect == "ttir" and name in ("squeeze", "unsqueeze")):
            return ins[0].reshape(shape_of(t))
        if name == "transpose" and op.dialect == "ttir":  # TTIR swaps two dimensions
            return np.swapaxes(ins[0], val("dim0"), val("dim1"))
        if name in ("transpose", "permute"):
            return ins[0].transpose(ints("permutation"))
        if name in ("slice", "slice_static"):
            keys = ("start_indices", "limit_indices", "strides") if name == "slice" else ("begins", "ends", "step")
            return ins[0][tuple(slice(b, e, s) for b, e, s in zip(*(ints(k) for k in keys)))]
        if name in ("concatenate", "concat"):
            return np.concatenate(ins, val("dimension" if name == "concatenate" else "dim"))
        if name == "reverse":
            return np.flip(ins[0], tuple(ints("dimensions")))
        if name == "dot_general" and op.dialect == "stablehlo":
            dd: DotDimensionNumbers = props(op).dot_dimension_numbers
            return dot_general(ins[0], ins[1], list(dd.lhs_batching_dimensions), list(dd.rhs_batching_dimensions),
                               list(dd.lhs_contracting_dimensions), list(dd.rhs_contracting_dimensions))  # fmt: skip
        if name == "einsum" and op.dialect == "stablehlo":  # the CPU fallback's host functions hold it
            wide = np.complex128 if any(np.iscomplexobj(x) for x in ins) else np.float64
            return np.einsum(str(val("einsum_config")).replace(" ", ""), *(x.astype(wide) for x in ins))
        if name == "dot_general":
            return dot_general(*ins, *(ints(f"{k}_dims_{s}") for k in ("batch", "contract") for s in ("lhs", "rhs")))
        if name == "matmul":
            x, y = (v.astype(np.float64) for v in ins)
            x = np.swapaxes(x, -1, -2) if val("transpose_a") else x
            y = np.swapaxes(y, -1, -2) if val("transpose_b") else y
            return np.matmul(x, y)
        if op.name in sw.CONVS:
            try:
                return sw.CONVS[op.name](op, ins, shape_of(t))
            except ValueError as e:  # WindowError, or a malformed flattened_compat_info
                raise Unsupported(f"{op.name}: {e}") from None
        if name in ("convolution", "conv1d"):
            return self._conv(op, name, ins, ints)
        if name == "reduce":
            return self._reduce(op, ins)
        if name in ("sum", "max", "min", "prod", "reduce_and", "reduce_or"):
            dims = ints("dim_arg") or list(range(ins[0].ndim))
            keep = bool(val("keep_dim"))
            f: Any = REDUCERS[name]
            return f.reduce(ins[0], axis=tuple(dims), keepdims=keep)
        if op.name in INDEXING_OPS:
            return self._indexing(op, ins)[0]
        raise Unsupported(op.name)

    # -- indexing, windowed and padding ops (ttopt/testing/indexing_semantics.py) --------------------
    def _body(self, op: Operation, region: int = 0) -> Callable[..., list[Array]]:
        """A region of scalar ops, evaluated lane-wise on whole arrays."""
        block = op.regions[region].blocks[0]

        def body(*args: Array) -> list[Array]:
            self.lanes += 1
            try:
                return self.block(block, [np.asarray(a) for a in args])
            finally:
                self.lanes -= 1

        return body

    def _combiner(self, op: Operation) -> Any:
        """A scatter body as a numpy ufunc (one add/multiply/maximum/minimum of its arguments), None
        (it returns the update), or a function of two arrays evaluating the body."""
        block = op.regions[0].blocks[0]
        ufuncs = {"add": np.add, "multiply": np.multiply, "maximum": np.maximum, "minimum": np.minimum}
        ops = block.ops
        if len(ops) == 1 and list(ops[0].operands) == [block.args[1]]:
            return None
        if len(ops) == 2 and ops[0].name.partition(".")[2] in ufuncs and set(map(id, ops[0].operands)) == set(map(id, block.args)):
            return ufuncs[ops[0].name.partition(".")[2]]
        body = self._body(op)
        return lambda x, y: body(x, y)[0]

    def _window(self, op: Operation, rank: int) -> dict[str, list[int]]:
        get = lambda key, fill, n: list(int_values(op.get_attr(key)) or [fill] * n)  # noqa: E731
        return {"window": get("window_dimensions", 1, rank), "strides": get("window_strides", 1, rank),
                "dilations": get("window_dilations", 1, rank), "base": get("base_dilations", 1, rank),
                "padding": get("padding", 0, 2 * rank)}  # fmt: skip

    def _indexing(self, op: Operation, ins: list[Array]) -> list[Array]:
        """The values of an indexing / windowed / padding op (one per result)."""
        a = op.get_attr
        ints = lambda key: list(int_values(a(key)) or ())  # noqa: E731
        val: Callable[[str], Any] = lambda key: getattr(a(key), "value", None)  # noqa: E731
        name = op.name
        if name == "stablehlo.gather":
            p = props(op)
            return [ix.hlo_gather(ins[0], ins[1], p.dimension_numbers, list(p.slice_sizes))]
        if name == "stablehlo.scatter":
            return [ix.hlo_scatter(ins[0], ins[1], ins[2], props(op).scatter_dimension_numbers, self._combiner(op))]
        if name == "stablehlo.reduce_window":
            n = len(op.results)
            body = self._body(op)
            return ix.hlo_reduce_window(ins[:n], ins[n:], lambda accs, vals: body(*accs, *vals), self._window(op, ins[0].ndim))
        if name == "stablehlo.select_and_scatter":
            select, scatter = self._body(op, 0), self._body(op, 1)
            return [ix.hlo_select_and_scatter(ins[0], ins[1], ins[2], lambda x, y: select(x, y)[0], lambda x, y: scatter(x, y)[0],
                                              self._window(op, ins[0].ndim))]  # fmt: skip
        if name == "stablehlo.pad":
            return [ix.hlo_pad(ins[0], ins[1], ints("edge_padding_low"), ints("edge_padding_high"), ints("interior_padding"))]
        if name == "stablehlo.dynamic_slice":
            return [ix.hlo_dynamic_slice(ins[0], ins[1:], ints("slice_sizes"))]
        if name == "stablehlo.dynamic_update_slice":
            return [ix.hlo_dynamic_update_slice(ins[0], ins[1], ins[2:])]
        short = name[5:]
        if short == "embedding":
            return [ix.embedding(ins[0], ins[1])]
        if short == "embedding_backward":
            return [ix.embedding_backward(*ins[:3])]
        if short == "gather":
            return [ix.torch_gather(ins[0], ins[1], val("dim"))]
        if short == "scatter":
            kind = a("scatter_reduce_type").resolve().body  # type: ignore[union-attr]
            return [ix.torch_scatter(ins[0], ins[1], ins[2], val("dim"), kind)]
        if short == "slice_dynamic":
            return [ix.slice_dynamic(ins[0], ins[1], ins[2], ints("step") or None)]
        if short == "pad":
            return [ix.ttir_pad(ins[0], ints("padding"), val("value"))]
        if short == "full":
            return [np.full(shape_of(op.results[0].type), val("fill_value"))]
        if short == "empty":
            return [np.zeros(shape_of(op.results[0].type))]
        if short in ("cumsum", "cumprod"):
            return [(np.cumsum if short == "cumsum" else np.cumprod)(ins[0], axis=val("dim"))]
        if name in sw.POOLS:
            try:
                return sw.pool2d(op, ins, [shape_of(r.type) for r in op.results])
            except ValueError as e:
                raise Unsupported(f"{op.name}: {e}") from None
        if short == "repeat":
            return [ix.repeat(ins[0], ints("repeat_dimensions"))]
        if short == "clamp_scalar":
            return [np.clip(ins[0], val("min"), val("max"))]
        raise Unsupported(op.name)

    def _conv(self, op: Operation, name: str, ins: list[Array], ints: Callable[[str], list[int]]) -> Array:
        """stablehlo.convolution and ttir.conv1d (conv2d / conv_transpose2d: sliding_window_semantics.py)."""
        x, w = ins[:2]
        if name == "conv1d":
            # (N, L, C) by (O, C/G, K): a conv2d of height 1
            pad = ints("padding")
            stride, dilation, groups = (getattr(op.get_attr(k), "value", 1) for k in ("stride", "dilation", "groups"))
            y = conv_nchw(x.transpose(0, 2, 1)[:, :, :, None], w[:, :, :, None], [stride, 1], [(pad[0], pad[-1]), (0, 0)],
                          [dilation, 1], groups)  # fmt: skip
            return y[:, :, :, 0].transpose(0, 2, 1) + (ins[2].reshape(1, 1, -1) if len(ins) > 2 else 0)
        d: ConvDimensionNumbers = props(op).dimension_numbers
        if any(v != 1 for v in ints("lhs_dilation")) or len(d.input_spatial_dimensions) != 2:
            raise Unsupported("lhs-dilated or non-2-D convolution")
        flat = ints("padding") or [0, 0, 0, 0]
        groups = getattr(op.get_attr("feature_group_count"), "value", 1)
        lhs = [d.input_batch_dimension, d.input_feature_dimension, *d.input_spatial_dimensions]
        rhs = [d.kernel_output_feature_dimension, d.kernel_input_feature_dimension, *d.kernel_spatial_dimensions]
        y = conv_nchw(x.transpose(lhs), w.transpose(rhs),
                      ints("window_strides") or [1, 1], [(flat[0], flat[1]), (flat[2], flat[3])], ints("rhs_dilation") or [1, 1], groups)  # fmt: skip
        order = [d.output_batch_dimension, d.output_feature_dimension, *d.output_spatial_dimensions]
        return y.transpose([order.index(i) for i in range(4)])

    def _reduce(self, op: Operation, ins: list[Array]) -> Array:
        f: Any
        body = op.regions[0].blocks[0]
        if len(ins) != 2 or len(body.ops) != 2:
            raise Unsupported("a reduce other than one input with a one-op body")
        f = REDUCERS[body.ops[0].name.partition(".")[2]]
        if f in (np.logical_and, np.logical_or) and ins[0].dtype != np.bool_:
            f = np.bitwise_and if f is np.logical_and else np.bitwise_or
        dims = tuple(int_values(op.get_attr("dimensions")) or ())
        return f(f.reduce(ins[0], axis=dims), ins[1])


def run(module: Module, func_name: str, inputs: list[Array]) -> list[Array]:
    """Evaluate `func_name` of `module` on `inputs`; its results."""
    return Interpreter(module).call(func_name, [np.asarray(x) for x in inputs])


