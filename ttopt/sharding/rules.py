"""Op sharding rules as data: one entry per op, keyed by op name (ref §3.3, Shardy's
`op_sharding_rule_registry.cc`).

`rule_for(op, conservative)` returns the op's `OpShardingRule` or None (no rule: propagation
skips the op). An existing `sdy.sharding_rule` attribute (JAX writes custom ones on custom_calls)
wins over the table. Adding an op is adding one `@register(...)` entry; the pointwise family
shares `_pointwise`.

Where jaxlib's Shardy (0.10.2, newer than the pinned ea2ba7ed) differs from the reference table,
the rules follow jaxlib, because it is the oracle the tests compare against: gather's collapsed
dims are reduction factors. Ops and cases the jaxlib corpus does not reach follow Shardy's
registry at a0277a83 (the commit bench/shardy_conformance.py pins): variadic collectives,
batch_norm_inference, triangular_solve, the custom-call targets, concat of slices (permutation),
dynamic_update_slice with constant indices, select_and_scatter, the gather/scatter slice cases,
convolution's spatial factors and the diverging reshape factoring; scatter's implicit batch dims
are reduction for an add/multiply/max/min body (need-replication otherwise).
"""

from __future__ import annotations

from math import gcd, prod
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
from ttopt.ir.values import OpResult, Value

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
    "stablehlo.batch_norm_grad", "stablehlo.batch_norm_training", "stablehlo.einsum",
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
            check_rule(rule, known[:n], known[n:], sizes=False)  # structure only, as Shardy's verifier
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


# Custom-call targets of Shardy's registry (op_sharding_rule_registry.cc at a0277a83).
CUSTOM_NO_RULE = frozenset({
    "sdy_testonly", "tpu_custom_call", "xla_python_cpu_callback", "xla_python_gpu_callback",
    "xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback", "xla.debug.Log",
})  # fmt: skip
CUSTOM_POINTWISE = frozenset({
    "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
    "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular", "LayoutConstraint", "mhlo.erf",
    "MoveToDevice", "MoveToHost", "X64SplitHigh", "X64SplitLow", "xla.megascale.provide_metadata",
    "_SPMDInternalOp_MultiPad", "_SPMDInternalOp_RotateRight", "_SPMDInternalOp_MultiRotate",
    "_SPMDInternalOp_MultiSlice", "_SPMDInternalOp_Wrap", "Sharding",
})  # fmt: skip


def custom_call_target(op: Operation) -> str:
    """A custom call's target name ('' when absent)."""
    return str(getattr(op.properties.get("call_target_name"), "value", ""))


def custom_call_is_known(op: Operation) -> bool:
    """Whether Shardy's registry knows the target (an unknown one gets a warning and no rule)."""
    return custom_call_target(op) in (CUSTOM_NO_RULE | CUSTOM_POINTWISE | set(_CUSTOM))


def _custom_pointwise(op: Operation) -> OpShardingRule | None:
    """Shardy's `buildPointwise`: the first result's dims shared by every ranked tensor."""
    if not op.results or _shape(op.results[0]) is None:
        return None
    b = _builder(op)
    shape = _static(op.results[0])
    ranked = [len(s) > 0 for s in (*b.operand_shapes, *b.result_shapes)]
    for d, n in enumerate(shape):
        dims = [d if r else -1 for r in ranked]
        b.add_factor(dims[: b.num_operands], dims[b.num_operands :], n)
    return b.build()


def _eigh(op: Operation) -> OpShardingRule:
    """Batch dims P; the matrix dims pass through to the eigenvectors, the last also to the eigenvalues."""
    ins = _static(op.operands[0])
    d1, d2 = len(ins) - 2, len(ins) - 1
    b = _builder(op)
    b.add_pointwise(ins[:d1])
    b.add_factor([d1], [d1, -1], ins[d1])
    b.add_factor([d2], [d2, d1], ins[d2])
    return b.build()


