"""Op definitions: what ttopt knows about an op name (arity, traits, custom assembly format).

Dialect modules register `OpDef`s here; `ir/` itself never names a dialect. Ops without a
definition are "unknown": they parse and print in generic form and survive every pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.properties import Prop

# Traits (plain strings keep definitions readable as tables).
PURE = "pure"  # no side effects: dead results mean the op can go
TERMINATOR = "terminator"  # must end its block
ISOLATED = "isolated"  # regions do not see enclosing values (func.func, module)
SYMBOL_TABLE = "symbol_table"
SAME_OPERANDS_AND_RESULT_TYPE = "same_operands_and_result_type"
CONSTANT_LIKE = "constant_like"


@dataclass(frozen=True)
class OpDef:
    """Static knowledge about one op name."""

    name: str
    operands: int | tuple[int, int | None] | None = None  # exact, (min, max), or None = any
    results: int | tuple[int, int | None] | None = None
    traits: frozenset[str] = frozenset()
    format: Any = None  # custom assembly format object (see ttopt.dialects.formats)
    regions: int | None = None
    # Names of inherent attributes (MLIR properties), for ops whose pretty form merges them into
    # the attribute dictionary.
    inherent: tuple[str, ...] = ()
    # MLIR's OpAsmOpInterface: a result name hint (e.g. "cst" for float constants).
    # One hint for all results, or one per result (multi-result ops such as chlo.top_k).
    result_name: Callable[[Operation], str | list[str] | None] | None = None
    summary: str = ""
    # Per-op checks beyond arity (shapes, required properties): raise ValueError(message), and
    # the verifier reports "'<op>' op <message>" at the op's position.
    verify: Callable[[Operation], None] | None = None
    # Declared properties (ttopt/ir/properties.py): checked by the verifier before `verify`,
    # read through `props(op)`; in generic form MLIR also accepts them in the attribute dictionary.
    props: tuple[Prop, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def has(self, trait: str) -> bool:
        return trait in self.traits


OP_DEFS: dict[str, OpDef] = {}
# op name -> grammar terminal of its custom-format family (e.g. "OP_PRETTY")
OP_FAMILIES: dict[str, str] = {}
# spelling -> canonical op name, for names MLIR prints short (`return` is `func.return`)
OP_ALIASES: dict[str, str] = {}


def register(*defs: OpDef) -> None:
    """Register op definitions (later registrations of the same name replace earlier ones)."""
    for d in defs:
        OP_DEFS[d.name] = d
        if d.format is not None:
            OP_FAMILIES[d.name] = d.format.family
        for alias in d.extra.get("aliases", ()):
            OP_ALIASES[alias] = d.name
            if d.format is not None:
                OP_FAMILIES[alias] = d.format.family


# grammar rule name -> builder(IRBuilder, children) for the custom-format rules of grammars/mlir.lark.
# Dialects fill it (their formats know how to build an op from its custom form); the parser turns
# each entry into a transformer method, so `parse` needs no dialect by name.
FORMAT_RULES: dict[str, Callable[[Any, list], Any]] = {}


def register_format_rules(rules: dict[str, Callable[[Any, list], Any]]) -> None:
    """Register the builders a dialect supplies for custom-format grammar rules."""
    FORMAT_RULES.update(rules)


def register_properties(table: dict[str, tuple[Prop, ...]]) -> None:
    """Declare the properties of already registered ops (a dialect's property table)."""
    for name, declared in table.items():
        OP_DEFS[name] = replace(OP_DEFS[name], props=tuple(declared))


def register_verifiers(verifiers: Mapping[str, Callable[[Operation], None]]) -> None:
    """Attach per-op verifiers to already registered ops (a dialect's table of checks)."""
    for name, fn in verifiers.items():
        d = OP_DEFS[name]
        OP_DEFS[name] = replace(d, verify=fn)


def arity_ok(spec: int | tuple[int, int | None] | None, n: int) -> bool:
    """Does count `n` satisfy an arity spec?"""
    if spec is None:
        return True
    if isinstance(spec, int):
        return n == spec
    lo, hi = spec
    return n >= lo and (hi is None or n <= hi)


def count_message(spec: int | tuple[int, int | None], n: int, what: str) -> str:
    """The error for `n` operands / results against an arity spec, worded as MLIR's op traits
    word it for an exact count (OneOperand, NOperands<N>, ZeroResults, ...)."""
    if not isinstance(spec, int) and spec[0] == spec[1]:
        spec = spec[0]
    if not isinstance(spec, int):
        return f"expects {arity_text(spec)} {what}(s), got {n}"
    if spec == 0:
        return f"requires zero {what}s"
    if spec == 1:
        return "requires a single operand" if what == "operand" else "requires one result"
    return f"expected {spec} {what}s, but found {n}"


def arity_text(spec: int | tuple[int, int | None]) -> str:
    if isinstance(spec, int):
        return str(spec)
    lo, hi = spec
    return f"at least {lo}" if hi is None else str(lo) if lo == hi else f"{lo} to {hi}"
