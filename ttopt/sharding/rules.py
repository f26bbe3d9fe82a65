"""Op sharding rules as data: one entry per op, keyed by op name (ref §3.3, Shardy's
`op_sharding_rule_registry.cc`).

`rule_for(op, conservative)` returns the op's `OpShardingRule` or None (no rule: propagation
skips the op). An existing `sdy.sharding_rule` attribute (JAX writes custom ones on custom_calls)
wins over the table. Adding an op is adding one `@register(...)` entry; the pointwise family
shares `_pointwise`.

Where jaxlib's Shardy (0.10.2, newer than the pinned ea2ba7ed) differs from the reference table,
the rules follow jaxlib, because it is the oracle the tests compare against: gather's collapsed
dims are reduction factors, and scatter's update-batch dims are reduction only when the scatter
body is a plain add (need-replication otherwise).
"""

from __future__ import annotations

from math import gcd
from typing import TYPE_CHECKING, Callable, Optional, Sequence, TypeVar

from ttopt.dialects.sdy_rule import (
    FactorType,
    OpShardingRule,
    RuleBuilder,
    check_rule,
    parse_rule,
)
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values, props
from ttopt.ir.values import Value

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import (
        ConvDimensionNumbers,
        DotDimensionNumbers,
        GatherDimensionNumbers,
        ScatterDimensionNumbers,
    )

P, R, N, M = FactorType.PASS_THROUGH, FactorType.REDUCTION, FactorType.NEED_REPLICATION, FactorType.PERMUTATION

RuleFn = Callable[[Operation, bool], Optional[OpShardingRule]]
RULES: dict[str, RuleFn] = {}
F = TypeVar("F", bound=RuleFn)

# Ops that deliberately have no rule (ref §3.3, last row): propagation treats them as opaque.
NO_RULE = frozenset({
    "stablehlo.constant", "stablehlo.iota", "stablehlo.while", "stablehlo.case", "stablehlo.if",
    "stablehlo.optimization_barrier", "stablehlo.get_tuple_element", "stablehlo.tuple",
    "stablehlo.partition_id", "stablehlo.replica_id", "sdy.reshard", "sdy.manual_computation",
    "sdy.constant", "func.call", "func.return", "stablehlo.return", "sdy.return", "chlo.constant",
})  # fmt: skip


def register(*names: str) -> Callable[[F], F]:
    """Decorator: `fn(op, conservative)` is the rule of every op in `names`."""

    def deco(fn: F) -> F:
        for n in names:
            RULES[n] = fn
        return fn

    return deco


# Registered StableHLO/chlo ops with no factor rule, on purpose: constants and iota (no operand
# to relate; their users' rules shard them), control flow and function-like ops (sharded through
# their regions and operands by propagation), token/host/partition plumbing, and ops whose
# upstream rule needs dynamic shapes or tuples ttopt does not shard. Propagation neither reads
# nor writes through them. tests/architecture/test_op_tables.py keeps this list exact.
NO_RULE = frozenset({
    "stablehlo.constant", "chlo.constant", "stablehlo.iota", "stablehlo.dynamic_iota",
    "stablehlo.case", "stablehlo.if", "stablehlo.while", "stablehlo.return", "stablehlo.composite",
    "stablehlo.optimization_barrier", "stablehlo.tuple", "stablehlo.get_tuple_element",
    "stablehlo.after_all", "stablehlo.create_token", "stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send",
    "stablehlo.recv", "stablehlo.partition_id", "stablehlo.replica_id", "stablehlo.rng",
    "stablehlo.dynamic_broadcast_in_dim", "stablehlo.dynamic_conv", "stablehlo.dynamic_gather", "stablehlo.dynamic_pad",
    "stablehlo.dynamic_reshape", "stablehlo.get_dimension_size",
    "stablehlo.batch_norm_grad", "stablehlo.batch_norm_inference", "stablehlo.batch_norm_training",
    "stablehlo.einsum", "stablehlo.triangular_solve",
})  # fmt: skip


def rule_for(op: Operation, conservative: bool = True) -> OpShardingRule | None:
    """The op's sharding rule, or None when it has none (or a shape is not static)."""
    attr = op.attributes.get("sdy.sharding_rule")
    if attr is not None:
        body = getattr(attr.resolve(), "body", None)
        if body is not None:
            return custom_rule(op, body)
    fn = RULES.get(op.name)
    if fn is None:
        return None
    for v in (*op.operands, *(r for r in op.results)):
        if _shape(v) is None:
            return None
    return fn(op, conservative)


