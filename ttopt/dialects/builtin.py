"""The builtin dialect: `module`."""

from ttopt.dialects.func_formats import ModuleFormat
from ttopt.ir.opdef import ISOLATED, SYMBOL_TABLE, OpDef, register

register(
    OpDef(
        "builtin.module",
        operands=0,
        results=0,
        regions=1,
        traits=frozenset({ISOLATED, SYMBOL_TABLE}),
        format=ModuleFormat("module"),
        extra={"aliases": ("module",), "default_dialect": ""},
        summary="top-level container of functions and globals",
    )
)
