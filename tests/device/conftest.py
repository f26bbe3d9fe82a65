"""Shared helpers for the device-model tests: build one op from shapes, build layouts by name."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import pytest

import ttopt.dialects  # noqa: F401  (registers ops and typed attributes)
from ttopt.device import OpModel, preset
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.parse.parser import parse_module

MEM = {"i": "interleaved", "h": "height_sharded", "w": "width_sharded", "b": "block_sharded"}


def tensor(spec: str) -> str:
    """`64x64xbf16` -> `tensor<64x64xbf16>` (other types pass through)."""
    return spec if spec.startswith(("tensor<", "!")) else f"tensor<{spec}>"


def make_op(name: str, operands: Sequence[str], result: str, props: str = "", body: str = "") -> Any:
    """Parse `func.func @f(args) { %0 = "name"(args) <{props}> : (...) -> result }` and return the op."""
    args = ", ".join(f"%a{i}: {tensor(t)}" for i, t in enumerate(operands))
    uses = ", ".join(f"%a{i}" for i in range(len(operands)))
    types = ", ".join(tensor(t) for t in operands)
    prop = f" <{{{props}}}>" if props else ""
    text = (
        f"func.func @f({args}) -> {tensor(result)} {{\n"
        f'  %0 = "{name}"({uses}){prop} : ({types}) -> {tensor(result)}\n'
        f"  return %0 : {tensor(result)}\n}}\n{body}"
    )
    module = parse_module(text, "test.mlir")
    op = module.functions()[0].regions[0].entry.ops[0]
    return op


def make_layout(shape: Sequence[int], where: str = "dram", mem: str = "i", grid: Any = None, dtype: str = "bf16",
                tiled: bool = True, worker_grid: Sequence[int] = (8, 8)) -> TTNNLayoutAttr:  # fmt: skip
    """A canonical layout: `where` dram/l1/system_memory, `mem` one of i/h/w/b."""
    memory_layout = None if where == "system_memory" else MEM[mem]
    return TTNNLayoutAttr.build(
        tuple(shape), dtype, tiled=tiled, buffer_type=where, memory_layout=memory_layout, grid=grid,
        worker_grid=worker_grid,
    )  # fmt: skip


@pytest.fixture(scope="session")
def wormhole() -> Any:
    return preset("wormhole_b0")


@pytest.fixture()
def model(wormhole: Any) -> OpModel:
    return OpModel(wormhole)


@pytest.fixture(scope="session")
def op() -> Callable[..., Any]:
    return make_op


@pytest.fixture(scope="session")
def lay() -> Callable[..., TTNNLayoutAttr]:
    return make_layout
