"""How `insert-explicit-reshards` reads an op: its operands' and results' sharding records
(`_read`, one `_AttrInfo` per attribute object) and its signature (`_signature`: what the rule
and the decision read of it, by content), so that an op like one before gets the same edits
without being read again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ttopt.ir.attributes import AliasRef
from ttopt.ir.values import OpResult
from ttopt.sharding.factors import _OWN_SHARDING, Sharding, get_sharding_attr, rank_of
from ttopt.sharding.reshard_state import (
    DATA_FLOW_EDGES,
    SEED_SKIPPED,
    _attr_of,
    _Ctx,
    _region_owner,
    _shape_number,
    _sharding_from,
    _sharding_number,
    reduction_kind,
)
from ttopt.sharding.rules import has_table_rule, rule_for, rule_is_pointwise, rule_reads_only_the_op


@dataclass
class _Seen:
    """An op's tensors as `_walk` reads them once: operands then results, each one's sharding
    attribute and region owner (`read`), and what the walk and `_process_op` test of them."""

    tensors: list[Any]
    read: list[tuple[Any, Any]] | None  # kept only without `parts`
    # Each tensor's type (by identity), then each one's sharding attribute (by value): with the
    # rule (by value), whether the op is a reshape and its combiner, all `_decide` depends on;
    # None when a tensor is a region argument or read through a barrier.
    parts: tuple | None
    unreduced_operand: bool  # an operand's sharding has unreduced axes
    off_distributed: bool  # a result's sharding is on a mesh that is not distributed
    # Per tensor its attribute's `_AttrInfo` (None: no sharding), kept with `parts` only.
    infos: list[_AttrInfo | None] | None = None
    facts: tuple | None = None  # the tensors' `_type_facts`, once the walk has them


class _AttrInfo:
    """What the walk finds once per distinct sharding attribute (equal attributes on a named mesh
    share one record) it reads as an op result's or function argument's sharding: `_decide`
    reads the numbers here instead of looking each up again per op."""

    __slots__ = ("attr", "cls", "unreduced", "distributed", "sharding", "shape_number", "sharding_number")

    def __init__(self, attr: Any, cls: Any, unreduced: bool, distributed: bool) -> None:
        self.attr = attr  # the first attribute of its class the walk read
        self.cls = cls  # equal attributes on a named mesh share it
        self.unreduced = unreduced
        self.distributed = distributed
        # The shared `Sharding` and its `_shape_number` and `_sharding_number`, on first use
        # (most attributes the walk reads belong to ops it leaves alone).
        self.sharding: Sharding | None = None
        self.shape_number = 0
        self.sharding_number = 0

    def read(self, ctx: _Ctx) -> Sharding:
        """The attribute's shared `Sharding` (as `_sharding_from` reads it), numbering it once."""
        sh = self.sharding
        if sh is None:
            sh = _sharding_from(self.attr, None, ctx, True)
            assert sh is not None
            self.shape_number = _shape_number(sh, ctx)
            self.sharding_number = _sharding_number(sh, ctx)
            self.sharding = sh
        return sh


def _numel(v: Any) -> int:
    n = 1
    for d in getattr(v.type.resolve(), "shape", ()) or ():
        n *= d or 0
    return n


def _type_facts(tensors: list[Any], ctx: _Ctx) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The tensors' element counts and ranks (`rank_of`), computed once per type object."""
    numels = []
    ranks = []
    table = ctx.type_info
    for v in tensors:
        t = v.type
        hit = table.get(id(t))
        if hit is None or hit[0] is not t:
            hit = table[id(t)] = (t, _numel(v), rank_of(v))
        numels.append(hit[1])
        ranks.append(hit[2])
    return tuple(numels), tuple(ranks)


def _read(op: Any, c: _Ctx) -> _Seen:
    """`_Seen` of `op`: each attribute's record found once per attribute object, and an op's
    per-value attribute's records (with what the walk tests of them) once per such attribute."""
    operands = op.operands
    found: list[_AttrInfo | None] = []
    keep = found.append
    plain = True  # every sharding is read from its own attribute (no region argument or barrier)
    unreduced = False
    for v in operands:
        if isinstance(v, OpResult):
            d = v.op
            if d.name.startswith("sdy."):  # sdy ops keep shardings in properties
                info = _attr_info(get_sharding_attr(v), c)
                if d.name == "sdy.propagation_barrier":
                    plain = False
            else:
                info = _value_info(d.attributes.get("sdy.sharding"), v.index, c)
        else:
            owner = _region_owner(v)
            info = _attr_info(_attr_of(v, owner), c)
            if owner is not None:
                plain = False
        keep(info)
        if info is not None and info.unreduced:
            unreduced = True
    off = _read_results(op, c, found)
    if op.name == "sdy.propagation_barrier":
        plain = False
    return _seen(op, found, plain, unreduced, off)


