"""`ttir-consolidate-static-cache-updates`: per-layer cache-position arguments that every decode step
advances alike become one (tt-mlir's TTIRConsolidateStaticCacheUpdates; the backend pipeline runs
it after `ttir-fold-full-to-scalar`, followed by a `cse`).

A program traced from a model with a static KV cache (Transformers' StaticCache) takes one
`cumulative_length` argument per layer and returns each advanced by the tokens it decoded, as
`add(arg, full(delta))`. The layers run in lockstep, so every such argument holds the same value
on entry; the pass routes the uses of all but one of them to that one, and the `cse` that follows
merges the now equal adds (and the repeats, reshapes, ... that read them) into one.

An argument of the function's entry block qualifies when it reaches the `update_index` operand of
a `ttir.update_cache` or `ttir.paged_update_cache` in the function through `ttir.mesh_shard`,
`broadcast`, `repeat`, `reshape` and `typecast` (their first operand) and either side of
`ttir.add`: that grounds the lockstep invariant in a cache the argument indexes, so two unrelated
counters are never merged. A return operand is a write-back when it is `add(a, d)` or
`add(d, a)` (the argument side possibly a `ttir.mesh_shard` of the argument, the whole possibly
wrapped in one `ttir.mesh_shard`), the add and that outer mesh_shard each used once (the add by
the mesh_shard or the return; the inner mesh_shard may have other readers), `a` a qualifying
argument of the add's result type (no broadcasting) and `d` a `ttir.full` of integer fill value. Write-backs group by (fill value, argument type); in each group
of two or more, every argument but the last one's has all its uses replaced by the last one.
The arguments stay in the signature; nothing is erased.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, NamedTuple

from ttopt.ir.attributes import BoolAttr, IntegerAttr
from ttopt.ir.types import ScalarType
from ttopt.ir.values import BlockArgument, OpResult
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation
    from ttopt.ir.types import Type
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

# Update-style cache ops -> the position of their `update_index` operand (HEAD's getCacheUpdateIndex).
UPDATE_INDEX = {"ttir.update_cache": 2, "ttir.paged_update_cache": 2}
# Ops the update index is traced back through, by their first operand (`ttir.add`: both sides).
LOOK_THROUGH = frozenset({"ttir.mesh_shard", "ttir.broadcast", "ttir.repeat", "ttir.reshape", "ttir.typecast"})


class WriteBack(NamedTuple):
    """A returned `add(arg, full(delta))`: the argument it advances and the delta's fill value."""

    arg: BlockArgument
    delta: int


def _defined_by(v: Value, name: str) -> Operation | None:
    """The op defining `v` when it is a `name` op."""
    return v.op if isinstance(v, OpResult) and v.op.name == name else None


def _int_fill(v: Value) -> int | None:
    """The fill value of a `ttir.full` defining `v` when it is an integer, as MLIR's
    IntegerAttr::getInt reads it (sign-extended from its type's width; `true` is -1)."""
    full = _defined_by(v, "ttir.full")
    fill = full.get_attr("fill_value") if full is not None else None
    fill = fill.resolve() if fill is not None else None
    if isinstance(fill, BoolAttr):
        return -int(fill.value)
    if not isinstance(fill, IntegerAttr):
        return None
    t = fill.type.resolve() if fill.type is not None else None
    width = t.bitwidth if isinstance(t, ScalarType) and t.bitwidth > 0 else 64
    bits = fill.value & ((1 << width) - 1)
    return bits - (1 << width) if bits >> (width - 1) else bits


def _args_feeding(start: Value, entry: Block) -> Iterator[BlockArgument]:
    """The entry-block arguments `start` is computed from through LOOK_THROUGH ops and adds
    (HEAD's collectArgsFeedingValue); any other op ends the trace."""
    stack, seen = [start], set()
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, BlockArgument):
            if v.block is entry:
                yield v
        elif isinstance(v, OpResult):
            op = v.op
            if op.name in LOOK_THROUGH and op.operands:
                stack.append(op.operands[0])
            elif op.name == "ttir.add" and len(op.operands) >= 2:
                stack += op.operands[:2]


def cumulative_length_args(func: Operation) -> set[int]:
    """Ids of the entry-block arguments that feed the update index of an update-style cache op of
    `func` (its nested regions included)."""
    entry = func.regions[0].blocks[0]
    found: set[int] = set()
    for op in func.walk_list():
        at = UPDATE_INDEX.get(op.name)
        if at is not None and len(op.operands) > at:
            found.update(id(a) for a in _args_feeding(op.operands[at], entry))
    return found


def _write_back(ret: Value, entry: Block, qualifying: set[int]) -> WriteBack | None:
    """`ret` as `[mesh_shard(] add(arg-or-mesh_shard(arg), full(delta)) [)]`, the add either way round."""
    outer = _defined_by(ret, "ttir.mesh_shard")
    if outer is not None:
        if not ret.has_one_use or not outer.operands:
            return None
        ret = outer.operands[0]
    add = _defined_by(ret, "ttir.add")
    if add is None or not ret.has_one_use or len(add.operands) < 2:
        return None
    for side, other in ((add.operands[0], add.operands[1]), (add.operands[1], add.operands[0])):
        inner = _defined_by(side, "ttir.mesh_shard")
        arg = (inner.operands[0] if inner.operands else None) if inner is not None else side
        if not isinstance(arg, BlockArgument) or arg.block is not entry or id(arg) not in qualifying:
            continue
        delta = _int_fill(other)
        if delta is not None and arg.type == ret.type:
            return WriteBack(arg, delta)
    return None


def consolidate(func: Operation) -> int:
    """Unify the write-back arguments of `func` per (delta, type) group; how many were replaced."""
    region = func.regions[0] if func.regions else None
    if region is None or not region.blocks:
        return 0
    ret = region.blocks[-1].terminator
    if ret is None or ret.name != "func.return":
        return 0
    qualifying = cumulative_length_args(func)
    if not qualifying:
        return 0
    entry = region.blocks[0]
    groups: dict[tuple[int, Type], list[BlockArgument]] = {}  # in order of first write-back, as HEAD's
    for v in ret.operands:
        wb = _write_back(v, entry, qualifying)
        if wb is not None:
            groups.setdefault((wb.delta, wb.arg.type), []).append(wb.arg)
    replaced = 0
    for args in groups.values():
        canonical = args[-1]
        for arg in args[:-1]:
            if arg is not canonical:
                arg.replace_all_uses_with(canonical)
                replaced += 1
    return replaced


@register_pass
@dataclass
class TTIRConsolidateStaticCacheUpdates(Pass):
    """Route the uses of per-layer cache-position arguments advanced alike to one of them (tt-mlir's TTIRConsolidateStaticCacheUpdates)."""

    name = "ttir-consolidate-static-cache-updates"
    summary = "Entry arguments feeding a cache op's update_index and returned as add(arg, full(delta)) with one delta and type: every use goes to the last of them (a cse then merges the adds)"

    def run(self, module: Module, ctx: PassContext) -> None:
        # Every function, nested modules' included, as HEAD's walk over func::FuncOp.
        replaced = sum(consolidate(op) for op in module.op.walk_list() if op.name == "func.func")
        ctx.stats.setdefault(self.name, {}).update(replaced=replaced)
        if ctx.trace.enabled and replaced:
            ctx.trace.print(f"[bold]{self.name}[/bold]: {replaced} argument(s) routed to a canonical one")
