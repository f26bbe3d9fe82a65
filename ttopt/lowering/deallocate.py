"""`ttnn-deallocate`: free every intermediate device tensor right after its last reader (tt-mlir's
TTNNDeallocate), so a program's DRAM and L1 footprint follow the values actually live.

A `"ttnn.deallocate"(%v) <{force = false}>` goes after the last top-level op that reads `%v` (a
reader inside a region counts as its enclosing top-level op). Function arguments, returned values,
values read by nothing and non-tensor values (the device) are left alone; a value already
deallocated is not freed twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.attributes import BoolAttr
from ttopt.ir.operation import Block, Operation
from ttopt.ir.types import TensorType
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


def insert_deallocations(block: Block) -> int:
    """Insert the deallocations of one block's op results; returns how many."""
    ops = list(block.ops)
    index = {op: i for i, op in enumerate(ops)}
    after: dict[int, list[Operation]] = {}
    count = 0
    for op in ops:
        if op.name == "ttnn.deallocate":
            continue
        for r in op.results:
            if not isinstance(r.type.resolve(), TensorType) or not r.uses:
                continue
            last, skip = -1, False
            for u in r.users:
                top = u.ancestor_in(index)
                if top is None or u.name in ("func.return", "ttnn.deallocate") or top.name == "func.return":
                    skip = True
                    break
                last = max(last, index[top])
            if skip or last < 0:
                continue
            dealloc = Operation("ttnn.deallocate", [r], [], properties={"force": BoolAttr(False)})
            after.setdefault(last, []).append(dealloc)
            count += 1
    out: list[Operation] = []
    for i, op in enumerate(ops):
        out.append(op)
        for d in after.get(i, ()):
            d.parent = block
            out.append(d)
    block.ops = out
    return count


@register_pass
@dataclass
class TTNNDeallocate(Pass):
    """Deallocate every intermediate tensor after its last use."""

    name = "ttnn-deallocate"
    summary = "Insert ttnn.deallocate after the last use of every intermediate tensor (tt-mlir's TTNNDeallocate)"

    def run(self, module: Module, ctx: PassContext) -> None:
        count = 0
        for func in module.functions():
            if func.regions and func.regions[0].blocks:
                count += insert_deallocations(func.regions[0].entry)
        ctx.stats.setdefault(self.name, {})["deallocations"] = count
