"""Editing the IR: insert, replace, erase — keeping use lists and parent links consistent.

Single inserts and removals cost a C-level scan of the block (fine for a few hundred edits).
A pass that inserts thousands of ops into one block should build the new op order itself and
install it once with `rebuild_block` (the optimizer's schedule + reshards do exactly that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ttopt.ir.operation import Block, Operation

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.location import Location
    from ttopt.ir.types import Type
    from ttopt.ir.values import Value


def insert_before(anchor: Operation, op: Operation) -> Operation:
    """Put `op` immediately before `anchor` in anchor's block."""
    block = _block_of(anchor)
    block.insert(block.index(anchor), op)
    return op


def insert_after(anchor: Operation, op: Operation) -> Operation:
    """Put `op` immediately after `anchor` in anchor's block."""
    block = _block_of(anchor)
    block.insert(block.index(anchor) + 1, op)
    return op


def replace_all_uses(old: Value, new: Value, *, except_in: Operation | None = None) -> None:
    """Every use of `old` becomes a use of `new` (optionally not in `except_in`)."""
    old.replace_all_uses_with(new, except_in=except_in)


def replace_op(op: Operation, new_values: Sequence[Value]) -> None:
    """Replace each result of `op` with the matching value, then erase `op`."""
    if len(new_values) != len(op.results):
        raise ValueError(f"{op.name} has {len(op.results)} results, got {len(new_values)} replacements")
    for r, v in zip(op.results, new_values):
        r.replace_all_uses_with(v)
    op.erase()


def erase_op(op: Operation) -> None:
    """Remove an op whose results are unused."""
    op.erase()


def create(
    name: str,
    operands: Sequence[Value] = (),
    result_types: Sequence[Type] = (),
    properties: dict[str, Attribute] | None = None,
    attributes: dict[str, Attribute] | None = None,
    location: Location | None = None,
    *,
    before: Operation | None = None,
    after: Operation | None = None,
) -> Operation:
    """Build an op and (optionally) insert it before/after an anchor."""
    op = Operation(name, operands, result_types, properties, attributes, location=location)
    if before is not None:
        insert_before(before, op)
    elif after is not None:
        insert_after(after, op)
    return op


def move_before(op: Operation, anchor: Operation) -> None:
    """Detach `op` from its block and re-insert it before `anchor`."""
    if op.parent is not None:
        op.parent.remove(op)
    insert_before(anchor, op)


def move_after(op: Operation, anchor: Operation) -> None:
    """Detach `op` from its block and re-insert it after `anchor`."""
    if op.parent is not None:
        op.parent.remove(op)
    insert_after(anchor, op)


def reorder_block(block: Block, order: Sequence[Operation]) -> None:
    """Set the block's op order in one step (same ops, new order; e.g. a schedule)."""
    if len(order) != len(block.ops) or {id(o) for o in order} != {id(o) for o in block.ops}:
        raise ValueError("reorder_block needs a permutation of the block's ops")
    block.ops = list(order)


def rebuild_block(block: Block, ops: Sequence[Operation]) -> None:
    """Make `ops` the block's contents in one O(n) step: new ops are adopted; ops of the block
    that are not in `ops` are detached (the caller must have dropped their uses)."""
    keep = {id(o) for o in ops}
    for o in block.ops:
        if id(o) not in keep:
            o.parent = None
    for o in ops:
        if o.parent is not None and o.parent is not block:
            o.parent.remove(o)
        o.parent = block
    block.ops = list(ops)


def _block_of(op: Operation) -> Block:
    if op.parent is None:
        raise ValueError(f"{op.name} is not in a block")
    return op.parent
