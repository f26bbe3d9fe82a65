"""Accumulated core usage and config picking (seed 002 §3.3.8, reference §2.7).

`accumulate_core_usage` walks a chain from tail to head: every live config starts at its own grid
volume and adds what its consumers can still reach through live paths, divided by the consumer's
fan-in (its in-chain operand edges, the "fork factor" of a join) so a join is not counted twice.

How the contributions of several *users* (a fork) combine is where the two sources disagree:

* `ForkRule.SUM` (default; reference §2.7 and tt-mlir's gtest `VerifyProduceMaxCoreUsage`): add the
  best reachable value of every user edge. The gtest's 6-op fork/join chain gives (24, 22, 12).
* `ForkRule.MAX` (seed 002's worked example): take the best user edge only. The seed's 5-op
  fork/join example gives Op4..Op0 = 4, 18, 18, 82, 90; under SUM the same graph gives 100 and 108.

The two examples cannot both hold under one rule (see docs/optimizer.md); DECISIONS.md makes
reference §2.7 authoritative for core-usage picking, so SUM is the default. DFSharding chains are
linear (single use, operand 0), so the rules only differ on hand-built fork/join graphs.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Sequence


class ForkRule(StrEnum):
    SUM = "sum"
    MAX = "max"


def accumulate_core_usage(
    order: Sequence[int],
    volumes: Sequence[Sequence[int]],
    live: Sequence[int],
    user_edges: Sequence[Sequence[tuple[int, Sequence[tuple[int, int]]]]],
    fan_in: Sequence[int],
    fork_rule: ForkRule = ForkRule.SUM,
) -> list[list[float]]:
    """accCoreUsage per op (index into `volumes`) and config.

    `order`: op indices head to tail; `volumes[o][i]`: grid volume of config i of op o;
    `live[o]`: bitset of still-valid configs; `user_edges[o]`: (consumer op, paths) per user edge;
    `fan_in[o]`: in-chain operand edges of op o. Eliminated configs stay 0.
    """
    acc: list[list[float]] = [[0.0] * len(v) for v in volumes]
    for o in reversed(order):
        mine = acc[o]
        alive = live[o]
        for i, vol in enumerate(volumes[o]):
            if (alive >> i) & 1:
                mine[i] = float(vol)
        downstream = [0.0] * len(mine)
        for consumer, paths in user_edges[o]:
            best = [0.0] * len(mine)
            factor = max(1, fan_in[consumer])
            theirs = acc[consumer]
            for p, c in paths:
                if (alive >> p) & 1:
                    v = theirs[c] / factor
                    if v > best[p]:
                        best[p] = v
            for p, v in enumerate(best):
                if fork_rule is ForkRule.SUM:
                    downstream[p] += v
                elif v > downstream[p]:
                    downstream[p] = v
        for i in range(len(mine)):
            if (alive >> i) & 1:
                mine[i] += downstream[i]
    return acc


def pick_config(candidates: Sequence[int], usage: Sequence[float], is_block: Sequence[bool]) -> int | None:
    """The config to `set()` (reference §2.7): highest accumulated core usage; on an exact tie the
    current pick is replaced only if it is block sharded and the candidate is not; else lowest index."""
    best: int | None = None
    for i in candidates:
        if best is None or usage[i] > usage[best]:
            best = i
        elif usage[i] == usage[best] and is_block[best] and not is_block[i]:
            best = i
    return best
