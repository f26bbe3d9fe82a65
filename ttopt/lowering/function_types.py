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


def through_const_eval(v: Any) -> Any:
    """The value a `ttcore.load_cached` result stands for: what its const-eval function returns
    there (HEAD's getDefiningOpThroughConstEval); any other value as it is."""
    op = getattr(v, "op", None)
    if op is None or op.name != "ttcore.load_cached":
        return v
    callee = getattr(op.properties.get("callee"), "root", None)
    top = op
    while top.parent_op is not None:
        top = top.parent_op
    func = next((f for f in top.walk() if f.name == "func.func" and getattr(f.properties.get("sym_name"), "value", None) == callee
                 and f.regions and f.regions[0].blocks), None)  # fmt: skip
    if func is None:
        return v
    ret = func.regions[0].entry.ops[-1]
    index = op.results.index(v)
    return ret.operands[index] if ret.name == "func.return" and index < len(ret.operands) else v
