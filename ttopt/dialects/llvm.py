"""The llvm dialect, as far as ttopt writes it: `llvm.func` in MLIR's custom form, every other op in
the generic form (which MLIR reads for any llvm op), and the llvm types as opaque spellings.

`llvm.func` keeps MLIR's properties: `sym_name` and `function_type`, an `!llvm.func<R (A, B)>` type
(`void` for no result). Inside `!llvm.func<...>` and `!llvm.struct<(...)>` MLIR writes llvm types
without their `!llvm.` prefix; `short_type` / `full_type` convert between the two spellings.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

from ttopt.dialects.format_base import items_of, str_of, without_entry_args
from ttopt.dialects.func_formats import FuncFormat, printed_arguments
from ttopt.ir.attributes import DictAttr, TypeAttr
from ttopt.ir.opdef import ISOLATED, TERMINATOR, OpDef, register
from ttopt.ir.printer import sym_text
from ttopt.ir.types import FunctionType, OpaqueType, ScalarType, Type

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.printer import Printer
    from ttopt.parse.opspec import OpSpec
    from ttopt.parse.parser import IRBuilder

_BUILTIN = re.compile(r"(?:[isu]i?\d+|f\d+|bf16|tf32|index)$")
# The properties the custom form of llvm.func can say; any other (linkage, CConv, ...) prints generic.
_CUSTOM_PROPS = frozenset({"sym_name", "function_type", "arg_attrs", "res_attrs"})


def llvm_type(text: str) -> Type:
    """The Type of a full llvm-dialect spelling (`!llvm.ptr`, `!llvm.struct<(ptr, i64)>`) or a builtin one."""
    if not text.startswith("!llvm."):
        return ScalarType(text)
    head = text[1:].split("<", 1)
    return OpaqueType(text, head[0], head[1][:-1] if len(head) > 1 else None)


def short_type(t: Type | str) -> str:
    """The spelling MLIR uses for `t` nested in another llvm type (`ptr` for `!llvm.ptr`)."""
    text = t if isinstance(t, str) else t.resolve().canonical()
    return text[len("!llvm.") :] if text.startswith("!llvm.") else text


def full_type(short: str) -> Type:
    """The Type of a nested llvm spelling (`ptr` -> `!llvm.ptr`, `i64` stays `i64`)."""
    return ScalarType(short) if _BUILTIN.match(short) else llvm_type("!llvm." + short)


def split_top(text: str) -> list[str]:
    """`text` split at its commas outside any bracket ("" gives no parts)."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    return parts + [tail] if tail or parts else parts


def func_type(result: Type | None, inputs: list[Type]) -> Type:
    """`!llvm.func<R (A, B)>` (`void` when `result` is None)."""
    res = "void" if result is None else short_type(result)
    return llvm_type(f"!llvm.func<{res} ({', '.join(short_type(t) for t in inputs)})>")


def signature(op: Operation) -> tuple[Type | None, list[Type]]:
    """An llvm.func's result type (None for void) and argument types, from its `function_type`."""
    text = cast(TypeAttr, op.properties["function_type"]).type.resolve().canonical()
    body = text[len("!llvm.func<") : -1]
    depth = 0
    for i, c in enumerate(body):  # the result type ends at the first space outside brackets
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == " " and depth == 0:
            break
    res, args = body[:i], body[i + 1 :].strip()[1:-1]
    return (None if res == "void" else full_type(res)), [full_type(a) for a in split_top(args)]


class LLVMFuncFormat(FuncFormat):
    """`llvm.func @f(%arg0: !llvm.ptr, %arg1: i64) -> !llvm.ptr attributes {..} {..}`; a declaration
    lists types only (`llvm.func @malloc(i64) -> !llvm.ptr`). The grammar is func.func's."""

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        spec = super().build(b, c)
        ft = cast(FunctionType, cast(TypeAttr, spec.properties["function_type"]).type)
        if len(ft.results) > 1:
            raise ValueError("llvm.func returns at most one value")
        spec.properties["function_type"] = TypeAttr(func_type(ft.results[0] if ft.results else None, list(ft.inputs)))
        return spec

    def printable(self, op: Operation) -> bool:
        return set(op.properties) <= _CUSTOM_PROPS and "function_type" in op.properties

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        result, inputs = signature(op)
        res_attrs = pr.get("res_attrs")
        args = printed_arguments(op, inputs, p)
        s = f"{self.name(op, p)} {sym_text(str_of(pr['sym_name']))}({', '.join(args)})"
        if result is not None:
            r_attrs = cast(DictAttr, items_of(res_attrs)[0]).entries if res_attrs is not None else {}
            s += f" -> {p.type(result)}{p.attr_dict(r_attrs)}"
        if op.attributes:
            s += f" attributes {{{p.dict_body(op.attributes)}}}"
        if op.regions:
            s += " " + p.region(without_entry_args(op.regions[0]), indent)
        return s


register(
    OpDef(
        "llvm.func", operands=0, results=0, traits=frozenset({ISOLATED}), format=LLVMFuncFormat(),
        extra={"needs_terminator": True, "body_optional": True}, summary="an LLVM function",
    ),
    # The initializer region is empty for a global with a `value`: held without a region, printed `({\n})`.
    OpDef("llvm.mlir.global", operands=0, results=0, extra={"body_optional": True}, summary="a global variable or constant"),
    OpDef("llvm.return", operands=(0, 1), results=0, traits=frozenset({TERMINATOR}), summary="return from an LLVM function"),
    OpDef("llvm.br", results=0, traits=frozenset({TERMINATOR}), summary="unconditional branch"),
    OpDef("llvm.cond_br", operands=(1, None), results=0, traits=frozenset({TERMINATOR}), summary="conditional branch"),
)  # fmt: skip
