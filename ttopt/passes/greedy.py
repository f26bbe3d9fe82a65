"""The greedy pattern driver: a pattern set applied to a module until nothing fires (MLIR's
applyPatternsGreedily), shared by `canonicalize` and the passes that are pattern sets of their own.

The driver tries only the patterns of each op's name and revisits the ops a rewrite touched
(worklist), so the cost stays proportional to what changes. Ops are visited in pre-order, each
rewrite's touched ops right after it. A pure op none of whose results is used goes first, as
MLIR's driver erases trivially dead ops before it tries patterns (`dead_op_pattern`, which a set
lists first).

Unlike MLIR's driver, constants a fold creates are built where the folded op stood, not hoisted
to the top of the function and merged with equal ones (`cse` merges them).
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import TYPE_CHECKING, Callable

from ttopt.ir.edit_journal import untrack_op
from ttopt.ir.opdef import OP_DEFS, PURE
from ttopt.ir.operation import Operation
from ttopt.ir.values import OpResult
from ttopt.passes.patterns import Pattern, PatternSet

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block

Erase = Callable[[Operation], None]

DEAD_OP = "erase-dead-pure-op"


class Graveyard:
    """Ops erased during one run, taken out of their blocks together.

    Removing ops one at a time is a scan of the block each (quadratic when most of a block
    dies); an op erased here is detached at once (no operands, no parent, so the driver and the
    use lists no longer see it) and stays in its block's list until `flush` rebuilds each
    block's list once, without the ops that have no parent (in a block's list, only those
    erased here: every other removal takes the op out of the list at once).
    """

    def __init__(self) -> None:
        self.blocks: dict[int, Block] = {}

    def erase(self, op: Operation) -> None:
        """`op.erase()`, the block's list updated at the next `flush`."""
        block = op.parent
        if block is None:
            op.erase()
            return
        for r in op.results:
            if r.uses and any(not op.is_ancestor_of(u) for u in r.uses):
                raise ValueError(f"erasing {op.name} whose result #{r.index} still has uses")
        untrack_op(op)  # out of its block (the list rebuilt at `flush` reports that): its own writes need no report
        op.drop_all_references()
        op.parent = None
        self.blocks[id(block)] = block

    def flush(self, within: Operation | None = None) -> None:
        """Drop the erased ops from their blocks' lists (only the blocks nested in `within`, if given)."""
        for key, block in list(self.blocks.items()):
            owner = block.parent.parent if block.parent is not None else None
            if within is not None and (owner is None or not within.is_ancestor_of(owner)):
                continue
            block.ops = [o for o in block.ops if o.parent is not None]
            del self.blocks[key]


def erase_dead_pure_op(op: Operation, erase: Erase = Operation.erase) -> list[Operation] | None:
    """A side-effect-free op none of whose results is used is removed."""
    d = op._opdef  # `op.opdef` without the property call once known: this runs on every op
    if d is False:
        d = op.opdef
    if d is None or PURE not in d.traits or not op.results:
        return None
    for r in op.results:  # a loop, not any() over a generator: this runs once per op of the module
        if r.uses:
            return None
    producers = [v.op for v in op.operands if isinstance(v, OpResult)]
    erase(op)
    return producers


def dead_op_pattern(erase: Erase = Operation.erase) -> Pattern:
    """`erase-dead-pure-op`, its erasures going through `erase` (a `Graveyard`'s, in a driver run)."""
    return Pattern(DEAD_OP, partial(erase_dead_pure_op, erase=erase))


def _split(name: str, pats: tuple[Pattern, ...]) -> tuple[tuple[Pattern, ...], tuple[Pattern, ...], bool]:
    """The patterns of ops called `name` as the driver tries them: erase-dead-pure-op when it comes
    first and the ops are pure (it fires exactly when none of the op's results is used, so the
    driver tests that itself; for impure ops it never fires and is dropped), the others, and
    whether one of them reads the op's bodies."""
    dead: tuple[Pattern, ...] = ()
    rest = pats
    if pats and pats[0].name == DEAD_OP:
        d = OP_DEFS.get(name)
        dead = pats[:1] if d is not None and PURE in d.traits else ()
        rest = pats[1:]
    return dead, rest, any(p.reads_bodies for p in pats)


def apply_greedily(module: Module, patterns: Callable[[Erase], PatternSet], max_iterations: int) -> Counter[str]:
    """Apply the set `patterns(erase)` builds to a fixed point, at most `max_iterations` rewrites;
    how often each pattern fired. Its patterns erase through `erase` (one `Graveyard` per run)."""
    return apply_greedily_in(module.op, patterns, max_iterations)


def apply_greedily_in(root: Operation, patterns: Callable[[Erase], PatternSet], max_iterations: int) -> Counter[str]:
    """`apply_greedily` on the ops nested in `root` (and `root` itself) only."""
    fired: Counter[str] = Counter()
    work = root.walk_list()
    # Popped from the end: ops in pre-order, each rewrite's touched ops right after it.
    work.reverse()
    budget = max_iterations
    graveyard = Graveyard()
    for_op = patterns(graveyard.erase).for_op
    # The patterns of each op name, looked up here first: one dict probe per op visited
    # instead of a method call (a module's ops are of a few dozen names), split as `_split`
    # says (most ops are pure ones still used, or impure ones with no other pattern).
    by_name: dict[str, tuple[tuple[Pattern, ...], tuple[Pattern, ...], bool]] = {}
    get = by_name.get
    pop = work.pop
    push = work.append
    while work and budget > 0:
        op = pop()
        # An erased op has no parent (nor do the ops it touched that a later rewrite erased;
        # no pattern puts an erased op back in a block).
        if op.parent is None:
            continue
        entry = get(op.name)
        if entry is None:
            entry = by_name[op.name] = _split(op.name, for_op(op.name))
        dead, pats, reads_bodies = entry
        if dead and op.results:
            for r in op.results:
                if r.uses:
                    break
            else:
                pats = dead
        if not pats:
            continue
        if reads_bodies and graveyard.blocks:
            graveyard.flush(within=op)
        for p in pats:
            touched = p.rewrite(op)
            if touched is not None:
                budget -= 1
                fired[p.name] += 1
                for t in touched:
                    if t.parent is not None:
                        push(t)
                break
    graveyard.flush()
    return fired
