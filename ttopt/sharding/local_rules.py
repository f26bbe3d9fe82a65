"""Per-op rules for cutting global shapes to local ones (`update-global-to-local-shapes`).

Most ops are correct per device once their types are local: elementwise ops, transpose, reshape,
dot_general, reduce, broadcast_in_dim, ... (the shardings come from Shardy, which keeps them
consistent). Some ops read positions along a dimension (a slice's bounds, a pad, an iota, a gather's
indexed dimensions, a concatenation). On such a dimension a shard is not a smaller copy of the
global problem, so these ops must see the whole dimension: the rule lists the "whole" dimensions of
each operand and result; the pass all-gathers sharded operands along them before the op and
all-slices sharded results after it. This is the fix for tt-mlir's divided slice indices and
gather slice sizes (ref §2.11, §6): correct for every slice, never `start / shards`.

A rule is `whole(op, ctx) -> Plan`; `fix(op, ctx)` then rewrites attributes that hold sizes of
dimensions that stay sharded (slice limits, dynamic_slice / gather slice sizes, constant values,
group counts). `check(op, ctx)` verifies that the local types agree where the op's semantics fix
them (catching shardings that need a reshard nobody inserted).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol, cast

from ttopt.ir.attributes import DenseArrayAttr, DenseElementsAttr, IntegerAttr
from ttopt.ir.properties import int_values, props
from ttopt.sharding.ir_views import int_value, tensor_type

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import ConvDimensionNumbers, DotDimensionNumbers, GatherDimensionNumbers
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value


class LocalError(ValueError):
    """The op cannot run per device with these shardings (message names the problem)."""


class Ctx(Protocol):
    def gtype(self, v: Value) -> Any: ...  # global type of a value
    def sharding(self, v: Value) -> Any: ...  # TensorShardingAttr or None (replicated)
    def shards(self, sharding: Any, dim: int) -> int: ...


@dataclass
class Plan:
    whole_in: list[set[int]] = field(default_factory=list)
    whole_out: list[set[int]] = field(default_factory=list)


def _axes(sharding: Any, d: int) -> tuple:
    if sharding is None or d >= len(sharding.dim_shardings):
        return ()
    return tuple(sharding.dim_shardings[d].axes)


def _ints(attr: Any) -> list[int]:
    return list(int_values(attr) or ())


def _dense_rows(attr: Any, rank: int) -> list[list[int]]:
    """A `dense<...> : tensor<Nx2xi64>` padding as rows (splats expanded)."""
    if attr is None:
        return [[0, 0] for _ in range(rank)]
    v = attr.resolve().values
    if isinstance(v, list):
        return [list(r) for r in v]
    return [[int(v), int(v)] for _ in range(rank)]


def _plan(op: Operation, ins: dict[int, set[int]] | None = None, outs: dict[int, set[int]] | None = None) -> Plan:
    ins = ins or {}
    outs = outs or {}
    return Plan([set(ins.get(i, ())) for i in range(len(op.operands))], [set(outs.get(j, ())) for j in range(len(op.results))])


def _all(op: Operation, ctx: Ctx) -> Plan:
    """Every dimension whole: gather everything, run globally, slice the results."""
    return Plan([set(range(ctx.gtype(v).rank)) if hasattr(ctx.gtype(v), "rank") else set() for v in op.operands],
                [set(range(r.type.rank)) if hasattr(r.type, "rank") else set() for r in op.results])


# ---- rules ---------------------------------------------------------------------------------------
def _slice(op: Operation, ctx: Ctx) -> Plan:
    pr = op.properties
    starts, limits, strides = _ints(pr["start_indices"]), _ints(pr["limit_indices"]), _ints(pr["strides"])
    src = op.operands[0]
    shape = ctx.gtype(src).shape
    s_in, s_out = ctx.sharding(src), ctx.sharding(op.results[0])
    whole = set()
    for d, n in enumerate(shape):
        a_in, a_out = _axes(s_in, d), _axes(s_out, d)
        if not a_in and not a_out:
            continue
        full = starts[d] == 0 and limits[d] == n
        if a_in == a_out and full and (n // ctx.shards(s_in, d)) % strides[d] == 0:
            continue  # every shard slices its own piece with the same stride
        whole.add(d)
    return _plan(op, {0: whole}, {0: whole})


def _fix_slice(op: Operation, ctx: Ctx, plan: Plan) -> None:
    src = op.operands[0]
    local, glob = tensor_type(src).shape, ctx.gtype(src).shape
    limits = _ints(op.properties["limit_indices"])
    for d in range(len(local)):
        if d not in plan.whole_in[0] and local[d] != glob[d]:
            limits[d] = local[d]
    op.properties["limit_indices"] = DenseArrayAttr("i64", tuple(limits))


def _pad(op: Operation, ctx: Ctx) -> Plan:
    lo, hi, it = (_ints(op.properties.get(k)) for k in ("edge_padding_low", "edge_padding_high", "interior_padding"))
    whole = {d for d in range(len(lo)) if lo[d] or hi[d] or (it and it[d])}
    return _plan(op, {0: whole}, {0: whole})


def _dynamic_slice(op: Operation, ctx: Ctx) -> Plan:
    shape = ctx.gtype(op.operands[0]).shape
    sizes = _ints(op.properties["slice_sizes"])
    whole = {d for d, n in enumerate(shape) if sizes[d] != n}
    return _plan(op, {0: whole}, {0: whole})


def _fix_slice_sizes(op: Operation, ctx: Ctx, plan: Plan) -> None:
    """`slice_sizes` (dynamic_slice, gather) become local on the dimensions that are split."""
    sizes = _ints(op.properties["slice_sizes"])
    local = tensor_type(op.operands[0]).shape
    for d in range(len(sizes)):
        if d not in plan.whole_in[0]:
            sizes[d] = local[d]
    op.properties["slice_sizes"] = DenseArrayAttr("i64", tuple(sizes))


def _dynamic_update_slice(op: Operation, ctx: Ctx) -> Plan:
    shape = ctx.gtype(op.operands[0]).shape
    upd = ctx.gtype(op.operands[1]).shape
    whole = {d for d in range(len(shape)) if upd[d] != shape[d]}
    return _plan(op, {0: whole, 1: whole}, {0: whole})


def _dims_attr(name: str) -> Callable[[Operation, Ctx], Plan]:
    """Whole along the dimensions an i64 / i64-array property names (reverse, concatenate, sort)."""

    def rule(op: Operation, ctx: Ctx) -> Plan:
        a = op.properties.get(name)
        dims = set(_ints(a)) if isinstance(a, DenseArrayAttr) else ({a.value} if isinstance(a, IntegerAttr) else set())
        return Plan([set(dims) for _ in op.operands], [set(dims) for _ in op.results])

    return rule


def _iota(op: Operation, ctx: Ctx) -> Plan:
    return _plan(op, outs={0: {int_value(op.properties["iota_dimension"])}})


def _constant(op: Operation, ctx: Ctx) -> Plan:
    v = op.properties["value"]
    if isinstance(v, DenseElementsAttr) and v.is_splat:
        return _plan(op)
    return _plan(op, outs={0: set(range(tensor_type(op.results[0]).rank))})


def _fix_constant(op: Operation, ctx: Ctx, plan: Plan) -> None:
    v = op.properties["value"]
    t = op.results[0].type
    if isinstance(v, DenseElementsAttr) and v.type != t:
        op.properties["value"] = DenseElementsAttr(v.body, t)


def _gather(op: Operation, ctx: Ctx) -> Plan:
    dn: GatherDimensionNumbers = props(op).dimension_numbers
    shape = ctx.gtype(op.operands[0]).shape
    sizes = _ints(op.properties["slice_sizes"])
    collapsed = set(dn.collapsed_slice_dims)
    batching = set(dn.operand_batching_dims)
    whole_op = set(dn.start_index_map) | batching | {d for d, n in enumerate(shape) if sizes[d] != n}
    offset_dims = sorted(dn.offset_dims)
    window = [d for d in range(len(shape)) if d not in collapsed and d not in batching]
    whole_res = {offset_dims[k] for k, d in enumerate(window) if d in whole_op and k < len(offset_dims)}
    idx_rank = ctx.gtype(op.operands[1]).rank
    ivd = dn.vector_dim(idx_rank)
    whole_idx = set(dn.start_indices_batching_dims) | ({ivd} if ivd < idx_rank else set())
    batch_res = [d for d in range(tensor_type(op.results[0]).rank) if d not in offset_dims]
    if whole_idx & set(range(idx_rank)):
        # result batch dimensions follow the indices' non-vector dims; keep them whole too when
        # the indices must be whole there (batching dims)
        idx_dims = [d for d in range(idx_rank) if d != ivd]
        whole_res |= {batch_res[k] for k, d in enumerate(idx_dims) if d in whole_idx and k < len(batch_res)}
    return _plan(op, {0: whole_op, 1: whole_idx}, {0: whole_res})


def _reduce_window(op: Operation, ctx: Ctx) -> Plan:
    pr = op.properties
    n_in = len(op.operands) // 2
    rank = ctx.gtype(op.operands[0]).rank
    win = _ints(pr.get("window_dimensions")) or [1] * rank
    strides = _ints(pr.get("window_strides")) or [1] * rank
    bdil = _ints(pr.get("base_dilations")) or [1] * rank
    wdil = _ints(pr.get("window_dilations")) or [1] * rank
    pad = _dense_rows(pr.get("padding"), rank)
    whole = {d for d in range(rank) if win[d] != 1 or strides[d] != 1 or bdil[d] != 1 or wdil[d] != 1 or any(pad[d])}
    return _plan(op, {i: whole for i in range(n_in)}, {j: whole for j in range(len(op.results))})


def conv_layouts(op: Operation) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The convolution's input, kernel and output dims by letter (`('b', '0', '1', 'f')`)."""
    d: ConvDimensionNumbers = props(op).dimension_numbers
    return d.input_layout, d.kernel_layout, d.output_layout


