"""ConnectionValidationMode and MappingResult (seed: "Connection Validation Modes", upstream §2.3-2.4)."""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

Node = Hashable


class ConnectionValidationMode(enum.Enum):
    """How channel counts on mapped edges are treated."""

    STRICT = "strict"  # every target link needs >= as many channels on its global link
    RELAXED = "relaxed"  # prefer enough channels, warn on shortfalls (default)
    NONE = "none"  # edges must exist; channel counts ignored, no warnings


class Status(str, enum.Enum):
    """Why the solver stopped (lets callers tell "impossible" from "gave up")."""

    MAPPED = "mapped"
    UNSAT = "unsat"  # proven: no mapping exists (by a proof or by exhausting the search)
    LIMIT = "limit"  # time or node limit reached before an answer
    INVALID = "invalid"  # the inputs themselves are inconsistent (e.g. unknown nodes)


@dataclass
class SolverStatistics:
    """Counters of one solve (seed: "stats{dfs_calls, backtrack_count, ...}")."""

    nodes_explored: int = 0
    backtracks: int = 0
    prunings: int = 0
    elapsed_ms: float = 0.0
    engine: str = "search"  # which engine produced the answer: proof, path, search, sat
    memoization_hits: int = 0  # always 0: the seed's memo is not used (see docs/topology.md)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly dict."""
        return {
            "nodes_explored": self.nodes_explored,
            "backtracks": self.backtracks,
            "prunings": self.prunings,
            "elapsed_ms": round(self.elapsed_ms, 3),
            "engine": self.engine,
        }


@dataclass
class ConstraintStats:
    """How many required / preferred constraints the mapping satisfies (upstream §2.4)."""

    required_satisfied: int = 0
    preferred_satisfied: int = 0
    preferred_total: int = 0  # number of targets with a preference (not upstream's set sizes)


@dataclass
class MappingResult:
    """Outcome of solve_topology_mapping: the mapping both ways, or the reason there is none."""

    success: bool = False
    target_to_global: dict[Node, Node] = field(default_factory=dict)
    global_to_target: dict[Node, Node] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error_message: str = ""
    status: Status = Status.UNSAT
    proof: str | None = None  # name of the impossibility proof, when one decided the instance
    stats: SolverStatistics = field(default_factory=SolverStatistics)
    constraint_stats: ConstraintStats = field(default_factory=ConstraintStats)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly dict with node ids kept as ints/strings."""
        return {
            "success": self.success,
            "status": self.status.value,
            "proof": self.proof,
            "error": self.error_message or None,
            "mapping": [[t, g] for t, g in self.target_to_global.items()],
            "warnings": list(self.warnings),
            "stats": self.stats.as_dict(),
            "constraints": {
                "required_satisfied": self.constraint_stats.required_satisfied,
                "preferred_satisfied": self.constraint_stats.preferred_satisfied,
                "preferred_total": self.constraint_stats.preferred_total,
            },
        }
