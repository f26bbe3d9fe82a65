"""TTIR -> TTNN for the KV-cache ops (tt-mlir's TTIRToTTNN UpdateCache / FillCache patterns).

`ttir.update_cache(cache, input, update_index)` and `ttir.fill_cache(cache, input)` write `cache`
in place and have no result; they become `ttnn.update_cache` / `ttnn.fill_cache` with the same
operands and their `batch_offset` (I32Attr). The cache is a function argument in every model that
uses them, so it keeps the argument's DRAM-interleaved layout; the optimizer leaves ops without a
result where they are (no layout of theirs to choose).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

I32 = ScalarType("i32")


def _cache_op(name: str, operands: int) -> Any:
    """TTIR in-place cache op -> the TTNN op of the same name, no results."""

    def rule(lw: _Lowering, op: Any) -> list[Any]:
        ins = inputs(op)
        if len(ins) != operands:
            raise ValueError(f"has {len(ins)} operands; {name} takes {operands}")
        offset = getattr(op.get_attr("batch_offset"), "value", None)
        if not isinstance(offset, int):
            raise ValueError("needs an integer 'batch_offset'")
        new = Operation(f"ttnn.{name}", ins, [], properties={"batch_offset": IntegerAttr(offset, I32)}, location=op.location)
        lw.out.append(new)
        return []

    return rule


CACHE_RULES = {"update_cache": _cache_op("update_cache", 3), "fill_cache": _cache_op("fill_cache", 2)}
# Ops without results (the lowering's one-result check does not apply).
NO_RESULT = frozenset(CACHE_RULES)
