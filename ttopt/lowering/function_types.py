"""The kinds of function tt-mlir tells apart by `tt.function_type`: const-eval functions, and the
host functions of a CPU module with their device-side declarations (and the calls of those)."""

from __future__ import annotations

from typing import Any

FUNCTION_TYPE = "tt.function_type"
CONST_EVAL = "const_eval"
FORWARD_CPU = "forward_cpu"
FORWARD_CPU_DECLARATION = "forward_cpu_declaration"
HOISTED_CALL = "ttir.cpu_hoisted_call"


def function_type(func: Any) -> str | None:
    """A function's `tt.function_type` (None when it has none)."""
    return getattr(func.attributes.get(FUNCTION_TYPE), "value", None)


def is_const_eval(func: Any) -> bool:
    """Whether `func` is a const-eval function (`tt.function_type = "const_eval"`)."""
    return function_type(func) == CONST_EVAL


def is_cpu_declaration(func: Any) -> bool:
    """Whether `func` declares a CPU-hoisted function (`tt.function_type = "forward_cpu_declaration"`)."""
    return function_type(func) == FORWARD_CPU_DECLARATION


def is_hoisted_call(op: Any) -> bool:
    """Whether `op` is a call of a CPU-hoisted function."""
    return op.name == "func.call" and HOISTED_CALL in op.attributes
