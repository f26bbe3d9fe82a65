"""The live L1 tensors of the L1 spill sweep (`ttnn-greedy-l1-spill-management`), alias-aware.

A value owns an L1 buffer of some bytes per core. A zero-copy view (a reshape tt-metal runs as a
view, an all-ones repeat, ...) joins its source's buffer instead of taking a new one: the buffer is
counted once while any of its values is live, and freed when the last one dies. This is what keeps
a forked producer and its view from being counted twice (tt-mlir's alias groups).

The tracker also answers the two questions the sweep asks: the L1 already taken that an op must
fit next to (`additional_l1`: the live buffers minus those the op reads, which its own peak
already counts), and which value to evict (`farthest_victim`: the latest last use).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import AbstractSet, Any, Iterable


@dataclass
class _Buffer:
    """One L1 buffer and the live values that are it."""

    size: int
    values: set[int] = field(default_factory=set)


class L1Tracker:
    """Live L1 buffers per core, keyed by value (by identity); views share their source's buffer."""

    def __init__(self) -> None:
        self._buffer_of: dict[int, _Buffer] = {}
        self._values: dict[int, Any] = {}
        self.occupied = 0

    def __contains__(self, value: Any) -> bool:
        return id(value) in self._buffer_of

    def __len__(self) -> int:
        return len(self._values)

    def live(self) -> list[Any]:
        """The live values, in the order they became live."""
        return list(self._values.values())

    def add(self, value: Any, size: int) -> None:
        """`value` takes a new buffer of `size` bytes per core."""
        buf = _Buffer(size, {id(value)})
        self._buffer_of[id(value)] = buf
        self._values[id(value)] = value
        self.occupied += size

    def add_view(self, value: Any, source: Any) -> bool:
        """`value` is a view of live `source`'s buffer (no new bytes); False when `source` is not live."""
        buf = self._buffer_of.get(id(source))
        if buf is None:
            return False
        buf.values.add(id(value))
        self._buffer_of[id(value)] = buf
        self._values[id(value)] = value
        return True

    def remove(self, value: Any) -> int:
        """`value` dies (or is evicted); the bytes freed (its buffer's, when no other value holds it)."""
        buf = self._buffer_of.pop(id(value), None)
        if buf is None:
            return 0
        del self._values[id(value)]
        buf.values.discard(id(value))
        if buf.values:
            return 0
        self.occupied -= buf.size
        return buf.size

    def size_of(self, value: Any) -> int:
        """Bytes per core of `value`'s buffer (0 when not live)."""
        buf = self._buffer_of.get(id(value))
        return buf.size if buf is not None else 0

    def additional_l1(self, operands: Iterable[Any]) -> int:
        """L1 taken by live buffers the op does not read: its operands' buffers are in its own peak,
        each buffer subtracted once however many of the op's operands are views of it."""
        read: dict[int, int] = {}
        for v in operands:
            buf = self._buffer_of.get(id(v))
            if buf is not None:
                read[id(buf)] = buf.size
        return max(self.occupied - sum(read.values()), 0)

    def farthest_victim(self, last_use: dict[int, int], keep: AbstractSet[int] = frozenset()) -> Any | None:
        """The live value used last (ties: the one that became live first), not in `keep`; None if none."""
        best, best_use = None, -1
        for key, v in self._values.items():
            if key in keep:
                continue
            u = last_use.get(key, -1)
            if u > best_use:
                best, best_use = v, u
        return best
