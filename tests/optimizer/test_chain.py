"""L1ChainConfig state machine (seed 002 §3.2.4, reference §2.8)."""

from __future__ import annotations

import pytest

from ttopt.optimizer.chain import ChainStateError, Edge, L1ChainConfig, L1ChainState, MemReconfigEntry, OpL1MemSpec, SpillLocation
from ttopt.optimizer.shard_solver import resolve_chain


def test_in_build_built_resolved_completed(table_backend) -> None:
    c = L1ChainConfig()
    assert c.state is L1ChainState.IN_BUILD and c.is_empty() and c.spill_location is SpillLocation.NONE
    # Chain members are IR ops; the state machine only needs hashable objects with operands.
    a, b = _Op("a"), _Op("b")
    b.operands = [_Res(a)]
    c.add_op_l1_mem_spec(OpL1MemSpec(a))
    c.add_op_l1_mem_spec(OpL1MemSpec(b))
    with pytest.raises(ChainStateError):
        c.complete({}, {})
    c.build()
    assert c.state is L1ChainState.BUILT
    with pytest.raises(ChainStateError):
        c.add_op_l1_mem_spec(OpL1MemSpec(a))
    backend = table_backend(volumes={a: [4, 2], b: [4, 2]})
    solver = resolve_chain(c, backend)
    assert c.state is L1ChainState.RESOLVED
    assert solver.operand_op_edges == {b: [Edge(a, b, 0)]}
    with pytest.raises(ChainStateError, match="without a config"):
        c.complete({a: "cfg"}, {})
    c.complete({a: "A", b: "B"}, {Edge(a, b, 0): MemReconfigEntry({0: ["L"]})})
    assert c.state is L1ChainState.COMPLETED
    assert [s.config for s in c.op_l1_mem_specs] == ["A", "B"]
    assert (c.first_op, c.last_op, c.ops, c.l1_chained_ops) == (a, b, [a, b], {a, b})
    with pytest.raises(ChainStateError):
        c.fail("too late")


def test_failed_from_resolve_and_from_policy(table_backend) -> None:
    a, b = _Op("a"), _Op("b")
    b.operands = [_Res(a)]
    c = L1ChainConfig([OpL1MemSpec(a), OpL1MemSpec(b)])
    c.build()
    resolve_chain(c, table_backend(volumes={a: [4], b: [4]}, compatible={}))
    assert c.state is L1ChainState.FAILED and "no reshard layout" in c.failure_reason
    d = L1ChainConfig([OpL1MemSpec(a)])
    d.build()
    d.fail("concat chains are resolved by chain merging")
    assert d.state is L1ChainState.FAILED


class _Op:
    def __init__(self, name: str) -> None:
        self.name = name
        self.operands: list = []

    def __repr__(self) -> str:
        return self.name


class _Res:
    def __init__(self, op: _Op) -> None:
        self.op = op
