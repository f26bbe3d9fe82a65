"""builtin/func custom assembly: module, func.func, func.call, and `sym = value` symbol ops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, cast

from ttopt.dialects.format_base import Format, items_of, str_of, symbol_name, without_entry_args
from ttopt.ir.attributes import (
    ArrayAttr,
    Attribute,
    DialectAttr,
    DictAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from ttopt.ir.operation import Operation
from ttopt.ir.printer import sym_text
from ttopt.ir.types import FunctionType
from ttopt.parse.opspec import OpSpec

if TYPE_CHECKING:
    from ttopt.ir.printer import Printer
    from ttopt.parse.parser import IRBuilder

_VISIBILITIES = frozenset({"public", "private", "nested"})


class CalleeFormat(Format):
    """`call @f(%a) : (A) -> R` / `stablehlo.custom_call @target(%a) {attrs} : (A) -> R`."""

    family = "OP_CALLEE"

    def __init__(self, prop: str, print_name: str | None = None, inherent: tuple[str, ...] = ()) -> None:
        super().__init__(print_name, style="functional", inherent=inherent)
        self.prop = prop

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, operands_tok, attrs, sig = c
        name = symbol_name(str(sym_tok))
        value: Attribute = SymbolRefAttr(name) if self.prop == "callee" else StringAttr(name)
        ins, outs = b.signature(sig)
        spec = self._spec(
            b, c, b.operand_tokens(operands_tok), operand_types=list(ins), result_types=list(outs),
            properties={self.prop: value}, attributes=b.dict(attrs),
        )
        spec.operand_src = (str(operands_tok), operands_tok.start_pos)
        return spec

    def printable(self, op: Operation) -> bool:
        """A flat symbol (`callee`) or a string (`call_target_name`): `@a::@b` has no custom form."""
        v = op.properties.get(self.prop)
        if self.prop == "callee":
            return isinstance(v, SymbolRefAttr) and not v.nested
        return isinstance(v, StringAttr) and v.type is None

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        v = op.properties[self.prop]
        name = v.root if isinstance(v, SymbolRefAttr) else str_of(v)
        sig = p.fn_type([x.type for x in op.operands], [r.type for r in op.results])
        return f"{self.name(op, p)} {sym_text(name)}({p.names_of(op.operands)}){self.attrs(op, p)} : {sig}"




class SymEqFormat(Format):
    """`sdy.mesh @mesh = <["x"=2]> {attrs}`, `ttcore.device @d = <...>`."""

    family = "OP_SYM_EQ"

    def __init__(self, prop: str, attr_name: str) -> None:
        super().__init__()
        self.prop = prop
        self.attr_name = attr_name

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, body_tok, attrs = c
        body = str(body_tok)[1:-1]
        props = {
            "sym_name": StringAttr(symbol_name(str(sym_tok))),
            self.prop: DialectAttr(self.attr_name, body, f"#{self.attr_name}<{body}>", scope=b.scope),
        }
        return self._spec(b, c, [], operand_types=[], result_types=[], properties=props, attributes=b.dict(attrs))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        body = p.expand(op.properties[self.prop].resolve().text)
        body = body[body.index("<") :]
        return f"{self.name(op, p)} {sym_text(str_of(op.properties['sym_name']))} = {body}{self.attrs(op, p)}"


class ModuleFormat(Format):
    """`module @name attributes {...} { ... }` (also builtin.module, ttcore.device_module)."""

    family = "OP_MODULE"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, sym_tok, attrs, region = c
        props = {"sym_name": StringAttr(symbol_name(str(sym_tok)))} if sym_tok is not None else {}
        return self._spec(b, c, [], operand_types=[], result_types=[], properties=props, attributes=b.dict(attrs), regions=[region])

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = self.name(op, p)
        sym = op.properties.get("sym_name")
        if sym is not None:
            s += " " + sym_text(str_of(sym))
        if op.attributes:
            s += f" attributes {{{p.dict_body(op.attributes)}}}"
        return s + " " + p.region(op.regions[0], indent)


class FuncFormat(Format):
    """`func.func [private] @f(%arg0: T {attrs} loc(..)) -> (R {attrs}) attributes {..} { .. }`."""

    family = "OP_FUNC"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, vis, sym_tok, args, results, attrs, region = c
        b.pending = None
        arg_types = [a[1] for a in args]
        arg_attrs = [a[2] for a in args]
        results = results or []
        res_types = [r[0] for r in results]
        res_attrs = [r[1] for r in results]
        props: dict[str, Attribute] = {"sym_name": StringAttr(symbol_name(str(sym_tok)))}
        props["function_type"] = TypeAttr(FunctionType(tuple(arg_types), tuple(res_types)))
        if vis is not None:
            props["sym_visibility"] = StringAttr(str(vis))
        if any(arg_attrs):
            props["arg_attrs"] = ArrayAttr(tuple(DictAttr(d) for d in arg_attrs))
        if any(res_attrs):
            props["res_attrs"] = ArrayAttr(tuple(DictAttr(d) for d in res_attrs))
        return self._spec(
            b, c, [], operand_types=[], result_types=[], properties=props,
            attributes=b.dict(attrs), regions=[region] if region is not None else [],
        )

    def printable(self, op: Operation) -> bool:
        """The visibility prints as a keyword: only MLIR's three read back (`pub\\41lic` is
        "pubAlic", which the custom form cannot say; the generic form keeps it)."""
        vis = op.properties.get("sym_visibility")
        return vis is None or (isinstance(vis, StringAttr) and vis.type is None and vis.value in _VISIBILITIES)

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        ft = cast(FunctionType, cast(TypeAttr, pr["function_type"]).type)
        s = self.name(op, p) + " "
        vis = pr.get("sym_visibility")
        if vis is not None:
            s += str_of(vis) + " "
        s += sym_text(str_of(pr["sym_name"]))
        res_attrs = pr.get("res_attrs")
        res_dicts = items_of(res_attrs) if res_attrs is not None else ()
        s += "(" + ", ".join(printed_arguments(op, ft.inputs, p)) + ")"
        if ft.results:
            outs = []
            any_attrs = False
            for i, t in enumerate(ft.results):
                r_attrs = cast(DictAttr, res_dicts[i]).entries if i < len(res_dicts) else {}
                any_attrs = any_attrs or bool(r_attrs)
                outs.append(f"{p.type(t)}{p.attr_dict(r_attrs)}")
            if len(outs) == 1 and not any_attrs and not isinstance(ft.results[0], FunctionType):
                s += " -> " + outs[0]
            else:
                s += " -> (" + ", ".join(outs) + ")"
        if op.attributes:
            s += f" attributes {{{p.dict_body(op.attributes)}}}"
        if op.regions:
            s += " " + p.region(without_entry_args(op.regions[0]), indent)
        return s


def printed_arguments(op: Operation, inputs: Sequence[Any], p: Printer) -> list[str]:
    """A function's arguments as its custom form prints them: `%name: type {attrs} loc` with a body,
    `type {attrs}` without (func.func and llvm.func alike)."""
    arg_attrs = op.properties.get("arg_attrs")
    arg_dicts = items_of(arg_attrs) if arg_attrs is not None else ()
    entry = op.regions[0].entry if op.regions and op.regions[0].blocks else None
    args = []
    for i, t in enumerate(inputs):
        a_attrs = cast(DictAttr, arg_dicts[i]).entries if i < len(arg_dicts) else {}
        if entry is not None and i < len(entry.args):
            arg = entry.args[i]
            args.append(f"{p.name(arg)}: {p.type(arg.type)}{p.attr_dict(a_attrs)}{p.loc(arg.location)}")
        else:
            args.append(f"{p.type(t)}{p.attr_dict(a_attrs)}")
    return args


def func_args(b: IRBuilder, c: list) -> list:
    args = [a for a in c if a is not None]
    b.expect_pending([a for a in args if a[0] is not None])
    return args


def func_arg(b: IRBuilder, c: list) -> tuple:
    v, t, attrs, loc = c
    return b.arg_spec(v, t, attrs, loc)


def func_decl_arg(b: IRBuilder, c: list) -> tuple:
    t, attrs = c
    return (None, b.type(t), b.dict(attrs), None)


def single_result(b: IRBuilder, c: list) -> list:
    return [(b.type(c[0]), {})]


def result_list(b: IRBuilder, c: list) -> list:
    return [r for r in c if r is not None]


def func_result(b: IRBuilder, c: list) -> tuple:
    return (b.type(c[0]), b.dict(c[1]))
