"""Shardy's custom assembly: sharding constraints, collectives, keyword ops, manual and named
computations (Shardy's `ops.td` assembly formats).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.format_base import I32, Format, enum_value, i64_attr, int_of, int_token, resolved, str_of, without_entry_args
from ttopt.ir.attributes import (
    Attribute,
    DialectAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    quote,
    unquote,
)
from ttopt.ir.operation import Operation
from ttopt.parse.opspec import OpSpec

if TYPE_CHECKING:
    from ttopt.ir.printer import Printer
    from ttopt.parse.parser import IRBuilder



def _sharding(text: str, scope: Any = None) -> DialectAttr:
    """`<@mesh, [...]>` (as written inside sdy ops) as `#sdy.sharding<...>`."""
    body = text[1:-1]
    return DialectAttr("sdy.sharding", body, f"#sdy.sharding<{body}>", scope=scope)


def sharding_body(attr: Attribute) -> str:
    """`<...>` spelling of a `#sdy.sharding` attribute as sdy ops print it."""
    a = attr.resolve()
    return "<" + (a.body if getattr(a, "body", None) is not None else a.text) + ">"


class SdyShardingFormat(Format):
    """`sdy.sharding_constraint %x <@mesh, [{}, {"y"}]> : T` (and `sdy.reshard`)."""

    family = "OP_SDY_SHARDING"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, value, body_tok, attrs, type_tok = c
        t = b.type(type_tok)
        return self._spec(
            b, c, [value], operand_types=[t], result_types=[t],
            properties={"sharding": _sharding(str(body_tok), b.scope)}, attributes=b.dict(attrs),
        )

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        body = p.expand(sharding_body(op.properties["sharding"]))
        return f"{self.name(op, p)} {p.name(op.operands[0])} {body}{self.attrs(op, p)} : {p.type(op.results[0].type)}"


class SdyCollectiveFormat(Format):
    """`sdy.all_gather [{}, {"x"}] %x out_sharding=<...> : T` and the other sdy collectives."""

    family = "OP_SDY_COLLECTIVE"

    def __init__(self, list_prop: str | None, list_kind: str | None) -> None:
        super().__init__()
        self.list_prop = list_prop
        self.list_kind = list_kind  # e.g. "list_of_axis_ref_lists", "axis_ref_list"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, kind_tok, list_tok, value, out_tok, attrs, type_tok = c
        t = b.type(type_tok)
        props: dict[str, Attribute] = {}
        if self.list_prop is not None:
            if list_tok is None:
                b.fail(value, f"'{c[0]}' needs its axes before the operand")
            text = str(list_tok)
            props[self.list_prop] = DialectAttr("sdy", f"{self.list_kind}{text}", f"#sdy<{self.list_kind}{text}>", scope=b.scope)
        elif list_tok is not None:
            b.fail(list_tok, f"'{c[0]}' takes no axis list")
        if kind_tok is not None:
            if str(kind_tok) not in ("max", "min", "sum"):
                b.fail(kind_tok, f"unknown reduction '{kind_tok}' (expected max, min or sum)")
            props["reduction_kind"] = OpaqueAttr(str(kind_tok))
        props["out_sharding"] = _sharding(str(out_tok), b.scope)
        return self._spec(b, c, [value], operand_types=[t], result_types=[t], properties=props, attributes=b.dict(attrs))

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        s = self.name(op, p)
        kind = op.properties.get("reduction_kind")
        if kind is not None:
            s += f" {kind.text}"
        if self.list_prop is not None:
            body = op.properties[self.list_prop].resolve().body
            assert self.list_kind is not None  # given together with list_prop (sdy.py)
            s += " " + body[len(self.list_kind) :]
        out = p.expand(sharding_body(op.properties["out_sharding"]))
        return f"{s} {p.name(op.operands[0])} out_sharding={out}{self.attrs(op, p)} : {p.type(op.results[0].type)}"


class SdyKwFormat(Format):
    """`sdy.sharding_group %x group_id=0 : T`, `sdy.propagation_barrier %x allowed_direction=NONE : T`."""

    family = "OP_SDY_KW"

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__()
        self.options = options  # key -> "i64" | "sharding" | "enum:<kind>"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, value, *kws, attrs, type_tok = c
        t = b.type(type_tok)
        props: dict[str, Attribute] = {}
        for key_tok, v in kws:
            kind = self.options.get(str(key_tok))
            if kind is None:
                b.fail(key_tok, f"unknown option '{key_tok}' for '{c[0]}'")
            if kind == "i64":
                props[str(key_tok)] = i64_attr(int_token(b, v))
            elif kind == "sharding":
                props[str(key_tok)] = _sharding(str(v), b.scope)
            else:
                cases = ENUM_CASES[kind[5:]]
                if str(v) not in cases:
                    b.fail(v, f"expected one of {{{', '.join(cases)}}} for {kind[5:]}")
                # Shardy's enums are I32EnumAttrs: MLIR stores (and prints generically) the case's value
                props[str(key_tok)] = IntegerAttr(cases.index(str(v)), I32)
        n_results = 0 if b._canonical_name(c[0]) == "sdy.sharding_group" else 1
        return self._spec(
            b, c, [value], operand_types=[t], result_types=[t] * n_results, properties=props, attributes=b.dict(attrs)
        )

    def printable(self, op: Operation) -> bool:
        """An enum option holds one of its keywords (MLIR's `N : i32` or ttopt's `#sdy<kind X>`)."""
        for key, kind in self.options.items():
            a = op.properties.get(key)
            if a is not None and kind.startswith("enum:") and enum_keyword(kind[5:], a) is None:
                return False
        return True

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        parts = [self.name(op, p), p.name(op.operands[0])]
        for key, kind in self.options.items():
            a = op.properties.get(key)
            if a is None:
                continue
            if kind == "i64":
                parts.append(f"{key}={int_of(a)}")
            elif kind == "sharding":
                parts.append(f"{key}={p.expand(sharding_body(a))}")
            else:
                parts.append(f"{key}={enum_keyword(kind[5:], a)}")
        return " ".join(parts) + self.attrs(op, p) + f" : {p.type(op.operands[0].type)}"


# Shardy's I32EnumAttr cases, in value order (the generic form holds the value as `N : i32`).
ENUM_CASES = {"propagation_direction": ("NONE", "FORWARD", "BACKWARD", "BOTH")}


def enum_keyword(kind: str, a: Attribute) -> str | None:
    """The keyword an enum option (`N : i32`, or `#sdy<kind X>`) prints as, or None when `a` is not one of `kind`'s cases."""
    a = a.resolve()
    cases = ENUM_CASES.get(kind, ())
    if isinstance(a, IntegerAttr):
        ok = a.type is not None and a.type.text == "i32" and 0 <= a.value < len(cases)
        return cases[a.value] if ok else None
    if isinstance(a, DialectAttr) and a.name == "sdy" and (a.body or "").split()[:1] == [kind]:
        word = enum_value(a)
        return word if word in cases else None
    return None


