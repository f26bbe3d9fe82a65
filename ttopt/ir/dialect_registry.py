"""The dialects ttopt registers and every op each one defines, as mlir-opt's context knows them.

`ttopt.dialects` fills the table on import (from the generated `ttopt/dialects/op_names.py`). The
rules are mlir-opt's: an op of a registered dialect must be one of that dialect's ops, flag or no
flag; an op of any other dialect is accepted only with --allow-unregistered-dialect. An op ttopt
defines itself (an `OpDef`) is always known, whatever its dialect.
"""

from __future__ import annotations

from typing import Mapping

from ttopt.ir.opdef import OP_DEFS

DIALECT_OPS: dict[str, frozenset[str]] = {}

# MLIR's words (mlir/lib/AsmParser/Parser.cpp), kept verbatim so that `expected-error` annotations
# written against mlir-opt match ttopt's diagnostics.
UNREGISTERED_DIALECT = (
    "operation being parsed with an unregistered dialect. If this is intended, please use "
    "-allow-unregistered-dialect with the MLIR tool used"
)


def register_dialect_ops(table: Mapping[str, frozenset[str]]) -> None:
    """Register dialect namespaces with their complete sets of (qualified) op names."""
    for dialect, names in table.items():
        DIALECT_OPS[dialect] = DIALECT_OPS.get(dialect, frozenset()) | names


def dialect_of(name: str) -> str:
    """The dialect namespace of an op name as MLIR splits it (empty for a name without a dot)."""
    head, dot, _ = name.partition(".")
    return head if dot else ""


def is_registered_dialect(dialect: str) -> bool:
    """Whether ttopt registers the dialect namespace `dialect`."""
    return dialect in DIALECT_OPS


def unregistered_op_message(name: str) -> str | None:
    """MLIR's error for an op name that its registered dialect does not define (None when the
    dialect defines it, or when the dialect is not registered: see `UNREGISTERED_DIALECT`)."""
    dialect = dialect_of(name)
    ops = DIALECT_OPS.get(dialect)
    if ops is None or name in ops:
        return None
    return f"unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"


def unknown_custom_op_message(name: str) -> str | None:
    """MLIR's error for a qualified `name` written in custom form that no dialect defines: an op its
    registered dialect lacks, or an op of an unregistered dialect (None when its registered dialect
    or ttopt defines it, so only ttopt lacks its format, and for names without a dialect prefix)."""
    dialect = dialect_of(name)
    if not dialect or name in OP_DEFS:
        return None
    ops = DIALECT_OPS.get(dialect)
    if ops is None:
        return f"Dialect `{dialect}' not found for custom op '{name}'"
    return None if name in ops else f"custom op '{name}' is unknown"
