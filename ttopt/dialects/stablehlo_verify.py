"""StableHLO per-op verifiers: required properties (name and kind) and the rank/range/shape facts
the sharding rules and passes rely on (StableHLO's `verify*` functions, the subset ttopt reads).

Each entry of `VERIFIERS` is a shape check over the op's declared properties (declared once, in
stablehlo_properties.py) that runs once every type it looks at is a ranked tensor (unranked and
opaque types are left alone: nothing downstream reads their shape). A failure is a ValueError; the
IR verifier reports it as `file:line:col: error: 'stablehlo.x' op <message>`, before any pass runs.
Importing this module registers the checks (ttopt.dialects does, after the op tables).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ttopt.dialects.chlo import _BINARY as CHLO_BINARY
from ttopt.dialects.chlo import _UNARY as CHLO_UNARY
from ttopt.dialects.sdy_rule import check_rule, parse_rule
from ttopt.dialects.stablehlo import BINARY_ELEMENTWISE, UNARY_ELEMENTWISE
from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.opdef import register_verifiers
from ttopt.ir.operation import Operation
from ttopt.ir.properties import decode
from ttopt.ir.types import ScalarType, TensorType

Shape = tuple[int | None, ...]

if TYPE_CHECKING:  # the models load with the typed attributes, on first use
    from ttopt.dialects.stablehlo_attrs import (
        ConvDimensionNumbers,
        DotDimensionNumbers,
        GatherDimensionNumbers,
        ScatterDimensionNumbers,
    )


# ---- shapes -----------------------------------------------------------------------------------
def _shape(v: Any) -> Shape | None:
    t = v.type.resolve()
    if isinstance(t, TensorType) and t.shape is not None:
        return tuple(t.shape)
    return None


def _element(v: Any) -> ScalarType | None:
    t = v.type.resolve()
    el = t.element_type.resolve() if isinstance(t, TensorType) else None
    return el if isinstance(el, ScalarType) else None


def _same(a: Shape, b: Shape) -> bool:
    """Equal rank, and equal sizes where both are static."""
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def _types(op: Operation) -> str:
    ins = ", ".join(v.type.text for v in op.operands)
    outs = ", ".join(r.type.text for r in op.results)
    return f"({ins}) -> ({outs})"


def _dims_in(what: str, dims: Sequence[int], rank: int, unique: bool = True) -> None:
    for d in dims:
        if not 0 <= d < rank:
            raise ValueError(f"{what} {d} is out of range for rank {rank}")
    if unique and len(set(dims)) != len(dims):
        raise ValueError(f"{what}s {list(dims)} repeat a dimension")


def _rank_is(what: str, shape: Shape, rank: int) -> None:
    if len(shape) != rank:
        raise ValueError(f"{what} has rank {len(shape)}, expected {rank}")


# ---- shape checks, one per op family -------------------------------------------------------------
Check = Callable[[Operation, dict[str, Any]], None]


def _all_shapes(op: Operation) -> tuple[list[Shape], list[Shape]] | None:
    ins = [_shape(v) for v in op.operands]
    outs = [_shape(r) for r in op.results]
    if any(s is None for s in (*ins, *outs)):
        return None
    return ins, outs  # type: ignore[return-value]


def _elementwise(same_element: bool, result_element: bool) -> Check:
    def check(op: Operation, p: dict[str, Any]) -> None:
        values = (*op.operands, *op.results)
        if values and all(v.type is values[0].type for v in values):
            return  # one type object throughout (the parser shares them): same shape, same element type
        shapes = [s for s in (*(_shape(v) for v in op.operands), *(_shape(r) for r in op.results)) if s is not None]
        if any(not _same(shapes[0], s) for s in shapes[1:]):
            raise ValueError(f"requires compatible shapes for all operands and results, got {_types(op)}")
        if same_element:
            els = [e for e in (_element(v) for v in op.operands) if e is not None]
            if result_element:
                els += [e for e in (_element(r) for r in op.results) if e is not None]
            if any(e != els[0] for e in els[1:]):
                raise ValueError(f"requires the same element type for all operands{' and results' if result_element else ''}, got {_types(op)}")

    return check


def _select(op: Operation, p: dict[str, Any]) -> None:
    s = _all_shapes(op)
    if s is None:
        return
    (pred, t, f), (r,) = s
    if not (_same(t, r) and _same(f, r)):
        raise ValueError(f"requires on_true, on_false and the result to have compatible shapes, got {_types(op)}")
    if pred and not _same(pred, r):
        raise ValueError(f"requires a scalar predicate or one of the result's shape, got {_types(op)}")


def _clamp(op: Operation, p: dict[str, Any]) -> None:
    s = _all_shapes(op)
    if s is None:
        return
    (lo, x, hi), (r,) = s
    if not _same(x, r):
        raise ValueError(f"requires the operand and the result to have compatible shapes, got {_types(op)}")
    for what, b in (("min", lo), ("max", hi)):
        if b and not _same(b, x):
            raise ValueError(f"requires {what} to be a scalar or of the operand's shape, got {_types(op)}")


def _iota(op: Operation, p: dict[str, Any]) -> None:
    r = _shape(op.results[0])
    if r is not None:
        _dims_in("iota_dimension", [p["iota_dimension"]], len(r))


def _transpose(op: Operation, p: dict[str, Any]) -> None:
    s = _all_shapes(op)
    if s is None:
        return
    (x,), (r,) = s
    perm = p["permutation"]
    if sorted(perm) != list(range(len(x))):
        raise ValueError(f"permutation {perm} is not a permutation of the operand's {len(x)} dimension(s)")
    if not _same(tuple(x[d] for d in perm), r):
        raise ValueError(f"result type does not match the permuted operand, got {_types(op)}")


def _broadcast_in_dim(op: Operation, p: dict[str, Any]) -> None:
    x, r = _shape(op.operands[0]), _shape(op.results[0])
    if x is None or r is None:
        return
    dims = p["broadcast_dimensions"]
    if len(dims) != len(x):
        raise ValueError(f"broadcast_dimensions has {len(dims)} entries, but the operand has rank {len(x)}")
    _dims_in("broadcast dimension", dims, len(r))
    for i, d in enumerate(dims):
        if x[i] is not None and r[d] is not None and x[i] not in (1, r[d]):
            raise ValueError(f"operand dimension {i} of size {x[i]} cannot broadcast to result dimension {d} of size {r[d]}")


def _reduce(op: Operation, p: dict[str, Any]) -> None:
    if len(op.operands) % 2:
        raise ValueError(f"expects as many init values as inputs, got {len(op.operands)} operand(s)")
    n = len(op.operands) // 2
    if len(op.results) != n:
        raise ValueError(f"expects {n} result(s), one per input, got {len(op.results)}")
    s = _all_shapes(op)
    if s is None:
        return
    ins, outs = s
    dims = p["dimensions"]
    x = ins[0]
    _dims_in("reduced dimension", dims, len(x))
    kept = tuple(n_ for d, n_ in enumerate(x) if d not in dims)
    for i in range(n):
        if not _same(ins[i], x):
            raise ValueError(f"requires all inputs to have the same shape, got {_types(op)}")
        if ins[n + i]:
            raise ValueError(f"init value #{i} must be a scalar tensor, got {op.operands[n + i].type.text}")
        if not _same(outs[i], kept):
            raise ValueError(f"result #{i} must have the input's shape without the reduced dimensions, got {_types(op)}")


def _concatenate(op: Operation, p: dict[str, Any]) -> None:
    s = _all_shapes(op)
    if s is None:
        return
    ins, (r,) = s
    dim = p["dimension"]
    _dims_in("dimension", [dim], len(r))
    for x in ins:
        if len(x) != len(r) or not all(a is None or b is None or a == b for k, (a, b) in enumerate(zip(x, r)) if k != dim):
            raise ValueError(f"requires operands and result to agree on all dimensions but {dim}, got {_types(op)}")


def _same_rank_lists(op: Operation, p: dict[str, Any], names: Sequence[str]) -> tuple[Shape, Shape] | None:
    x, r = _shape(op.operands[0]), _shape(op.results[0])
    if x is None or r is None:
        return None
    for n in names:
        if len(p[n]) != len(x):
            raise ValueError(f"{n} has {len(p[n])} entries, but the operand has rank {len(x)}")
    _rank_is("result", r, len(x))
    return x, r


def _slice(op: Operation, p: dict[str, Any]) -> None:
    s = _same_rank_lists(op, p, ("start_indices", "limit_indices", "strides"))
    if s is None:
        return
    x, r = s
    for d, (a, b, st) in enumerate(zip(p["start_indices"], p["limit_indices"], p["strides"])):
        if st <= 0:
            raise ValueError(f"stride of dimension {d} must be positive, got {st}")
        if a < 0 or b < a or (x[d] is not None and b > x[d]):
            raise ValueError(f"slice {a}:{b} of dimension {d} is out of bounds for size {x[d]}")
        if r[d] is not None and r[d] != -(-(b - a) // st):
            raise ValueError(f"result dimension {d} must be {-(-(b - a) // st)}, got {r[d]}")


def _dynamic_slice(op: Operation, p: dict[str, Any]) -> None:
    s = _same_rank_lists(op, p, ("slice_sizes",))
    if s is None:
        return
    x, r = s
    if len(op.operands) != 1 + len(x):
        raise ValueError(f"expects {len(x)} start index operand(s), got {len(op.operands) - 1}")
    for d, n in enumerate(p["slice_sizes"]):
        if n < 0 or (x[d] is not None and n > x[d]) or (r[d] is not None and r[d] != n):
            raise ValueError(f"slice size {n} of dimension {d} does not fit operand size {x[d]} and result size {r[d]}")


def _dynamic_update_slice(op: Operation, p: dict[str, Any]) -> None:
    x, u, r = _shape(op.operands[0]), _shape(op.operands[1]), _shape(op.results[0])
    if x is None or u is None or r is None:
        return
    if len(op.operands) != 2 + len(x):
        raise ValueError(f"expects {len(x)} start index operand(s), got {len(op.operands) - 2}")
    if len(u) != len(x) or not _same(r, x):
        raise ValueError(f"requires operand, update and result of one rank (result of the operand's shape), got {_types(op)}")


def _pad(op: Operation, p: dict[str, Any]) -> None:
    if _same_rank_lists(op, p, ("edge_padding_low", "edge_padding_high", "interior_padding")) is None:
        return
    v = _shape(op.operands[1])
    if v:
        raise ValueError(f"padding value must be a scalar tensor, got {op.operands[1].type.text}")
    if any(i < 0 for i in p["interior_padding"]):
        raise ValueError(f"interior_padding must be non-negative, got {p['interior_padding']}")


_DYNAMIC = -(1 << 63)


def _windowed(op: Operation, p: dict[str, Any], inputs: int, inits: list[int], dynamic_ok: bool = True) -> None:
    """reduce_window / select_and_scatter: window attributes cover every input dimension, init values are scalars.
    `dynamic_ok`: an INT64_MIN window size is an unknown size, not a negative one (reduce_window's
    shape inference); strides and dilations have no unknown value, MLIR rejects INT64_MIN there."""
    x = _shape(op.operands[0])
    if x is None:
        return
    for name, per_dim in (("window_dimensions", 1), ("window_strides", 1), ("base_dilations", 1),
                          ("window_dilations", 1), ("padding", 2)):  # fmt: skip
        if name in p and len(p[name]) != per_dim * len(x):
            raise ValueError(f"{name} has {len(p[name])} entries, expected {per_dim * len(x)} for an operand of rank {len(x)}")
    for name, what in (("window_dimensions", "value"), ("window_strides", "stride"), ("base_dilations", "base dilation factor"),
                       ("window_dilations", "window dilation factor")):  # fmt: skip
        for i, v in enumerate(p.get(name, ())):
            if v <= 0 and not (dynamic_ok and v == _DYNAMIC and name == "window_dimensions"):  # MLIR reads it as kDynamic
                raise ValueError(f"expects window to have positive {what} for {i}-th window dimension, but got {v}.")
    for i in range(inputs):
        s = _shape(op.operands[i])
        if s is not None and len(s) != len(x):
            raise ValueError(f"requires operands of one rank, got {_types(op)}")
    for i in inits:
        s = _shape(op.operands[i])
        if s:
            raise ValueError(f"init value must be a scalar tensor, got {op.operands[i].type.text}")
    for r in op.results:
        s = _shape(r)
        if s is not None and len(s) != len(x):
            raise ValueError(f"results must have the operand's rank, got {_types(op)}")



def _reduce_window(op: Operation, p: dict[str, Any]) -> None:
    if len(op.operands) % 2:
        raise ValueError(f"expects as many init values as inputs, got {len(op.operands)} operand(s)")
    n = len(op.operands) // 2
    if len(op.results) != n:
        raise ValueError(f"expects {n} result(s), one per input, got {len(op.results)}")
    _windowed(op, p, n, list(range(n, 2 * n)))
    x = _shape(op.operands[0])
    if x is None or any(d is None or d < 0 for d in x) or "window_dimensions" not in p:
        return
    # INT64_MIN is an unknown window size to shape inference; as padding it is a number.
    if any(v == _DYNAMIC for v in p["window_dimensions"]):
        return
    rank = len(x)
    strides, base, dil = (p.get(k, [1] * rank) for k in ("window_strides", "base_dilations", "window_dilations"))
    pad = p.get("padding", [0] * (2 * rank))
    want = []
    for i, size in enumerate(x):
        padded = ((size - 1) * base[i] + 1 if size else 0) + pad[2 * i] + pad[2 * i + 1]
        window = (p["window_dimensions"][i] - 1) * dil[i] + 1
        want.append(0 if padded < window else (padded - window) // strides[i] + 1)
    for r in op.results:
        got = _shape(r)
        if got is not None and any(g is not None and g >= 0 and g != w for g, w in zip(got, want)):
            element = r.type.resolve().element_type.text
            inferred = ", ".join(f"'tensor<{''.join(f'{d}x' for d in want)}{element}>'" for _ in op.results)
            returned = ", ".join(f"'{v.type.text}'" for v in op.results)
            raise ValueError(f"inferred type(s) {inferred} are incompatible with return type(s) of operation {returned}")


_NAMESPACED_OP = re.compile(r"[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+")


def _composite(op: Operation, p: dict[str, Any]) -> None:
    name = p.get("name")
    if isinstance(name, str) and not _NAMESPACED_OP.fullmatch(name):
        raise ValueError(
            "name must be a valid namespaced op name, i.e. it must match the following regular expression: "
            "^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$"
        )


def _select_and_scatter(op: Operation, p: dict[str, Any]) -> None:
    _windowed(op, p, 2, [2], dynamic_ok=False)
    x, r = _shape(op.operands[0]), _shape(op.results[0])
    if x is not None and r is not None and not _same(x, r):
        raise ValueError(f"requires the result to have the operand's shape, got {_types(op)}")


def _reverse(op: Operation, p: dict[str, Any]) -> None:
    x, r = _shape(op.operands[0]), _shape(op.results[0])
    if x is None or r is None:
        return
    _dims_in("reversed dimension", p["dimensions"], len(x))
    if not _same(x, r):
        raise ValueError(f"requires the result to have the operand's shape, got {_types(op)}")


def _dimension_of_operand(name: str) -> Check:
    def check(op: Operation, p: dict[str, Any]) -> None:
        x = _shape(op.operands[0]) if op.operands else None
        if x is not None:
            _dims_in(name, [p[name]], len(x))

    return check


def _sort(op: Operation, p: dict[str, Any]) -> None:
    x = _shape(op.operands[0]) if op.operands else None
    if x is None:
        return
    d = p["dimension"]
    if not -len(x) <= d < len(x):
        raise ValueError(f"dimension {d} is out of range for rank {len(x)}")
    for v in (*op.operands, *op.results):
        s = _shape(v)
        if s is not None and not _same(s, x):
            raise ValueError(f"requires all operands and results to have the same shape, got {_types(op)}")


def _collective(*names: str) -> Check:
    def check(op: Operation, p: dict[str, Any]) -> None:
        x, r = _shape(op.operands[0]), _shape(op.results[0])
        if x is None or r is None:
            return
        _rank_is("result", r, len(x))
        for n in names:
            _dims_in(n, [p[n]], len(x))

    return check


def _replica_groups(same_size: bool, global_ids: bool = True, group_size: str | None = None) -> Check:
    """StableHLO's replica-group rules: ids unique and covering 0..N-1 (-1 pads uneven groups
    where sizes may differ), not empty with use_global_device_ids, the group size as declared."""

    def check(op: Operation, p: dict[str, Any]) -> None:
        ids = p.get("replica_groups")
        if ids is None:
            return
        attr = op.get_attr("replica_groups")
        ty = getattr(attr, "type", None)
        shape = getattr(ty.resolve(), "shape", None) if ty is not None else None
        shape = shape or (0, 0)
        if global_ids and p.get("use_global_device_ids") and not ids:
            raise ValueError("if `use_global_device_ids` is set, the replica groups cannot be empty")
        seen: set[int] = set()
        for i in ids:
            if i == -1:
                if same_size:
                    raise ValueError("Invalid replica id -1")
                continue
            if i in seen:
                raise ValueError(f"replica id #{i} seen more than once")
            seen.add(i)
        for i in range(len(seen)):
            if i not in seen:
                raise ValueError(f"replica id #{i} not seen in replica groups")
        if same_size and group_size is not None and shape[0] and len(ids) // shape[0] != p.get(group_size):
            raise ValueError(f"group size of replica_groups must be {p.get(group_size)}")

    return check


def _both(*checks: Check) -> Check:
    def check(op: Operation, p: dict[str, Any]) -> None:
        for c in checks:
            c(op, p)

    return check


def _fft(op: Operation, p: dict[str, Any]) -> None:
    x, r = _shape(op.operands[0]), _shape(op.results[0])
    if x is None or r is None:
        return
    _rank_is("result", r, len(x))
    if len(p["fft_length"]) > len(x):
        raise ValueError(f"fft_length has {len(p['fft_length'])} entries, more than the operand's rank {len(x)}")


def _cholesky(op: Operation, p: dict[str, Any]) -> None:
    x = _shape(op.operands[0])
    if x is not None and len(x) < 2:
        raise ValueError(f"requires an operand of rank >= 2, got {op.operands[0].type.text}")
    _elementwise(False, False)(op, p)


def _top_k(op: Operation, p: dict[str, Any]) -> None:
    s = _all_shapes(op)
    if s is None:
        return
    (x,), outs = s
    if not x:
        raise ValueError(f"requires an operand of rank >= 1, got {op.operands[0].type.text}")
    for r in outs:
        if len(r) != len(x) or not _same(r[:-1], x[:-1]):
            raise ValueError(f"results must have the operand's shape but for the last dimension, got {_types(op)}")


def _rng_bit_generator(op: Operation, p: dict[str, Any]) -> None:
    st, st_out = _shape(op.operands[0]), _shape(op.results[0])
    if st is not None and st_out is not None and not _same(st, st_out):
        raise ValueError(f"requires the output state to have the initial state's shape, got {_types(op)}")


# ---- dot_general / gather / scatter / convolution -------------------------------------------------
def _dot_general(op: Operation, p: dict[str, Any]) -> None:
    d: DotDimensionNumbers = p["dot_dimension_numbers"]
    lb, rb = list(d.lhs_batching_dimensions), list(d.rhs_batching_dimensions)
    lc, rc = list(d.lhs_contracting_dimensions), list(d.rhs_contracting_dimensions)
    if len(lb) != len(rb):
        raise ValueError(f"lhs and rhs batching dimensions must be as many, got {lb} and {rb}")
    if len(lc) != len(rc):
        raise ValueError(f"lhs and rhs contracting dimensions must be as many, got {lc} and {rc}")
    s = _all_shapes(op)
    if s is None:
        return
    (ls, rs), (out,) = s
    _dims_in("lhs batching/contracting dimension", [*lb, *lc], len(ls))
    _dims_in("rhs batching/contracting dimension", [*rb, *rc], len(rs))
    for what, xs, ys in (("batching", lb, rb), ("contracting", lc, rc)):
        for x, y in zip(xs, ys):
            if ls[x] is not None and rs[y] is not None and ls[x] != rs[y]:
                raise ValueError(f"{what} dimension sizes differ: lhs dim {x} is {ls[x]}, rhs dim {y} is {rs[y]}")
    expect = (
        *(ls[x] for x in lb),
        *(n for d, n in enumerate(ls) if d not in lb and d not in lc),
        *(n for d, n in enumerate(rs) if d not in rb and d not in rc),
    )
    if not _same(expect, out):
        shown = "x".join("?" if n is None else str(n) for n in expect)
        raise ValueError(f"result shape must be batch x lhs free x rhs free dims ({shown or 'scalar'}), got {op.results[0].type.text}")


def _dot(op: Operation, p: dict[str, Any]) -> None:
    s = _all_shapes(op)
    if s is None:
        return
    (ls, rs), (out,) = s
    if len(ls) not in (1, 2) or len(rs) not in (1, 2):
        raise ValueError(f"requires operands of rank 1 or 2, got {_types(op)}")
    if ls[-1] is not None and rs[0] is not None and ls[-1] != rs[0]:
        raise ValueError(f"contracting dimension sizes differ, got {_types(op)}")
    if not _same((*ls[:-1], *rs[1:]), out):
        raise ValueError(f"result shape does not match the operands, got {_types(op)}")




def _gather(op: Operation, p: dict[str, Any]) -> None:
    f: GatherDimensionNumbers = p["dimension_numbers"]
    s = _all_shapes(op)
    if s is None:
        return
    (x, idx), (out,) = s
    offset, collapsed = list(f.offset_dims), list(f.collapsed_slice_dims)
    op_batch, idx_batch = list(f.operand_batching_dims), list(f.start_indices_batching_dims)
    ivd = f.vector_dim(len(idx))
    if not 0 <= ivd <= len(idx):
        raise ValueError(f"index_vector_dim {ivd} is out of range for indices of rank {len(idx)}")
    _dims_in("offset dim", offset, len(out))
    _dims_in("collapsed/operand batching dim", [*collapsed, *op_batch], len(x))
    _dims_in("start indices batching dim", idx_batch, len(idx))
    _dims_in("start index map entry", f.start_index_map, len(x))
    if ivd in idx_batch:
        raise ValueError(f"index_vector_dim {ivd} cannot also be a start indices batching dim")
    if len(op_batch) != len(idx_batch):
        raise ValueError(f"operand_batching_dims and start_indices_batching_dims must be as many, got {op_batch} and {idx_batch}")
    sizes = p["slice_sizes"]
    if len(sizes) != len(x):
        raise ValueError(f"slice_sizes has {len(sizes)} entries, but the operand has rank {len(x)}")
    window = len(x) - len(collapsed) - len(op_batch)
    if len(offset) != window:
        raise ValueError(f"expects {window} offset dim(s) (operand rank minus collapsed and batching dims), got {len(offset)}")
    batch = len(idx) - (1 if ivd < len(idx) else 0)
    if len(out) != len(offset) + batch:
        raise ValueError(f"result has rank {len(out)}, expected {len(offset) + batch} (offset dims plus batch dims)")


def _scatter(op: Operation, p: dict[str, Any]) -> None:
    f: ScatterDimensionNumbers = p["scatter_dimension_numbers"]
    if len(op.operands) % 2 == 0:
        raise ValueError(f"expects N inputs, the indices and N updates (an odd count), got {len(op.operands)} operand(s)")
    n = (len(op.operands) - 1) // 2
    if len(op.results) != n:
        raise ValueError(f"expects {n} result(s), one per input, got {len(op.results)}")
    s = _all_shapes(op)
    if s is None:
        return
    ins, outs = s
    x, idx, upd = ins[0], ins[n], ins[n + 1]
    for i in range(n):
        if not _same(ins[i], x) or not _same(outs[i], x) or not _same(ins[n + 1 + i], upd):
            raise ValueError(f"requires all inputs and results of one shape and all updates of one shape, got {_types(op)}")
    window, inserted = list(f.update_window_dims), list(f.inserted_window_dims)
    in_batch, idx_batch = list(f.input_batching_dims), list(f.scatter_indices_batching_dims)
    ivd = f.vector_dim(len(idx))
    if not 0 <= ivd <= len(idx):
        raise ValueError(f"index_vector_dim {ivd} is out of range for indices of rank {len(idx)}")
    _dims_in("update window dim", window, len(upd))
    _dims_in("inserted/input batching dim", [*inserted, *in_batch], len(x))
    _dims_in("scatter indices batching dim", idx_batch, len(idx))
    _dims_in("scatter_dims_to_operand_dims entry", f.scatter_dims_to_operand_dims, len(x))
    if ivd in idx_batch:
        raise ValueError(f"index_vector_dim {ivd} cannot also be a scatter indices batching dim")
    if len(in_batch) != len(idx_batch):
        raise ValueError(f"input_batching_dims and scatter_indices_batching_dims must be as many, got {in_batch} and {idx_batch}")
    expect_window = len(x) - len(inserted) - len(in_batch)
    if len(window) != expect_window:
        raise ValueError(f"expects {expect_window} update window dim(s) (input rank minus inserted and batching dims), got {len(window)}")
    batch = len(idx) - (1 if ivd < len(idx) else 0)
    if len(upd) != len(window) + batch:
        raise ValueError(f"updates have rank {len(upd)}, expected {len(window) + batch} (window dims plus scatter dims)")


def _convolution(op: Operation, p: dict[str, Any]) -> None:
    d: ConvDimensionNumbers = p["dimension_numbers"]
    lb, lf, ls = d.input_batch_dimension, d.input_feature_dimension, list(d.input_spatial_dimensions)
    ri, ro, rs = d.kernel_input_feature_dimension, d.kernel_output_feature_dimension, list(d.kernel_spatial_dimensions)
    ob, of, os_ = d.output_batch_dimension, d.output_feature_dimension, list(d.output_spatial_dimensions)
    if not len(ls) == len(rs) == len(os_):
        raise ValueError(f"input, kernel and output must have as many spatial dims, got {len(ls)}, {len(rs)}, {len(os_)}")
    for name in ("feature_group_count", "batch_group_count"):
        if name in p and p[name] < 1:
            raise ValueError(f"{name} must be positive, got {p[name]}")
    for name, per_dim, least in (("window_strides", 1, 1), ("lhs_dilation", 1, 1), ("rhs_dilation", 1, 1), ("padding", 2, None)):
        if name in p:
            if len(p[name]) != per_dim * len(ls):
                raise ValueError(f"{name} has {len(p[name])} entries, expected {per_dim * len(ls)} for {len(ls)} spatial dim(s)")
            if least is not None and any(v < least for v in p[name]):
                raise ValueError(f"{name} must be positive, got {p[name]}")
    s = _all_shapes(op)
    if s is None:
        return
    (x, k), (out,) = s
    for what, shape, dims in (("input", x, [lb, lf, *ls]), ("kernel", k, [ri, ro, *rs]), ("output", out, [ob, of, *os_])):
        _rank_is(what, shape, len(dims))
        _dims_in(f"{what} dimension", dims, len(shape))
    for dim, name, rule in ((lb, "batch_group_count", "batch dimension ({n}) to be divisible by"),
                            (lf, "feature_group_count", "feature dimension ({n}) to be a multiple of")):  # fmt: skip
        n, g = x[dim], p.get(name, 1)
        if n is not None and n >= 0 and g > 0 and n % g:
            raise ValueError(f"expects input {rule.format(n=n)} {name}. Got {name} = {g}.")
    # StableHLO's shape inference (hlo::inferConvolutionOp): the result the operands and window give.
    xs, ks = [v for v in x if v is not None and v >= 0], [v for v in k if v is not None and v >= 0]
    if len(xs) != len(x) or len(ks) != len(k):
        return  # a dynamic operand dimension: nothing to infer
    spatial = len(ls)
    strides = p.get("window_strides") or [1] * spatial
    pads = p.get("padding") or [0] * (2 * spatial)
    lhs_dil = p.get("lhs_dilation") or [1] * spatial
    rhs_dil = p.get("rhs_dilation") or [1] * spatial
    want = [0] * len(out)
    want[ob], want[of] = xs[lb] // max(p.get("batch_group_count", 1), 1), ks[ro]
    for i in range(spatial):
        size = xs[ls[i]]
        padded = ((size - 1) * lhs_dil[i] + 1 if size > 0 else 0) + pads[2 * i] + pads[2 * i + 1]
        window = (ks[rs[i]] - 1) * rhs_dil[i] + 1
        want[os_[i]] = 0 if padded < window else (padded - window) // strides[i] + 1
    if any(o is not None and o >= 0 and o != w for o, w in zip(out, want)):
        raise ValueError(f"inferred shape '[{', '.join(map(str, want))}]' is incompatible with return type of operation '{op.results[0].type.text}'")


def _pairwise_same_shape(op: Operation, p: dict[str, Any]) -> None:
    for i, (v, r) in enumerate(zip(op.operands, op.results)):
        a, b = _shape(v), _shape(r)
        if a is not None and b is not None and not _same(a, b):
            raise ValueError(f"result #{i} must have the shape of operand #{i}, got {_types(op)}")
    if len(op.results) != len(op.operands):
        raise ValueError(f"expects one result per operand, got {_types(op)}")


def _custom_call(op: Operation, p: dict[str, Any]) -> None:
    version = op.get_attr("api_version")
    if version is not None:
        v = version.resolve()
        if not (isinstance(v, IntegerAttr) and v.type is not None and v.type.text == "i32" and 0 <= v.value <= 4):
            raise ValueError("attribute 'api_version' failed to satisfy constraint: Custom call API version")
    attr = op.attributes.get("sdy.sharding_rule")
    body = getattr(attr.resolve(), "body", None) if attr is not None else None
    if body is None:
        return
    shapes = [_shape(v) for v in (*op.operands, *op.results)]
    try:
        rule = parse_rule(body)
        if all(sh is not None for sh in shapes):
            n = len(op.operands)
            # Structure only, as Shardy's verifyShardingRuleMapping: it never compares the factor
            # product with the dimension (its lit tests write such rules), and inside a manual
            # computation the types are local while the rule keeps global sizes.
            check_rule(rule, shapes[:n], shapes[n:], sizes=False)  # type: ignore[arg-type]
    except (ValueError, IndexError) as e:
        raise ValueError(f"sdy.sharding_rule: {e}") from None


# ---- the table ----------------------------------------------------------------------------------
def _checked(check: Check) -> Callable[[Operation], None]:
    """The verifier of one op: `check` on the values of its declared properties.

    The properties themselves (presence, kind) are declared once, in stablehlo_properties.py, and
    checked by the IR verifier before this runs; absent optional ones are left out, or given
    their declared default.
    """

    def verify(op: Operation) -> None:
        d = op.opdef
        values: dict[str, Any] = {}
        for prop in d.props if d is not None else ():
            a = op.get_attr(prop.name)
            if a is not None:
                v = decode(prop, a)
                values[prop.name] = list(v) if isinstance(v, tuple) else v
            elif prop.default is not None:
                values[prop.name] = prop.default
        check(op, values)

    return verify


def _table() -> dict[str, Check]:
    same_shape = _elementwise(False, False)
    t: dict[str, Check] = {}
    for n in UNARY_ELEMENTWISE:
        if n != "bitcast_convert":
            t[f"stablehlo.{n}"] = same_shape
    for n in BINARY_ELEMENTWISE:
        t[f"stablehlo.{n}"] = _elementwise(True, True)
    for n in (*CHLO_UNARY, *CHLO_BINARY):
        t[f"chlo.{n}"] = same_shape
    t.update({
        "stablehlo.complex": _elementwise(True, False),
        "stablehlo.compare": _elementwise(True, False),
        "stablehlo.select": _select,
        "stablehlo.clamp": _clamp,
        "stablehlo.map": _elementwise(False, False),
        "stablehlo.collective_permute": _elementwise(False, False),
        "stablehlo.all_reduce": _both(_replica_groups(False), _pairwise_same_shape),
        "stablehlo.collective_broadcast": same_shape,
        "stablehlo.reduce_precision": same_shape,
        "stablehlo.iota": _iota,
        "stablehlo.dynamic_iota": _iota,
        "stablehlo.transpose": _transpose,
        "stablehlo.broadcast_in_dim": _broadcast_in_dim,
        "stablehlo.dynamic_broadcast_in_dim": _broadcast_in_dim,
        "stablehlo.reduce": _reduce,
        "stablehlo.concatenate": _concatenate,
        "stablehlo.slice": _slice,
        "stablehlo.dynamic_slice": _dynamic_slice,
        "stablehlo.dynamic_update_slice": _dynamic_update_slice,
        "stablehlo.pad": _pad,
        "stablehlo.reverse": _reverse,
        "stablehlo.get_dimension_size": _dimension_of_operand("dimension"),
        "stablehlo.sort": _sort,
        "stablehlo.fft": _fft,
        "stablehlo.cholesky": _cholesky,
        "stablehlo.all_gather": _both(_replica_groups(True), _collective("all_gather_dim")),
        "stablehlo.reduce_scatter": _both(_replica_groups(True), _collective("scatter_dimension")),
        "stablehlo.all_to_all": _both(_replica_groups(True, global_ids=False, group_size="split_count"),
                                      _collective("split_dimension", "concat_dimension")),
        "stablehlo.rng_bit_generator": _rng_bit_generator,
        "stablehlo.dot_general": _dot_general,
        "stablehlo.dot": _dot,
        "stablehlo.gather": _gather,
        "stablehlo.scatter": _scatter,
        "stablehlo.convolution": _convolution,
        "chlo.top_k": _top_k,
        "stablehlo.custom_call": _custom_call,
        "stablehlo.reduce_window": _reduce_window,
        "stablehlo.select_and_scatter": _select_and_scatter,
        "stablehlo.composite": _composite,
    })
    return t


VERIFIERS: dict[str, Callable[[Operation], None]] = {name: _checked(check) for name, check in _table().items()}
register_verifiers(VERIFIERS)
