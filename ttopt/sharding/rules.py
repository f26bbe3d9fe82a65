"""Op sharding rules as data: one entry per op, keyed by op name (ref §3.3, Shardy's
`op_sharding_rule_registry.cc`).

`rule_for(op, conservative)` returns the op's `OpShardingRule` or None (no rule: propagation
skips the op). An existing `sdy.sharding_rule` attribute (JAX writes custom ones on custom_calls)
wins over the table. Adding an op is adding one `@register(...)` entry (rule_registry.py); the
pointwise family shares `_pointwise`. This module holds the element-wise, chlo and shape-changing
ops; collectives, custom calls and gather/scatter/convolution have their own modules.

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

import re
from functools import lru_cache
from math import gcd, prod
from typing import TYPE_CHECKING, Sequence

from ttopt.dialects.sdy_rule import (
    OpShardingRule,
    RuleBuilder,
    check_rule,
    parse_rule,
)
from ttopt.ir.attributes import AliasRef
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.operation import Operation
from ttopt.ir.properties import props
from ttopt.ir.values import OpResult, Value
from ttopt.sharding.rule_registry import RULES, M, N, P, R, builder, int_attr, int_list, register, shape_of, static_shape

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import (
        DotDimensionNumbers,
    )

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
    attrs = op.attributes
    if attrs:
        attr = attrs.get("sdy.sharding_rule")
        if attr is not None:
            body = getattr(attr.resolve(), "body", None)
            if body is not None:
                return custom_rule(op, body)
    fn = RULES.get(op.name)
    if fn is None:
        return None
    if fn is _pointwise or fn is _select:  # the most common rule: a function of the operand count and the types
        operands = op.operands
        by_types = _types_key(operands, op.results)
        seen = _POINTWISE_SEEN.get(by_types)
        if seen is None:
            if len(_POINTWISE_SEEN) > _SHAPES_LIMIT:
                _POINTWISE_SEEN.clear()
            read = tuple(_shape_by_type(v) for v in (*operands, *op.results))
            n = len(operands)
            found = None if None in read else _pointwise_rule(read[:n], read[n:])  # type: ignore[arg-type]
            seen = _POINTWISE_SEEN[by_types] = (found, [v.type for v in (*operands, *op.results)])
        return seen[0]
    ident = _identity_key(op, conservative) if op.name in _SHAPE_AND_PROPERTY_RULES else None
    if ident is not None:
        hit = _RULES_BY_ID.get(ident)
        if hit is not None:
            return hit[0]
    shapes = tuple(_shape_by_type(v) for v in (*op.operands, *op.results))
    if None in shapes:
        return None
    key = _rule_key(op, conservative, shapes) if op.name in _SHAPE_AND_PROPERTY_RULES else None
    if key is None:
        return fn(op, conservative)
    rule = _RULES_SEEN.get(key)
    if rule is None:
        if len(_RULES_SEEN) > 20_000:
            _RULES_SEEN.clear()
        rule = _RULES_SEEN[key] = fn(op, conservative)
    if ident is not None:
        if len(_RULES_BY_ID) > 20_000:
            _RULES_BY_ID.clear()
        _RULES_BY_ID[ident] = (rule, _identity_parts(op)[1])
    return rule


def _types_key(operands: list[Value], results: list[OpResult]) -> tuple[int, ...]:
    """The operand count and the ids of the operand then result types (`_POINTWISE_SEEN`'s key);
    the common arities as one tuple display (no list, map or iterator object per op)."""
    if len(results) == 1:
        n = len(operands)
        if n == 1:
            return (1, id(operands[0].type), id(results[0].type))
        if n == 2:
            return (2, id(operands[0].type), id(operands[1].type), id(results[0].type))
        if n == 3:
            return (3, id(operands[0].type), id(operands[1].type), id(operands[2].type), id(results[0].type))
    return (len(operands), *(id(v.type) for v in (*operands, *results)))


def rule_reads_only_the_op(name: str) -> bool:
    """Whether `rule_for` of an op named `name` reads nothing but its name, its operand and result
    types and its own properties and attributes (not its operands' producers, nor its regions):
    the pointwise rules (select's too), the shape-and-property ones and ops without a table rule."""
    fn = RULES.get(name)
    return fn is None or fn is _pointwise or fn is _select or name in _SHAPE_AND_PROPERTY_RULES


def has_table_rule(name: str) -> bool:
    """Whether ops named `name` have a rule in the table (else only their own `sdy.sharding_rule`)."""
    return name in RULES


def rule_is_pointwise(name: str) -> bool:
    """Whether the rule of an op named `name` is the pointwise rule of its operand and result
    shapes, nothing else read: ops of two such names with equal types get equal rules."""
    fn = RULES.get(name)
    return fn is _pointwise or fn is _select


def _identity_key(op: Operation, conservative: bool) -> tuple | None:
    """The `_RULES_BY_ID` key of an op whose rule reads only its name, shapes and attributes:
    (name, conservative, operand count, type count, property and attribute names, ids of the
    types and attribute objects (`_identity_parts`)); None when an attribute is an alias
    reference, whose target may be redefined. The common shapes of op (one result, one or two
    operands, at most two properties, no attributes) as one tuple display, the same key."""
    operands, results, props = op.operands, op.results, op.properties
    if not op.attributes and len(results) == 1 and len(props) <= 2 and 0 < len(operands) <= 2:
        types: tuple = ((id(operands[0].type), id(results[0].type)) if len(operands) == 1 else
                        (id(operands[0].type), id(operands[1].type), id(results[0].type)))  # fmt: skip
        n_types = len(types)
        if not props:
            return (op.name, conservative, n_types - 1, n_types, *types)
        if len(props) == 1:
            ((k, a),) = props.items()
            return None if type(a) is AliasRef else (op.name, conservative, n_types - 1, n_types, k, *types, id(a))
        (k1, a1), (k2, a2) = props.items()
        if type(a1) is AliasRef or type(a2) is AliasRef:
            return None
        return (op.name, conservative, n_types - 1, n_types, k1, k2, *types, id(a1), id(a2))
    return _identity_key_general(op, conservative)


def _identity_key_general(op: Operation, conservative: bool) -> tuple | None:
    """`_identity_key` of any op, its parts read one by one (`_identity_parts`)."""
    names, objs = _identity_parts(op)
    n_types = len(op.operands) + len(op.results)
    if any(type(a) is AliasRef for a in objs[n_types:]):
        return None
    return (op.name, conservative, len(op.operands), n_types, *names, *map(id, objs))


def _identity_parts(op: Operation) -> tuple[list[str], list[object]]:
    """The property and (non-sdy) attribute names of an op, and the objects `_identity_key` names
    by id: its operand and result types and those attributes (a `_RULES_BY_ID` entry holds them,
    so their ids stay theirs)."""
    objs: list[object] = [v.type for v in op.operands]
    objs += [r.type for r in op.results]
    names = list(op.properties)
    objs += op.properties.values()
    for k, a in op.attributes.items():
        if not k.startswith("sdy."):
            names.append(k)
            objs.append(a)
    return names, objs


# Rules that read nothing but the op's name, shapes and inherent attributes (not its operands'
# producers, regions or element types): ops of one kind, shapes and attributes share one rule
# (rules are frozen), built once. Keys spell attributes by their resolved text; one naming an
# alias inside (`#` past the start) is not cached, since an alias means something per module.
_SHAPE_AND_PROPERTY_RULES = frozenset({
    "stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.transpose", "stablehlo.dot_general",
    "stablehlo.dot", "stablehlo.reduce", "stablehlo.slice",
})  # fmt: skip
_RULES_SEEN: dict[tuple, OpShardingRule | None] = {}
# The same rules found first by the identity of the op's types and attribute objects (the
# parser and the passes share equal ones), nothing spelled: an entry holds those objects, so
# their ids stay theirs. Only rules `_RULES_SEEN` keeps are kept here.
_RULES_BY_ID: dict[tuple, tuple[OpShardingRule | None, list[object]]] = {}
# An attribute alias named inside an attribute's text: `#name` not opening a dialect attribute
# (`#stablehlo<precision DEFAULT>`, `#stablehlo.dot<...>` are not aliases).
_ALIAS = re.compile(r"#[\w$.-]+(?![\w$.<-])")


# Per type object, its static shape (types are immutable; the entry holds the type, so its id
# stays its own); dropped past _SHAPES_LIMIT entries.
_SHAPES_LIMIT = 50_000
_SHAPES: dict[int, tuple[object, tuple[int, ...] | None]] = {}


# Per operand count and operand and result type objects (by identity: the entry holds them, so
# their ids stay theirs), a pointwise op's rule: one lookup instead of reading each shape.
_POINTWISE_SEEN: dict[tuple[int, ...], tuple[OpShardingRule | None, list[object]]] = {}


def _shape_by_type(v: Value) -> tuple[int, ...] | None:
    """`shape_of(v)`, computed once per type object."""
    t = v.type
    hit = _SHAPES.get(id(t))
    if hit is None or hit[0] is not t:
        if len(_SHAPES) > _SHAPES_LIMIT:
            _SHAPES.clear()
        hit = _SHAPES[id(t)] = (t, shape_of(v))
    return hit[1]


# Per attribute object, its resolved text, or None when it names an alias (the parser shares
# equal attribute objects, so most ops' attributes are found here by identity; the entry holds
# the attribute, so its id stays its own); dropped past _SPELLED_LIMIT entries.
_SPELLED_LIMIT = 50_000
_SPELLED: dict[int, tuple[object, str | None]] = {}


def _rule_key(op: Operation, conservative: bool, shapes: tuple) -> tuple | None:
    spelled = []
    for attrs in (op.properties, op.attributes):
        for k, a in attrs.items():
            if k.startswith("sdy."):
                continue
            hit = _SPELLED.get(id(a))
            if hit is None or hit[0] is not a:
                text: str = a.resolve().text
                hit = (a, None if "#" in text[1:] and _ALIAS.search(text, 1) else text)
                if not isinstance(a, AliasRef):  # an alias's target may be redefined: read it each time
                    if len(_SPELLED) > _SPELLED_LIMIT:
                        _SPELLED.clear()
                    _SPELLED[id(a)] = hit
            if hit[1] is None:
                return None
            spelled.append((k, hit[1]))
    return (op.name, conservative, len(op.operands), shapes, tuple(spelled))


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
    return _pointwise_rule(tuple(static_shape(v) for v in op.operands), tuple(static_shape(r) for r in op.results))


@lru_cache(maxsize=4096)
def _pointwise_rule(operands: tuple[tuple[int, ...], ...], results: tuple[tuple[int, ...], ...]) -> OpShardingRule:
    """The pointwise rule of these shapes (rules are frozen: the ops of one shape share one)."""
    b = RuleBuilder(operands, results)
    b.add_pointwise(results[0] if results else operands[0])
    return b.build()


@register("stablehlo.all_reduce")
def _all_reduce(op: Operation, conservative: bool) -> OpShardingRule | None:
    """Pointwise when every operand has one shape; a variadic all_reduce of mixed shapes has no
    single factor space, so it gets no rule (propagation treats it as opaque)."""
    shapes = {shape_of(v) for v in (*op.operands, *op.results)}
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
    outs = static_shape(op.results[0])
    ins = [static_shape(v) for v in op.operands]
    explicit = int_list(op, "broadcast_dimensions")
    maps = []
    for shape in ins:
        if explicit and len(shape) < len(outs) and len(explicit) == len(shape):
            maps.append({o: i for i, o in enumerate(explicit)})
        else:
            maps.append({len(outs) - len(shape) + i: i for i in range(len(shape))})
    b = builder(op)
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
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    b = builder(op)
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
    b = builder(op)
    b.add_pointwise(static_shape(op.operands[1]))
    return b.build()


@register("stablehlo.bitcast_convert")
def _bitcast_convert(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise, plus a need-replication factor for the extra minor dim of the wider side."""
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    b = builder(op)
    common = min(len(ins), len(outs))
    for d in range(common):
        b.add_factor([d], [d], ins[d])
    if len(ins) > common:
        b.add_factor([common], [-1], ins[common], N)
    elif len(outs) > common:
        b.add_factor([-1], [common], outs[common], N)
    return b.build()


# ---- shape-changing ops ----------------------------------------------------------------------
@register("stablehlo.broadcast_in_dim")
def _broadcast_in_dim(op: Operation, conservative: bool) -> OpShardingRule:
    """One factor per output dim, shared with the mapped input dim unless that one has size 1 and
    the output dim does not (then the input dim gets its own size-1 factor, just before)."""
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    dims = int_list(op, "broadcast_dimensions")
    from_out = {o: i for i, o in enumerate(dims)}
    b = builder(op)
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
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    if 0 in ins or prod(ins) != prod(outs):
        return None
    b = builder(op)
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
    outs = static_shape(op.results[0])
    perm = int_list(op, "permutation")
    b = builder(op)
    for d, n in enumerate(outs):
        b.add_factor([perm[d]], [d], n)
    return b.build()


@register("stablehlo.dot_general", "stablehlo.dot")
def _dot_general(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch (P), lhs free (P), rhs free (P), contracting (R) — `([i, k], [k, j])->([i, j]) reduction={k}`."""
    ls, rs = static_shape(op.operands[0]), static_shape(op.operands[1])
    if op.name == "stablehlo.dot":
        lb: Sequence[int] = ()
        rb: Sequence[int] = ()
        lc: Sequence[int] = (len(ls) - 1,)
        rc: Sequence[int] = (0,)
    else:
        d: DotDimensionNumbers = props(op).dot_dimension_numbers
        lb, rb, lc, rc = d.lhs_batching_dimensions, d.rhs_batching_dimensions, d.lhs_contracting_dimensions, d.rhs_contracting_dimensions
    b = builder(op)
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
    ins = static_shape(op.operands[0])
    reduced = set(int_list(op, "dimensions"))
    b = builder(op)
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
    cat = int_attr(op, "dimension")
    outs = static_shape(op.results[0])
    sliced = [isinstance(v, OpResult) and v.owner.name == "stablehlo.slice" for v in op.operands]
    same = {id(_sliced_from(v)) for v in op.operands}
    kind = M if all(sliced) or (len(same) == 1 and any(sliced)) else N
    b = builder(op)
    for d, n in enumerate(outs):
        if d == cat:
            if not conservative:
                b.add_factor_all(d, n, kind)
        else:
            b.add_factor_all(d, n)
    return b.build()


def _changed_dims_rule(op: Operation, conservative: bool, changed: set[int], shape: tuple[int, ...]) -> OpShardingRule:
    b = builder(op)
    b.add_pointwise(shape, lambda d: (M, conservative) if d in changed else (P, False))
    return b.build()


@register("stablehlo.slice")
def _slice(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise; dims whose size changes are permutation (and blocked when conservative)."""
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    return _changed_dims_rule(op, conservative, {d for d in range(len(ins)) if ins[d] != outs[d]}, ins)


@register("stablehlo.pad")
def _pad(op: Operation, conservative: bool) -> OpShardingRule:
    """Like slice: padded dims are permutation (blocked when conservative)."""
    ins = static_shape(op.operands[0])
    lo, hi, mid = int_list(op, "edge_padding_low"), int_list(op, "edge_padding_high"), int_list(op, "interior_padding")
    changed = {d for d in range(len(ins)) if (lo and lo[d]) or (hi and hi[d]) or (mid and mid[d])}
    return _changed_dims_rule(op, conservative, changed, ins)


@register("stablehlo.reverse")
def _reverse(op: Operation, conservative: bool) -> OpShardingRule:
    """Reversed dims are permutation, the others pass-through (never blocked)."""
    ins = static_shape(op.operands[0])
    rev = set(int_list(op, "dimensions"))
    b = builder(op)
    b.add_pointwise(ins, lambda d: (M, False) if d in rev else (P, False))
    return b.build()


@register("stablehlo.reduce_window")
def _reduce_window(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise over the result; windowed/strided/padded dims are permutation (blocked when conservative)."""
    ins = static_shape(op.results[0])
    win = int_list(op, "window_dimensions")
    strides = int_list(op, "window_strides")
    pad = int_list(op, "padding")
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
    outs, src = static_shape(op.results[0]), static_shape(op.operands[1])
    win = int_list(op, "window_dimensions")
    strides = int_list(op, "window_strides")
    pad = int_list(op, "padding")
    b = builder(op)
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
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    changed = {d for d in range(len(ins)) if ins[d] != outs[d]}
    b = builder(op)
    b.add_pointwise(ins, lambda d: (N, True) if d in changed else (P, False))
    return b.build()


def _is_constant(v: Value) -> bool:
    return isinstance(v, OpResult) and v.owner.name in ("stablehlo.constant", "sdy.constant", "chlo.constant", "arith.constant")


@register("stablehlo.dynamic_update_slice")
def _dynamic_update_slice(op: Operation, conservative: bool) -> OpShardingRule:
    """Equal dims are shared P factors; otherwise an operand/result P factor plus an update
    factor, N unless every start index is a constant (then each device knows its local offsets)."""
    ins, upd = static_shape(op.operands[0]), static_shape(op.operands[1])
    b = builder(op)
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
    ins = static_shape(op.operands[0])
    dim = int_attr(op, "dimension")
    dim = dim + len(ins) if dim < 0 else dim
    only = all(n == 1 for d, n in enumerate(ins) if d != dim)
    b = builder(op)
    b.add_pointwise(ins, lambda d: (N, only) if d == dim else (P, False))
    return b.build()


@register("stablehlo.batch_norm_inference")
def _batch_norm_inference(op: Operation, conservative: bool) -> OpShardingRule:
    """Pointwise over the operand; the feature dim is shared with the four 1-D statistics."""
    ins = static_shape(op.operands[0])
    feature = int_attr(op, "feature_index")
    b = builder(op)
    for d, n in enumerate(ins):
        b.add_factor([d] + [0 if d == feature else -1] * (len(op.operands) - 1), [d], n)
    return b.build()


@register("stablehlo.triangular_solve")
def _triangular_solve(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch dims P; `op(a) @ x = b` (left side) or `x @ op(a) = b`: the non-contracting dims of
    a and of the result and the contracting dim all need replication."""
    a, rhs = static_shape(op.operands[0]), static_shape(op.operands[1])
    d1, d2 = len(a) - 2, len(a) - 1
    transpose = op.get_attr("transpose_a")
    transposed = str(getattr(transpose, "body", "") or "").split()[-1:] in (["TRANSPOSE"], ["ADJOINT"])
    b = builder(op)
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
    ins, outs = static_shape(op.operands[0]), static_shape(op.results[0])
    k = len(int_list(op, "fft_length"))
    b = builder(op)
    for d, n in enumerate(ins):
        if d >= len(ins) - k:
            b.add_factor([d], [d], n, N, blocked=ins[d] != outs[d])
        else:
            b.add_factor([d], [d], n)
    return b.build()


@register("stablehlo.cholesky")
def _cholesky(op: Operation, conservative: bool) -> OpShardingRule:
    """Batch dims P, the two matrix dims need replication."""
    ins = static_shape(op.operands[0])
    b = builder(op)
    b.add_pointwise(ins, lambda d: (N, False) if d >= len(ins) - 2 else (P, False))
    return b.build()


@register("stablehlo.rng_bit_generator")
def _rng_bit_generator(op: Operation, conservative: bool) -> OpShardingRule:
    """The state is need-replication and blocked; the output has its own pass-through factors."""
    st, out = static_shape(op.operands[0]), static_shape(op.results[1])
    b = builder(op)
    for d, n in enumerate(st):
        b.add_factor([d], [d, -1], n, N, blocked=True)
    for d, n in enumerate(out):
        b.add_factor([-1], [-1, d], n)
    return b.build()


# The other rule families register themselves on import (after everything above is defined).
from ttopt.sharding import rules_collectives, rules_custom_call, rules_gather_conv  # noqa: E402, F401
from ttopt.sharding.rules_custom_call import custom_call_is_known, custom_call_target  # noqa: E402, F401
