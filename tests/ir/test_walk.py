"""`Operation.walk` visits ops pre-order, reading op lists as lazily as a recursive walk does;
`walk_list` is its list."""

from __future__ import annotations

from typing import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.ir.operation import Block, Operation, Region

# A tree shape: per op, its regions; per region, its blocks; per block, its ops.
trees = st.recursive(
    st.just([]),
    lambda children: st.lists(st.lists(st.lists(children, max_size=3), max_size=2), max_size=2),
    max_leaves=40,
)


def build(regions: list, counter: list[int]) -> Operation:
    counter[0] += 1
    op = Operation(f"test.op{counter[0]}")
    for blocks in regions:
        region = Region()
        for ops in blocks:
            block = Block()
            for child in ops:
                block.append(build(child, counter))
            region.add_block(block)
        op.add_region(region)
    return op


def recursive(op: Operation) -> Iterator[Operation]:
    yield op
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from recursive(inner)


@settings(max_examples=60)
@given(trees)
def test_walk_is_the_recursive_preorder(tree: list) -> None:
    root = build(tree, [0])
    assert [o.name for o in root.walk()] == [o.name for o in recursive(root)]


@settings(max_examples=60)
@given(trees)
def test_walk_list_is_the_walk(tree: list) -> None:
    root = build(tree, [0])
    assert root.walk_list() == list(root.walk())


def test_an_op_appended_to_the_block_being_walked_is_visited() -> None:
    root = build([[[[], [[[[]]]]]]], [0])  # op1 { op2, op3 { op4 } }
    block = root.regions[0].blocks[0]
    seen = []
    for op in root.walk():
        seen.append(op.name)
        if op.name == "test.op2":
            block.append(Operation("test.late"))
    assert seen == ["test.op1", "test.op2", "test.op3", "test.op4", "test.late"]
