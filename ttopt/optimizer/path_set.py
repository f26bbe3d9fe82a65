"""PathSet: the allowed (producer config, consumer config) pairs of one edge (seed 000 §3).

Bitsets are Python ints (bit i set = config i still valid), so there is no 512-config ceiling
(DECISIONS.md). `update` is seed 000's `PathSet::update`: drop paths whose producer or consumer
config was eliminated, then narrow both bitsets to the configs some surviving path still uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Path = tuple[int, int]
"""(producer config index, consumer config index): producer config p is compatible with consumer config c."""


def bits(mask: int) -> list[int]:
    """Indices of the set bits of `mask`, ascending."""
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def mask_of(indices: Any) -> int:
    """The bitset with exactly `indices` set."""
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def is_subset(a: int, b: int) -> bool:
    """Every bit of `a` is set in `b`."""
    return a & ~b == 0


@dataclass(slots=True)
class PathSet:
    """The live paths of one edge, with the ids of the two bitsets they constrain."""

    producer_set_id: int
    consumer_set_id: int
    producer_op: Any
    consumer_op: Any
    paths: list[Path] = field(default_factory=list)

    def update(self, bitsets: list[int]) -> bool:
        """Filter paths by the current bitsets and narrow both; True iff a bitset changed (seed 000 §3)."""
        producer = bitsets[self.producer_set_id]
        consumer = bitsets[self.consumer_set_id]
        valid_producer = 0
        valid_consumer = 0
        kept = []
        for p, c in self.paths:
            if (producer >> p) & 1 and (consumer >> c) & 1:
                kept.append((p, c))
                valid_producer |= 1 << p
                valid_consumer |= 1 << c
        # Seed 000 removes paths by swap-with-last; ttopt keeps them in order (same set, stable traces).
        self.paths = kept
        unchanged = is_subset(producer, valid_producer) and is_subset(consumer, valid_consumer)
        if not unchanged:
            bitsets[self.producer_set_id] = producer & valid_producer
            bitsets[self.consumer_set_id] = consumer & valid_consumer
        return not unchanged

    @property
    def empty(self) -> bool:
        """No path left: the edge has no solution (seed 000: `handleNoPathsLeftOnUpdate`)."""
        return not self.paths
