"""Pósa rotation-extension: a fast, incomplete search for Hamiltonian-type walks.

The walk-extension DFS (paths.py) is complete but can thrash on sparse graphs: a wrong turn early
in a 128-node walk on a cubic graph is only detected deep down. Rotation-extension repairs the
walk instead of backtracking. The walk P = p0..pk grows at its end while the end has a free
neighbour (fewest onward moves first, Warnsdorff); when it is stuck, a *rotation* uses a link
from pk to an interior node pi to turn P into p0..pi pk..pi+1, whose end pi+1 is new and may have
free neighbours. For a cycle, once every node is on the walk, rotations look for an end adjacent
to p0. Both ends take turns (the walk is reversed now and then).

Choices are random from a fixed seed, so a run is deterministic; every step counts as a search
node, and the caller bounds the steps. Finding nothing proves nothing: the caller falls back to
the complete DFS. Anything found is a walk over links of `adj`, which the solver validates.
"""

from __future__ import annotations

import random

from ttopt.topology.index import bits_list

ROTATION_SEED = 0x5EED
PER_START_STEPS = 8  # steps per node of the walk for one start's attempt (doubled per pass)
DOUBLE_EVERY = 4  # attempts per per-start budget before it doubles
REVERSE_EVERY = 16  # flip the walk's active end every this many stuck steps (both ends get turns)


class RotationSearch:
    """Rotation-extension attempts that resume where the last call stopped (same seed stream)."""

    def __init__(self, adj: list[int], allowed: int, n: int, cycle: bool,
                 starts: list[int]) -> None:
        self.adj, self.allowed, self.n, self.cycle = adj, allowed, n, cycle
        self.starts = starts
        self.rng = random.Random(ROTATION_SEED)
        self.next_start = 0
        self.per_start = PER_START_STEPS * n

    def run(self, steps: int) -> tuple[list[int] | None, int]:
        """(a walk of n allowed nodes, closed for a cycle, or None; steps used) within `steps`."""
        used = 0
        while used < steps and self.starts:
            start = self.starts[self.next_start % len(self.starts)]
            self.next_start += 1
            if self.next_start % DOUBLE_EVERY == 0:
                self.per_start *= 2  # attempts keep failing: let the next ones run longer
            walk, spent = _one_start(self.adj, self.allowed, self.n, self.cycle,
                                     min(self.per_start, steps - used), start, self.rng)
            used += spent
            if walk is not None:
                return walk, used
        return None, used


def _one_start(adj: list[int], allowed: int, n: int, cycle: bool, steps: int, start: int,
               rng: random.Random) -> tuple[list[int] | None, int]:
    path = [start]
    pos = {start: 0}
    used = 1 << start
    stuck = 0
    for step in range(1, steps + 1):
        k = len(path)
        end = path[-1]
        if k == n:
            if not cycle or adj[end] >> path[0] & 1:
                return path, step
        else:
            free = adj[end] & allowed & ~used
            if free:
                # Extension: the free neighbour with the fewest free neighbours of its own
                # (Warnsdorff), ties broken at random.
                best = None
                for c in bits_list(free):
                    key = ((adj[c] & allowed & ~used).bit_count(), rng.random())
                    if best is None or key < best[0]:
                        best = (key, c)
                assert best is not None
                c = best[1]
                pos[c] = k
                path.append(c)
                used |= 1 << c
                continue
        stuck += 1
        if stuck % REVERSE_EVERY == 0:
            path.reverse()
            for i, v in enumerate(path):
                pos[v] = i
            continue
        # Rotation over a link end - path[i] (i < k - 2): the new end is path[i + 1].
        options = [pos[v] for v in bits_list(adj[end] & used) if pos[v] < k - 2]
        if not options:
            path.reverse()
            for i, v in enumerate(path):
                pos[v] = i
            continue
        good = [i for i in options if _promising(adj, allowed, used, path, i + 1, k, n, cycle)]
        i = rng.choice(good or options)
        tail = path[i + 1:]
        tail.reverse()
        path[i + 1:] = tail
        for j in range(i + 1, k):
            pos[path[j]] = j
    return None, steps


def _promising(adj: list[int], allowed: int, used: int, path: list[int], j: int, k: int,
               n: int, cycle: bool) -> bool:
    """Whether the end a rotation would create (path[j]) can make progress at once."""
    v = path[j]
    if k < n:
        return bool(adj[v] & allowed & ~used)
    return cycle and bool(adj[v] >> path[0] & 1)
