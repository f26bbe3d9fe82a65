"""Diagnostics of the sharding passes: errors and warnings at an op, MLIR style, and typed
attribute reads that turn a malformed body into an error at the op."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import Attribute
from ttopt.ir.diagnostics import Diagnostic, SourcePos
from ttopt.ir.operation import Operation

if TYPE_CHECKING:
    from ttopt.ir.module import Module

log = logging.getLogger("ttopt.sharding")


def where(module: Module, op: Operation | None) -> SourcePos | None:
    """Source position of `op` (or of the nearest ancestor that has one)."""
    cur = op
    while cur is not None:
        if isinstance(cur.pos, int) and module.source is not None:
            return SourcePos(module.source, cur.pos)
        cur = cur.parent_op
    return None


def fail(module: Module, op: Operation | None, message: str) -> Diagnostic:
    """A Diagnostic at `op`; the caller raises it."""
    return Diagnostic(message, where(module, op))


def op_label(op: Operation) -> str:
    """`'stablehlo.add' op` (MLIR's way of naming an op in a message)."""
    return f"'{op.name}' op"


def warn(module: Module, op: Operation | None, message: str) -> None:
    """An MLIR-style warning on the `ttopt.sharding` logger (stderr by default)."""
    pos = where(module, op)
    name = module.source.name if module.source is not None else "<input>"
    if pos is not None:
        line, col = pos.source.line_col(pos.offset)
        log.warning("%s:%d:%d: warning: %s", name, line, col, message)
    else:
        log.warning("%s: warning: %s", name, message)


def typed(module: Module, op: Operation | None, attr: Attribute, what: str) -> Any:
    """The typed model of a dialect attribute; a malformed body becomes a Diagnostic at `op`."""
    from ttopt.dialects.errors import AttrError

    try:
        model = attr.resolve().typed  # type: ignore[attr-defined]
    except AttrError as e:
        raise fail(module, op, f"{what}: {e.message}") from None
    if model is None:
        raise fail(module, op, f"{what}: expected a typed attribute, got {attr.text}")
    return model