def custom_rule(op: Operation, body: str) -> OpShardingRule:
    """An op's own `sdy.sharding_rule`, checked against its shapes (a Diagnostic naming the op if it does not fit).

    Registered ops are checked by their verifier first, with a position; this is the net for the rest."""
    shapes: list[Sequence[int | None] | None] = [getattr(v.type.resolve(), "shape", None) for v in (*op.operands, *op.results)]
    known = [sh for sh in shapes if sh is not None]
    try:
        rule = parse_rule(body)
        if len(known) == len(shapes):
            n = len(op.operands)
            check_rule(rule, known[:n], known[n:])
    except (ValueError, IndexError) as e:
        raise Diagnostic(f"'{op.name}' op sdy.sharding_rule: {e}") from None
    return rule


# ---- helpers ---------------------------------------------------------------------------------
def _shape(v: Value) -> tuple[int, ...] | None:
    shape = getattr(v.type.resolve(), "shape", None)
    if shape is None or any(d is None for d in shape):
        return None
    return tuple(shape)


def _static(v: Value) -> tuple[int, ...]:
    """The shape of an operand or result of an op whose rule is being built: `rule_for` calls the
    rule functions only when every operand and result has a static shape."""
    shape = _shape(v)
    assert shape is not None, "rule functions run only on ops of static shapes (rule_for checks)"
    return shape


def _builder(op: Operation) -> RuleBuilder:
    return RuleBuilder([_static(v) for v in op.operands], [_static(r) for r in op.results])


def _ints(op: Operation, name: str) -> list[int]:
    """An integer-array property (the verifier has checked its kind); [] when absent."""
    return list(int_values(op.get_attr(name)) or ())


def _int(op: Operation, name: str, default: int = 0) -> int:
    a = op.get_attr(name)
    return int(getattr(a.resolve(), "value", default)) if a is not None else default


def _body_op(op: Operation) -> str | None:
    """The single binary op of a reducer body (`stablehlo.add`), or None."""
    if not op.regions or not op.regions[0].blocks:
        return None
    ops = op.regions[0].blocks[0].ops
    if len(ops) == 2 and ops[1].name == "stablehlo.return" and len(ops[0].operands) == 2:
        return ops[0].name
    return None


# ---- pointwise family ------------------------------------------------------------------------
UNARY = (
    "abs", "cbrt", "ceil", "cosine", "count_leading_zeros", "exponential", "exponential_minus_one",
    "floor", "imag", "is_finite", "log", "log_plus_one", "logistic", "negate", "not", "popcnt", "real",
    "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine", "sqrt", "tan", "tanh",
    "convert", "reduce_precision", "uniform_quantize", "uniform_dequantize",
)
BINARY = (
    "add", "and", "atan2", "complex", "divide", "maximum", "minimum", "multiply", "or", "power",
    "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "xor",
    "compare",
)
POINTWISE = (
    *(f"stablehlo.{n}" for n in (*UNARY, *BINARY)),
    "stablehlo.map", "stablehlo.collective_permute", "stablehlo.collective_broadcast",
    "sdy.sharding_constraint",
)  # fmt: skip


@register(*POINTWISE)
def _pointwise(op: Operation, conservative: bool) -> OpShardingRule:
    """Every dim is one pass-through factor shared by all non-scalar tensors (ref §3.3 row 1)."""
    b = _builder(op)
    b.add_pointwise(_static(op.results[0]) if op.results else _static(op.operands[0]))
    return b.build()


@register("stablehlo.all_reduce")
def _all_reduce(op: Operation, conservative: bool) -> OpShardingRule | None:
    """Pointwise when every operand has one shape; a variadic all_reduce of mixed shapes has no
    single factor space, so it gets no rule (propagation treats it as opaque)."""
    shapes = {_shape(v) for v in (*op.operands, *op.results)}
    if len(shapes) != 1:
        return None
    return _pointwise(op, conservative)


