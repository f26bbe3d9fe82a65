"""`apply-tt-argument-annotations` (seed 004 step 2; upstream `tt-populate-argument-types`, ref §2.2).

The frontend says what each argument is: `--argument-types 'main=input,parameter;f2=constant'`.
Each listed function's arguments get `ttcore.argument_type = #ttcore.argument_type<...>`; other keys
are kept, an existing type is replaced (with a warning). Errors: an unknown type name, a function
named in the map but not in the module, an argument count that differs from the function's arity,
and a public function of the module that the (non-empty) map leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.attributes import DialectAttr
from ttopt.ir.diagnostics import Diagnostic
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.diagnostics import fail, warn
from ttopt.sharding.func_attrs import ARGUMENT_TYPE, arg_attrs, func_name, func_type, functions, has_body, is_public, set_arg_attrs

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

TYPES = ("input", "parameter", "constant")


def parse_argument_types(text: str) -> dict[str, list[str]]:
    """`main=input,parameter;f2=constant` -> {"main": ["input", "parameter"], ...} (ValueError if bad).
    A trailing comma or semicolon is allowed, as upstream."""
    out: dict[str, list[str]] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        name, eq, types = part.partition("=")
        name = name.strip().lstrip("@")
        if not eq or not name:
            raise ValueError(f"expected 'function=type,type,...', got '{part}'")
        if name in out:
            raise ValueError(f"function '{name}' is listed twice")
        items = [t.strip() for t in types.split(",")]
        if items and items[-1] == "":
            items.pop()
        for t in items:
            if t not in TYPES:
                raise ValueError(f"unknown argument type '{t}' for function '{name}' (expected {', '.join(TYPES)})")
        out[name] = items
    return out


@register_pass
@dataclass
class ApplyTTArgumentAnnotations(Pass):
    """Annotate function arguments with `ttcore.argument_type` from the frontend's list."""

    name = "apply-tt-argument-annotations"
    summary = "Set ttcore.argument_type<input|parameter|constant> on function arguments from --argument-types"
    aliases = ("tt-populate-argument-types",)

    argument_types: str = option("", "Argument types per function: 'main=input,parameter;f2=constant'")

    def validate(self) -> None:
        """A malformed --argument-types is a usage error, whatever the input."""
        try:
            parse_argument_types(self.argument_types)
        except ValueError as e:
            raise ValueError(f"--argument-types: {e}") from None

    def run(self, module: Module, ctx: PassContext) -> None:
        try:
            table = parse_argument_types(self.argument_types)
        except ValueError as e:
            raise Diagnostic(f"--argument-types: {e}") from None
        if not table:
            warn(module, None, "apply-tt-argument-annotations: no --argument-types given; nothing to annotate")
            return
        from ttopt.dialects.ttcore_attrs import ArgumentType, ArgumentTypeAttr

        funcs = {func_name(f): f for f in functions(module)}
        for name in table:
            if name not in funcs:
                known = ", ".join("@" + n for n in funcs) or "none"
                raise fail(module, module.op, f"--argument-types names function @{name}, which is not in the module (functions: {known})")
        for name, f in funcs.items():
            if name not in table and is_public(f) and has_body(f) and func_type(f).inputs:
                raise fail(module, f, f"'func.func' op @{name} is missing from --argument-types "
                           f"(given: {', '.join(table)}); list the type of each of its {len(func_type(f).inputs)} argument(s)")
        annotated = 0
        for name, types in table.items():
            f = funcs[name]
            n = len(func_type(f).inputs)
            if len(types) != n:
                raise fail(module, f, f"'func.func' op @{name} has {n} argument(s) but --argument-types gives {len(types)} type(s)")
            dicts = arg_attrs(f)
            for i, t in enumerate(types):
                new = DialectAttr.of(ArgumentTypeAttr(value=ArgumentType(t)))
                old = dicts[i].get(ARGUMENT_TYPE)
                if old is not None and old != new:
                    warn(module, f, f"argument #{i} of @{name}: replacing {old.text} with {new.text}")
                dicts[i][ARGUMENT_TYPE] = new
                annotated += 1
            set_arg_attrs(f, dicts)
        ctx.stats.setdefault(self.name, {})["annotated_arguments"] = annotated


@register_pass
@dataclass
class TTPopulateArgumentTypes(ApplyTTArgumentAnnotations):
    """Upstream's name for apply-tt-argument-annotations."""

    name = "tt-populate-argument-types"
    summary = "Alias of apply-tt-argument-annotations (tt-mlir's name)"
