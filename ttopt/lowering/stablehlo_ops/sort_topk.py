"""`stablehlo.sort`, `chlo.top_k` and the `mhlo.topk` custom call to `ttir.sort` / `ttir.topk`.

Sort, as tt-mlir lowers it: `ttir.sort` sorts the first operand along `dimension` and returns its
values and the permutation (indices). The direction is the first LT (ascending) or GT (descending)
compare of the comparator; `is_stable` carries over. Three forms:

* one operand: the values;
* two operands, the second an iota along the sort dimension (argsort): values and indices;
* keys and values: every other operand is gathered by the permutation, with `ttir.embedding` over
  the flattened operand (sort dimension moved last, row offsets from a `ttir.arange`).

ttopt checks what tt-mlir assumes: the comparator reads only the first operand's pair (a
lexicographic comparator of several keys is a diagnostic), and an "iota" second operand counts
along the sort dimension (else it is sorted as a value).

Top-k: `chlo.top_k(x, k)` becomes `ttir.topk` over the last dimension, largest first, sorted (as
CHLO defines it); `mhlo.topk` carries `k` and `largest` in `mhlo.attributes`, and tt-mlir lowers
it with `sorted = false`.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, Any, Sequence

from ttopt.dialects.format_base import enum_value
from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.stablehlo_ops.building import defining, emit_results, iota_dimension
from ttopt.lowering.stablehlo_ops.custom_call import lowers_target
from ttopt.lowering.stablehlo_to_ttir import Unsupported, _i32s, _static, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

I32, SI32, SI64, I64 = (ScalarType(n) for n in ("i32", "si32", "si64", "i64"))


def _attr(op: Operation, key: str) -> Any:
    a = op.properties.get(key) or op.attributes.get(key)
    return a.resolve() if a is not None else None


def _arg_deps(v: Value, args: Sequence[Value], memo: dict[int, set[int]]) -> set[int]:
    """Which comparator block arguments `v` is computed from."""
    if id(v) in memo:
        return memo[id(v)]
    for i, a in enumerate(args):
        if v is a:
            return {i}
    op = defining(v)
    out: set[int] = set()
    if op is not None:
        for x in op.operands:
            out |= _arg_deps(x, args, memo)
    memo[id(v)] = out
    return out


def sort_direction(op: Operation) -> bool:
    """True for a descending comparator; Unsupported when the comparator is not one tt-mlir's
    sort expresses."""
    block = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    if block is None:
        raise Unsupported("a sort without a comparator")
    args = list(block.args)
    memo: dict[int, set[int]] = {}
    used = set()
    for inner in block.ops:
        for v in inner.operands:
            used |= _arg_deps(v, args, memo)
    if used - {0, 1}:
        raise Unsupported("its comparator reads operands other than the first (a sort by several keys)")
    for inner in block.ops:
        if inner.name != "stablehlo.compare":
            continue
        direction = enum_value(inner.properties.get("comparison_direction") or inner.attributes.get("comparison_direction"))
        if direction not in ("LT", "GT"):
            continue
        lhs, rhs = (_arg_deps(v, args, memo) for v in inner.operands)
        if (lhs, rhs) == ({1}, {0}):
            return direction == "LT"  # compare(b, a): the order flips
        if (lhs, rhs) != ({0}, {1}):
            raise Unsupported("its LT/GT compare does not compare the two elements of the first operand")
        return direction == "GT"
    raise Unsupported("cannot determine the sort direction (no LT or GT compare in the comparator)")


@lowers("stablehlo.sort")
def _sort(low: Lowering, op: Operation) -> list[Value]:
    ins = list(op.operands)
    rank = len(_static(ins[0].type).shape)
    dim = int(getattr(_attr(op, "dimension"), "value", -1))
    dim = dim % rank if rank else 0
    stable = getattr(_attr(op, "is_stable"), "value", False) is True
    descending = sort_direction(op)
    values_t = op.results[0].type
    props = {"dim": IntegerAttr(dim, SI32), "descending": BoolAttr(descending), "stable": BoolAttr(stable)}
    if len(ins) == 2 and iota_dimension(ins[1]) == dim:
        return emit_results(low, "sort", [ins[0]], [values_t, op.results[1].type], **props)
    shape = tuple(_static(values_t).shape)
    index_t = TensorType(shape, I32)
    values, indices = emit_results(low, "sort", [ins[0]], [values_t, index_t], **props)
    if len(ins) == 1:
        return [values]
    return [values, *_gather_by(low, ins[1:], indices, dim)]


def _gather_by(low: Lowering, operands: list[Value], indices: Value, dim: int) -> list[Value]:
    """`operands` reordered along `dim` by `indices` (tt-mlir's flat-index embedding lookup)."""
    shape = tuple(_static(indices.type).shape)
    rank = len(shape)
    perm = [i for i in range(rank) if i != dim] + [dim]
    inverse = [perm.index(i) for i in range(rank)]
    permuted = tuple(shape[p] for p in perm)
    d_sort = shape[dim]
    total = prod(shape)
    rows = total // d_sort if d_sort else 0
    idx = low.emit("permute", [indices], TensorType(permuted, I32), permutation=DenseArrayAttr("i64", tuple(perm)))
    idx = low.emit("reshape", [idx], TensorType((rows, d_sort), I32), shape=_i32s((rows, d_sort)))
    offsets = low.emit("arange", [], TensorType((rows, d_sort), I32), start=IntegerAttr(0, SI64), end=IntegerAttr(total, SI64),
                       step=IntegerAttr(d_sort, SI64), arange_dimension=IntegerAttr(0, I64))  # fmt: skip
    flat = low.emit("add", [offsets, idx], TensorType((rows, d_sort), I32))
    out = []
    for v in operands:
        elem = _static(v.type).element_type
        w = low.emit("permute", [v], TensorType(permuted, elem), permutation=DenseArrayAttr("i64", tuple(perm)))
        w = low.emit("reshape", [w], TensorType((total, 1), elem), shape=_i32s((total, 1)))
        e = low.emit("embedding", [flat, w], TensorType((rows, d_sort, 1), elem))
        e = low.emit("reshape", [e], TensorType(permuted, elem), shape=_i32s(permuted))
        out.append(low.emit("permute", [e], v.type, permutation=DenseArrayAttr("i64", tuple(inverse))))
    return out


def _topk(low: Lowering, op: Operation, k: int, largest: bool, sorted_: bool) -> list[Value]:
    if not -(1 << 31) <= k < (1 << 31):
        raise Unsupported(f"k = {k} does not fit the i32 of ttir.topk")
    return emit_results(low, "topk", [op.operands[0]], [r.type for r in op.results], k=IntegerAttr(k, I32),
                        dim=IntegerAttr(-1, I32), largest=BoolAttr(largest), sorted=BoolAttr(sorted_))  # fmt: skip


@lowers("chlo.top_k")
def _chlo_top_k(low: Lowering, op: Operation) -> list[Value]:
    k = getattr(_attr(op, "k"), "value", None)
    if not isinstance(k, int):
        raise Unsupported("no integer k")
    return _topk(low, op, k, largest=True, sorted_=True)


@lowers_target("mhlo.topk")
def _mhlo_topk(low: Lowering, op: Operation) -> list[Value]:
    d = op.attributes.get("mhlo.attributes")
    entries = d.resolve() if d is not None else None
    get = getattr(entries, "get", None)
    k = getattr(get("k"), "value", None) if get is not None else None
    largest = getattr(get("largest"), "value", None) if get is not None else None
    if not isinstance(k, int) or not isinstance(largest, bool):
        raise Unsupported("mhlo.topk needs mhlo.attributes with an integer k and a boolean largest")
    if len(op.operands) != 1 or len(op.results) != 2:
        raise Unsupported("mhlo.topk takes one operand and returns values and indices")
    return _topk(low, op, k, largest=largest, sorted_=False)
