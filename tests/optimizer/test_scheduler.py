"""Scheduler (reference §2.5): schedulable order, the blocked-successor preference, apply_schedule."""

from __future__ import annotations

from ttopt.optimizer.scheduler import Scheduler, apply_schedule, split_block
from ttopt.parse.parser import parse_module

T = "tensor<32x32xbf16>"


def _block(body: str, args: int = 1):
    params = ", ".join(f"%a{i}: {T}" for i in range(args))
    m = parse_module(f"func.func @f({params}) -> {T} {{\n{body}\n}}\n", "t.mlir")
    return m.functions()[0].regions[0].entry


def _names(ops) -> list[str]:
    return [op.location.name for op in ops]


JOIN = f"""
  %0 = "ttnn.relu"(%a0) : ({T}) -> {T} loc("a1")
  %1 = "ttnn.relu"(%0) : ({T}) -> {T} loc("a2")
  %2 = "ttnn.exp"(%a0) : ({T}) -> {T} loc("b1")
  %3 = "ttnn.add"(%1, %2) : ({T}, {T}) -> {T} loc("join")
  return %3 : {T}
"""


def test_blocked_successor_goes_first() -> None:
    """a1 -> a2 -> join and b1 -> join: b1 leaves the join blocked (it still needs a2), so it is
    preferred over a1; then the chain a1 -> a2 -> join can reach the join through operand 0."""
    block = _block(JOIN)
    ops, attached, term = split_block(block.ops)
    assert term.name == "func.return" and attached == []
    s = Scheduler(ops)
    assert _names(s.get_schedulable_ops()) == ["b1", "a1"]
    s.schedule_op(s.get_schedulable_ops()[0])
    assert _names(s.get_schedulable_ops()) == ["a1"]
    s.schedule_op(ops[0])
    s.schedule_op(ops[1])
    assert _names(s.get_schedulable_ops()) == ["join"]
    s.schedule_op(ops[3])
    assert not s.has_unscheduled_ops()
    assert _names(s.get_schedule()) == ["b1", "a1", "a2", "join"]


def test_schedule_op_rejects_unready_ops() -> None:
    block = _block(JOIN)
    ops, _, _ = split_block(block.ops)
    s = Scheduler(ops)
    try:
        s.schedule_op(ops[3])
    except ValueError as e:
        assert "not schedulable" in str(e)
    else:
        raise AssertionError("expected ValueError")


def test_apply_schedule_moves_buffers_next_to_their_user() -> None:
    body = f"""
  %d = "ttnn.get_device"() <{{mesh_shape = #ttnn<mesh_shape 1x1>}}> : () -> !ttnn.device loc("dev")
  %e = "ttnn.empty"(%d) <{{shape = #ttnn.shape<32x32>}}> : (!ttnn.device) -> {T} loc("buf")
  %0 = "ttnn.relu"(%a0) : ({T}) -> {T} loc("r")
  %1 = "ttnn.dispatch_d2m"(%0, %e) : ({T}, {T}) -> {T} loc("disp")
  %2 = "ttnn.exp"(%a0) : ({T}) -> {T} loc("x")
  %3 = "ttnn.add"(%1, %2) : ({T}, {T}) -> {T} loc("add")
  return %3 : {T}
"""
    block = _block(body)
    ops, attached, _ = split_block(block.ops)
    assert _names(attached) == ["dev", "buf"]
    by = {op.location.name: op for op in ops}
    apply_schedule(block, [by["x"], by["r"], by["disp"], by["add"]])
    assert [op.location.name if op.location else op.name for op in block.ops[:-1]] == ["x", "r", "dev", "buf", "disp", "add"]
    assert block.ops[-1].name == "func.return"
