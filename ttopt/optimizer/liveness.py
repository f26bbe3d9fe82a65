"""L1 liveness over a schedule: how many bytes are alive strictly across each position.

A tensor defined at position s and last used at e occupies L1 strictly between them (at s its
producer counts it as output, at e its consumer as input: the op model charges both), so it is
added to positions s+1 .. e-1. The interleaved policies and the L1-interleaved fallback both ask
this; the budget check and the reservation timeline need per-op detail and keep their own sweep.
"""

from __future__ import annotations

from typing import Iterable


def alive_across(n: int, spans: Iterable[tuple[int, int, int]]) -> list[int]:
    """Per position 0..n-1, the sum of `bytes` over (start, end, bytes) spans with start < i < end."""
    diff = [0] * (n + 1)
    for s, e, b in spans:
        if e > s + 1:
            diff[max(s + 1, 0)] += b
            diff[min(e, n)] -= b
    live, acc = [], 0
    for i in range(n):
        acc += diff[i]
        live.append(acc)
    return live