# ---- chlo (ttopt extension) ----------------------------------------------------------------------
# jaxlib's Shardy has no rules for chlo ops (JAX legalizes them to StableHLO before partitioning),
# so there propagation stops at them. ttopt runs the pipeline on JAX's output as printed, where
# `chlo.square`, `chlo.erf`, ... sit inside sharded graphs: they get the rules their StableHLO
# expansions would have. `EXTENSIONS` lists these ops (the oracle rule test skips them).
def _chlo_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from ttopt.dialects.chlo import _BINARY, _BROADCAST, _UNARY

    pointwise = tuple(f"chlo.{n}" for n in (*_UNARY, *_BINARY))
    return pointwise, tuple(f"chlo.broadcast_{n}" for n in _BROADCAST)


CHLO_POINTWISE, CHLO_BROADCAST = _chlo_names()
EXTENSIONS = frozenset((*CHLO_POINTWISE, *CHLO_BROADCAST, "chlo.top_k"))


@register(*CHLO_POINTWISE)
def _chlo_pointwise(op: Operation, conservative: bool) -> OpShardingRule:
    """chlo.square / erf / next_after / ...: elementwise, as their StableHLO expansions."""
    return _pointwise(op, conservative)


@register(*CHLO_BROADCAST)
def _chlo_broadcast(op: Operation, conservative: bool) -> OpShardingRule:
    """Implicitly broadcasting binary ops (`chlo.broadcast_add %a, %b : (A, B) -> C`): operand dims
    align with the result's minor dims (or `broadcast_dimensions`); a dim of the result size shares
    its factor, a size-1 dim that is broadcast gets its own size-1 factor (as broadcast_in_dim)."""
    outs = _static(op.results[0])
    ins = [_static(v) for v in op.operands]
    explicit = _ints(op, "broadcast_dimensions")
    maps = []
    for shape in ins:
        if explicit and len(shape) < len(outs) and len(explicit) == len(shape):
            maps.append({o: i for i, o in enumerate(explicit)})
        else:
            maps.append({len(outs) - len(shape) + i: i for i in range(len(shape))})
    b = _builder(op)
    for d, n in enumerate(outs):
        dims = []
        for k, shape in enumerate(ins):
            i = maps[k].get(d, -1)
            if i >= 0 and shape[i] != n:
                own = [-1] * len(ins)
                own[k] = i
                b.add_factor(own, [-1], shape[i])
                i = -1
            dims.append(i)
        b.add_factor(dims, [d], n)
    return b.build()