def _read_signed(op: Any, c: _Ctx, operand_infos: list[_AttrInfo | None]) -> _Seen:
    """`_read` of an op `_signature` signed, from the operands' records it found (a list of its own)."""
    found = operand_infos
    unreduced = False
    for i in found:
        if i is not None and i.unreduced:
            unreduced = True
            break
    off = _read_results(op, c, found)
    return _seen(op, found, op.name != "sdy.propagation_barrier", unreduced, off, signed=True)


def _read_results(op: Any, c: _Ctx, found: list[_AttrInfo | None]) -> bool:
    """Append the records of `op`'s results' shardings to `found`; whether one is on a mesh
    that is not distributed."""
    results = op.results
    off = False
    if not results:
        return off
    keep = found.append
    if op.name.startswith("sdy."):
        for r in results:
            info = _attr_info(get_sharding_attr(r), c)
            keep(info)
            if info is not None and not info.distributed:
                off = True
        return off
    pv = op.attributes.get("sdy.sharding")
    if pv is None:
        found += [None] * len(results)
        return off
    hit = c.per_values.get(id(pv)) or _per_value(pv, c)
    infos = hit[1]
    if len(infos) == len(results):
        found += infos
        return hit[2]
    for r in results:
        info = infos[r.index] if r.index < len(infos) else None
        keep(info)
        if info is not None and not info.distributed:
            off = True
    return off


def _seen(op: Any, found: list[_AttrInfo | None], plain: bool, unreduced: bool, off: bool, signed: bool = False) -> _Seen:
    """`signed`: the op has a signature, which says all `parts` would (they are left empty)."""
    tensors = [*op.operands, *op.results]
    if not plain:
        read = [(None if i is None else i.attr, None if isinstance(v, OpResult) else _region_owner(v)) for v, i in zip(tensors, found)]
        return _Seen(tensors, read, None, unreduced, off)
    parts = () if signed else (*[id(v.type) for v in tensors], *[None if i is None else i.cls for i in found])
    return _Seen(tensors, None, parts, unreduced, off, found)


def _value_info(pv: Any, index: int, c: _Ctx) -> _AttrInfo | None:
    """The record of result `index`'s sharding in its definer's per-value attribute `pv` (None
    without one): `get_sharding_attr` for an op's result, read once per attribute object."""
    if pv is None:
        return None
    infos = (c.per_values.get(id(pv)) or _per_value(pv, c))[1]
    return infos[index] if index < len(infos) else None


def _per_value(pv: Any, c: _Ctx) -> tuple:
    """The `per_values` entry of an op's `sdy.sharding` attribute: (it, its shardings' records,
    whether one is on a mesh that is not distributed, its class: equal contents share one)."""
    per = pv.resolve().typed
    infos = tuple(_attr_info(a, c) for a in (per.shardings if per is not None else ()))
    # The entry holds `pv`: its id stays its own.
    content = tuple(None if i is None else i.cls for i in infos)
    number = c.per_value_classes.setdefault(content, len(c.per_value_classes))
    hit = c.per_values[id(pv)] = (pv, infos, any(i is not None and not i.distributed for i in infos), number)
    return hit


def _attr_info(a: Any, c: _Ctx) -> _AttrInfo | None:
    """The record of sharding attribute `a` (None for no attribute), found once per attribute object."""
    if a is None:
        return None
    hit = c.attr_info.get(id(a))
    if hit is None:
        # One record per distinct attribute on a named mesh (equal ones share it, so that
        # `_signature` names a sharding by its record); one with an inline mesh is its own
        # (`_common_mesh` tells inline meshes apart by identity).
        info = c.attr_numbers.get(a) if isinstance(a.mesh, str) else None
        if info is None:
            cls = len(c.attr_numbers) if isinstance(a.mesh, str) else (id(a),)
            info = _AttrInfo(a, cls, bool(a.unreduced), a.mesh in c.distributed)
            if isinstance(a.mesh, str):
                c.attr_numbers[a] = info
        hit = c.attr_info[id(a)] = (a, info)  # the entry holds `a`: its id stays its own
    return hit[1]


