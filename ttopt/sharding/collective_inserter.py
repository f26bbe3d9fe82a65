"""Shardy's `CollectiveInserter` (reshard_to_collectives.cc): the collectives taking a sharding to
another, sub-axes allowed. Used by `reshard-to-collectives{conservative=false}`.

State, per dimension: `inn` is what the current sharding has beyond its common prefix with the
target, `out` what the target has beyond it, `cur` the whole current sharding. Both `inn` and
`out` start aligned (an axis overlapping part of an axis on the other side is split at the
boundaries), so equal axes can be found with sets and dicts. Every collective brings `inn` and
`out` closer to empty; the reshard is done when both are, on the target's mesh. Each round (at
most two; one when all sizes divide each other) tries:

1. all_slice: target axes that nothing holds yet, within each dimension's *capacity* (how much
   more the target shards it); a dimension may also take axes its all_to_all will carry to their
   target (slicing at the source dimension avoids a collective_permute there);
2. collective_permute: when some held axis can be replaced by a wanted one, or held axes are in
   the wrong order or place (or the device order of the mesh changes);
3. all_to_alls: the suffix of a dimension's axes that one other dimension wants moves there
   (first only when it lands in its final position, then anywhere);
4. all_gather: the rest of what each dimension holds.

An axis that does not fit a capacity is split into sub-axes; sizes that do not divide each other
are skipped (the second round gets to them).
"""

from __future__ import annotations

from math import gcd
from typing import Any, Callable

from ttopt.sharding.factors import Axis, axes_size, merge_axes
from ttopt.sharding.reshard_steps import Step
from ttopt.sharding.sub_axes import add_or_merge, align_per_dim, ordered, prefix_without_overlap


def _divisible(a: int, b: int) -> bool:
    return a % b == 0 or b % a == 0