def _qr(op: Operation) -> OpShardingRule:
    """Batch dims P; the matrix dims and the taus' dim need replication."""
    ins, taus = _static(op.operands[0]), _static(op.results[1])
    d1, d2 = len(ins) - 2, len(ins) - 1
    b = _builder(op)
    b.add_pointwise(ins[:d1])
    b.add_factor([d1], [d1, -1], ins[d1], N)
    b.add_factor([d2], [d2, -1], ins[d2], N)
    b.add_factor([-1], [-1, d1], taus[d1], N)
    return b.build()


def _householder(op: Operation) -> OpShardingRule:
    """Batch dims P; the matrix dims and the taus' dim need replication."""
    ins, taus = _static(op.operands[0]), _static(op.operands[1])
    d1, d2 = len(ins) - 2, len(ins) - 1
    b = _builder(op)
    b.add_pointwise(ins[:d1])
    b.add_factor([d1, -1], [d1], ins[d1], N)
    b.add_factor([d2, -1], [d2], ins[d2], N)
    b.add_factor([-1, d1], [-1], taus[d1], N)
    return b.build()


def _mhlo_topk(op: Operation) -> OpShardingRule:
    """Dims of equal operand/result size pass through; the top-k dim needs replication, blocked."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    b = _builder(op)
    for d, (n, k) in enumerate(zip(ins, outs)):
        b.add_factor_all(d, n, P if n == k else N, blocked=n != k)
    return b.build()


def _approx_topk(op: Operation) -> OpShardingRule:
    """ApproxTopK / PartialReduce (operand, iota, two scalar inits): equal dims pass through; the
    reduced dim is an operand factor plus a blocked need-replication result factor."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    b = _builder(op)
    for d, (n, k) in enumerate(zip(ins, outs)):
        if n == k:
            b.add_factor_all(d, n)
        else:
            b.add_factor([d, d, -1, -1], [-1, -1], n)
            b.add_factor([-1, -1, -1, -1], [d, d], k, N, blocked=True)
    return b.build()


def _x64_combine(op: Operation) -> OpShardingRule | None:
    """Pointwise, but replicated and blocked when it feeds an rng_bit_generator (whose ui64 state
    must stay replicated and cannot be resharded)."""
    if any(u.name == "stablehlo.rng_bit_generator" for r in op.results for u in r.users):
        b = _builder(op)
        b.add_factor_all(0, _static(op.results[0])[0], N, blocked=True)
        return b.build()
    return _custom_pointwise(op)


_CUSTOM: dict[str, Callable[[Operation], OpShardingRule | None]] = {
    "Eigh": _eigh, "Qr": _qr, "QrDecompositionBlock": _qr, "ProductOfElementaryHouseholderReflectors": _householder,
    "mhlo.topk": _mhlo_topk, "ApproxTopK": _approx_topk, "PartialReduce": _approx_topk, "X64Combine": _x64_combine,
}  # fmt: skip


