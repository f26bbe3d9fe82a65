"""EmitC ops in the pretty forms MLIR prints them in tt-mlir's kernels (EmitC.td `assemblyFormat`).

* `%0 = emitc.expression %a, %b {attrs} [noinline] : (A, B) -> R { ... yield %r : R }` — the body
  reads the enclosing values directly; inside it `emitc` is the default dialect (`yield`, `add`).
* `%1 = emitc.literal "text" {attrs} : T`
* `emitc.verbatim "fmt {}" [args %a, %b : A, B] {attrs}`
* `%2 = emitc.call_opaque "f"(%a) {args = [..], template_args = [..]} : (A) -> R`
* arithmetic / logic ops: `%3 = emitc.add %a, %b : (A, B) -> R`

`emitc.constant` has no custom form (MLIR prints it generic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.format_base import Format, PrettyFormat, str_of, typed_values
from ttopt.ir.attributes import StringAttr, UnitAttr, quote, unquote
from ttopt.ir.opdef import PURE, TERMINATOR, OpDef, register, register_format_rules

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.printer import Printer
    from ttopt.parse.opspec import OpSpec
    from ttopt.parse.parser import IRBuilder


class ExpressionFormat(Format):
    """`emitc.expression %a {attrs} [noinline] : (A) -> R { body }`."""

    family = "OP_EMITC_EXPRESSION"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, values, attrs, noinline, sig, region = c
        ins, outs = b.signature(sig)
        props = {"do_not_inline": UnitAttr()} if noinline is not None else {}
        return self._spec(
            b, c, values or [], operand_types=list(ins), result_types=list(outs), properties=props,
            attributes=b.dict(attrs), regions=[region],
        )  # fmt: skip

    def printable(self, op: Operation) -> bool:
        return len(op.regions) == 1 and set(op.properties) <= {"do_not_inline"}

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        # MLIR writes the operand list after one space even when it is empty (two spaces then).
        s = f"{self.name(op, p)} {p.names_of(op.operands)}{p.attr_dict(op.attributes)}"
        if "do_not_inline" in op.properties:
            s += " noinline"
        sig = p.fn_type([v.type for v in op.operands], [r.type for r in op.results])
        return f"{s} : {sig} {p.region(op.regions[0], indent)}"


class StringOpFormat(Format):
    """`emitc.literal "text" {attrs} : T` and `emitc.verbatim "fmt" [args %a : A] {attrs}`."""

    family = "OP_EMITC_STRING"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, text_tok, args, attrs, ty = c
        values, types = args if args is not None else ([], [])
        return self._spec(
            b, c, values, operand_types=types, result_types=[b.type(ty)] if ty is not None else [],
            properties={"value": StringAttr(unquote(str(text_tok)))}, attributes=b.dict(attrs),
        )  # fmt: skip

    def printable(self, op: Operation) -> bool:
        return isinstance(op.properties.get("value"), StringAttr) and len(op.properties) == 1 and len(op.results) <= 1

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = f"{self.name(op, p)} {quote(str_of(op.properties['value']))}"
        if op.operands:
            s += f" args {p.names_of(op.operands)} : {p.types([v.type for v in op.operands])}"
        s += p.attr_dict(op.attributes)
        if op.results:
            s += f" : {p.type(op.results[0].type)}"
        return s


class CallOpaqueFormat(Format):
    """`emitc.call_opaque "f"(%a) {args = [..]} : (A) -> R` (the callee is a C++ name, a string)."""

    family = "OP_EMITC_CALL_OPAQUE"

    def __init__(self) -> None:
        super().__init__(style="functional", inherent=("args", "template_args"))

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, callee_tok, operands_tok, attrs, sig = c
        ins, outs = b.signature(sig)
        spec = self._spec(
            b, c, b.operand_tokens(operands_tok), operand_types=list(ins), result_types=list(outs),
            properties={"callee": StringAttr(unquote(str(callee_tok)))}, attributes=b.dict(attrs),
        )  # fmt: skip
        spec.operand_src = (str(operands_tok), operands_tok.start_pos)
        return spec

    def printable(self, op: Operation) -> bool:
        return isinstance(op.properties.get("callee"), StringAttr) and set(op.properties) <= {"callee", *self.inherent}

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        sig = p.fn_type([v.type for v in op.operands], [r.type for r in op.results])
        callee = quote(str_of(op.properties["callee"]))
        return f"{self.name(op, p)} {callee}({p.names_of(op.operands)}){self.attrs(op, p)} : {sig}"


_BINARY = (
    "add", "sub", "mul", "div", "rem", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
    "bitwise_right_shift", "logical_and", "logical_or",
)  # fmt: skip
_UNARY = ("bitwise_not", "logical_not", "unary_minus", "unary_plus")

register(
    OpDef("emitc.expression", results=1, regions=1, format=ExpressionFormat(), extra={"default_dialect": "emitc"}),
    OpDef(
        "emitc.yield", results=0, traits=frozenset({TERMINATOR}), format=PrettyFormat("yield", style="return"),
        extra={"aliases": ("yield",)},
    ),
    OpDef("emitc.literal", operands=0, results=1, traits=frozenset({PURE}), format=StringOpFormat()),
    OpDef("emitc.verbatim", results=0, format=StringOpFormat()),
    OpDef("emitc.call_opaque", format=CallOpaqueFormat()),
    *(
        OpDef(f"emitc.{n}", operands=2, results=1, format=PrettyFormat(n, style="functional"), extra={"aliases": (n,)})
        for n in _BINARY
    ),
    *(
        OpDef(f"emitc.{n}", operands=1, results=1, format=PrettyFormat(n, style="functional"), extra={"aliases": (n,)})
        for n in _UNARY
    ),
)  # fmt: skip


def _family_rule(b: IRBuilder, c: list) -> OpSpec:
    return b._format(c[0]).build(b, c)


register_format_rules(
    {"emitc_expression_op": _family_rule, "emitc_string_op": _family_rule, "call_opaque_op": _family_rule, "string_args": typed_values}  # `args %a, %b : A, B`
)