def _conv(op: Operation, ctx: Ctx) -> Plan:
    lhs, rhs, out = conv_layouts(op)
    spatial = lambda spec: {d for d, c in enumerate(spec) if c.isdigit()}  # noqa: E731
    return _plan(op, {0: spatial(lhs), 1: spatial(rhs)}, {0: spatial(out)})


def _fix_conv(op: Operation, ctx: Ctx, plan: Plan) -> None:
    lhs, _, _ = conv_layouts(op)
    x = op.operands[0]
    for key, letter in (("feature_group_count", "f"), ("batch_group_count", "b")):
        prop = op.properties.get(key)
        if prop is None:
            continue
        a = cast(IntegerAttr, prop)  # a group count is an integer attribute
        if a.value == 1:
            continue
        d = lhs.index(letter)
        glob, local = ctx.gtype(x).shape[d], tensor_type(x).shape[d]
        if glob == local:
            continue
        n = glob // local
        if a.value % n:
            raise LocalError(f"{key} = {a.value} cannot be split across the {n} shards of dimension {d}")
        op.properties[key] = IntegerAttr(a.value // n, a.type)


def _last_two(op: Operation, ctx: Ctx) -> Plan:
    return Plan([{ctx.gtype(v).rank - 1, ctx.gtype(v).rank - 2} for v in op.operands],
                [{tensor_type(r).rank - 1, tensor_type(r).rank - 2} for r in op.results])


@dataclass(frozen=True)
class Rule:
    whole: Callable[[Operation, Ctx], Plan]
    fix: Callable[[Operation, Ctx, Plan], None] | None = None


RULES: dict[str, Rule] = {
    "stablehlo.slice": Rule(_slice, _fix_slice),
    "stablehlo.pad": Rule(_pad),
    "stablehlo.dynamic_slice": Rule(_dynamic_slice, _fix_slice_sizes),
    "stablehlo.dynamic_update_slice": Rule(_dynamic_update_slice),
    "stablehlo.reverse": Rule(_dims_attr("dimensions")),
    "stablehlo.concatenate": Rule(_dims_attr("dimension")),
    "stablehlo.sort": Rule(_dims_attr("dimension")),
    "stablehlo.iota": Rule(_iota),
    "stablehlo.constant": Rule(_constant, _fix_constant),
    "stablehlo.gather": Rule(_gather, _fix_slice_sizes),
    "stablehlo.reduce_window": Rule(_reduce_window),
    "stablehlo.convolution": Rule(_conv, _fix_conv),
    "stablehlo.cholesky": Rule(_last_two),
    "stablehlo.triangular_solve": Rule(_last_two),
    # Ops whose every dimension interacts: computed globally.
    **{f"stablehlo.{n}": Rule(_all) for n in ("scatter", "select_and_scatter", "fft", "rng_bit_generator", "rng")},
}


# ---- consistency checks ------------------------------------------------------------------------
# Ops (besides the elementwise ones) whose local shapes `check` verifies.
CHECKED = frozenset({
    "stablehlo.broadcast_in_dim", "stablehlo.transpose", "stablehlo.reshape", "stablehlo.dot_general",
    "stablehlo.reduce", "stablehlo.slice",
})


def _shape(v: Any) -> tuple:
    return tuple(getattr(v.type, "shape", ()))


def check(op: Operation, elementwise: bool) -> None:
    """LocalError when local operand and result shapes disagree where the op fixes their relation."""
    name = op.name
    res = _shape(op.results[0]) if op.results else ()
    if elementwise:
        for i, v in enumerate(op.operands):
            s = _shape(v)
            if s and s != res:
                raise LocalError(f"operand #{i} has local shape {_t(s)} but the result has {_t(res)}")
    elif name == "stablehlo.broadcast_in_dim":
        dims = _ints(op.properties["broadcast_dimensions"])
        src = _shape(op.operands[0])
        for i, d in enumerate(dims):
            if src[i] != 1 and src[i] != res[d]:
                raise LocalError(f"operand dimension {i} (local size {src[i]}) broadcasts into result dimension {d} (local size {res[d]})")
    elif name == "stablehlo.transpose":
        perm = _ints(op.properties["permutation"])
        src = _shape(op.operands[0])
        if tuple(src[p] for p in perm) != res:
            raise LocalError(f"transposing local shape {_t(src)} does not give the local result {_t(res)}")
    elif name == "stablehlo.reshape":
        src = _shape(op.operands[0])
        if _prod(src) != _prod(res):
            raise LocalError(f"local shapes {_t(src)} -> {_t(res)} have different element counts")
    elif name == "stablehlo.dot_general":
        dd: DotDimensionNumbers = props(op).dot_dimension_numbers
        lhs, rhs = _shape(op.operands[0]), _shape(op.operands[1])
        lb, rb = dd.lhs_batching_dimensions, dd.rhs_batching_dimensions
        lc, rc = dd.lhs_contracting_dimensions, dd.rhs_contracting_dimensions
        for a, b in zip(lc + lb, rc + rb):
            if lhs[a] != rhs[b]:
                raise LocalError(f"lhs dimension {a} (local {lhs[a]}) and rhs dimension {b} (local {rhs[b]}) must match")
        want = tuple([lhs[d] for d in lb] + [lhs[d] for d in range(len(lhs)) if d not in lb and d not in lc] +
                     [rhs[d] for d in range(len(rhs)) if d not in rb and d not in rc])
        if want != res:
            raise LocalError(f"local operands give a {_t(want)} result, not {_t(res)}")
    elif name == "stablehlo.reduce":
        n = len(op.operands) // 2
        reduced = set(_ints(op.properties["dimensions"]))
        src = _shape(op.operands[0])
        want = tuple(s for d, s in enumerate(src) if d not in reduced)
        for j in range(n):
            if _shape(op.results[j]) != want:
                raise LocalError(f"reducing local shape {_t(src)} gives {_t(want)}, not {_t(_shape(op.results[j]))}")
    elif name == "stablehlo.slice":
        src = _shape(op.operands[0])
        pr = op.properties
        want = tuple((lim - st + sd - 1) // sd for st, lim, sd in zip(_ints(pr["start_indices"]), _ints(pr["limit_indices"]), _ints(pr["strides"])))
        if want != res:
            raise LocalError(f"slicing local shape {_t(src)} gives {_t(want)}, not {_t(res)}")


def _prod(s: tuple) -> int:
    n = 1
    for x in s:
        n *= x
    return n


def _t(shape: tuple) -> str:
    return "x".join(str(d) for d in shape) or "scalar"
