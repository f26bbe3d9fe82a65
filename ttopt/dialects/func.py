"""The func dialect: `func.func`, `return`, `call`."""

from ttopt.dialects.format_base import PrettyFormat
from ttopt.dialects.func_formats import CalleeFormat, FuncFormat
from ttopt.ir.opdef import ISOLATED, TERMINATOR, OpDef, register

register(
    OpDef(
        "func.func",
        operands=0,
        results=0,
        traits=frozenset({ISOLATED}),
        format=FuncFormat(),
        # A declaration has no body: no region in ttopt's IR, an empty one in MLIR's generic form.
        extra={"default_dialect": "func", "needs_terminator": True, "body_optional": True},
        summary="a function",
    ),
    OpDef(
        "func.return",
        results=0,
        traits=frozenset({TERMINATOR}),
        format=PrettyFormat("return", style="return"),
        extra={"aliases": ("return",)},
        summary="return from a function",
    ),
    OpDef(
        "func.call",
        format=CalleeFormat("callee", "call"),
        extra={"aliases": ("call",)},
        summary="call a function",
    ),
)
