"""Inserting and erasing ops near where a pass is working in a block, without scanning the block.

`rewriter.insert_before` finds its anchor with a scan from the block's start: a pass that walks
a block of n ops and edits next to each one pays n^2 / 2 comparisons (about a second on a
10k-op function). A pass that walks a block in order and edits around the op it is at
(explicit reshards) goes through a `BlockCursor` instead: it remembers, per
block, the position of the last op it found and looks for the next anchor from there, so each
edit costs the distance from the previous one. An op the hint misses is still found (a full
scan), so the cursor only changes the cost, never where an op goes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ttopt.ir.operation import Block, Operation


class BlockCursor:
    """Per-block hints of the last position used; inserts and erases at the op's true index."""

    def __init__(self) -> None:
        self._hint: dict[int, int] = {}

    def index(self, op: Operation) -> int:
        """`op`'s position in its block (searched from the last position used in that block)."""
        block = _block_of(op)
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
        i = self.index(anchor)
        block = _block_of(anchor)
        block.insert(i, op)
        self._hint[id(block)] = i + 1  # the anchor's new position
        return op

    def insert_after(self, anchor: Operation, op: Operation) -> Operation:
        """Put `op` immediately after `anchor` (as `rewriter.insert_after`)."""
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
