"""BlockCursor edits land where rewriter's would, whatever position its hint holds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_deferred_edits_land_where_immediate_ones_do() -> None:
    # Ops put before and after ops of the block and after ops put there, then written out once.
    mine, ref = block_of(5), block_of(5)
    cursor = BlockCursor()
    cursor.defer(mine)
    pairs = list(zip(mine.ops, ref.ops))
    steps = [(1, "before"), (1, "after"), (1, "before"), (5, "after"), (6, "after"), (1, "after"), (3, "after"),
             (0, "before"), (9, "before"), (4, "after")]  # fmt: skip
    for k, (anchor, how) in enumerate(steps):
        a, b = pairs[anchor]
        new_a, new_b = Operation(f"test.new{k}"), Operation(f"test.new{k}")
        (cursor.insert_before if how == "before" else cursor.insert_after)(a, new_a)
        (rewriter.insert_before if how == "before" else rewriter.insert_after)(b, new_b)
        pairs.append((new_a, new_b))
    assert names(mine) == [f"test.op{i}" for i in range(5)]  # nothing written yet
    cursor.finish(mine)
    assert names(mine) == names(ref)
    assert all(op.parent is mine for op in mine.ops)


@settings(max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["before", "after", "index", "pause"])), max_size=30))
def test_deferred_edits_match_the_rewriter_whatever_the_order(steps: list[tuple[int, str]]) -> None:
    """Any anchors (ops of the block or ops put there, in any order), with lookups and pauses
    (write out, defer again) between the edits: the block ends as immediate edits leave it."""
    mine, ref = block_of(6), block_of(6)
    cursor = BlockCursor()
    cursor.defer(mine)
    pairs = list(zip(mine.ops, ref.ops))
    for k, (pick, how) in enumerate(steps):
        a, b = pairs[pick % len(pairs)]
        if how == "index":
            assert cursor.index(a) == ref.index(b)
            cursor.defer(mine)
            continue
        if how == "pause":
            cursor.materialize(mine)
            assert names(mine) == names(ref)
            cursor.defer(mine)
            continue
        new_a, new_b = Operation(f"test.new{k}"), Operation(f"test.new{k}")
        (cursor.insert_before if how == "before" else cursor.insert_after)(a, new_a)
        (rewriter.insert_before if how == "before" else rewriter.insert_after)(b, new_b)
        pairs.append((new_a, new_b))
    cursor.finish(mine)
    assert names(mine) == names(ref)
