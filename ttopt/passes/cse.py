"""`cse`: common subexpression elimination, as MLIR's pass for side-effect-free ops.

Two ops are the same expression when they have the same name, operands, result types, properties
and discardable attributes and neither has regions; the later one's results are replaced by the
earlier one's and it goes. An op's block and the blocks of regions nested in it (not across
functions or other symbol-isolated ops) see the expressions defined above them in that block, as
dominance gives in single-block regions. An op that writes its operands in place (one without
results, such as a cache update, or one of IN_PLACE_WRITERS) ends the expressions that read them:
the same read after the write is a new one. A cache op (CACHE_WRITERS) writes its cache operand
only (tt-mlir's `Arg<..., [MemWrite]>:$cache`): reads of its input and update index go on merging.
As MLIR's pass, it also erases side-effect-free ops whose results have no uses when it reaches them
(in block order, so an op used only by a later dead op stays).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttnn import IN_PLACE_WRITERS
from ttopt.ir.opdef import PURE
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation
    from ttopt.passes.context import PassContext

# The TTIR and TTNN cache ops: operand 0 (the cache) is the one they write.
CACHE_WRITERS = frozenset(f"{d}.{n}" for d in ("ttir", "ttnn") for n in ("update_cache", "paged_update_cache", "fill_cache", "paged_fill_cache"))

# Ops whose regions do not see values defined outside them.
ISOLATED = frozenset({"builtin.module", "func.func", "sdy.manual_computation", "ttcore.device_module", "ttcore.cpu_module"})


def _key(op: Operation, written: dict[int, int]) -> tuple[Any, ...] | None:
    d = op.opdef
    if op.regions or not op.results or d is None or not d.has(PURE):
        return None
    return (op.name, tuple((id(v), written.get(id(v), 0)) for v in op.operands), tuple(r.type.canonical() for r in op.results),
            tuple(sorted((k, v.canonical()) for k, v in op.properties.items())),
            tuple(sorted((k, v.canonical()) for k, v in op.attributes.items())))  # fmt: skip


def _trivially_dead(op: Operation) -> bool:
    d = op.opdef
    return bool(op.results) and not op.regions and d is not None and d.has(PURE) and all(not r.uses for r in op.results)


@register_pass
@dataclass
class CSE(Pass):
    """Eliminate duplicate side-effect-free ops (same name, operands, types and attributes)."""

    name = "cse"
    summary = "Common subexpression elimination of side-effect-free ops without regions"

    def run(self, module: Module, ctx: PassContext) -> None:
        removed = dead = 0

        # How often each value has been written in place so far: a read after a write is another
        # expression than the same read before it (a matmul of a KV cache before and after
        # `update_cache` writes it).
        written: dict[int, int] = {}

        def visit(block: Block, seen: dict[tuple[Any, ...], Operation]) -> None:
            nonlocal removed, dead
            scope = dict(seen)
            gone: list[Operation] = []  # taken out of the block in one pass at the end
            for op in list(block.ops):
                if _trivially_dead(op):
                    op.drop_all_references()
                    gone.append(op)
                    dead += 1
                    continue
                if not op.results or op.name in IN_PLACE_WRITERS:
                    for v in op.operands[:1] if op.name in CACHE_WRITERS else op.operands:
                        written[id(v)] = written.get(id(v), 0) + 1
                key = _key(op, written)
                if key is not None:
                    first = scope.get(key)
                    if first is not None:
                        for r, v in zip(op.results, first.results):
                            r.replace_all_uses_with(v)
                        op.drop_all_references()
                        gone.append(op)
                        removed += 1
                        continue
                    scope[key] = op
                inner = {} if op.name in ISOLATED else scope
                for region in op.regions:
                    for b in region.blocks:
                        visit(b, inner if len(region.blocks) == 1 else {})
            if gone:
                block.remove_many(gone)

        visit(module.body, {})
        ctx.stats.setdefault(self.name, {}).update(removed=removed, dead=dead)