def within_capacity(a: Axis, capacity: int) -> tuple[Axis | None, Axis | None, int]:
    """The part of `a` that fits `capacity`, the rest of `a`, and the capacity left."""
    if capacity <= 1 or not _divisible(a[2], capacity):
        return None, None, capacity
    if capacity >= a[2]:
        return a, None, capacity // a[2]
    return (a[0], a[1], capacity), (a[0], a[1] * capacity, a[2] // capacity), 1


def _index(per_dim: list[list[Axis]]) -> dict[Axis, tuple[int, int]]:
    """Axis -> (dimension, position) of its first occurrence."""
    out: dict[Axis, tuple[int, int]] = {}
    for d, axes in enumerate(per_dim):
        for k, a in enumerate(axes):
            out.setdefault(a, (d, k))
    return out


class CollectiveInserter:
    """One reshard, from `src` to `dst` per-dimension axes; `insert()` gives its collectives."""

    def __init__(self, src: list[list[Axis]], dst: list[list[Axis]], shape: tuple[int, ...], full: dict[str, int],
                 src_mesh: Any, dst_mesh: Any) -> None:  # fmt: skip
        self.full = full
        self.shape = shape
        self.mesh = src_mesh
        self.dst_mesh = dst_mesh
        self.inn = [list(d) for d in src]
        self.out = [list(d) for d in dst]
        self.cur = [list(d) for d in src]
        self.capacity = [1] * len(src)
        in_order, out_order = ordered(self.inn), ordered(self.out)
        align_per_dim(self.inn, out_order)
        align_per_dim(self.out, in_order)
        for a, b in zip(self.inn, self.out):
            k = 0
            while k < len(a) and k < len(b) and a[k] == b[k]:
                k += 1
            del a[:k], b[:k]
        self.in_set = {a for d in self.inn for a in d}
        # Rebuilt only after an all_slice or a collective_permute, as in Shardy: axes an all_to_all
        # put in place stay in it until then, and routes depend on that.
        self.out_at = _index(self.out)
        self.steps: list[Step] = []

    @property
    def rank(self) -> int:
        """The tensor's rank."""
        return len(self.inn)

    def done(self) -> bool:
        """Both diffs empty and on the target's mesh."""
        return self.mesh == self.dst_mesh and not any(self.inn) and not any(self.out)

    def insert(self) -> list[Step]:
        """The collectives, in order (none when the shardings are equal)."""
        for _ in range(2):
            if self.done():
                break
            self.try_all_slice()
            self.try_collective_permute()
            self.try_all_to_alls(out_of_order=False)
            self.try_all_to_alls(out_of_order=True)
            self.try_all_gather()
        return self.steps

    def _emit(self, kind: str, lists: list[list[Axis]] | None = None, params: list[tuple[list[Axis], int, int]] | None = None) -> None:
        after = [list(d) for d in self.cur]
        self.steps.append(Step(kind, lists=lists, params=params, after=after, mesh=self.mesh))

    def _merge(self, axes: list[Axis], a: Axis) -> None:
        add_or_merge(axes, a, self.full)

    @staticmethod
    def _pop_back(current: list[Axis], axes: list[Axis], start: int) -> None:
        """Remove `axes[start:]` (possibly pieces of current's last axes) from the back of `current`."""
        for a in reversed(axes[start:]):
            prefix = prefix_without_overlap(current[-1], a)
            if prefix is not None:
                current[-1] = prefix
            else:
                current.pop()

    # -- all_gather -------------------------------------------------------------------------------
    def _gathering_axes(self, dim: int) -> list[Axis]:
        inn = self.inn[dim]
        if not inn:
            return []
        # Shardy walks back from the last axis with a reverse list iterator that it decrements, so
        # its loop stops after one step, at the start of the list: when the last axis is wanted
        # nowhere, the whole list is gathered (only that last axis leaves the held set).
        start = len(inn)
        if inn[-1] not in self.out_at:
            self.in_set.discard(inn[-1])
            start = 0
        self._pop_back(self.cur[dim], inn, start)
        gathered: list[Axis] = []
        for a in inn[start:]:
            self._merge(gathered, a)
        del inn[start:]
        return gathered

    def try_all_gather(self) -> None:
        """Gather what each dimension holds beyond the common prefix and nobody wants there."""
        lists = [self._gathering_axes(d) for d in range(self.rank)]
        if any(lists):
            self._emit("all_gather", lists=lists)

    # -- distributing axes over dimensions with capacity ---------------------------------------------
    def _distribute(self, front: bool, available: Callable[[int], list[Axis]],
                    consume: Callable[[Axis, int], None] | None = None) -> None:  # fmt: skip
        split: list[Axis] = []
        for dim in range(self.rank):
            inn = self.inn[dim]
            pos = 0 if front else len(inn)
            avail = available(dim)
            j = 0
            while j < len(avail) and self.capacity[dim] > 1:
                within, rest, self.capacity[dim] = within_capacity(avail[j], self.capacity[dim])
                if within is None:
                    j += 1
                    continue
                del avail[j]
                inn.insert(pos, within)
                pos += 1
                self.in_set.add(within)
                if consume is not None:
                    consume(within, dim)
                if rest is not None:
                    split.append(within)
                    avail.insert(0, rest)
                    j += 1
        align_per_dim(self.out, sorted(split))

    # -- all_slice ---------------------------------------------------------------------------------
    def _slice_for_all_to_all(self, src: int) -> tuple[int, int, int] | None:
        """(target dim, first, end) of the target's axes to slice at `src` for a later all_to_all."""
        src_in = self.inn[src]
        if not src_in or self.out[src]:
            return None
        entry = self.out_at.get(src_in[-1])
        if entry is None:
            return None
        tgt = entry[0]
        if self.inn[tgt]:
            return None
        tgt_out = self.out[tgt]
        # An axis only the stale index still places there: Shardy's iterator past the end wraps to the start.
        start = tgt_out.index(src_in[-1]) + 1 if src_in[-1] in tgt_out else 0
        if start == len(tgt_out) or tgt_out[start] in self.in_set:
            return None
        i, o, common = len(src_in) - 1, start - 1, 1
        while i >= 0 and o >= 0 and src_in[i] == tgt_out[o]:
            common *= src_in[i][2]
            i, o = i - 1, o - 1
        for k in range(i, -1, -1):
            e = self.out_at.get(src_in[k])
            if e is not None and e[0] == tgt:
                return None
        end, added = start, 1
        while end < len(tgt_out) and tgt_out[end] not in self.in_set:
            added *= tgt_out[end][2]
            end += 1
        if self.shape[src] % (axes_size(self.cur[src]) * added) != 0:
            return None
        self.capacity[tgt] //= common * added
        return tgt, start, end

    def _slicing_axes(self) -> list[list[Axis]] | None:
        slicing: list[list[Axis]] = [[] for _ in range(self.rank)]
        found = False
        for d in range(self.rank):
            n_in, n_out = axes_size(self.inn[d]), axes_size(self.out[d])
            self.capacity[d] = n_out // gcd(n_in, n_out)
        # 1. axes sliced at the source dimension of a later all_to_all
        for src in range(self.rank):
            r = self._slice_for_all_to_all(src)
            if r is None:
                continue
            found = True
            tgt, first, end = r
            for a in self.out[tgt][first:end]:
                self.inn[src].append(a)
                self.in_set.add(a)
                self._merge(slicing[src], a)
                self._merge(self.cur[src], a)
        # 2. axes sliced where the target wants them, within capacity
        available: list[Axis] = []
        for d in range(self.rank):
            inn, out, cur = self.inn[d], self.out[d], self.cur[d]
            i = 0
            while i < len(out):
                a = out[i]
                if a in self.in_set:
                    i += 1
                    continue
                within, rest, self.capacity[d] = within_capacity(a, self.capacity[d])
                if within is None:
                    available.append(a)
                    i += 1
                    continue
                found = True
                self._merge(slicing[d], within)
                self._merge(cur, within)
                if not inn and i == 0:
                    del out[0]  # in its final place
                else:
                    self.in_set.add(within)
                    inn.append(within)
                    out[i] = within
                    i += 1
                if rest is not None:
                    out.insert(i, rest)
                    available.append(rest)
                    i += 1

        # 3. the rest in the first dimension with capacity
        def consume(a: Axis, dim: int) -> None:
            nonlocal found
            found = True
            self._merge(slicing[dim], a)
            self._merge(self.cur[dim], a)

        self._distribute(False, lambda _d: available, consume)
        self.out_at = _index(self.out)
        return slicing if found else None

    def try_all_slice(self) -> None:
        """Slice in wanted axes nothing holds yet, within each dimension's capacity."""
        lists = self._slicing_axes()
        if lists is not None:
            self._emit("all_slice", lists=lists)

    # -- collective_permute ------------------------------------------------------------------------
    def _should_permute(self) -> bool:
        avail_in: Axis | None = None
        avail_out: Axis | None = None
        for dim in range(self.rank):
            inn, out = self.inn[dim], self.out[dim]
            if inn and out and _divisible(inn[0][2], out[0][2]):
                return True  # replace held axes by wanted ones
            for a in out:
                if a not in self.in_set:
                    avail_out = a
            last_dim: int | None = None
            last_index = 0
            seen: set[int] = set()
            for a in inn:
                cur_dim: int | None = None
                e = self.out_at.get(a)
                if e is not None:
                    cur_dim, index = e
                    if (cur_dim == dim or cur_dim in seen) and (last_dim != cur_dim or index != last_index + 1):
                        return True  # out of order or not contiguous
                    seen.add(cur_dim)
                    last_index = index
                elif last_dim is not None and not out:
                    return True  # an axis to gather behind one to move
                else:
                    avail_in = a
                last_dim = cur_dim
        return avail_out is not None and avail_in is not None and _divisible(avail_out[2], avail_in[2])

    def _permute(self) -> None:
        avail_out: list[Axis] = []
        avail_in: list[list[Axis]] = [[] for _ in range(self.rank)]
        self.in_set.clear()
        for dim in range(self.rank):
            inn, out, cur = self.inn[dim], self.out[dim], self.cur[dim]
            cap = used = axes_size(inn)
            self._pop_back(cur, inn, 0)
            # 1. wanted axes into their final place
            while cap > 1 and out:
                within, rest, cap = within_capacity(out[0], cap)
                if within is None:
                    break
                del out[0]
                self._merge(cur, within)
                if rest is not None:
                    out.insert(0, rest)
            self.capacity[dim] = cap
            avail_out.extend(out)
            used //= cap
            kept = [a for a in inn if a not in self.out_at]
            taken: list[Axis] = []
            while used > 1 and kept:
                within, rest, used = within_capacity(kept[0], used)
                if within is None:
                    break
                del kept[0]
                taken.append(within)
                if rest is not None:
                    kept.insert(0, rest)
            avail_in[dim] = kept + taken
            inn.clear()
        # 2. wanted axes anywhere with room; 3. held axes back where they were; 4. anywhere
        self._distribute(False, lambda _d: avail_out)
        self._distribute(True, lambda d: avail_in[d])
        rest_in = [a for axes in avail_in for a in axes]
        self._distribute(True, lambda _d: rest_in)
        self.out_at = _index(self.out)
        for inn, cur in zip(self.inn, self.cur):
            for a in inn:
                self._merge(cur, a)

    def try_collective_permute(self) -> None:
        """Replace or reorder held axes (or move to the target's device order) in one permute."""
        if self._should_permute():
            self._permute()
        elif self.mesh == self.dst_mesh:
            return
        self.mesh = self.dst_mesh
        self._emit("collective_permute")

    # -- all_to_all --------------------------------------------------------------------------------
    def _all_to_all(self, src: int, out_of_order: bool) -> tuple[list[Axis], int] | None:
        src_in = self.inn[src]
        k, tgt = len(src_in), None
        while k > 0:
            e = self.out_at.get(src_in[k - 1])
            if e is None or e[0] == src or (tgt is not None and e[0] != tgt):
                break
            tgt = e[0]
            k -= 1
        if tgt is None:
            return None
        tgt_out = self.out[tgt]
        moving = src_in[k:]
        if not out_of_order and tgt_out[: len(moving)] != moving:
            return None
        self._pop_back(self.cur[src], src_in, k)
        del src_in[k:]
        axes: list[Axis] = []
        for a in moving:
            self._merge(axes, a)
            self._merge(self.cur[tgt], a)
            self.in_set.discard(a)
            if not self.inn[tgt] and tgt_out and tgt_out[0] == a:
                del tgt_out[0]
            else:
                self.inn[tgt].append(a)
                self.in_set.add(a)
        return axes, tgt

    def try_all_to_alls(self, out_of_order: bool) -> None:
        """Move each dimension's suffix another dimension wants; with `out_of_order` also where
        it does not land in its final position."""
        for src in range(self.rank):
            while (r := self._all_to_all(src, out_of_order)) is not None:
                self._emit("all_to_all", params=[(r[0], src, r[1])])


def _reaches(steps: list[Step], src: list[list[Axis]], dst: list[list[Axis]], dst_mesh: Any) -> bool:
    """The route ends at `dst` on `dst_mesh`, and each collective_permute keeps every dimension's
    sharded size (a permute only exchanges whole blocks)."""
    before = src
    for st in steps:
        assert st.after is not None, "the inserter gives every step the axes after it"
        if st.kind == "collective_permute" and [axes_size(d) for d in st.after] != [axes_size(d) for d in before]:
            return False
        before = st.after
    last_mesh = steps[-1].mesh if steps else dst_mesh
    return [merge_axes(d) for d in before] == [merge_axes(d) for d in dst] and last_mesh == dst_mesh


def _gather_permute_slice(src: list[list[Axis]], dst: list[list[Axis]], src_mesh: Any, dst_mesh: Any) -> list[Step]:
    """Always correct: gather down to the common prefix, move to the target's devices, slice up."""
    steps: list[Step] = []
    keep = []
    for a, b in zip(src, dst):
        k = 0
        while k < len(a) and k < len(b) and a[k] == b[k]:
            k += 1
        keep.append(k)
    cur = [list(d[:k]) for d, k in zip(src, keep)]
    if any(len(d) > k for d, k in zip(src, keep)):
        steps.append(Step("all_gather", lists=[list(d[k:]) for d, k in zip(src, keep)], after=[list(d) for d in cur], mesh=src_mesh))
    if src_mesh != dst_mesh:
        steps.append(Step("collective_permute", after=[list(d) for d in cur], mesh=dst_mesh))
    if any(len(d) > k for d, k in zip(dst, keep)):
        after = [list(d) for d in dst]
        steps.append(Step("all_slice", lists=[list(d[k:]) for d, k in zip(dst, keep)], after=after, mesh=dst_mesh))
    return steps


def shardy_collectives(src: list[list[Axis]], dst: list[list[Axis]], shape: tuple[int, ...], full: dict[str, int],
                       src_mesh: Any, dst_mesh: Any) -> tuple[list[Step], bool]:  # fmt: skip
    """Shardy's collectives from `src` to `dst`, and whether they were used: where Shardy's route
    would emit a collective_permute that changes a dimension's size or stop short of the target
    (meshes whose axis sizes do not divide each other, e.g. 4x6), the always-correct
    gather-permute-slice route instead (Shardy's output there fails its own verifier or is wrong)."""
    steps = CollectiveInserter(src, dst, shape, full, src_mesh, dst_mesh).insert()
    if _reaches(steps, src, dst, dst_mesh):
        return steps, True
    return _gather_permute_slice(src, dst, src_mesh, dst_mesh), False
