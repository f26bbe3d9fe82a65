"""Example counts for property tests that scale with the active hypothesis profile."""

from __future__ import annotations

from hypothesis import settings

_BASE = 100  # hypothesis's own default max_examples, which the "ci" and "dev" profiles keep


def _active() -> settings:
    current = settings.default
    return current if current is not None else settings()


def examples(n: int) -> int:
    """`n` under the default-sized profiles; proportionally more under a larger one (fuzz: 10x)."""
    return max(1, n * _active().max_examples // _BASE)


def randomized() -> bool:
    """Whether the active profile draws fresh random examples (dev, fuzz) rather than fixed ones."""
    return not _active().derandomize
