"""What the ttnn-optimizer requires of its input, checked before any analysis.

Decision: these are the optimizer's preconditions, not ttnn op verifiers. A TTNN module without
layouts is valid IR (tt-mlir's TTNN layout pass is what adds them) and `ttopt opt` without the
optimizer passes it through; only the optimizer needs every TTNN result to be a ranked tensor
carrying a `#ttnn.ttnn_layout`, and an operand's encoding, when it has one, to be a TTNN layout
(an operand without one, e.g. a function argument, is taken as DRAM interleaved). Each failure is an error at the op (file:line:col), exit 1.
"""

from __future__ import annotations

from typing import Any

from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.diagnostics import Diagnostic, SourcePos
from ttopt.ir.types import TensorType


def op_error(module: Any, op: Any, message: str) -> Diagnostic:
    """`'<op>' op <message>` at the op's position (or naming its location when it has none)."""
    pos = SourcePos(module.source, op.pos) if isinstance(op.pos, int) and module.source is not None else None
    name = op.location.name if op.location is not None else None
    suffix = f" (at {name})" if name and pos is None else ""
    return Diagnostic(f"'{op.name}' op {message}{suffix}", pos)


def _encoding_problem(t: TensorType) -> str | None:
    try:
        typed = getattr(t.encoding.resolve(), "typed", None)
    except AttrError as e:
        return f"has an invalid layout encoding: {e.message}"
    if not isinstance(typed, TTNNLayoutAttr):
        return f"encoding {t.encoding.text} is not a #ttnn.ttnn_layout"
    return None


def operand_problem(op: Any) -> str | None:
    """An unranked operand, or one whose encoding is not a TTNN layout (no encoding is fine)."""
    for i, v in enumerate(op.operands):
        t = v.type.resolve()
        if isinstance(t, TensorType) and not t.is_ranked:
            return f"operand {i} is an unranked tensor ({t.text}); ttnn-optimizer needs ranked TTNN tensors"
        if isinstance(t, TensorType) and t.encoding is not None:
            problem = _encoding_problem(t)
            if problem is not None:
                return f"operand {i} {problem}"
    return None


def result_problem(op: Any) -> str | None:
    """Why a ttnn op's results cannot be optimized, or None when they can."""
    for i, r in enumerate(op.results):
        t = r.type.resolve()
        if not isinstance(t, TensorType):
            continue
        if not t.is_ranked:
            return f"result {i} is an unranked tensor ({t.text}); ttnn-optimizer needs ranked TTNN tensors"
        if t.encoding is None:
            return (
                f"result {i} ({t.text}) has no #ttnn.ttnn_layout encoding; ttnn-optimizer needs the layout of "
                "every TTNN result"
            )
        problem = _encoding_problem(t)
        if problem is not None:
            return f"result {i} {problem}"
    return None


def check_block(module: Any, block: Any) -> None:
    """Raise a positioned Diagnostic at the first ttnn op of `block` the optimizer cannot take."""
    for op in block.ops:
        if op.name.startswith("ttnn."):
            problem = result_problem(op) or operand_problem(op)
            if problem is not None:
                raise op_error(module, op, problem)
