"""`ttir-to-ttir-decomposition`: TTIR ops without a TTNN counterpart rewritten into ones that have one
(tt-mlir's TTIRToTTIRDecomposition, the forms the StableHLO lowering leaves).

* `ttir.dot_general`: each operand is permuted to (batch, free, contracting) / (batch, contracting,
  free), reshaped to (batch..., M, K) / (batch..., K, N), multiplied with `ttir.matmul` -- or with a
  broadcasting `ttir.multiply` when every contracting dimension has extent 1 (an outer product, kept
  in full precision as tt-mlir does) -- and the (batch..., M, N) result reshaped to the
  dot_general's (batch, lhs free, rhs free) shape.
* `ttir.pad` with negative padding: the non-negative part is padded, then the negative part sliced
  off.
* `ttir.reverse`: the reversed dimensions permuted to the front and flattened, the rows reordered
  by a `ttir.embedding` lookup of [N-1, .., 0], reshaped and permuted back.
* `ttir.conv2d` / `ttir.conv_transpose2d` not in NHWC: permuted to NHWC and back (conv_layout.py).
* `ttir.index`: `ttir.slice_static` over every dimension (index_slice.py).
* `ttir.concat`: inputs empty along the dimension dropped, a one-input concat folded away.
* `ttir.argmax` over several dimensions: those permuted last and flattened into one.
* `ttir.quantize` / `dequantize` / `requantize`: their `*_unrolled` forms with scale and zero-point
  constants from the quantized types (quant_types.py).
* Constants hoisted to the front of the block and duplicates merged, before and after the
  rewrites, as HEAD's canonicalizer runs around its decomposition (hoist_constants).
* Reshapes to the same shape and identity permutes (which the lowering emits as tt-mlir does, and
  tt-mlir's canonicalizer folds away) are dropped.

`convert-ttir-to-ttnn` runs it first, so a TTIR program reaches TTNN in one pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, Any, Callable

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, BoolAttr, DenseArrayAttr, DenseElementsAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values, props
from ttopt.ir.types import ScalarType, TensorType, static_shape
from ttopt.lowering.conv_layout import channel_last_conv
from ttopt.lowering.index_slice import index_to_slice
from ttopt.lowering.quant_types import unrolled
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

I32 = ScalarType("i32")


class _Builder:
    """Creates TTIR ops in front of one op (its location), as its replacement is built."""

    def __init__(self, anchor: Operation) -> None:
        self.anchor = anchor
        self.block: Block = anchor.parent  # type: ignore[assignment]

    def emit(self, name: str, operands: list[Value], result: Any, **properties: Any) -> Value:
        op = Operation(f"ttir.{name}", operands, [result], properties=dict(sorted(properties.items())), location=self.anchor.location)
        op.pos = self.anchor.pos
        self.block.insert(self.block.index(self.anchor), op)
        return op.results[0]

    def reshape(self, v: Value, shape: tuple[int, ...]) -> Value:
        t = v.type.resolve()
        if tuple(t.shape) == tuple(shape):
            return v
        return self.emit("reshape", [v], TensorType(tuple(shape), t.element_type, t.encoding),
                         shape=ArrayAttr(tuple(IntegerAttr(int(d), I32) for d in shape)))  # fmt: skip

    def permute(self, v: Value, perm: list[int]) -> Value:
        t = v.type.resolve()
        if perm == list(range(len(perm))):
            return v
        shape = tuple(t.shape[p] for p in perm)
        return self.emit("permute", [v], TensorType(shape, t.element_type, t.encoding), permutation=DenseArrayAttr("i64", tuple(perm)))


def _dot_general(op: Operation) -> Value:
    p = props(op)
    a, b = inputs(op)[:2]
    sa, sb = static_shape(a.type.resolve()), static_shape(b.type.resolve())
    bl, cl, br, cr = (list(getattr(p, k)) for k in ("batch_dims_lhs", "contract_dims_lhs", "batch_dims_rhs", "contract_dims_rhs"))
    fl = [d for d in range(len(sa)) if d not in bl and d not in cl]
    fr = [d for d in range(len(sb)) if d not in br and d not in cr]
    out = op.results[0].type.resolve()
    batch = [sa[d] for d in bl]
    m, k, n = prod(sa[d] for d in fl), prod(sa[d] for d in cl), prod(sb[d] for d in fr)
    bld = _Builder(op)
    x = bld.reshape(bld.permute(a, bl + fl + cl), (*batch, m, k))
    y = bld.reshape(bld.permute(b, br + cr + fr), (*batch, k, n))
    flat = TensorType((*batch, m, n), out.element_type)
    if k == 1:
        z = bld.emit("multiply", [x, y], flat)
    else:
        z = bld.emit("matmul", [x, y], flat)
    return bld.reshape(z, static_shape(out))


def _negative_pad(op: Operation) -> Value | None:
    pad = list(int_values(op.get_attr("padding")) or ())
    if all(v >= 0 for v in pad):
        return None
    x = inputs(op)[0]
    shape = static_shape(x.type.resolve())
    bld = _Builder(op)
    grown = [max(v, 0) for v in pad]
    t = x.type.resolve()
    padded_shape = tuple(s + grown[2 * i] + grown[2 * i + 1] for i, s in enumerate(shape))
    v = x
    if any(grown):
        v = bld.emit("pad", [x], TensorType(padded_shape, t.element_type, t.encoding), padding=DenseArrayAttr("i32", tuple(grown)),
                     value=op.properties["value"])  # fmt: skip
    begins = [-min(pad[2 * i], 0) for i in range(len(shape))]
    ends = [padded_shape[i] + min(pad[2 * i + 1], 0) for i in range(len(shape))]
    i32s = lambda vals: ArrayAttr(tuple(IntegerAttr(int(x), I32) for x in vals))  # noqa: E731
    return bld.emit("slice_static", [v], op.results[0].type, begins=i32s(begins), ends=i32s(ends), step=i32s([1] * len(shape)))


def _reverse(op: Operation) -> Value:
    """The reversed dimensions permuted to the front and flattened into rows, the rows reordered by
    a `ttir.embedding` lookup of [N-1, .., 0], then reshaped and permuted back (tt-mlir's form)."""
    x = inputs(op)[0]
    shape = static_shape(x.type.resolve())
    dims = sorted(int_values(op.get_attr("dimensions")) or ())
    perm = dims + [d for d in range(len(shape)) if d not in dims]
    bld = _Builder(op)
    permuted = bld.permute(x, perm)
    pshape = tuple(shape[p] for p in perm)
    n = prod(pshape[: len(dims)])
    rows = bld.reshape(permuted, (n, prod(pshape[len(dims) :])))
    t = TensorType((n,), ScalarType("si32"))
    order = bld.emit("constant", [], t, value=DenseElementsAttr("[" + ", ".join(str(n - 1 - i) for i in range(n)) + "]", t))
    flipped = bld.emit("embedding", [order, rows], rows.type.resolve())
    return bld.permute(bld.reshape(flipped, pshape), [perm.index(i) for i in range(len(shape))])


def _argmax(op: Operation) -> Value | None:
    """An argmax over several dimensions: those permuted to the back and flattened into one, the
    one-dimension argmax, and (keep_dim) the result reshaped to the input's rank (HEAD's ArgMaxPattern)."""
    dims = list(int_values(op.get_attr("dim_arg")) or ())
    if len(dims) <= 1:
        return None
    x = inputs(op)[0]
    shape = static_shape(x.type.resolve())
    reduced = sorted({d % len(shape) for d in dims})
    kept = [d for d in range(len(shape)) if d not in reduced]
    keep_dim = bool(props(op).keep_dim)
    bld = _Builder(op)
    flat_shape = (*(shape[d] for d in kept), prod(shape[d] for d in reduced))
    flat = bld.reshape(bld.permute(x, kept + reduced), flat_shape)
    out = op.results[0].type.resolve()
    arg_shape = (*flat_shape[:-1], 1) if keep_dim else flat_shape[:-1]
    arg = bld.emit("argmax", [flat], TensorType(arg_shape, out.element_type, out.encoding), keep_dim=BoolAttr(keep_dim),
                   dim_arg=ArrayAttr((IntegerAttr(len(flat_shape) - 1, I32),)))  # fmt: skip
    return bld.reshape(arg, static_shape(out)) if keep_dim else arg


def _concat(op: Operation) -> Value | None:
    """Empty inputs (zero along the concat dimension) dropped, and a concat of one input folded to
    it (HEAD's ConcatOp folders)."""
    ins = inputs(op)
    rank = len(static_shape(op.results[0].type.resolve()))
    dim = int(props(op).dim) % rank
    kept = [v for v in ins if static_shape(v.type.resolve())[dim] != 0]
    if len(ins) == 1:
        return ins[0]
    if len(kept) == len(ins):
        return None
    if len(kept) <= 1:
        return (kept or ins)[0]
    new = Operation("ttir.concat", kept, [op.results[0].type], properties=dict(op.properties), location=op.location)
    new.pos = op.pos
    op.parent.insert(op.parent.index(op), new)  # type: ignore[union-attr]
    return new.results[0]


def _no_op(op: Operation) -> Value | None:
    x = inputs(op)[0]
    if op.name == "ttir.reshape":
        same = getattr(x.type.resolve(), "shape", None) == getattr(op.results[0].type.resolve(), "shape", None)
    elif op.name == "ttir.broadcast":  # every factor 1: tt-mlir's BroadcastOp folds it to its input
        same = all(d == 1 for d in int_values(op.get_attr("broadcast_dimensions")) or ())
    else:
        perm = list(int_values(op.get_attr("permutation")) or ())
        same = perm == list(range(len(perm)))
    return x if same and x.type.resolve().text == op.results[0].type.resolve().text else None


# op -> rewrite returning the replacement value (None: leave the op as it is).
DECOMPOSITIONS: dict[str, Callable[[Operation], Value | None]] = {
    "ttir.dot_general": _dot_general,
    "ttir.pad": _negative_pad,
    "ttir.reverse": _reverse,
    "ttir.reshape": _no_op,
    "ttir.permute": _no_op,
    "ttir.broadcast": _no_op,
    "ttir.conv2d": channel_last_conv,
    "ttir.conv_transpose2d": channel_last_conv,
    "ttir.conv3d": channel_last_conv,
    "ttir.index": index_to_slice,
    "ttir.argmax": _argmax,
    "ttir.concat": _concat,
    "ttir.quantize": unrolled,
    "ttir.dequantize": unrolled,
    "ttir.requantize": unrolled,
}


# TTIR's ConstantLike ops (TTIROps.td): MLIR's canonicalizer hoists and uniques them.
CONSTANT_LIKE = frozenset({"ttir.constant", "ttir.full", "ttir.zeros", "ttir.ones"})


def hoist_constants(block: Block) -> int:
    """Constants moved to the front of `block` and duplicates merged, as one run of MLIR's
    canonicalizer does (OperationFolder::insertKnownConstant, in block order): a constant already at
    the front, or right after one the run has kept, stays; any other moves to the very front (so
    constants behind other ops come out in reverse order); constants nobody reads are erased. How
    many duplicates were merged."""
    kept: dict[tuple[str, str, str], Operation] = {}
    owned: set[int] = set()
    moved: list[Operation] = []  # in the order they moved; the block's front is this list reversed
    # A `ttnn.get_device` convert-to-ttnn-ccl put first stays first: the constants' conversion reads it.
    prefix = []
    for op in block.ops:
        if op.name != "ttnn.get_device":
            break
        prefix.append(op)
        owned.add(id(op))
    stay: list[Operation] = list(prefix)
    merged = 0
    for op in block.ops[len(prefix):]:
        if op.name not in CONSTANT_LIKE or len(op.results) != 1 or op.operands:
            stay.append(op)
            continue
        key = (op.name, repr(sorted((k, v.text) for k, v in op.properties.items())), op.results[0].type.resolve().text)
        first = kept.get(key)
        if first is not None:
            op.results[0].replace_all_uses_with(first.results[0])
            op.erase()
            merged += 1
            continue
        prev = stay[-1] if len(stay) > len(prefix) else (moved[0] if moved else (stay[-1] if stay else None))
        (stay if prev is None or id(prev) in owned else moved).append(op)
        kept[key] = op
        owned.add(id(op))
    # The run then erases the constants nobody reads (trivially dead ops).
    dead = [op for op in (*moved, *stay) if op.name in CONSTANT_LIKE and id(op) in owned and not op.results[0].uses]
    for op in dead:
        op.drop_all_references()
    if moved or merged or dead:
        gone = {id(op) for op in dead}
        block.ops = [op for op in (*prefix, *reversed(moved), *stay[len(prefix):]) if id(op) not in gone]
        for op in dead:
            op.parent = None
    return merged


def decompose(module: Module) -> dict[str, int]:
    """Apply the decompositions to every function of `module`; how many ops of each kind were rewritten.
    Constants are hoisted before and after (hoist_constants), as HEAD's canonicalizer runs around
    its TTIRToTTIRDecomposition."""
    counts: dict[str, int] = {}
    for f in module.functions():
        for region in f.regions:
            for block in region.blocks:
                hoist_constants(block)
                for op in list(block.ops):
                    rewrite = DECOMPOSITIONS.get(op.name)
                    new = rewrite(op) if rewrite is not None else None
                    if new is None:
                        continue
                    op.results[0].replace_all_uses_with(new)
                    dps = [e for e in (getattr(v, "op", None) for v in op.operands) if e is not None and e.name == "ttir.empty"]
                    op.erase()
                    for e in dps:
                        if not e.results[0].uses and e.parent is not None:
                            e.erase()
                    counts[op.name] = counts.get(op.name, 0) + 1
                hoist_constants(block)
    return counts


@register_pass
@dataclass
class TTIRToTTIRDecomposition(Pass):
    """Decompose TTIR ops TTNN has no op for (dot_general, negative pad, reverse) into ones it has."""

    name = "ttir-to-ttir-decomposition"
    summary = "Decompose TTIR ops into simpler TTIR ops (dot_general -> permute/reshape/matmul, negative pad -> pad/slice, reverse -> embedding)"

    def run(self, module: Module, ctx: PassContext) -> None:
        ctx.stats.setdefault(self.name, {}).update(decompose(module))
