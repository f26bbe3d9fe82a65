"""A pool of live SSA values for DAG-shaped generators.

Generated modules read like real programs when most operands are recent values (a chain with some
fan-in), not uniformly random ones. `ValuePool.pick` therefore samples from a sliding window of the
most recently defined values that satisfy a predicate, and falls back to older ones only when the
window has no match. Everything is driven by the caller's `random.Random`, so output is
deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Generic, Hashable, TypeVar

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True, eq=False)  # identity equality: names are unique anyway
class Value(Generic[T]):
    """An SSA value: its textual name (``%12``, ``%arg3``, ``%cst_4``) and its type key."""

    name: str
    type: T
    is_arg: bool = False


class ValuePool(Generic[T]):
    """Live values in definition order, with recency-biased lookup by predicate."""

    def __init__(self, rng: random.Random, window: int = 24) -> None:
        self.rng = rng
        self.window = window
        self.values: list[Value[T]] = []
        self.by_type: dict[T, list[Value[T]]] = {}

    def add(self, value: Value[T]) -> Value[T]:
        """Make `value` available as an operand; returns it."""
        self.values.append(value)
        self.by_type.setdefault(value.type, []).append(value)
        return value

    def remove(self, value: Value[T]) -> None:
        """Forget `value` (e.g. after a deallocate): later ops no longer use it."""
        self.values.remove(value)
        self.by_type[value.type].remove(value)

    def pick(self, pred: Callable[[Value[T]], bool] = lambda v: True) -> Value[T] | None:
        """A random value among the `window` most recent ones matching `pred` (older if none)."""
        recent = [v for v in self.values[-self.window:] if pred(v)]
        if recent:
            return self.rng.choice(recent)
        older = [v for v in self.values[-8 * self.window:] if pred(v)]
        return self.rng.choice(older) if older else None

    def of_type(self, t: T, exclude: Value[T] | None = None) -> Value[T] | None:
        """A random recent value of exactly type `t` (not `exclude`), or None."""
        cands = [v for v in self.by_type.get(t, [])[-6:] if v is not exclude]
        return self.rng.choice(cands) if cands else None

    def trim(self, keep: int = 4096) -> None:
        """Bound memory for huge modules: drop all but the `keep` most recent values."""
        if len(self.values) > 2 * keep:
            dropped, self.values = self.values[:-keep], self.values[-keep:]
            gone = set(map(id, dropped))
            for t, vs in self.by_type.items():
                self.by_type[t] = [v for v in vs if id(v) not in gone]