def sdy_kw(b: IRBuilder, c: list) -> tuple:
    return (c[0], c[1])


class SdyManualFormat(Format):
    """`sdy.manual_computation(%a) in_shardings=[..] out_shardings=[..] manual_axes={..} (%arg: T) {..} : (A) -> R`."""

    family = "OP_SDY_MANUAL"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, operands_tok, in_tok, out_tok, axes_tok, _args, region, attrs, sig = c
        ins, outs = b.signature(sig)
        props = {
            "in_shardings": DialectAttr("sdy.sharding_per_value", str(in_tok), f"#sdy.sharding_per_value<{in_tok}>", scope=b.scope),
            "out_shardings": DialectAttr("sdy.sharding_per_value", str(out_tok), f"#sdy.sharding_per_value<{out_tok}>", scope=b.scope),
            "manual_axes": DialectAttr("sdy", f"manual_axes{axes_tok}", f"#sdy<manual_axes{axes_tok}>", scope=b.scope),
        }
        spec = self._spec(
            b, c, b.operand_tokens(operands_tok), operand_types=list(ins), result_types=list(outs),
            properties=props, attributes=b.dict(attrs), regions=[region],
        )
        spec.operand_src = (str(operands_tok), operands_tok.start_pos)
        return spec

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        axes = pr["manual_axes"].resolve().body[len("manual_axes") :]
        region = op.regions[0]
        args = ", ".join(p.block_arg(a) for a in region.entry.args)
        body = p.region(without_entry_args(region), indent)
        sig = p.fn_type([v.type for v in op.operands], [r.type for r in op.results])
        return (
            f"{self.name(op, p)}({p.names_of(op.operands)}) in_shardings={p.expand(pr['in_shardings'].resolve().body)} "
            f"out_shardings={p.expand(pr['out_shardings'].resolve().body)} manual_axes={axes} ({args}) {body}"
            f"{self.attrs(op, p)} : {sig}"
        )


class SdyNamedFormat(Format):
    """`sdy.named_computation<"name">(%a) in_shardings=[..] out_shardings=[..] (%arg: T) {..} : (A) -> R`
    (both sharding lists optional)."""

    family = "OP_SDY_NAMED"

    def build(self, b: IRBuilder, c: list) -> OpSpec:
        _, name_tok, operands_tok, in_tok, out_tok, _args, region, attrs, sig = c
        ins, outs = b.signature(sig)
        name = str(name_tok)[1:-1].strip()
        if not name.startswith('"'):
            b.fail(name_tok, "expected a quoted name: sdy.named_computation<\"name\">")
        props: dict[str, Attribute] = {"name": StringAttr(unquote(name))}
        for key, tok in (("in_shardings", in_tok), ("out_shardings", out_tok)):
            if tok is not None:
                props[key] = DialectAttr("sdy.sharding_per_value", str(tok), f"#sdy.sharding_per_value<{tok}>", scope=b.scope)
        spec = self._spec(
            b, c, b.operand_tokens(operands_tok), operand_types=list(ins), result_types=list(outs),
            properties=props, attributes=b.dict(attrs), regions=[region],
        )
        spec.operand_src = (str(operands_tok), operands_tok.start_pos)
        return spec

    def printable(self, op: Operation) -> bool:
        pr = op.properties
        return isinstance(pr.get("name"), StringAttr) and len(op.regions) == 1 and all(
            isinstance(resolved(pr.get(k)), DialectAttr) for k in ("in_shardings", "out_shardings") if k in pr
        ) and set(pr) <= {"name", "in_shardings", "out_shardings"}

    def print(self, op: Operation, p: Printer, indent: str) -> str:
        pr = op.properties
        region = op.regions[0]
        args = ", ".join(p.block_arg(a) for a in region.entry.args)
        body = p.region(without_entry_args(region), indent)
        sig = p.fn_type([v.type for v in op.operands], [r.type for r in op.results])
        shardings = "".join(f" {k}={p.expand(pr[k].resolve().body)}" for k in ("in_shardings", "out_shardings") if k in pr)
        return (
            f"{self.name(op, p)}<{quote(str_of(pr['name']))}>({p.names_of(op.operands)}){shardings} ({args}) {body}"
            f"{self.attrs(op, p)} : {sig}"
        )
