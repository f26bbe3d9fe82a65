"""Structural verification: arity of known ops, terminators, dominance within blocks, returns.

Run after parsing and after every pass (as mlir-opt does), so a pass that breaks the IR is
caught at the pass that broke it, with the op named in the diagnostic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.diagnostics import Diagnostic, SourcePos
from ttopt.ir.opdef import TERMINATOR, arity_ok, arity_text
from ttopt.ir.values import OpResult

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation


def _where(op: Operation, module: Module) -> SourcePos | None:
    pos = op.pos
    if isinstance(pos, int) and module.source is not None:
        return SourcePos(module.source, pos)
    return None


def _fail(op: Operation, module: Module, message: str) -> Diagnostic:
    loc_name = op.location.name if op.location is not None else None
    suffix = f" (at {loc_name})" if loc_name and _where(op, module) is None else ""
    return Diagnostic(f"'{op.name}' op {message}{suffix}", _where(op, module))


def verify(module: Module) -> None:
    """Raise a Diagnostic for the first structural problem found."""
    for op in module.op.walk():
        _verify_op(op, module)


def _verify_op(op: Operation, module: Module) -> None:
    d = op.opdef
    if d is not None:
        if not arity_ok(d.operands, len(op.operands)):
            raise _fail(op, module, f"expects {arity_text(d.operands)} operand(s), got {len(op.operands)}")
        if not arity_ok(d.results, len(op.results)):
            raise _fail(op, module, f"expects {arity_text(d.results)} result(s), got {len(op.results)}")
        if d.regions is not None and len(op.regions) != d.regions and op.name != "func.func":
            raise _fail(op, module, f"expects {d.regions} region(s), got {len(op.regions)}")
        if d.has(TERMINATOR) and op.parent is not None and op.parent.ops[-1] is not op:
            raise _fail(op, module, "must be the last operation of its block")
        if d.extra.get("needs_terminator"):
            for region in op.regions:
                for block in region.blocks:
                    last = block.ops[-1] if block.ops else None
                    ld = last.opdef if last is not None else None
                    if last is None or ld is None or not ld.has(TERMINATOR):
                        raise _fail(op, module, "region block must end with a terminator (e.g. return)")
        if op.name == "func.func" and op.regions:
            _verify_func_return(op, module)
    for region in op.regions:
        for block in region.blocks:
            _verify_dominance(block, op, module)


def _verify_func_return(func: Operation, module: Module) -> None:
    ft = func.properties["function_type"].type
    for block in func.regions[0].blocks:
        ret = block.ops[-1] if block.ops else None
        if ret is None or ret.name != "func.return":
            continue
        got = [v.type for v in ret.operands]
        if len(got) != len(ft.results) or any(a != b for a, b in zip(got, ft.results)):
            want = ", ".join(t.text for t in ft.results) or "nothing"
            have = ", ".join(t.text for t in got) or "nothing"
            raise _fail(ret, module, f"returns ({have}) but the function's result types are ({want})")


def _verify_dominance(block: Block, owner: Operation, module: Module) -> None:
    index = {id(op): i for i, op in enumerate(block.ops)}
    for i, op in enumerate(block.ops):
        for v in op.operands:
            if isinstance(v, OpResult):
                j = index.get(id(v.op))
                if j is not None and j >= i:
                    raise _fail(op, module, f"uses a value defined later in the block (by '{v.op.name}')")
                if j is None and v.op.parent is None:
                    raise _fail(op, module, f"uses a value of an erased '{v.op.name}' op")