def _signature(op: Any, c: _Ctx) -> tuple | None:
    """What `_read`, `rule_for` and `_decide` read of `op`, by content, as one flat tuple of two
    parts: what its rule reads (its name, its properties and attributes, each by its class: equal
    attributes share one, and its operand and result types; `c.rule_part` says how long it is)
    and its shardings (its own per-value attribute's class, each operand's sharding record: the
    one of the definer's per-value attribute's entry at its result number, of an sdy op's own
    sharding or of a function argument's attribute; equal attributes share one) with its
    reduction's combiner. Ops with equal signatures get the same edits. Types are named by
    identity: the entries that store a signature hold them. None for an op with an operand read
    through a barrier, a manual computation or a region argument (`_read`'s non-plain case), and
    for an op whose rule reads more than the op (`rule_reads_only_the_op`)."""
    name = op.name
    kind = c.signable.get(name, False)
    if kind is False:
        kind = c.signable[name] = _signature_kind(name)
    if kind is None:
        return None
    classes = c.attr_classes
    per_values = c.per_values
    operands = op.operands
    key: list[Any] = [kind, len(operands)]  # what the rule reads, then the shardings read
    own = None  # the class of the op's per-value attribute
    if kind[1]:
        for k, a in op.properties.items():
            hit = classes.get(id(a))
            key += (k, hit[1] if hit is not None else _attr_class(a, c))
    for k, a in op.attributes.items():
        if k == "sdy.sharding":
            key.append(k)
            own = (per_values.get(id(a)) or _per_value(a, c))[3]
            continue
        hit = classes.get(id(a))
        key += (k, hit[1] if hit is not None else _attr_class(a, c))
    found: list[_AttrInfo | None] = []
    for v in operands:
        key.append(id(v.type))
        d = getattr(v, "op", None)
        if d is None:
            arg = c.arg_attrs.get(id(v))
            if arg is None:  # the pass never writes a function's argument shardings: read once
                plain = _region_owner(v) is None
                arg = c.arg_attrs[id(v)] = (v, _attr_info(get_sharding_attr(v), c) if plain else None, plain)
            if not arg[2]:
                return None
            found.append(arg[1])
            continue
        dn = d.name
        if dn[:4] == "sdy.":
            if dn == "sdy.propagation_barrier" or dn == "sdy.manual_computation":
                return None
            prop = _OWN_SHARDING.get(dn)
            if prop is None:
                found.append(_attr_info(get_sharding_attr(v), c))
            else:  # the sdy op's own sharding property: its record found once per attribute object
                a = d.properties.get(prop)
                hit = c.own_infos.get(id(a))
                if hit is None or hit[0] is not a:
                    hit = c.own_infos[id(a)] = (a, _attr_info(get_sharding_attr(v), c))
                found.append(hit[1])
            continue
        # `_value_info`, inline: most operands are other ops' results.
        pv = d.attributes.get("sdy.sharding")
        if pv is None:
            found.append(None)
            continue
        try:
            found.append((per_values.get(id(pv)) or _per_value(pv, c))[1][v.index])
        except IndexError:  # a per-value attribute shorter than the definer's results
            found.append(None)
    for r in op.results:
        key.append(id(r.type))
    c.operand_infos = found
    c.rule_part = len(key)
    key.append(own)
    key += found
    if op.regions:
        key.append(reduction_kind(op))
    return tuple(key)


def _signed_rule(op: Any, c: _Ctx, sig: tuple) -> tuple[Any, tuple]:
    """`rule_for(op, False)` of an op `_signature` signed last and its tensors' `_type_facts`,
    found once per what the rule reads (the signature's first part: its name, properties,
    attributes and types)."""
    key = sig[: c.rule_part]
    hit = c.rules.get(key)
    if hit is None:
        # The entry holds the types whose ids are in its key.
        tensors = [*op.operands, *op.results]
        hit = c.rules[key] = (rule_for(op, False), _type_facts(tensors, c), [v.type for v in tensors])
    return hit[0], hit[1]


def _signature_kind(name: str) -> tuple[str, bool] | None:
    """What `_signature` names an op by, and whether it reads its properties: None when it has
    no signature (`rule_reads_only_the_op`); "pointwise" for the ops the walk treats alike
    whatever their name and properties (their rule reads the types alone, and the walk tests
    neither: ops of the family with equal types, attributes and shardings get the same edits; no
    op is named so, names have a dialect prefix); the name of an op without a table rule, without
    its properties (a constant's value, a call's callee: nothing the walk reads before it finds
    the rule missing, its own `sdy.sharding_rule` attribute aside; a call is processed, never
    signed); else the op's name with its properties."""
    if not rule_reads_only_the_op(name):
        return None
    if rule_is_pointwise(name) and name not in SEED_SKIPPED and name not in DATA_FLOW_EDGES and not name.startswith("sdy."):
        return ("pointwise", False)
    return (name, has_table_rule(name))


def _attr_class(a: Any, c: _Ctx) -> int:
    """The class of a property or attribute object: attributes of one kind and spelling share
    one (they are equal; an alias reference is its own: its target is read through the
    module); found once per object."""
    cls = ("alias", id(a)) if type(a) is AliasRef else (type(a), a.text)
    hit = c.attr_classes[id(a)] = (a, c.attr_class_numbers.setdefault(cls, len(c.attr_class_numbers)))
    return hit[1]
