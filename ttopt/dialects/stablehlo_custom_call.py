"""`stablehlo.custom_call` in MLIR's pretty form, which leaves out properties at their defaults.

MLIR keeps whatever the input wrote (the generic form shows `api_version = 1 : i32` when it was
written), but the declarative printer elides an attribute equal to its declared default:
`api_version = 1` (API_VERSION_ORIGINAL) and `has_side_effect = false`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ttopt.dialects.func_formats import CalleeFormat
from ttopt.ir.attributes import Attribute, BoolAttr, IntegerAttr
from ttopt.ir.opdef import OP_DEFS, register

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.printer import Printer

_INHERENT = (
    "api_version", "backend_config", "called_computations", "has_side_effect", "operand_layouts",
    "output_operand_aliases", "result_layouts",
)  # fmt: skip


def _at_default(name: str, value: Attribute) -> bool:
    v = value.resolve()
    if name == "api_version":
        return isinstance(v, IntegerAttr) and v.value == 1
    if name == "has_side_effect":
        return isinstance(v, BoolAttr) and not v.value
    return False


class CustomCallFormat(CalleeFormat):
    """`stablehlo.custom_call @target(%a) {attrs} : (A) -> R` without default-valued properties."""

    def __init__(self) -> None:
        super().__init__("call_target_name", inherent=_INHERENT)

    def attrs(self, op: Operation, p: Printer) -> str:
        merged = dict(op.attributes)
        for k in self.inherent:
            v = op.properties.get(k)
            if v is not None and not _at_default(k, v):
                merged[k] = v
        return p.attr_dict(merged)


register(replace(OP_DEFS["stablehlo.custom_call"], format=CustomCallFormat()))
