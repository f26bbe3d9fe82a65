"""Dispatch ops between chains (seed 001 phases 2, 3 and 5).

`ttnn.dispatch_d2m` (and upstream's `ttnn.d2m_subgraph`, DECISIONS.md) breaks L1 chains. The chain
whose last op feeds a dispatch is its *producer* chain (its output stays in L1); the chain whose
first op consumes the dispatch result is its *consumer* chain, solved after the producer and for its
optimal first-op input layout, which becomes the dispatch's output layout. A `DispatchD2MConfig`
records the dispatch's input layout, output layout and the L1 left for the fused kernels.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any, Sequence

from ttopt.optimizer.chain import L1ChainConfig

DISPATCH_OPS = frozenset({"ttnn.dispatch_d2m", "ttnn.d2m_subgraph"})


def is_dispatch(op: Any) -> bool:
    """A D2M dispatch op (seed 001's `dispatch_d2m` or upstream's `d2m_subgraph`)."""
    return op.name in DISPATCH_OPS


@dataclass(frozen=True, slots=True)
class DispatchChainRelationship:
    """Seed 001 phase 2: which chain feeds a dispatch op and which chain consumes it."""

    dispatch_op: Any
    producer_chain_idx: int | None
    consumer_chain_idx: int | None


@dataclass(slots=True)
class DispatchD2MConfig:
    """Seed 001 phase 5: the dispatch's input layout, output layout and L1 budget (bytes per core)."""

    input_layout: Any
    output_layout: Any
    l1_budget: int
    producer_output_bytes: int = 0
    consumer_input_bytes: int = 0


def build_dispatch_chain_relationships(schedule: Sequence[Any], chains: Sequence[L1ChainConfig]) -> list[DispatchChainRelationship]:
    """For each dispatch op in schedule order: the chain whose last op produces one of its inputs,
    and the chain whose first op uses its result (either may be missing)."""
    last = {id(c.last_op): i for i, c in enumerate(chains) if not c.is_empty()}
    first = {id(c.first_op): i for i, c in enumerate(chains) if not c.is_empty()}
    out = []
    for op in schedule:
        if not is_dispatch(op):
            continue
        producer = None
        for v in op.operands:
            p = getattr(v, "op", None)
            if p is not None and id(p) in last:
                producer = last[id(p)]
                break
        consumer = None
        for r in op.results:
            for u in r.users:
                if id(u) in first:
                    i = first[id(u)]
                    consumer = i if consumer is None else min(consumer, i)
        if producer is not None or consumer is not None:
            out.append(DispatchChainRelationship(op, producer, consumer))
    return out


def compute_chain_solving_order(num_chains: int, relationships: Sequence[DispatchChainRelationship]) -> list[int]:
    """Seed 001 phase 3: topological order of chains (producer before consumer), ties by index."""
    indegree = [0] * num_chains
    succ: list[list[int]] = [[] for _ in range(num_chains)]
    for r in relationships:
        if r.producer_chain_idx is not None and r.consumer_chain_idx is not None and r.producer_chain_idx != r.consumer_chain_idx:
            succ[r.producer_chain_idx].append(r.consumer_chain_idx)
            indegree[r.consumer_chain_idx] += 1
    heap = [i for i in range(num_chains) if indegree[i] == 0]
    heapq.heapify(heap)
    order = []
    while heap:
        i = heapq.heappop(heap)
        order.append(i)
        for j in succ[i]:
            indegree[j] -= 1
            if indegree[j] == 0:
                heapq.heappush(heap, j)
    # A cycle cannot come from a schedule; keep any leftover chain rather than drop it.
    placed = set(order)
    order += [i for i in range(num_chains) if i not in placed]
    return order


def compute_dispatch_d2m_configs(
    relationships: Sequence[DispatchChainRelationship],
    chains: Sequence[L1ChainConfig],
    dispatch_output_layouts: dict[Any, Any],
    usable_l1: int,
    default_input: Any,
    default_output: Any,
) -> dict[Any, DispatchD2MConfig]:
    """Seed 001 phase 5: per dispatch op, input = the producer chain's output layout (when it stays in
    L1), output = the consumer chain's optimal first-op input, budget = usable L1 - both (per core).

    `default_input(op)` / `default_output(op)` give the layouts when no chain decides them.
    """
    from ttopt.device import layout_info
    from ttopt.optimizer.chain import L1ChainState, SpillLocation

    out: dict[Any, DispatchD2MConfig] = {}
    for r in relationships:
        op = r.dispatch_op
        inp = None
        if r.producer_chain_idx is not None:
            c = chains[r.producer_chain_idx]
            if c.state is L1ChainState.COMPLETED and c.spill_location is SpillLocation.NONE:
                inp = c.op_l1_mem_specs[-1].chosen.layout
        if inp is None:
            inp = default_input(op)
        outp = dispatch_output_layouts.get(op) or default_output(op)
        pb = layout_info(inp).per_core_bytes if inp is not None else 0
        cb = layout_info(outp).per_core_bytes if outp is not None else 0
        out[op] = DispatchD2MConfig(inp, outp, usable_l1 - pb - cb, pb, cb)
    return out
