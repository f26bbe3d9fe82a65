"""Shared helpers for the optimizer tests: a table-driven ShardSolver backend (like tt-mlir's gtest
`customCheckShardCompatible`), so the seeds' worked examples can be replayed with exact configs."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

import ttopt.dialects  # noqa: F401  (registers ops and typed attributes)
from ttopt.optimizer.chain import Edge

ROOT = Path(__file__).resolve().parents[2]
# Test modules here import shared graph builders (ttnn_graphs.py) from this directory.
sys.path.insert(0, str(Path(__file__).resolve().parent))


@dataclass
class TableBackend:
    """Configs per op given as grid volumes; compatibility given as a function or a table.

    `compatible(edge, p)` -> consumer configs; defaults to "same index" (the gtest's rule).
    `interleaved[op]`: bitset of first-op configs taking an interleaved input (default: all).
    `dispatch[op]`: (input layout, config) combinations for dispatch consumers.
    `reshards[op]`: consumer config -> layouts for insert_reshard (default: none, the reshard fails).
    """

    volumes: dict[Any, list[int]]
    compatible: Callable[[Edge, int], list[int]] | dict[tuple[Any, int], list[int]] | None = None
    interleaved: dict[Any, int] = field(default_factory=dict)
    dispatch: dict[Any, list[tuple[Any, int]]] = field(default_factory=dict)
    reshards: dict[Any, dict[int, list[Any]]] = field(default_factory=dict)
    block: dict[Any, set[int]] = field(default_factory=dict)
    conv: set[Any] = field(default_factory=set)
    edge_calls: int = 0

    def config_count(self, op: Any) -> int:
        return len(self.volumes[op])

    def core_count(self, op: Any, index: int) -> int:
        return self.volumes[op][index]

    def is_block_sharded(self, op: Any, index: int) -> bool:
        return index in self.block.get(op, set())

    def always_reshards_input(self, op: Any) -> bool:
        return op in self.conv

    def interleaved_input_configs(self, op: Any) -> int:
        return self.interleaved.get(op, (1 << len(self.volumes[op])) - 1)

    def dispatch_input_combinations(self, op: Any) -> list[tuple[Any, int]]:
        return list(self.dispatch.get(op, []))

    def edge_configs(self, edge: Edge, producer_config: int) -> list[int]:
        self.edge_calls += 1
        c = self.compatible
        if c is None:
            return [producer_config] if producer_config < len(self.volumes[edge.consumer]) else []
        if callable(c):
            return list(c(edge, producer_config))
        return list(c.get((edge.consumer, producer_config), []))

    def reshard_map(self, edge: Edge) -> dict[int, list[Any]]:
        return dict(self.reshards.get(edge.consumer, {}))

    def op_label(self, op: Any) -> str:
        return str(op)


def function_context(text: str, name: str = "test.mlir", canonicalize: bool = False, max_legal_layouts: int = 8,
                     overrides: dict | None = None, cap: float | None = None) -> Any:  # fmt: skip
    """Parse, optionally canonicalize, and run the analyses on the first forward function."""
    from ttopt.device import OpModel, load_device
    from ttopt.optimizer.analyses import AnalysisPipeline, forward_functions, op_labels
    from ttopt.optimizer.policies import FunctionContext
    from ttopt.optimizer.scheduler import split_block
    from ttopt.parse.parser import parse_module
    from ttopt.passes.canonicalize import Canonicalize
    from ttopt.passes.context import PassContext

    module = parse_module(text, name)
    if canonicalize:
        Canonicalize().run(module, PassContext())
    device = load_device(None, module, cap=cap)
    analyses = AnalysisPipeline(device, OpModel(device), max_legal_layouts, output_overrides=overrides or {})
    func = forward_functions(module)[0]
    block = func.regions[0].entry
    ops, _, _ = split_block(block.ops)
    labels = op_labels(block.ops)
    analyses.run(ops, labels)
    fn = FunctionContext(func, block, ops, labels, analyses)
    fn.module = module  # type: ignore[attr-defined]
    return fn


@pytest.fixture(scope="session")
def make_fn() -> Callable[..., Any]:
    return function_context


@pytest.fixture(scope="session")
def table_backend() -> type[TableBackend]:
    return TableBackend


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