@register("stablehlo.custom_call")
def _custom_call(op: Operation, conservative: bool) -> OpShardingRule | None:
    """Shardy's table of custom-call targets; other targets have no rule (propagation is blocked)."""
    target = custom_call_target(op)
    fn = _custom_pointwise if target in CUSTOM_POINTWISE else _CUSTOM.get(target)
    if fn is None:
        return None
    # Shardy asserts the target's operand/result contract; a call that breaks it gets no rule.
    try:
        rule = fn(op)
        if rule is not None:
            check_rule(rule, [_static(v) for v in op.operands], [_static(r) for r in op.results])
    except (IndexError, ValueError):
        return None
    return rule


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
    """Shardy's reshape factoring: common GCD factors while the accumulated input and output
    factors agree; once they diverge (no common divisor), each side adds factors that converge
    them again (or keep the next GCD). Size-1 dims get their own factors; no rule with 0 elements.
    2x4->8 is `([i, j])->([ij])`, 8x4->2x16 is `([ij, k])->([i, jk])`, 3x2->2x3 is `([i, l])->([j, k])`."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    if 0 in ins or prod(ins) != prod(outs):
        return None
    b = _builder(op)
    i = o = 0
    dims_in = dims_out = fac_in = fac_out = 1
    while i < len(ins) or o < len(outs):
        if i < len(ins) and ins[i] == 1:
            b.add_factor([i], [-1], 1)
            i += 1
            continue
        if o < len(outs) and outs[o] == 1:
            b.add_factor([-1], [o], 1)
            o += 1
            continue
        if i < len(ins) and dims_in == fac_in:
            dims_in *= ins[i]
        if o < len(outs) and dims_out == fac_out:
            dims_out *= outs[o]
        next_in, next_out = dims_in // fac_in, dims_out // fac_out
        g = gcd(next_in, next_out)

        def diverged(nxt: int, smaller: int, larger: int, g: int = g) -> int:
            if larger % smaller == 0 and nxt % (larger // smaller) == 0:
                return larger // smaller  # converges the in and out factors
            return nxt // g if nxt > g else nxt  # keeps the next GCD for the next round

        if fac_in == fac_out:
            if g > 1:
                b.add_factor([i], [o], g)
                fac_in *= g
                fac_out *= g
            else:
                b.add_factor([i], [-1], next_in)
                fac_in *= next_in
                b.add_factor([-1], [o], next_out)
                fac_out *= next_out
        elif fac_in < fac_out:
            n = diverged(next_in, fac_in, fac_out)
            b.add_factor([i], [-1], n)
            fac_in *= n
        else:
            n = diverged(next_out, fac_out, fac_in)
            b.add_factor([-1], [o], n)
            fac_out *= n
        if i < len(ins) and dims_in == fac_in:
            i += 1
        if o < len(outs) and dims_out == fac_out:
            o += 1
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


def _sliced_from(v: Value) -> Value:
    """The operand of the `stablehlo.slice` that defines `v`, else `v`."""
    owner = v.owner if isinstance(v, OpResult) else None
    return owner.operands[0] if owner is not None and owner.name == "stablehlo.slice" else v


@register("stablehlo.concatenate")
def _concatenate(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise; the concat dim is need-replication (no factor at all when conservative), or
    permutation when the operands are slices (`concat(slice(l), slice(r))`) or slices of one
    tensor next to it (`concat(slice(x), x, slice(x))`): the data only moves between devices."""
    cat = _int(op, "dimension")
    outs = _static(op.results[0])
    sliced = [isinstance(v, OpResult) and v.owner.name == "stablehlo.slice" for v in op.operands]
    same = {id(_sliced_from(v)) for v in op.operands}
    kind = M if all(sliced) or (len(same) == 1 and any(sliced)) else N
    b = _builder(op)
    for d, n in enumerate(outs):
        if d == cat:
            if not conservative:
                b.add_factor_all(d, n, kind)
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


@register("stablehlo.reduce_window")
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


@register("stablehlo.select_and_scatter")
def _select_and_scatter(op: Operation, conservative: bool) -> OpShardingRule:
    """Pass-through dims (no window, stride or padding) are shared; a windowed dim is a
    need-replication factor of the source plus a permutation factor operand -> result (both
    blocked when conservative)."""
    outs, src = _static(op.results[0]), _static(op.operands[1])
    win = _ints(op, "window_dimensions")
    strides = _ints(op, "window_strides")
    pad = _ints(op, "padding")
    b = _builder(op)
    for d, n in enumerate(outs):
        if not ((win and win[d] != 1) or (strides and strides[d] != 1) or (pad and (pad[2 * d] or pad[2 * d + 1]))):
            b.add_factor_all(d, n)
            continue
        b.add_factor([-1, d, -1], [-1], src[d], N, blocked=conservative)
        b.add_factor([d, -1, -1], [d], n, M, blocked=conservative)
    return b.build()


