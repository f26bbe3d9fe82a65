"""The ops that take a device tensor from one `#ttnn.ttnn_layout` to another, built as tt-mlir HEAD
spells them (its TTNNDecomposeLayouts); which ops, in which order, is `device.conversion_steps`.

HEAD's verifier rejects a `ttnn.to_layout` that changes the memory config, and
`ttnn.to_memory_config` has no attributes: the result's layout says everything.
"""

from __future__ import annotations

from typing import Any, Callable

from ttopt.device.conversion_steps import TO_LAYOUT, TO_MEMORY_CONFIG, TYPECAST, expresses, same_memory, same_page, steps
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.location import Location
from ttopt.ir.rewriter import create
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import ranked_shape

CONVERSION_OPS = frozenset({TO_LAYOUT, TO_MEMORY_CONFIG})
__all__ = ["CONVERSION_OPS", "TO_LAYOUT", "TO_MEMORY_CONFIG", "TYPECAST", "conversion_ops", "expresses", "same_memory", "same_page", "steps"]

TypeOf = Callable[[TensorType, TTNNLayoutAttr], TensorType]
SUFFIX = {TO_LAYOUT: "layout", TO_MEMORY_CONFIG: "memory", TYPECAST: "typecast"}


def conversion_ops(value: Any, src: TTNNLayoutAttr, dst: TTNNLayoutAttr, type_of: TypeOf, name: str,
                   wg: tuple[int, int], location: Location | None = None) -> list[Any]:  # fmt: skip
    """New ops taking `value` (laid out `src`) to `dst`, chained, the last one's result the converted
    value; the last op is located `name` (or `location`), the ones before it `name_layout` /
    `name_memory` / `name_typecast`."""
    t = value.type.resolve()
    assert isinstance(t, TensorType)
    shape = ranked_shape(t)
    plan = steps(shape, src, dst, wg)
    ops: list[Any] = []
    cur = value
    for i, (op_name, lay) in enumerate(plan):
        last = i == len(plan) - 1
        loc = name if last else f"{name}_{SUFFIX[op_name]}"
        where = location if last and location is not None else Location.named(loc)
        op = create(op_name, [cur], [type_of(t, lay)], location=where)
        ops.append(op)
        cur = op.results[0]
    return ops
