"""BlockCursor edits land where rewriter's would, whatever position its hint holds."""

from __future__ import annotations

import pytest

from ttopt.ir import rewriter
from ttopt.ir.operation import Block, Operation
from ttopt.ir.types import ScalarType
from ttopt.sharding.block_cursor import BlockCursor


def block_of(n: int) -> Block:
    b = Block()
    for i in range(n):
        b.append(Operation(f"test.op{i}"))
    return b


def names(b: Block) -> list[str]:
    return [op.name for op in b.ops]


def test_inserts_and_erases_match_the_rewriter() -> None:
    mine, ref = block_of(6), block_of(6)
    cursor = BlockCursor()
    # Anchors far apart and out of order: the hint is wrong for most of them.
    for i in (3, 0, 5, 1, 4):
        cursor.insert_before(next(o for o in mine.ops if o.name == f"test.op{i}"), Operation(f"test.before{i}"))
        rewriter.insert_before(next(o for o in ref.ops if o.name == f"test.op{i}"), Operation(f"test.before{i}"))
        cursor.insert_after(next(o for o in mine.ops if o.name == f"test.op{i}"), Operation(f"test.after{i}"))
        rewriter.insert_after(next(o for o in ref.ops if o.name == f"test.op{i}"), Operation(f"test.after{i}"))
    assert names(mine) == names(ref)
    assert cursor.next_op(mine.ops[0]) is mine.ops[1]
    gone = next(o for o in mine.ops if o.name == "test.op2")
    cursor.erase(gone)
    next(o for o in ref.ops if o.name == "test.op2").erase()
    assert names(mine) == names(ref) and gone.parent is None


def test_erasing_a_used_op_is_refused() -> None:
    b = Block()
    producer = b.append(Operation("test.def", result_types=[ScalarType("i32")]))
    b.append(Operation("test.use", [producer.results[0]]))
    with pytest.raises(ValueError, match="still has uses"):
        BlockCursor().erase(producer)
    assert producer.parent is b