@register("stablehlo.dynamic_slice")
def _dynamic_slice(op: Operation, conservative: bool) -> OpShardingRule:
    """Sliced dims are need-replication and always blocked; start indices are scalars."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    changed = {d for d in range(len(ins)) if ins[d] != outs[d]}
    b = _builder(op)
    b.add_pointwise(ins, lambda d: (N, True) if d in changed else (P, False))
    return b.build()


def _is_constant(v: Value) -> bool:
    return isinstance(v, OpResult) and v.owner.name in ("stablehlo.constant", "sdy.constant", "chlo.constant", "arith.constant")


@register("stablehlo.dynamic_update_slice")
def _dynamic_update_slice(op: Operation, conservative: bool) -> OpShardingRule:
    """Equal dims are shared P factors; otherwise an operand/result P factor plus an update
    factor, N unless every start index is a constant (then each device knows its local offsets)."""
    ins, upd = _static(op.operands[0]), _static(op.operands[1])
    b = _builder(op)
    k = len(op.operands) - 2
    update_kind = P if all(_is_constant(v) for v in op.operands[2:]) else N
    for d, n in enumerate(ins):
        if upd[d] == n:
            b.add_factor([d, d] + [-1] * k, [d], n)
        else:
            b.add_factor([d, -1] + [-1] * k, [d], n)
            b.add_factor([-1, d] + [-1] * k, [-1], upd[d], update_kind)
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


@register("stablehlo.batch_norm_inference")
def _batch_norm_inference(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise over the operand; the feature dim is shared with the four 1-D statistics."""
    ins = _static(op.operands[0])
    feature = _int(op, "feature_index")
    b = _builder(op)
    for d, n in enumerate(ins):
        b.add_factor([d] + [0 if d == feature else -1] * (len(op.operands) - 1), [d], n)
    return b.build()


