"""MappingConstraints: hard and soft restrictions on where target nodes may land.

Semantics follow upstream notes §2.2, with every add made transactional (it returns a bool and
changes nothing when it returns False; upstream's trait add was not):

- required (hard): `allowed[t] &= S`; an absent set means "unrestricted". Overloads by argument
  shape: (t, g) pin, (t, {g..}) allowed set, ({t..}, g) pin each, ({t..}, {g..}) *pinning group*:
  the members land on distinct globals of the pool and left-over pool globals stay usable by anyone
  (upstream's newest semantics (b)); a group with more targets than globals is rejected.
- forbidden (hard): the pair can never be used; erased from an existing allowed set.
- preferred (soft): (t, g) *adds* g to t's preferred set, the set forms *intersect* with a
  non-empty preferred set (upstream quirk kept on purpose; its tests rely on both).
- trait constraints: targets listed in `target_traits` may only (required) / preferably (preferred)
  land on globals whose trait value is equal.
- cardinality (hard): at least `min_count` of the given (t, g) pairs hold in the final mapping.

An add fails when it leaves some target without an allowed global, a pinning group with fewer
globals than members, or a cardinality constraint with fewer compatible pairs than it needs.
Collections are `set`, `frozenset` or `list`; tuples are node ids (so grid coordinates work).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ttopt.topology.graph import node_sort_key

Node = Hashable


def _is_collection(x: object) -> bool:
    return isinstance(x, (set, frozenset, list))


def _as_set(x: Any) -> frozenset:
    return frozenset(x) if _is_collection(x) else frozenset((x,))


@dataclass(frozen=True)
class CardinalityConstraint:
    """At least `min_count` of `pairs` (target, global) must be in the final mapping."""

    pairs: tuple[tuple[Node, Node], ...]
    min_count: int


class MappingConstraints:
    """Required, forbidden, preferred, trait and cardinality constraints on a mapping."""

    def __init__(
        self,
        required: Iterable[tuple[Node, Node]] = (),
        preferred: Iterable[tuple[Node, Node]] = (),
    ) -> None:
        self._required: dict[Node, frozenset] = {}
        self._forbidden: dict[Node, frozenset] = {}
        self._preferred: dict[Node, frozenset] = {}
        self._groups: list[tuple[frozenset, frozenset]] = []
        self._cardinality: list[CardinalityConstraint] = []
        # Constructor form (upstream): pairs intersect per target, no validation; an empty
        # result is reported by validate() and by the solver.
        for t, g in required:
            self._required[t] = self._required.get(t, frozenset((g,))) & {g}
        for t, g in preferred:
            self._preferred[t] = self._preferred.get(t, frozenset()) | {g}

    # --- transactions --------------------------------------------------------------------------
    def _transaction(self, change) -> bool:
        saved = (dict(self._required), dict(self._forbidden), dict(self._preferred),
                 list(self._groups), list(self._cardinality))
        try:
            ok = change() is not False and self.validate()
        except (TypeError, ValueError):
            ok = False
        if not ok:
            (self._required, self._forbidden, self._preferred, self._groups,
             self._cardinality) = saved
        return ok

    def _restrict(self, t: Node, allowed: frozenset) -> None:
        cur = self._required.get(t)
        new = allowed if cur is None else cur & allowed
        self._required[t] = new - self._forbidden.get(t, frozenset())

    # --- required --------------------------------------------------------------------------------
    def add_required_constraint(self, target: Any, global_: Any) -> bool:
        """Pin / restrict target(s) to global(s) (overloads in the module docstring)."""
        targets, globals_ = _as_set(target), _as_set(global_)

        def change() -> bool:
            if not targets or not globals_:
                return False
            if _is_collection(target) and _is_collection(global_) and len(targets) > 1:
                if len(targets) > len(globals_):
                    return False  # pinning group: members need distinct globals of the pool
                self._groups.append((targets, globals_))
            for t in targets:
                self._restrict(t, globals_)
            return True

        return self._transaction(change)

    def add_required_trait_constraint(
        self, target_traits: Mapping[Node, Any], global_traits: Mapping[Node, Any]
    ) -> bool:
        """Each listed target may only land on globals with an equal trait value."""
        by_value: dict[Any, set] = {}
        for g, v in global_traits.items():
            by_value.setdefault(v, set()).add(g)

        def change() -> bool:
            for t, v in target_traits.items():
                self._restrict(t, frozenset(by_value.get(v, ())))
            return True

        return self._transaction(change)

    # --- forbidden -------------------------------------------------------------------------------
    def add_forbidden_constraint(self, target: Any, global_: Any) -> bool:
        """Forbid every (t, g) pair of the Cartesian product of the arguments."""
        targets, globals_ = _as_set(target), _as_set(global_)

        def change() -> bool:
            if not targets or not globals_:
                return False
            for t in targets:
                self._forbidden[t] = self._forbidden.get(t, frozenset()) | globals_
                if t in self._required:
                    self._required[t] = self._required[t] - globals_
            return True

        return self._transaction(change)

    # --- preferred -------------------------------------------------------------------------------
    def add_preferred_constraint(self, target: Any, global_: Any) -> bool:
        """Soft preference; (t, g) unions, set forms intersect a non-empty preferred set."""
        targets, globals_ = _as_set(target), _as_set(global_)

        def change() -> bool:
            if not targets or not globals_:
                return False
            single = not _is_collection(target) and not _is_collection(global_)
            for t in targets:
                cur = self._preferred.get(t, frozenset())
                if single:
                    self._preferred[t] = cur | globals_
                else:
                    self._preferred[t] = (cur & globals_) if cur else globals_
            return True

        return self._transaction(change)

    def add_preferred_trait_constraint(
        self, target_traits: Mapping[Node, Any], global_traits: Mapping[Node, Any]
    ) -> bool:
        """Each listed target prefers globals with an equal trait value (never fails)."""
        by_value: dict[Any, set] = {}
        for g, v in global_traits.items():
            by_value.setdefault(v, set()).add(g)

        def change() -> bool:
            for t, v in target_traits.items():
                want = frozenset(by_value.get(v, ()))
                cur = self._preferred.get(t, frozenset())
                self._preferred[t] = (cur & want) if cur else want
            return True

        return self._transaction(change)

    # --- cardinality -----------------------------------------------------------------------------
    def add_cardinality_constraint(
        self, pairs: Iterable[tuple[Node, Node]], min_count: int = 1
    ) -> bool:
        """At least `min_count` of the (target, global) pairs must hold."""
        pair_tuple = tuple(sorted(set(pairs), key=lambda p: (node_sort_key(p[0]),
                                                              node_sort_key(p[1]))))

        def change() -> bool:
            if not pair_tuple or min_count <= 0 or min_count > len(pair_tuple):
                return False
            self._cardinality.append(CardinalityConstraint(pair_tuple, min_count))
            return True

        return self._transaction(change)

    def add_cardinality_constraint_product(
        self, targets: Iterable[Node], globals_: Iterable[Node], min_count: int = 1
    ) -> bool:
        """Cardinality over the Cartesian product targets x globals."""
        return self.add_cardinality_constraint(
            [(t, g) for t in targets for g in globals_], min_count)

    # --- queries ---------------------------------------------------------------------------------
    def get_valid_mappings(self, target: Node) -> frozenset:
        """Allowed globals of `target` (empty set = unrestricted)."""
        return self._required.get(target, frozenset())

    def get_preferred_mappings(self, target: Node) -> frozenset:
        """Preferred globals of `target` (empty set = no preference)."""
        return self._preferred.get(target, frozenset())

    def is_restricted(self, target: Node) -> bool:
        """True if `target` has a required set (possibly empty = infeasible)."""
        return target in self._required

    def is_valid_mapping(self, target: Node, global_: Node) -> bool:
        """Whether (target, global) passes required and forbidden constraints."""
        if global_ in self._forbidden.get(target, ()):
            return False
        allowed = self._required.get(target)
        return allowed is None or global_ in allowed

    def get_all_valid_mappings(self) -> dict[Node, frozenset]:
        """target -> allowed set, for restricted targets."""
        return dict(self._required)

    def get_all_preferred_mappings(self) -> dict[Node, frozenset]:
        """target -> preferred set."""
        return {t: s for t, s in self._preferred.items() if s}

    def get_forbidden_pairs(self) -> list[tuple[Node, Node]]:
        """Every forbidden (target, global) pair, sorted."""
        out = [(t, g) for t, gs in self._forbidden.items() for g in gs]
        return sorted(out, key=lambda p: (node_sort_key(p[0]), node_sort_key(p[1])))

    def get_pinning_groups(self) -> list[tuple[frozenset, frozenset]]:
        """Many-to-many required groups (members on distinct globals of the pool)."""
        return list(self._groups)

    def get_cardinality_constraints(self) -> list[CardinalityConstraint]:
        """All cardinality constraints in insertion order."""
        return list(self._cardinality)

    def mentioned_targets(self) -> set:
        """Every target node any constraint talks about (to report unknown nodes)."""
        out = set(self._required) | set(self._forbidden) | set(self._preferred)
        for ts, _ in self._groups:
            out |= ts
        for c in self._cardinality:
            out |= {t for t, _ in c.pairs}
        return out

    def validate(self) -> bool:
        """True if no constraint is trivially unsatisfiable (empty sets, short groups, cardinality)."""
        if any(not s for s in self._required.values()):
            return False
        for targets, pool in self._groups:
            reach: set = set()
            for t in targets:
                reach |= self._required.get(t, pool) & pool
            if len(reach) < len(targets):
                return False
        for c in self._cardinality:
            if sum(1 for t, g in c.pairs if self.is_valid_mapping(t, g)) < c.min_count:
                return False
        return True
