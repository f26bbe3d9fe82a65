"""Shardy IR the sharding passes look for or build: the sdy annotations of a module, manual
computations and their axes, sdy attributes made from typed models, and the symbols ops refer to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator

from ttopt.ir.attributes import ArrayAttr, Attribute, DialectAttr, DictAttr, SymbolRefAttr
from ttopt.ir.operation import Operation
from ttopt.sharding.diagnostics import typed
from ttopt.sharding.func_attrs import SDY_SHARDING, arg_attrs, argument_label, functions, res_attrs, result_label

if TYPE_CHECKING:
    from ttopt.ir.module import Module


def sdy_annotations(module: Module) -> Iterator[tuple[Operation, str]]:
    """(op, description) of every `sdy.sharding` on arguments, results and ops, and every
    `sdy.sharding_constraint` (the seed's "sdy annotations exist" test, 004 §1.2.4)."""
    for func in functions(module):
        for i, d in enumerate(arg_attrs(func)):
            if SDY_SHARDING in d:
                yield func, argument_label(func, i)
        for i, d in enumerate(res_attrs(func)):
            if SDY_SHARDING in d:
                yield func, result_label(func, i)
        for op in func.walk():
            if op is func:
                continue
            if SDY_SHARDING in op.attributes:
                yield op, f"'{op.name}' op"
            elif op.name == "sdy.sharding_constraint":
                yield op, "'sdy.sharding_constraint' op"


def manual_computations(root: Operation) -> list[Operation]:
    return [op for op in root.walk() if op.name == "sdy.manual_computation"]


def manual_axes(module: Module, op: Operation) -> tuple[str, ...]:
    return typed(module, op, op.properties["manual_axes"], "manual_axes").names


def is_solved(module: Module) -> bool:
    """tt-mlir's `isGraphSolved` (72cb): some manual_computation has non-empty manual axes."""
    return any(manual_axes(module, mc) for f in functions(module) for mc in manual_computations(f))


def manual_axes_attr(names: Iterable[str]) -> DialectAttr:
    from ttopt.dialects.sdy_attrs import ManualAxesAttr

    return DialectAttr.of(ManualAxesAttr(names=tuple(names)))


def per_value_attr(shardings: Iterable[Any]) -> DialectAttr:
    from ttopt.dialects.sdy_attrs import TensorShardingPerValueAttr

    return DialectAttr.of(TensorShardingPerValueAttr(shardings=tuple(shardings)))


def sharding_attr(sharding: Any) -> DialectAttr:
    return DialectAttr.of(sharding)


def referenced_symbols(module: Module) -> set[str]:
    """Root names of every `@symbol` reference held by an op's properties or attributes."""
    out: set[str] = set()

    def visit(a: Attribute) -> None:
        if isinstance(a, SymbolRefAttr):
            out.add(a.root)
        elif isinstance(a, ArrayAttr):
            for x in a.items:
                visit(x)
        elif isinstance(a, DictAttr):
            for x in a.entries.values():
                visit(x)

    for op in module.walk():
        for k, v in op.properties.items():
            if k != "sym_name":
                visit(v)
        for v in op.attributes.values():
            visit(v)
    return out