@register("stablehlo.triangular_solve")
def _triangular_solve(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch dims P; `op(a) @ x = b` (left side) or `x @ op(a) = b`: the non-contracting dims of
    a and of the result and the contracting dim all need replication."""
    a, rhs = _static(op.operands[0]), _static(op.operands[1])
    d1, d2 = len(a) - 2, len(a) - 1
    transpose = op.get_attr("transpose_a")
    transposed = str(getattr(transpose, "body", "") or "").split()[-1:] in (["TRANSPOSE"], ["ADJOINT"])
    b = _builder(op)
    b.add_pointwise(a[:d1])
    if props(op).left_side:
        non, con = (d2, d1) if transposed else (d1, d2)
        b.add_factor([non, d1], [-1], a[non], N)
        b.add_factor([-1, d2], [d2], rhs[d2], N)
        b.add_factor([con, -1], [d1], a[con], N)
    else:
        non, con = (d1, d2) if transposed else (d2, d1)
        b.add_factor([-1, d1], [d1], rhs[d1], N)
        b.add_factor([non, d2], [-1], a[non], N)
        b.add_factor([con, -1], [d2], a[con], N)
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
def _same_for_all(b: RuleBuilder, operands: bool, dim: int, size: int, kind: FactorType = P) -> None:
    """A factor at `dim` of every operand (or every result) of a variadic collective."""
    n_ops, n_res = b.num_operands, len(b.result_shapes)
    ranked = [len(s) > 0 for s in (*b.operand_shapes, *b.result_shapes)]
    dims = [dim if r else -1 for r in ranked]
    b.add_factor(dims[:n_ops] if operands else [-1] * n_ops, [-1] * n_res if operands else dims[n_ops:], size, kind)


def _collective(op: Operation, special: list[int]) -> OpShardingRule:
    """Variadic collectives: the untouched dims are shared by all tensors; each moved dim (in the
    op's own order: split before concat) is one N factor over the operands and one over the results."""
    ins, outs = _static(op.operands[0]), _static(op.results[0])
    b = _builder(op)
    for d, n in enumerate(ins):
        if d not in special:
            b.add_factor_all(d, n)
    for d in dict.fromkeys(special):
        _same_for_all(b, True, d, ins[d], N)
        _same_for_all(b, False, d, outs[d], N)
    return b.build()


@register("stablehlo.all_gather")
def _all_gather(op: Operation, conservative: bool) -> OpShardingRule:
    """The gathered dim needs replication (operand and result sizes differ); the rest pass through."""
    return _collective(op, [_int(op, "all_gather_dim")])


@register("stablehlo.reduce_scatter")
def _reduce_scatter(op: Operation, conservative: bool) -> OpShardingRule:
    """The scattered dim needs replication; the rest pass through."""
    return _collective(op, [_int(op, "scatter_dimension")])


@register("stablehlo.all_to_all")
def _all_to_all(op: Operation, conservative: bool) -> OpShardingRule:
    """Split and concat dims need replication; the rest pass through."""
    return _collective(op, [_int(op, "split_dimension"), _int(op, "concat_dimension")])


# ---- gather / scatter / convolution -----------------------------------------------------------
# Shardy's `addGatherScatterFactors`: the slices (gather result / scatter updates) are walked in
# order; then the collapsed (inserted) operand dims, then the index-vector dim.
GatherFactorFn = Callable[[int, int, int, int, FactorType, bool], None]


def _gather_scatter_factors(add: GatherFactorFn, scatter_reduction: FactorType | None, ins: tuple[int, ...],
                            idx: tuple[int, ...], slices: tuple[int, ...], ivd: int, offset: Sequence[int],
                            collapsed: Sequence[int], in_batch: Sequence[int], idx_batch: Sequence[int]) -> None:
    """`add(input_dim, indices_dim, slices_dim, size, type, blocked)` per factor; a scatter passes
    the type of its implicit batch dims (R for a supported reduction body, else N)."""
    in_dim = batch_pos = 0
    for s, n in enumerate(slices):
        if s in offset:
            while in_dim in collapsed or in_dim in in_batch:
                in_dim += 1
            size = ins[in_dim]
            if size == n:
                add(in_dim, -1, s, size, P, False)
            elif scatter_reduction is not None:
                add(in_dim, -1, -1, size, N, False)
                add(-1, -1, s, n, N, False)
            elif n == 1:
                # A size-1 slice of a sharded operand dim: each device gathers its part, all-reduced.
                add(in_dim, -1, -1, size, R, False)
                add(-1, -1, s, n, N, False)
            else:
                add(in_dim, -1, s, size, N, True)
            in_dim += 1
        else:
            idim = batch_pos if batch_pos < ivd else batch_pos + 1
            explicit = idim in idx_batch
            kind = scatter_reduction if scatter_reduction is not None and not explicit else P
            add(in_batch[idx_batch.index(idim)] if explicit else -1, idim, s, n, kind, False)
            batch_pos += 1
    for d in collapsed:
        kind = P if scatter_reduction is not None else (N if ins[d] == 1 else R)
        add(d, -1, -1, ins[d], kind, False)
    if ivd < len(idx):
        add(-1, ivd, -1, idx[ivd], N, False)


@register("stablehlo.gather")
def _gather(op: Operation, conservative: bool) -> OpShardingRule:
    """Result batch dims shared with the indices (and the operand for explicit batching); offset
    dims P when the slice is the whole operand dim, else N and blocked (R on the operand for a
    size-1 slice); collapsed operand dims R (N when of size 1); the index-vector dim N."""
    dn: GatherDimensionNumbers = props(op).dimension_numbers
    ins, idx, out = _static(op.operands[0]), _static(op.operands[1]), _static(op.results[0])
    b = _builder(op)

    def add(in_dim: int, idx_dim: int, out_dim: int, size: int, kind: FactorType, blocked: bool) -> None:
        b.add_factor([in_dim, idx_dim], [out_dim], size, kind, blocked)

    _gather_scatter_factors(add, None, ins, idx, out, dn.vector_dim(len(idx)), dn.offset_dims, dn.collapsed_slice_dims,
                            dn.operand_batching_dims, dn.start_indices_batching_dims)
    return b.build()


_SCATTER_REDUCERS = ("stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum")


def _scatter_reducer(op: Operation) -> str | None:
    """Shardy's `getCommonSupportedReductionOp`: one add/multiply/max/min (and/or on i1) of
    (input k, update k) per result, the same kind for all; None otherwise."""
    n_in = (len(op.operands) - 1) // 2
    if not op.regions or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[0]
    if len(block.args) != 2 * n_in or not block.ops or block.ops[-1].name != "stablehlo.return":
        return None
    ret = block.ops[-1]
    if len(ret.operands) != n_in:
        return None
    kind = None
    for k, v in enumerate(ret.operands):
        cur = v.owner if isinstance(v, OpResult) else None
        if cur is None or len(cur.operands) != 2:
            return None
        logical = cur.name in ("stablehlo.and", "stablehlo.or") and str(getattr(v.type.resolve(), "element_type", "")) == "i1"
        if not logical and cur.name not in _SCATTER_REDUCERS:
            return None
        if kind is not None and kind != cur.name:
            return None
        kind = cur.name
        args = {block.args[k], block.args[k + n_in]}
        if set(cur.operands) != args or len(args) != 2:
            return None
    return kind


@register("stablehlo.scatter")
def _scatter(op: Operation, conservative: bool) -> OpShardingRule:
    """Update dims in order: implicit batch dims shared with the indices — R for a supported
    reduction body, else N; explicit batch dims shared with the operand too; window dims shared
    with the operand/result when unsliced, else N on both sides. Then the inserted operand dims
    P, then the index-vector dim N."""
    dn: ScatterDimensionNumbers = props(op).scatter_dimension_numbers
    n_in = (len(op.operands) - 1) // 2
    ins, idx, upd = _static(op.operands[0]), _static(op.operands[n_in]), _static(op.operands[n_in + 1])
    b = _builder(op)

    def add(in_dim: int, idx_dim: int, upd_dim: int, size: int, kind: FactorType, blocked: bool) -> None:
        b.add_factor([in_dim] * n_in + [idx_dim] + [upd_dim] * n_in, [in_dim] * n_in, size, kind, blocked)

    reduction = R if _scatter_reducer(op) is not None else N
    _gather_scatter_factors(add, reduction, ins, idx, upd, dn.vector_dim(len(idx)), dn.update_window_dims,
                            dn.inserted_window_dims, dn.input_batching_dims, dn.scatter_indices_batching_dims)
    return b.build()


def _add_factor_unless_unit(b: RuleBuilder, operand_dims: list[int], result_dims: list[int], size: int,
                            kind: FactorType = P) -> None:
    """Shardy's `addFactor`: a size-1 factor is not added to a dim that already has a factor."""
    if size == 1:
        n = b.num_operands
        operand_dims = [d if d < 0 or not b.maps[t][d] else -1 for t, d in enumerate(operand_dims)]
        result_dims = [d if d < 0 or not b.maps[n + t][d] else -1 for t, d in enumerate(result_dims)]
    b.add_factor(operand_dims, result_dims, size, kind)


@register("stablehlo.convolution")
def _convolution(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch groups (lhs batch <-> rhs out feature <-> out feature) and per-group batch P; per
    spatial dim (omitted when conservative) a num-windows factor M (lhs <-> result) and a window
    factor R (lhs <-> rhs), the larger one major, each capped by what is left of the lhs dim;
    feature groups; input feature R (lhs <-> rhs); output feature P (rhs <-> result) if > 1."""
    ls, rs, os_ = _static(op.operands[0]), _static(op.operands[1]), _static(op.results[0])
    d: ConvDimensionNumbers = props(op).dimension_numbers
    lb, lf, ob, of = d.input_batch_dimension, d.input_feature_dimension, d.output_batch_dimension, d.output_feature_dimension
    ri, ro = d.kernel_input_feature_dimension, d.kernel_output_feature_dimension
    fg = _int(op, "feature_group_count", 1)
    bg = _int(op, "batch_group_count", 1)
    b = _builder(op)
    if bg > 1:
        _add_factor_unless_unit(b, [lb, ro], [of], bg)
    _add_factor_unless_unit(b, [lb, -1], [ob], os_[ob])
    if not conservative:
        for lsd, rsd, osd in zip(d.input_spatial_dimensions, d.kernel_spatial_dimensions, d.output_spatial_dimensions):
            remaining = ls[lsd]
            num_windows, window = os_[osd], rs[rsd]
            order = ((num_windows, False), (window, True)) if num_windows >= window else ((window, True), (num_windows, False))
            for size, contracting in order:
                size = min(remaining, size)
                if size > 1:
                    if contracting:
                        _add_factor_unless_unit(b, [lsd, rsd], [-1], size, R)
                    else:
                        _add_factor_unless_unit(b, [lsd, -1], [osd], size, M)
                    remaining //= size
    if fg > 1:
        _add_factor_unless_unit(b, [lf, ro], [of], fg)
    _add_factor_unless_unit(b, [lf, ri], [-1], rs[ri], R)
    out_feat = os_[of] // (bg * fg)
    if out_feat > 1:
        _add_factor_unless_unit(b, [-1, ro], [of], out_feat)
    return b.build()
