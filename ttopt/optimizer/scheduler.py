"""The DFS-schedulable order of a function body (reference §2.5, tt-mlir `Scheduler`).

Schedulable: ops (other than `ttnn.get_device`, `ttnn.empty` and the terminator) whose producers in
the block are all scheduled. `get_schedulable_ops` lists them in IR order, stable-sorted so ops with
a successor that would *still be blocked* after scheduling them come first: scheduling the other
inputs of a join early lets the chain reaching the join through operand 0 continue into it.

`apply_schedule` reorders the block: buffer ops (`ttnn.get_device`, `ttnn.empty`) are moved right
before their first scheduled user (reference §2.5: "DPS output operand / D2M output buffers moved
just before their op"); unused ones stay at the front, in their original order.
"""

from __future__ import annotations

from typing import Any, Sequence

from ttopt.ir.rewriter import reorder_block

ATTACHED_OPS = frozenset({"ttnn.get_device", "ttnn.empty"})
# Ops that write their first operand in place (the KV cache): their order with the other readers
# of that tensor is a dependency the SSA edges do not show.
IN_PLACE_WRITERS = frozenset({"ttnn.update_cache", "ttnn.fill_cache", "ttnn.paged_update_cache", "ttnn.paged_fill_cache"})


def _is_attached(op: Any, attached: set[int]) -> bool:
    """Buffer ops are placed with their user, provided everything they use is attached too."""
    if op.name not in ATTACHED_OPS:
        return False
    for v in op.operands:
        p = getattr(v, "op", None)
        if p is not None and id(p) not in attached:
            return False
    return True


def split_block(block_ops: Sequence[Any]) -> tuple[list[Any], list[Any], Any]:
    """(schedulable ops, attached buffer ops, terminator) of a block, in IR order."""
    ops = list(block_ops)
    term = ops[-1] if ops and ops[-1].opdef is not None and ops[-1].opdef.has("terminator") else None
    if term is not None:
        ops = ops[:-1]
    attached: set[int] = set()
    for op in ops:
        if _is_attached(op, attached):
            attached.add(id(op))
    return [o for o in ops if id(o) not in attached], [o for o in ops if id(o) in attached], term


class Scheduler:
    """Incremental DFS scheduler over the schedulable ops of one block."""

    def __init__(self, ops: Sequence[Any]) -> None:
        self.ops = list(ops)
        self.index = {op: i for i, op in enumerate(self.ops)}
        members = self.index
        self.deps: dict[Any, set[Any]] = {op: set() for op in self.ops}
        self.users: dict[Any, list[Any]] = {op: [] for op in self.ops}
        for op in self.ops:
            # Nested regions may use values from the block (implicit capture): those are deps too.
            for inner in op.walk():
                for v in inner.operands:
                    p = getattr(v, "op", None)
                    while p is not None and p not in members and p.parent_op is not None:
                        p = p.parent_op  # a value from inside another op's region: that op
                    if p is not None and p in members and p is not op and p not in self.deps[op]:
                        self.deps[op].add(p)
                        self.users[p].append(op)
        for op in self.ops:
            if op.name in IN_PLACE_WRITERS and op.operands:
                for other in op.operands[0].users:  # readers before the write stay before it, later ones after
                    if other is op or other not in members:
                        continue
                    first, then = (other, op) if self.index[other] < self.index[op] else (op, other)
                    if first not in self.deps[then]:
                        self.deps[then].add(first)
                        self.users[first].append(then)
        self.pending = {op: len(d) for op, d in self.deps.items()}
        self.scheduled: set[Any] = set()
        self.schedule: list[Any] = []
        self._ready = sorted((op for op in self.ops if self.pending[op] == 0), key=self.index.__getitem__)

    def has_unscheduled_ops(self) -> bool:
        """Some op is not scheduled yet."""
        return len(self.schedule) < len(self.ops)

    def can_schedule(self, op: Any) -> bool:
        return op not in self.scheduled and self.pending.get(op, 1) == 0

    def blocks_a_successor(self, op: Any) -> bool:
        """Scheduling `op` would leave one of its users still waiting for another producer."""
        return any(self.pending[u] > 1 for u in self.users[op] if u not in self.scheduled)

    def get_schedulable_ops(self) -> list[Any]:
        """Ready ops: IR order, those that leave a successor blocked first (stable)."""
        ready = self._ready
        first = [op for op in ready if self.blocks_a_successor(op)]
        if not first:
            return list(ready)
        rest = [op for op in ready if not self.blocks_a_successor(op)]
        return first + rest

    def schedule_op(self, op: Any) -> None:
        """Mark `op` scheduled (it must be ready)."""
        if not self.can_schedule(op):
            raise ValueError(f"{op.name} is not schedulable")
        self.scheduled.add(op)
        self.schedule.append(op)
        self._ready.remove(op)
        for u in self.users[op]:
            self.pending[u] -= 1
            if self.pending[u] == 0:
                self._insert_ready(u)

    def _insert_ready(self, op: Any) -> None:
        i = self.index[op]
        ready = self._ready
        lo, hi = 0, len(ready)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.index[ready[mid]] < i:
                lo = mid + 1
            else:
                hi = mid
        ready.insert(lo, op)

    def get_schedule(self) -> list[Any]:
        """The ops in the order they were scheduled."""
        return list(self.schedule)


def apply_schedule(block: Any, schedule: Sequence[Any]) -> None:
    """Reorder `block` to `schedule` (schedulable ops), placing buffer ops right before their first user."""
    sched_ops, attached, term = split_block(block.ops)
    if {id(o) for o in schedule} != {id(o) for o in sched_ops}:
        raise ValueError("the schedule must list every schedulable op of the block exactly once")
    attached_ids = {id(o) for o in attached}
    placed: set[int] = set()
    order: list[Any] = []

    def place_attached(op: Any) -> None:
        for v in op.operands:
            p = getattr(v, "op", None)
            if p is not None and id(p) in attached_ids and id(p) not in placed:
                place_attached(p)
                placed.add(id(p))
                order.append(p)

    body: list[Any] = []
    for op in schedule:
        before = len(order)
        for inner in op.walk():
            place_attached(inner)
        body.extend(order[before:])
        del order[before:]
        body.append(op)
    front = [o for o in attached if id(o) not in placed]
    reorder_block(block, front + body + ([term] if term is not None else []))
