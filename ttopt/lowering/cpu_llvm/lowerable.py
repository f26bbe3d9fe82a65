"""Which TTIR ops the CPU module's lowering to LLVM takes (HEAD's `canLowerTTIRToLinalg`): the
hoisting pass asks `lowerable(op)` before it moves an op to the host, so an op that passes here is
never an error of `convert-cpu-module-to-llvm`.

The answer looks at the op's name, its operand and result types (ranked, static tensors of f32,
32-bit integers or i1: what HEAD's CPU module holds) and the attributes the lowering reads. One
StableHLO op is among them: `stablehlo.dynamic_update_slice`, which the CPU fallback hoists and no
TTIR op expresses (hoisted_stablehlo.py turns the fallback's other StableHLO into TTIR first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import BoolAttr, DenseElementsAttr, FloatAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation

# Element types of a CPU-module tensor: HEAD computes in f32 and signless 32-bit integers, and
# narrows booleans back to i1. bf16 reaches a host function only as a StableHLO convert's result
# or operand (a CPU-fallback function, lowered by HEAD through Linalg): typecasts only (`BF16_RULE`).
ELEMENT_TYPES = frozenset({"f32", "i32", "i1", "bf16"})
BF16_RULE = "bf16 is lowered by a typecast to or from f32 only (the host computes in f32)"
FLOAT_UNARY = frozenset({"neg", "abs", "exp", "log", "sqrt", "rsqrt", "reciprocal", "relu", "sigmoid", "tanh", "floor", "ceil",
                         "sin", "cos", "tan", "sign", "erf", "erfc", "expm1", "log1p", "silu", "gelu", "relu6", "leaky_relu",
                         "hardsigmoid", "mish", "cbrt", "atan", "asin", "acos", "asinh", "isfinite"})  # fmt: skip
INT_UNARY = frozenset({"neg", "abs", "relu", "sign", "relu6", "bitwise_not"})
UNARY = FLOAT_UNARY | INT_UNARY
# Integer only: TOSA's bitwise ops and logical shifts (TosaToLinalg's arith.andi / ori / xori / shli / shrui).
BITWISE = frozenset({"bitwise_and", "bitwise_or", "bitwise_xor", "logical_left_shift", "logical_right_shift"})
BINARY = frozenset({"add", "subtract", "multiply", "div", "maximum", "minimum", "pow", "remainder", "atan2"}) | BITWISE
FLOAT_BINARY = BINARY - BITWISE
INT_BINARY = BINARY - {"pow", "atan2"}
COMPARE = frozenset({"eq", "ne", "gt", "ge", "lt", "le"})
LOGICAL = frozenset({"logical_and", "logical_or", "logical_xor", "logical_not"})
REDUCE = frozenset({"sum", "mean", "max", "min", "prod", "reduce_and", "reduce_or"})
CREATION = frozenset({"constant", "full", "zeros", "ones", "arange"})
DATA_MOVEMENT = frozenset({"typecast", "reshape", "permute", "transpose", "broadcast", "concat", "slice_static", "repeat", "reverse",
                           "pad", "squeeze", "unsqueeze"})  # fmt: skip
# HEAD's multi-op patterns of TTIRToLinalg.cpp / Reduction.cpp (rules in `_compound`).
COMPOUND = frozenset({"softmax", "argmax", "linear", "layer_norm", "concatenate_heads"})
# The StableHLO op the CPU fallback hoists that no TTIR op expresses (cpu_llvm/hoisted_stablehlo.py).
DYNAMIC_UPDATE_SLICE = "stablehlo.dynamic_update_slice"
OPS = frozenset(f"ttir.{n}" for n in UNARY | BINARY | COMPARE | LOGICAL | REDUCE | CREATION | DATA_MOVEMENT
                | {"where", "matmul", "clamp_scalar", "clamp_tensor", "embedding", "cumsum"} | COMPOUND) | {DYNAMIC_UPDATE_SLICE}  # fmt: skip


def lowerable(op: Operation) -> bool:
    """True iff `convert-cpu-module-to-llvm` lowers `op` with its types and attributes."""
    return why_not(op) is None


def why_not(op: Operation) -> str | None:
    """Why the lowering cannot take `op` (None when it can): the reason its error states."""
    if op.name not in OPS:
        return "the CPU lowering has no rule for this op"
    if len(op.results) != 1:
        return "expected one result"
    for v in [*op.operands, *op.results]:
        t = v.type.resolve()
        if not isinstance(t, TensorType) or t.shape is None or any(d is None for d in t.shape):
            return f"expected ranked tensors of static shape, got {t.text}"
        if t.element_type.resolve().text not in ELEMENT_TYPES:
            return f"element type {t.element_type.resolve().text} is not f32, bf16, i32 or i1"
    if any(element(v) == "bf16" for v in [*op.operands, *op.results]):
        kinds = {element(v) for v in [*op.operands, *op.results]}
        if op.name != "ttir.typecast" or not kinds <= {"f32", "bf16"}:
            return BF16_RULE
    if op.name == DYNAMIC_UPDATE_SLICE:
        return _dynamic_update_slice(op)
    return _attributes(op, op.name[len("ttir.") :])


def _dynamic_update_slice(op: Operation) -> str | None:
    """An operand, an update of its rank and element type that fits in it, and one scalar i32 start
    index per dimension (the hoisting made them 32-bit)."""
    if len(op.operands) < 2:
        return "expected an operand, an update and start indices"
    x, update, *starts = op.operands
    if element(update) != element(x) or element(op.results[0]) != element(x) or shape(op.results[0]) != shape(x):
        return "the operand, update and result differ in element type or shape"
    if len(shape(update)) != len(shape(x)) or any(u > n for u, n in zip(shape(update), shape(x))):
        return "the update does not fit in the operand"
    if len(starts) != len(shape(x)) or any(shape(s) != () or element(s) != "i32" for s in starts):
        return "expected one tensor<i32> start index per dimension"
    return None


def element(v: Any) -> str:
    """The element type name of a tensor value."""
    return str(v.type.resolve().element_type.resolve().text)


def shape(v: Any) -> tuple[int, ...]:
    """The static shape of a tensor value."""
    return tuple(v.type.resolve().shape)


def _dims_ok(dims: tuple[int, ...] | None, rank: int) -> bool:
    """Every dim within `rank` (negative ones count from the end), none twice."""
    if dims is None:
        return False
    return all(-rank <= d < rank for d in dims) and len({d % rank for d in dims}) == len(dims)


def _attributes(op: Operation, name: str) -> str | None:
    """The attribute and type rules of each op (None when `op` is fine)."""
    ins, out = op.operands, op.results[0]
    res_el = element(out)
    if name in UNARY or name in BINARY or name == "typecast":
        if name != "typecast" and len(ins) != (1 if name in UNARY else 2):
            return "unexpected operand count"
        if name in BINARY and not (len(ins) == 2 and _broadcastable([shape(v) for v in ins], shape(out))):
            return "operand shapes do not broadcast to the result's"
        if name in UNARY and shape(ins[0]) != shape(out):
            return "operand and result shapes differ"
        if name == "typecast":
            return None if len(ins) == 1 and shape(ins[0]) == shape(out) else "expected one operand of the result's shape"
        if any(element(v) != res_el for v in ins):
            return "operand and result element types differ"
        if name == "leaky_relu" and not isinstance(_resolved(op.get_attr("parameter")), FloatAttr):
            return "expected a float parameter"
        allowed = {"f32": FLOAT_UNARY | FLOAT_BINARY, "i32": INT_UNARY | INT_BINARY}.get(res_el, frozenset())
        return None if name in allowed else f"'{op.name}' is not lowered for {res_el} elements"
    if name == "embedding":
        return _embedding(op)
    if name in COMPOUND:
        return _compound(op, name, [shape(v) for v in ins], shape(out))
    if name in LOGICAL:
        if len(ins) != (1 if name == "logical_not" else 2) or not _broadcastable([shape(v) for v in ins], shape(out)):
            return "unexpected operands"
        # i32: HEAD's hoisting turns i1 into i32, and its lowering reads non-zero as true
        return None if len({element(v) for v in [*ins, out]} - {"i1", "i32"}) == 0 else f"'{op.name}' is lowered for i1 or i32 operands and result only"
    if name == "clamp_scalar":
        bounds = [op.get_attr(k) for k in ("min", "max")]
        if len(ins) != 1 or shape(ins[0]) != shape(out) or element(ins[0]) != res_el or res_el == "i1":
            return "expected one f32 or i32 operand of the result's shape and type"
        ok = all(isinstance(b.resolve() if b is not None else None, (FloatAttr, IntegerAttr)) for b in bounds)
        return None if ok else "expected numeric min and max"
    if name == "clamp_tensor":
        if len(ins) != 3 or not _broadcastable([shape(v) for v in ins], shape(out)) or shape(ins[0]) != shape(out):
            return "expected an operand of the result's shape and bounds that broadcast to it"
        return None if res_el != "i1" and all(element(v) == res_el for v in ins) else "expected f32 or i32 operands and result of one type"
    if name in COMPARE:
        if len(ins) != 2 or not _broadcastable([shape(v) for v in ins], shape(out)):
            return "operand shapes do not broadcast to the result's"
        return None if element(ins[0]) == element(ins[1]) != "i1" else "expected two f32 or two i32 operands"
    if name == "where":
        if len(ins) != 3 or not _broadcastable([shape(v) for v in ins], shape(out)):
            return "operand shapes do not broadcast to the result's"
        return None if element(ins[1]) == element(ins[2]) == res_el else "the selected values and the result differ in element type"
    if name in CREATION:
        return _creation(op, name)
    if name == "cumsum" and res_el not in ("f32", "i32"):
        return "'ttir.cumsum' is lowered for f32 and i32 elements"  # HEAD's i1 sum would add modulo 2
    if ins and name not in ("concat", "matmul") and element(ins[0]) != res_el:
        return "operand and result element types differ"
    return _shaped(op, name, [shape(v) for v in ins], shape(out))


def _creation(op: Operation, name: str) -> str | None:
    if op.operands:
        return "a creation op takes no operands"
    if name == "constant":
        v = op.get_attr("value")
        r = v.resolve() if v is not None else None
        return None if isinstance(r, DenseElementsAttr) else "expected a dense<...> value"
    if name == "arange":
        vals = [getattr(op.get_attr(k), "value", None) for k in ("start", "end", "step", "arange_dimension")]
        out = op.results[0]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in vals) or element(out) == "i1":
            return "expected integer start, end, step and arange_dimension, and an f32 or i32 result"
        start, end, step, dim = (int(v) for v in vals)  # type: ignore[arg-type]
        rank = len(shape(out))
        if not -rank <= dim < rank or step == 0 or len(range(start, end, step)) != shape(out)[dim % rank]:
            return "the range does not fill the result's arange_dimension"
        return None
    if name == "full":
        fill = op.get_attr("fill_value")
        r = fill.resolve() if fill is not None else None
        if not isinstance(r, (FloatAttr, IntegerAttr, BoolAttr)):
            return "expected a float or integer fill_value"
    return None


def _shaped(op: Operation, name: str, ins: list[tuple[int, ...]], out: tuple[int, ...]) -> str | None:
    """The rules of the data-movement, reduction and matmul ops."""
    ints = lambda key: int_values(op.get_attr(key))  # noqa: E731
    val = lambda key: getattr(op.get_attr(key), "value", None)  # noqa: E731
    rank = len(ins[0]) if ins else 0
    if name != "concat" and len(ins) != (2 if name == "matmul" else 1):
        return "unexpected operand count"
    if name == "reshape":
        return None if _volume(ins[0]) == _volume(out) else "reshape changes the element count"
    if name in ("squeeze", "unsqueeze", "cumsum"):
        dim = val("dim")
        bound = rank + (name == "unsqueeze")
        if not isinstance(dim, int) or not -bound <= dim < bound:
            return "expected a dim within the operand's rank"
        d = dim % bound
        want = {"squeeze": ins[0][:d] + ins[0][d + 1 :], "unsqueeze": ins[0][:d] + (1,) + ins[0][d:], "cumsum": ins[0]}[name]
        if name == "squeeze" and ins[0][d] != 1:
            return "squeezed dimension is not 1"
        return None if want == out else f"result shape is not the operand's {'shape' if name == 'cumsum' else name + 'd at dim'}"
    if name == "permute":
        perm = ints("permutation")
        ok = perm is not None and sorted(perm) == list(range(rank)) and tuple(ins[0][p] for p in perm) == out
        return None if ok else "expected a permutation of the operand's dimensions giving the result's shape"
    if name == "transpose":
        d0, d1 = val("dim0"), val("dim1")
        if not (isinstance(d0, int) and isinstance(d1, int) and -rank <= d0 < rank and -rank <= d1 < rank):
            return "expected dim0 and dim1 within the operand's rank"
        swapped = list(range(rank))
        swapped[d0 % rank], swapped[d1 % rank] = swapped[d1 % rank], swapped[d0 % rank]
        return None if tuple(ins[0][p] for p in swapped) == out else "result shape is not the operand's with dim0 and dim1 swapped"
    if name in ("broadcast", "repeat"):
        factors = ints("broadcast_dimensions" if name == "broadcast" else "repeat_dimensions")
        if factors is None or len(factors) != rank or any(f < 1 for f in factors):
            return f"expected one positive factor per dimension in {'broadcast_dimensions' if name == 'broadcast' else 'repeat_dimensions'}"
        if tuple(s * f for s, f in zip(ins[0], factors)) != out:
            return "result shape is not the operand's times the factors"
        if name == "broadcast" and any(f != 1 and s != 1 for s, f in zip(ins[0], factors)):
            return "ttir.broadcast of a dimension that is not 1"
        return None
    if name == "concat":
        dim = val("dim")
        if not ins or not isinstance(dim, int) or not -rank <= dim < rank:
            return "expected operands and a dim within their rank"
        d = dim % rank
        if any(len(s) != rank or any(a != b for i, (a, b) in enumerate(zip(s, out)) if i != d) for s in ins):
            return "operand shapes differ from the result's outside the concat dim"
        if sum(s[d] for s in ins) != out[d] or any(element(v) != element(op.results[0]) for v in op.operands):
            return "operands do not add up to the result"
        return None
    if name == "reverse":
        dims = ints("dimensions")
        return None if _dims_ok(dims, rank) and ins[0] == out else "expected dimensions within the operand's rank, each once"
    if name == "pad":
        pads, fill = ints("padding"), op.get_attr("value")
        if pads is None or len(pads) != 2 * rank or any(p < 0 for p in pads):
            return "expected a low and a high padding, not negative, per dimension"
        if not isinstance(fill.resolve() if fill is not None else None, (FloatAttr, IntegerAttr)):
            return "expected a numeric padding value"
        return None if tuple(n + pads[2 * i] + pads[2 * i + 1] for i, n in enumerate(ins[0])) == out else "result shape is not the padded operand's"
    if name == "slice_static":
        b, e, s = ints("begins"), ints("ends"), ints("step")
        if b is None or e is None or s is None or not len(b) == len(e) == len(s) == rank or any(x <= 0 for x in s):
            return "expected begins, ends and positive steps, one per dimension"
        got = tuple(len(range(*slice(x, y, z).indices(n))) for x, y, z, n in zip(b, e, s, ins[0]))
        return None if got == out else "result shape does not match the slice"
    if name in REDUCE:
        dims = ints("dim_arg")
        dims = tuple(range(rank)) if dims is None else dims
        if not _dims_ok(dims, rank):
            return "expected dim_arg within the operand's rank, each once"
        kept = {d % rank for d in dims}
        keep = bool(val("keep_dim"))
        want = tuple(1 if i in kept else n for i, n in enumerate(ins[0])) if keep else tuple(n for i, n in enumerate(ins[0]) if i not in kept)
        if want != out:
            return "result shape does not match the reduction"
        el = element(op.operands[0])
        if (el == "i1" and not name.startswith("reduce_")) or (name == "mean" and el != "f32"):
            return f"'{op.name}' is not lowered for {el} elements"
        if element(op.results[0]) != el:
            return f"expected the result's element type ({element(op.results[0])}) to be the operand's ({el})"
        return None
    if name == "matmul":
        return _matmul(op, ins, out)
    return "the CPU lowering has no rule for this op"


def _embedding(op: Operation) -> str | None:
    """HEAD's EmbeddingOpConversionPattern: out[i..., d] = weight[0..., index[i...], d]; the index
    converted as HEAD does (f32 by fptosi, i32 sign-extended)."""
    if len(op.operands) != 2:
        return "expected indices and a weight"
    idx, weight = op.operands
    w, out = shape(weight), shape(op.results[0])
    if len(w) < 2 or any(d != 1 for d in w[:-2]):
        return "expected a weight of shape (1, ..., 1, N, M)"
    if out != shape(idx) + (w[-1],):
        return "result shape is not the indices' shape plus the embedding size"
    if element(idx) not in ("f32", "i32"):
        return "expected f32 or i32 indices"  # HEAD's index_cast would sign-extend an i1 true to -1
    return None if element(weight) == element(op.results[0]) else "weight and result element types differ"


def _resolved(a: Any) -> Any:
    return a.resolve() if a is not None else None


def matmul_shapes(op: Operation) -> tuple[tuple[int, ...], int, int, int] | None:
    """(batch shape, M, K, N) of a ttir.matmul of rank >= 2 operands (transposes applied), or None."""
    a, b = (shape(v) for v in op.operands[:2])
    if len(a) < 2 or len(b) < 2:
        return None
    if getattr(op.get_attr("transpose_a"), "value", False):
        a = a[:-2] + (a[-1], a[-2])
    if getattr(op.get_attr("transpose_b"), "value", False):
        b = b[:-2] + (b[-1], b[-2])
    if a[-1] != b[-2]:
        return None
    batch = _broadcast_shape([a[:-2], b[:-2]])
    return None if batch is None else (batch, a[-2], a[-1], b[-1])


def _matmul(op: Operation, ins: list[tuple[int, ...]], out: tuple[int, ...]) -> str | None:
    """HEAD's MatmulOpConversionPattern / LinearOpConversionPattern: each operand's batch dimensions
    collapse into one (a rank-2 operand has a batch of 1), and a batch of 1 is tiled to the other's;
    so an operand with more than one batch must have the whole broadcast batch shape."""
    if len({element(v) for v in op.operands[:2]} | {element(op.results[0])}) != 1 or element(op.results[0]) == "i1":
        return "expected f32 or i32 operands and result of one element type"
    dims = matmul_shapes(op)
    if dims is None:
        return "expected operands of rank >= 2 whose contracted and batch dimensions agree"
    batch, m, _, n = dims
    for s in ins[:2]:
        own = s[:-2]
        if _volume(own) > 1 and (1,) * (len(batch) - len(own)) + own != batch:
            return "batch dimensions that HEAD's collapse-and-tile cannot match (one operand's batch must be 1 or the whole batch)"
    return None if batch + (m, n) == out else "result shape does not match the product"


def _compound(op: Operation, name: str, ins: list[tuple[int, ...]], out: tuple[int, ...]) -> str | None:
    """The rules of HEAD's multi-op patterns (softmax, argmax, linear, layer_norm, concatenate_heads)."""
    val = lambda key: getattr(op.get_attr(key), "value", None)  # noqa: E731
    els = [element(v) for v in op.operands]
    res_el = element(op.results[0])
    rank = len(ins[0]) if ins else 0
    if name == "linear":
        if len(ins) not in (2, 3) or res_el != "f32" or any(e != "f32" for e in els):
            return "expected f32 a, b and an optional f32 bias"
        if len(ins) == 3 and not _broadcastable([ins[2]], out):
            return "bias does not broadcast to the result"
        return _matmul(op, ins, out)
    if len(ins) < 1 or (name != "layer_norm" and len(ins) != 1):
        return "unexpected operand count"
    if name == "concatenate_heads":
        if rank != 4 or out != (ins[0][0], ins[0][2], ins[0][1] * ins[0][3]) or els[0] != res_el:
            return "expected [batch, heads, sequence, head size] into [batch, sequence, heads * head size] of one element type"
        return None
    if name == "argmax":
        dims = int_values(op.get_attr("dim_arg"))
        if dims is not None and len(dims) > 1:
            return "argmax over several dims (HEAD decomposes it first)"
        if dims is not None and not _dims_ok(dims, rank):
            return "expected a dim_arg within the operand's rank"
        if els[0] not in ("f32", "i32") or res_el != "i32":
            return "expected f32 or i32 values and i32 indices"
        reduced = {d % rank for d in dims} if dims is not None else set(range(rank))
        want = tuple(1 if i in reduced else n for i, n in enumerate(ins[0])) if val("keep_dim") else tuple(n for i, n in enumerate(ins[0]) if i not in reduced)
        return None if want == out else "result shape does not match the reduction"
    if els[0] != "f32" or res_el != "f32" or ins[0] != out:
        return "expected an f32 operand and result of one shape"
    if name == "softmax":
        dim = val("dimension")
        return None if isinstance(dim, int) and -rank <= dim < rank else "expected a dimension within the operand's rank"
    # layer_norm: input, optional weight, optional bias (operandSegmentSizes), over the trailing normalized_shape
    norm = int_values(op.get_attr("normalized_shape"))
    if norm is None or not 1 <= len(norm) <= rank or tuple(norm) != ins[0][rank - len(norm) :]:
        return "expected a normalized_shape of the operand's trailing dimensions"
    seg = layer_norm_segments(op)
    if seg is None:
        return "expected operandSegmentSizes naming the weight and the bias"
    if any(e != "f32" for e in els) or any(s != tuple(norm) for s in ins[1:]):
        return "expected an f32 weight and bias of the normalized shape"
    eps = op.get_attr("epsilon")
    return None if eps is None or isinstance(_resolved(eps), FloatAttr) else "expected a float epsilon"


def layer_norm_segments(op: Operation) -> tuple[bool, bool] | None:
    """Whether a ttir.layer_norm has a weight and a bias (None when its operands do not say)."""
    seg = int_values(op.get_attr("operandSegmentSizes"))
    if seg is None:
        return (False, False) if len(op.operands) == 1 else None
    if len(seg) != 3 or seg[0] != 1 or any(n not in (0, 1) for n in seg[1:]) or sum(seg) != len(op.operands):
        return None
    return bool(seg[1]), bool(seg[2])


def _volume(s: tuple[int, ...]) -> int:
    n = 1
    for d in s:
        n *= d
    return n


def _broadcast_shape(shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """numpy's broadcast of `shapes` (None when they do not broadcast)."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(rank):
        sizes = {s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0} - {1}
        if len(sizes) > 1:
            return None
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def _broadcastable(shapes: list[tuple[int, ...]], out: tuple[int, ...]) -> bool:
    return all(len(s) <= len(out) for s in shapes) and _broadcast_shape([*shapes, out]) == out
