"""Fabric topology mapping: place a logical device graph onto a physical one.

Public API (mirrors the seed's `tt::tt_fabric` surface): AdjacencyGraph, MappingConstraints,
ConnectionValidationMode, MappingResult, solve_topology_mapping. No dependency on ttopt.ir.
"""

from ttopt.topology.constraints import CardinalityConstraint, MappingConstraints
from ttopt.topology.graph import AdjacencyGraph
from ttopt.topology.result import (
    ConnectionValidationMode,
    ConstraintStats,
    MappingResult,
    SolverStatistics,
    Status,
)
from ttopt.topology.search import TraceRecorder
from ttopt.topology.solve import solve_topology_mapping
from ttopt.topology.sources import GraphSpecError, generate, load_graph

__all__ = [
    "AdjacencyGraph",
    "CardinalityConstraint",
    "ConnectionValidationMode",
    "ConstraintStats",
    "GraphSpecError",
    "MappingConstraints",
    "MappingResult",
    "SolverStatistics",
    "Status",
    "TraceRecorder",
    "generate",
    "load_graph",
    "solve_topology_mapping",
]