@register("chlo.top_k")
def _top_k(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch dims P (operand, values, indices); the last dim need-replication: an operand factor
    of size n and a result factor of size k (like sort's sort dim)."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    b = _builder(op)
    last = len(ins) - 1
    for d in range(last):
        b.add_factor([d], [d, d], ins[d])
    if last >= 0:
        b.add_factor([last], [-1, -1], ins[last], N)
        b.add_factor([-1], [last, last], outs[last], N)
    return b.build()


@register("stablehlo.select")
def _select(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise over the result; a scalar predicate maps to nothing."""
    return _pointwise(op, conservative)


@register("stablehlo.clamp")
def _clamp(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise over the operand (the middle one); scalar min/max map to nothing."""
    b = _builder(op)
    b.add_pointwise(_static(op.operands[1]))
    return b.build()


@register("stablehlo.bitcast_convert")
def _bitcast_convert(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise, plus a need-replication factor for the extra minor dim of the wider side."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    b = _builder(op)
    common = min(len(ins), len(outs))
    for d in range(common):
        b.add_factor([d], [d], ins[d])
    if len(ins) > common:
        b.add_factor([common], [-1], ins[common], N)
    elif len(outs) > common:
        b.add_factor([-1], [common], outs[common], N)
    return b.build()


@register("stablehlo.custom_call")
def _custom_call(op: Operation, conservative: bool) -> OpShardingRule | None:
    """Pointwise for a few known targets; other targets have no rule (propagation is blocked)."""
    target = getattr(op.properties.get("call_target_name"), "value", "")
    if target in ("mhlo.erf", "annotate_device_placement", "Sharding", "X64Combine", "MoveToHost", "MoveToDevice"):
        if op.results and op.operands and _shape(op.operands[0]) == _shape(op.results[0]):
            return _pointwise(op, conservative)
    return None


# ---- shape-changing ops ----------------------------------------------------------------------
@register("stablehlo.broadcast_in_dim")
def _broadcast_in_dim(op: Operation, conservative: bool) -> OpShardingRule:
    """One factor per output dim, shared with the mapped input dim unless that one has size 1 and
    the output dim does not (then the input dim gets its own size-1 factor, just before)."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    dims = _ints(op, "broadcast_dimensions")
    from_out = {o: i for i, o in enumerate(dims)}
    b = _builder(op)
    for d, n in enumerate(outs):
        i = from_out.get(d, -1)
        if i >= 0 and ins[i] != n:
            b.add_factor([i], [-1], ins[i])
            i = -1
        b.add_factor([i], [d], n)
    return b.build()


@register("stablehlo.reshape")
def _reshape(op: Operation, conservative: bool) -> OpShardingRule | None:
    """Greedy GCD factoring of input and output dims; size-1 dims get their own factors.
    2x4->8 is `([i, j])->([ij])`, 8x4->2x16 is `([ij, k])->([i, jk])`."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    if 0 in ins or 0 in outs:
        return None
    b = _builder(op)
    i = o = 0
    in_rem = ins[0] if ins else 1
    out_rem = outs[0] if outs else 1
    while i < len(ins) or o < len(outs):
        if i < len(ins) and ins[i] == 1:
            b.add_factor([i], [-1], 1)
            i += 1
            in_rem = ins[i] if i < len(ins) else 1
            continue
        if o < len(outs) and outs[o] == 1:
            b.add_factor([-1], [o], 1)
            o += 1
            out_rem = outs[o] if o < len(outs) else 1
            continue
        if i >= len(ins) or o >= len(outs):
            break
        g = gcd(in_rem, out_rem)
        if g == 1:
            # No common factor: the rest of both sides stays unshared.
            b.add_factor([i], [-1], in_rem)
            b.add_factor([-1], [o], out_rem)
            i, o = i + 1, o + 1
            in_rem = ins[i] if i < len(ins) else 1
            out_rem = outs[o] if o < len(outs) else 1
            continue
        b.add_factor([i], [o], g)
        in_rem //= g
        out_rem //= g
        if in_rem == 1:
            i += 1
            in_rem = ins[i] if i < len(ins) else 1
        if out_rem == 1:
            o += 1
            out_rem = outs[o] if o < len(outs) else 1
    return b.build()


@register("stablehlo.transpose")
def _transpose(op: Operation, conservative: bool) -> OpShardingRule:
    """One factor per output dim d, at input dim permutation[d]."""
    outs = _static(op.results[0])
    perm = _ints(op, "permutation")
    b = _builder(op)
    for d, n in enumerate(outs):
        b.add_factor([perm[d]], [d], n)
    return b.build()


@register("stablehlo.dot_general", "stablehlo.dot")
def _dot_general(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch (P), lhs free (P), rhs free (P), contracting (R) — `([i, k], [k, j])->([i, j]) reduction={k}`."""
    ls, rs = _static(op.operands[0]), _static(op.operands[1])
    if op.name == "stablehlo.dot":
        lb: Sequence[int] = ()
        rb: Sequence[int] = ()
        lc: Sequence[int] = (len(ls) - 1,)
        rc: Sequence[int] = (0,)
    else:
        d: DotDimensionNumbers = props(op).dot_dimension_numbers
        lb, rb, lc, rc = d.lhs_batching_dimensions, d.rhs_batching_dimensions, d.lhs_contracting_dimensions, d.rhs_contracting_dimensions
    b = _builder(op)
    out = 0
    for x, y in zip(lb, rb):
        b.add_factor([x, y], [out], ls[x])
        out += 1
    for x in range(len(ls)):
        if x not in lb and x not in lc:
            b.add_factor([x, -1], [out], ls[x])
            out += 1
    for y in range(len(rs)):
        if y not in rb and y not in rc:
            b.add_factor([-1, y], [out], rs[y])
            out += 1
    for x, y in zip(lc, rc):
        b.add_factor([x, y], [-1], ls[x], R)
    return b.build()


@register("stablehlo.reduce")
def _reduce(op: Operation, conservative: bool) -> OpShardingRule:
    """One factor per input dim shared by all inputs; reduced dims are R and absent from results."""
    n = len(op.operands) // 2
    ins = _static(op.operands[0])
    reduced = set(_ints(op, "dimensions"))
    b = _builder(op)
    out = 0
    for d, size in enumerate(ins):
        if d in reduced:
            b.add_factor([d] * n + [-1] * n, [-1] * len(op.results), size, R)
        else:
            b.add_factor([d] * n + [-1] * n, [out] * len(op.results), size)
            out += 1
    return b.build()


@register("stablehlo.concatenate")
def _concatenate(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise; the concat dim is need-replication (no factor at all when conservative)."""
    cat = _int(op, "dimension")
    outs = _static(op.results[0])
    b = _builder(op)
    for d, n in enumerate(outs):
        if d == cat:
            if not conservative:
                b.add_factor_all(d, n, N)
        else:
            b.add_factor_all(d, n)
    return b.build()


def _changed_dims_rule(op: Operation, conservative: bool, changed: set[int], shape: tuple[int, ...]) -> OpShardingRule:
    b = _builder(op)
    b.add_pointwise(shape, lambda d: (M, conservative) if d in changed else (P, False))
    return b.build()


@register("stablehlo.slice")
def _slice(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise; dims whose size changes are permutation (and blocked when conservative)."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    return _changed_dims_rule(op, conservative, {d for d in range(len(ins)) if ins[d] != outs[d]}, ins)


@register("stablehlo.pad")
def _pad(op: Operation, conservative: bool) -> OpShardingRule:
    """Like slice: padded dims are permutation (blocked when conservative)."""
    ins = _static(op.operands[0])
    lo, hi, mid = _ints(op, "edge_padding_low"), _ints(op, "edge_padding_high"), _ints(op, "interior_padding")
    changed = {d for d in range(len(ins)) if (lo and lo[d]) or (hi and hi[d]) or (mid and mid[d])}
    return _changed_dims_rule(op, conservative, changed, ins)


@register("stablehlo.reverse")
def _reverse(op: Operation, conservative: bool) -> OpShardingRule:
    """Reversed dims are permutation, the others pass-through (never blocked)."""
    ins = _static(op.operands[0])
    rev = set(_ints(op, "dimensions"))
    b = _builder(op)
    b.add_pointwise(ins, lambda d: (M, False) if d in rev else (P, False))
    return b.build()


@register("stablehlo.reduce_window", "stablehlo.select_and_scatter")
def _reduce_window(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise over the result; windowed/strided/padded dims are permutation (blocked when conservative)."""
    ins = _static(op.results[0])
    win = _ints(op, "window_dimensions")
    strides = _ints(op, "window_strides")
    pad = _ints(op, "padding")
    changed = set()
    for d in range(len(ins)):
        if (win and win[d] != 1) or (strides and strides[d] != 1) or (pad and (pad[2 * d] or pad[2 * d + 1])):
            changed.add(d)
    return _changed_dims_rule(op, conservative, changed, ins)


@register("stablehlo.dynamic_slice")
def _dynamic_slice(op: Operation, conservative: bool) -> OpShardingRule:
    """Sliced dims are need-replication and always blocked; start indices are scalars."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    changed = {d for d in range(len(ins)) if ins[d] != outs[d]}
    b = _builder(op)
    b.add_pointwise(ins, lambda d: (N, True) if d in changed else (P, False))
    return b.build()


@register("stablehlo.dynamic_update_slice")
def _dynamic_update_slice(op: Operation, conservative: bool) -> OpShardingRule:
    """Equal dims are shared P factors; otherwise an operand/result P factor plus an update N factor."""
    ins, upd = _static(op.operands[0]), _static(op.operands[1])
    b = _builder(op)
    k = len(op.operands) - 2
    for d, n in enumerate(ins):
        if upd[d] == n:
            b.add_factor([d, d] + [-1] * k, [d], n)
        else:
            b.add_factor([d, -1] + [-1] * k, [d], n)
            b.add_factor([-1, d] + [-1] * k, [-1], upd[d], N)
    return b.build()


@register("stablehlo.sort")
def _sort(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise; the sort dim is need-replication, blocked if it is the only non-unit dim."""
    ins = _static(op.operands[0])
    dim = _int(op, "dimension")
    dim = dim + len(ins) if dim < 0 else dim
    only = all(n == 1 for d, n in enumerate(ins) if d != dim)
    b = _builder(op)
    b.add_pointwise(ins, lambda d: (N, only) if d == dim else (P, False))
    return b.build()


@register("stablehlo.fft")
def _fft(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch dims P; the fft dims N; a dim whose size changes (RFFT/IRFFT) is also blocked."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    k = len(_ints(op, "fft_length"))
    b = _builder(op)
    for d, n in enumerate(ins):
        if d >= len(ins) - k:
            b.add_factor([d], [d], n, N, blocked=ins[d] != outs[d])
        else:
            b.add_factor([d], [d], n)
    return b.build()


@register("stablehlo.cholesky")
def _cholesky(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch dims P, the two matrix dims need replication."""
    ins = _static(op.operands[0])
    b = _builder(op)
    b.add_pointwise(ins, lambda d: (N, False) if d >= len(ins) - 2 else (P, False))
    return b.build()


@register("stablehlo.rng_bit_generator")
def _rng_bit_generator(op: Operation, conservative: bool) -> OpShardingRule:
    """The state is need-replication and blocked; the output has its own pass-through factors."""
    st, out = _static(op.operands[0]), _static(op.results[1])
    b = _builder(op)
    for d, n in enumerate(st):
        b.add_factor([d], [d, -1], n, N, blocked=True)
    for d, n in enumerate(out):
        b.add_factor([-1], [-1, d], n)
    return b.build()


# ---- collectives (input IR from shard_map) -----------------------------------------------------
def _collective(op: Operation, special: list[int]) -> OpShardingRule:
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    b = _builder(op)
    for d, n in enumerate(ins):
        if d not in special:
            b.add_factor([d], [d], n)
    for d in sorted(special):
        b.add_factor([d], [-1], ins[d], N)
        b.add_factor([-1], [d], outs[d], N)
    return b.build()


@register("stablehlo.all_gather")
def _all_gather(op: Operation, conservative: bool) -> OpShardingRule:
    return _collective(op, [_int(op, "all_gather_dim")])


@register("stablehlo.reduce_scatter")
def _reduce_scatter(op: Operation, conservative: bool) -> OpShardingRule:
    return _collective(op, [_int(op, "scatter_dimension")])


@register("stablehlo.all_to_all")
def _all_to_all(op: Operation, conservative: bool) -> OpShardingRule:
    return _collective(op, sorted({_int(op, "split_dimension"), _int(op, "concat_dimension")}))


# ---- gather / scatter / convolution -----------------------------------------------------------
@register("stablehlo.gather")
def _gather(op: Operation, conservative: bool) -> OpShardingRule:
    """Result dims in order: batch dims (indices <-> result, operand too for explicit batching) P;
    offset dims P when the slice is the whole operand dim, else N and blocked. Then collapsed
    operand dims R (jaxlib's newer Shardy), then the index-vector dim N."""
    dn: GatherDimensionNumbers = props(op).dimension_numbers
    ops, idx, out = _static(op.operands[0]), _static(op.operands[1]), _static(op.results[0])
    offset, collapsed = dn.offset_dims, dn.collapsed_slice_dims
    op_batch, idx_batch = dn.operand_batching_dims, dn.start_indices_batching_dims
    ivd = dn.vector_dim(len(idx))
    sizes = _ints(op, "slice_sizes")
    b = _builder(op)
    window_op_dims = [d for d in range(len(ops)) if d not in collapsed and d not in op_batch]
    idx_dims = [d for d in range(len(idx)) if d != ivd]
    wi = bi = 0
    for r, n in enumerate(out):
        if r in offset:
            od = window_op_dims[wi]
            wi += 1
            if sizes[od] == ops[od]:
                b.add_factor([od, -1], [r], n)
            else:
                b.add_factor([od, -1], [-1], ops[od], N, blocked=True)
                b.add_factor([-1, -1], [r], n, N, blocked=True)
        else:
            idim = idx_dims[bi]
            bi += 1
            odim = op_batch[idx_batch.index(idim)] if idim in idx_batch else -1
            b.add_factor([odim, idim], [r], n)
    for d in collapsed:
        b.add_factor([d, -1], [-1], ops[d], R)
    if ivd < len(idx):
        b.add_factor([-1, ivd], [-1], idx[ivd], N)
    return b.build()


@register("stablehlo.scatter")
def _scatter(op: Operation, conservative: bool) -> OpShardingRule:
    """Update dims in order: scatter (batch) dims shared with indices — R for an add body, else
    N; window dims shared with the operand/result. Then the remaining operand dims P, then the
    index-vector dim N."""
    dn: ScatterDimensionNumbers = props(op).scatter_dimension_numbers
    n_in = (len(op.operands) - 1) // 2
    ops, idx, upd = _static(op.operands[0]), _static(op.operands[n_in]), _static(op.operands[n_in + 1])
    window, inserted = dn.update_window_dims, dn.inserted_window_dims
    in_batch, idx_batch = dn.input_batching_dims, dn.scatter_indices_batching_dims
    ivd = dn.vector_dim(len(idx))
    body = _body_op(op)
    batch_kind = R if body == "stablehlo.add" else N
    b = _builder(op)
    n_res = len(op.results)
    window_op_dims = [d for d in range(len(ops)) if d not in inserted and d not in in_batch]
    idx_dims = [d for d in range(len(idx)) if d != ivd]
    used_op: set[int] = set()

    def dims(operand_dim: int, index_dim: int, update_dim: int) -> tuple[list[int], list[int]]:
        return [operand_dim] * n_in + [index_dim] + [update_dim] * n_in, [operand_dim] * n_res

    wi = bi = 0
    for u, n in enumerate(upd):
        if u in window:
            od = window_op_dims[wi]
            wi += 1
            used_op.add(od)
            if n == ops[od]:
                b.add_factor(*dims(od, -1, u), n)
            else:
                b.add_factor(*dims(-1, -1, u), n, N, blocked=True)
        else:
            idim = idx_dims[bi]
            bi += 1
            if idim in idx_batch:
                od = in_batch[idx_batch.index(idim)]
                used_op.add(od)
                b.add_factor(*dims(od, idim, u), n)
            else:
                ods, rs = dims(-1, idim, u)
                b.add_factor(ods, rs, n, batch_kind)
    for d, n in enumerate(ops):
        if d not in used_op:
            b.add_factor(*dims(d, -1, -1), n)
    if ivd < len(idx):
        b.add_factor(*dims(-1, ivd, -1), idx[ivd], N)
    return b.build()


@register("stablehlo.convolution")
def _convolution(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch P (lhs<->result); per spatial dim (omitted when conservative) a num-windows factor M
    (lhs<->result) and, when lhs size / out size > 1, a window factor R (lhs<->rhs); a feature-group
    factor when feature_group_count > 1; input feature R (lhs<->rhs); output feature P (rhs<->result)."""
    ls, rs, os_ = _static(op.operands[0]), _static(op.operands[1]), _static(op.results[0])
    d: ConvDimensionNumbers = props(op).dimension_numbers
    lb, lf, ob, of = d.input_batch_dimension, d.input_feature_dimension, d.output_batch_dimension, d.output_feature_dimension
    ri, ro = d.kernel_input_feature_dimension, d.kernel_output_feature_dimension
    fg = _int(op, "feature_group_count", 1)
    bg = _int(op, "batch_group_count", 1)
    b = _builder(op)
    if bg > 1:
        b.add_factor([lb, ro], [of], bg)
        b.add_factor([lb, -1], [ob], ls[lb] // bg)
    else:
        b.add_factor([lb, -1], [ob], ls[lb])
    if not conservative:
        for lsd, rsd, osd in zip(d.input_spatial_dimensions, d.kernel_spatial_dimensions, d.output_spatial_dimensions):
            b.add_factor([lsd, -1], [osd], os_[osd], M)
            if os_[osd] and ls[lsd] % os_[osd] == 0 and ls[lsd] // os_[osd] > 1:
                b.add_factor([lsd, rsd], [-1], ls[lsd] // os_[osd], R)
    in_feat = ls[lf]
    out_feat = rs[ro]
    if fg > 1:
        b.add_factor([lf, ro], [of], fg)
        b.add_factor([lf, ri], [-1], in_feat // fg, R)
        b.add_factor([-1, ro], [of], out_feat // fg)
    else:
        b.add_factor([lf, ri], [-1], in_feat, R)
        b.add_factor([-1, ro], [of], out_feat // bg if bg > 1 else out_feat)
    return b.build()
