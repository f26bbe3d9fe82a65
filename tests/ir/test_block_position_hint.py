"""Block.index and Block.remove stay exact whatever was done to the block since the last lookup:
the remembered position is only a guess, checked by identity."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.ir.operation import Block, Operation


def _block(n: int) -> tuple[Block, list[Operation]]:
    block = Block()
    ops = [Operation(f"test.op{i}") for i in range(n)]
    for op in ops:
        block.append(op)
    return block, ops


def test_index_after_inserting_in_front_of_an_anchor() -> None:
    block, ops = _block(5)
    anchor = ops[3]
    for k in range(3):
        block.insert(block.index(anchor), Operation(f"test.new{k}"))
    assert block.index(anchor) == 6
    assert [o.name for o in block.ops] == ["test.op0", "test.op1", "test.op2", "test.new0", "test.new1", "test.new2", "test.op3", "test.op4"]


def test_index_after_the_list_is_replaced_directly() -> None:
    block, ops = _block(6)
    assert block.index(ops[4]) == 4
    block.ops = list(reversed(block.ops))  # passes rebuild `ops` without the block's methods
    assert block.index(ops[4]) == 1
    assert block.index(ops[0]) == 5


def test_remove_and_missing_op() -> None:
    block, ops = _block(4)
    block.remove(ops[2])
    assert ops[2].parent is None
    assert block.ops == [ops[0], ops[1], ops[3]]
    with pytest.raises(ValueError, match="not in this block"):
        block.index(ops[2])
    with pytest.raises(ValueError):
        block.remove(ops[2])


@given(st.lists(st.tuples(st.sampled_from(["index", "remove", "insert", "shuffle"]), st.integers(0, 50)), max_size=40))
def test_every_lookup_matches_a_scan(steps: list[tuple[str, int]]) -> None:
    block, _ = _block(12)
    fresh = 0
    for what, n in steps:
        ops = list(block.ops)
        if what == "shuffle" and ops:
            block.ops = ops[n % len(ops):] + ops[: n % len(ops)]
        elif what == "insert":
            block.insert(n % (len(ops) + 1), Operation(f"test.fresh{fresh}"))
            fresh += 1
        elif ops:
            op = ops[n % len(ops)]
            expected = ops.index(op)
            if what == "index":
                assert block.index(op) == expected
            else:
                block.remove(op)
                assert block.ops == ops[:expected] + ops[expected + 1 :]
