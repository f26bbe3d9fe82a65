"""Example counts for property tests that scale with the active hypothesis profile."""

from __future__ import annotations

from hypothesis import settings

_BASE = 100  # hypothesis's own default max_examples, which the "ci" and "dev" profiles keep


def examples(n: int) -> int:
    """`n` under the default-sized profiles; proportionally more under a larger one (fuzz: 10x)."""
    return max(1, n * settings.default.max_examples // _BASE)


def randomized() -> bool:
    """Whether the active profile draws fresh random examples (dev, fuzz) rather than fixed ones."""
    return not settings.default.derandomize
