"""Inserting and erasing ops near where a pass is working in a block, without scanning the block.

`rewriter.insert_before` finds its anchor with a scan from the block's start: a pass that walks
a block of n ops and edits next to each one pays n^2 / 2 comparisons (about a second on a
10k-op function). A pass that walks a block in order and edits around the op it is at
(explicit reshards) goes through a `BlockCursor` instead: it remembers, per
block, the position of the last op it found and looks for the next anchor from there, so each
edit costs the distance from the previous one. An op the hint misses is still found (a full
scan), so the cursor only changes the cost, never where an op goes.

A walk that visits a block's ops in order can also *defer* its edits there (`defer`): an op put
next to the op the walk is at (or next to an op put there) is only recorded, and the block's op
list is rebuilt once, when the walk leaves the block (`finish`): inserting into a Python list
moves every op after the position, so n inserts in a block of n ops cost n^2 / 2 moves. Any
other edit or position lookup in the block first writes out what was recorded (`materialize`)
and ends the deferral: the ops land exactly where immediate edits would have put them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ttopt.ir.operation import Block, Operation


class _Deferred:
    """A block's deferred edits: per op (by id) the ops put right before and right after it, and
    the ops of the block they were put next to (its op list is left as it is until written out)."""

    __slots__ = ("block", "roots", "before", "after", "placed", "anchors")

    def __init__(self, block: Block) -> None:
        self.block = block
        self.roots: list[Operation] = []  # ops of the block with ops put next to them, first put first
        self.placed: set[int] = set()  # ids of the ops put
        self.before: dict[int, list[Operation]] = {}  # in insertion order (each right before it)
        self.after: dict[int, list[Operation]] = {}  # in insertion order (each right after it)
        self.anchors: set[int] = set()  # ids of the ops put with ops put next to them

    def expand(self, op: Operation, into: list[Operation]) -> None:
        """Append `op` with the ops put before and after it (and around those) to `into`."""
        before = self.before.pop(id(op), None)
        anchors = self.anchors
        if before:
            for b in before:
                if id(b) in anchors:
                    self.expand(b, into)
                else:
                    into.append(b)
        into.append(op)
        after = self.after.pop(id(op), None)
        if after:
            for a in reversed(after):  # the last one put after `op` is right after it
                if id(a) in anchors:
                    self.expand(a, into)
                else:
                    into.append(a)


class BlockCursor:
    """Per-block hints of the last position used; inserts and erases at the op's true index."""

    def __init__(self) -> None:
        self._hint: dict[int, int] = {}
        self._deferred: dict[int, _Deferred] = {}

    # -- deferred edits -------------------------------------------------------------------------
    def defer(self, block: Block) -> None:
        """Record the edits next to `block`'s ops from here on instead of making them (until
        `materialize`, or any other lookup or edit in the block through the cursor)."""
        if id(block) not in self._deferred:
            self._deferred[id(block)] = _Deferred(block)

    def materialize(self, block: Block) -> None:
        """Write out `block`'s deferred edits (one rebuild of its op list) and end the deferral."""
        d = self._deferred.pop(id(block), None)
        if d is None or not d.roots:
            return
        ops = block.ops
        # The roots' positions, found from one to the next (a walk puts ops next to its ops in
        # block order); in any other order, from a table of every position.
        found: list[tuple[int, Operation]] = []
        prev = 0
        for root in d.roots:
            try:
                i = ops.index(root, prev)
            except ValueError:
                where = {id(o): k for k, o in enumerate(ops)}
                found = sorted(((where[id(r)], r) for r in d.roots), key=lambda p: p[0])
                break
            found.append((i, root))
            prev = i + 1
        out: list[Operation] = []
        prev = 0
        for i, root in found:
            out += ops[prev:i]
            d.expand(root, out)
            prev = i + 1
        out += ops[prev:]
        block.ops[:] = out
        self._hint[id(block)] = 0

    finish = materialize

    def _recorded(self, anchor: Operation) -> _Deferred | None:
        """The deferral that records edits next to `anchor` (an op of a deferring block or an op
        put there), if any."""
        block = anchor.parent
        return self._deferred.get(id(block)) if block is not None else None

    def _record(self, d: _Deferred, where: dict[int, list[Operation]], anchor: Operation, op: Operation) -> Operation:
        if op.parent is not None:
            op.parent.remove(op)
            if id(op) in d.before or id(op) in d.after:
                d.anchors.add(id(op))  # an op moved here keeps the ops put next to it
        op.parent = d.block
        key = id(anchor)
        put = where.get(key)
        if put is None:
            if key in d.placed:
                d.anchors.add(key)
            elif key not in d.before and key not in d.after:
                d.roots.append(anchor)
            put = where[key] = []
        put.append(op)
        d.placed.add(id(op))
        return op

    def index(self, op: Operation) -> int:
        """`op`'s position in its block (searched from the last position used in that block)."""
        block = _block_of(op)
        if self._deferred:
            self.materialize(block)
        ops = block.ops
        h = self._hint.get(id(block), 0)
        if h < len(ops) and ops[h] is op:
            return h
        try:
            i = ops.index(op, max(0, h - 1))
        except ValueError:
            i = block.index(op)
        self._hint[id(block)] = i
        return i

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        """Put `op` immediately before `anchor` (as `rewriter.insert_before`)."""
        d = self._recorded(anchor) if self._deferred else None
        if d is not None:
            return self._record(d, d.before, anchor, op)
        i = self.index(anchor)
        block = _block_of(anchor)
        block.insert(i, op)
        self._hint[id(block)] = i + 1  # the anchor's new position
        return op

    def insert_after(self, anchor: Operation, op: Operation) -> Operation:
        """Put `op` immediately after `anchor` (as `rewriter.insert_after`)."""
        d = self._recorded(anchor) if self._deferred else None
        if d is not None:
            return self._record(d, d.after, anchor, op)
        i = self.index(anchor)
        block = _block_of(anchor)
        block.insert(i + 1, op)
        self._hint[id(block)] = i + 1  # the new op's position
        return op

    def next_op(self, op: Operation) -> Operation:
        """The op right after `op` in its block."""
        return _block_of(op).ops[self.index(op) + 1]

    def erase(self, op: Operation) -> None:
        """`op.erase()`: its results must be unused outside it; it drops its operands and leaves its block."""
        for r in op.results:
            if any(not op.is_ancestor_of(u) for u in r.uses):
                raise ValueError(f"erasing {op.name} whose result #{r.index} still has uses")
        if op.parent is not None and self._deferred:
            self.materialize(op.parent)
        op.drop_all_references()
        if op.parent is not None:
            block = op.parent
            i = self.index(op)
            del block.ops[i]
            op.parent = None
            self._hint[id(block)] = i


def _block_of(op: Operation) -> Block:
    if op.parent is None:
        raise ValueError(f"{op.name} is not in a block")
    return op.parent
