"""Rewrite patterns indexed by the op they match, composed explicitly into pattern sets.

A pattern names the ops it applies to (or none: any op), so a driver asks the set for the
patterns of one op name and tries only those, in declaration order — the model is xDSL's
`op_type_rewrite_pattern` / tinygrad's `PatternMatcher`. Sets compose with `+`; a dialect's
canonicalizations are a set the canonicalize pass adds to its own (see `canonicalizations`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation

# A rewrite returns the ops whose state may have changed (to revisit), or None if it did nothing.
Rewrite = Callable[["Operation"], "list[Operation] | None"]


@dataclass(frozen=True)
class Pattern:
    """One rewrite and the op names it matches (empty: every op)."""

    name: str
    rewrite: Rewrite
    ops: frozenset[str] = frozenset()
    # The rewrite reads or moves the op lists of the matched op's regions: a driver that leaves
    # erased ops in their blocks' lists for a while (canonicalize) takes them out first.
    reads_bodies: bool = False


@dataclass(frozen=True)
class PatternSet:
    """Patterns in priority order, looked up by op name."""

    patterns: tuple[Pattern, ...]
    _by_op: dict[str, tuple[Pattern, ...]] = field(default_factory=dict, compare=False, repr=False)

    def __add__(self, other: PatternSet) -> PatternSet:
        return PatternSet(self.patterns + other.patterns)

    def for_op(self, name: str) -> tuple[Pattern, ...]:
        """The patterns that may match an op called `name`, in priority order (cached per name)."""
        hit = self._by_op.get(name)
        if hit is None:
            hit = self._by_op[name] = tuple(p for p in self.patterns if not p.ops or name in p.ops)
        return hit

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.patterns]


def pattern_set(*patterns: Pattern) -> PatternSet:
    """A set of `patterns`; two with one name is a programming error."""
    names = [p.name for p in patterns]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"duplicate pattern names: {sorted(dup)}")
    return PatternSet(tuple(patterns))


# Canonicalization sets contributed by dialect-level packages (the sdy patterns live with the
# sharding model they read); registered by name so `canonicalize` composes them explicitly.
_CANONICALIZATIONS: dict[str, PatternSet] = {}


def register_canonicalizations(owner: str, patterns: PatternSet) -> None:
    """Add `owner`'s canonicalization patterns to what `canonicalize` runs (after its own)."""
    _CANONICALIZATIONS[owner] = patterns


def canonicalizations(core: PatternSet, owners: Iterable[str] | None = None) -> PatternSet:
    """`core` followed by the registered sets (all, or those of `owners`), in registration order."""
    out = core
    for owner, ps in _CANONICALIZATIONS.items():
        if owners is None or owner in owners:
            out = out + ps
    return out
