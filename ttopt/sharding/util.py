"""IR helpers shared by the sharding passes: diagnostics, function argument/result attribute
dictionaries, typed sdy attributes, cloning, symbol references and warnings."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Protocol, cast

from ttopt.ir.attributes import ArrayAttr, Attribute, DialectAttr, DictAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr
from ttopt.ir.diagnostics import Diagnostic, SourcePos
from ttopt.ir.operation import Operation

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.types import TensorType, Type
    from ttopt.ir.values import Value

SDY_SHARDING = "sdy.sharding"
ARGUMENT_TYPE = "ttcore.argument_type"
SHARD_STATUS = "ttcore.shard_status"
MHLO_SHARDING = "mhlo.sharding"

log = logging.getLogger("ttopt.sharding")


# ---- typed views of the IR --------------------------------------------------------------------
# The passes read IR whose kinds the op definitions fix (a `sym_name` is a string, a group count an
# integer, a sharded value a ranked tensor of static shape). These views state that for the type
# checker only: they do not check at run time, so a value of another kind fails where it is read,
# exactly as when the attribute was read directly.
class StaticTensorType(Protocol):
    """A ranked tensor type of static shape: a TensorType, or a `!alias` of one (which forwards
    these attributes to its target)."""

    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def rank(self) -> int: ...
    @property
    def element_type(self) -> Type: ...
    @property
    def encoding(self) -> Any: ...
    def with_shape(self, shape: tuple[int | None, ...]) -> TensorType: ...
    def canonical(self) -> str: ...


def static_tensor(t: Type) -> StaticTensorType:
    """`t`, read as a ranked tensor type of static shape (no runtime check)."""
    return cast("StaticTensorType", t)


def tensor_type(v: Value) -> StaticTensorType:
    """`v.type`, read as a ranked tensor type of static shape (no runtime check)."""
    return cast("StaticTensorType", v.type)


def int_value(a: Attribute) -> int:
    """`a.value` of an integer attribute (no runtime check)."""
    return cast(IntegerAttr, a).value


def str_value(a: Attribute) -> str:
    """`a.value` of a string attribute (no runtime check)."""
    return cast(StringAttr, a).value


# ---- diagnostics --------------------------------------------------------------------------------
def where(module: Module, op: Operation | None) -> SourcePos | None:
    """Source position of `op` (or of the nearest ancestor that has one)."""
    cur = op
    while cur is not None:
        if isinstance(cur.pos, int) and module.source is not None:
            return SourcePos(module.source, cur.pos)
        cur = cur.parent_op
    return None


def fail(module: Module, op: Operation | None, message: str) -> Diagnostic:
    """A Diagnostic at `op`; the caller raises it."""
    return Diagnostic(message, where(module, op))


def op_label(op: Operation) -> str:
    """`'stablehlo.add' op` (MLIR's way of naming an op in a message)."""
    return f"'{op.name}' op"


def warn(module: Module, op: Operation | None, message: str) -> None:
    """An MLIR-style warning on the `ttopt.sharding` logger (stderr by default)."""
    pos = where(module, op)
    name = module.source.name if module.source is not None else "<input>"
    if pos is not None:
        line, col = pos.source.line_col(pos.offset)
        log.warning("%s:%d:%d: warning: %s", name, line, col, message)
    else:
        log.warning("%s: warning: %s", name, message)


def typed(module: Module, op: Operation | None, attr: Attribute, what: str) -> Any:
    """The typed model of a dialect attribute; a malformed body becomes a Diagnostic at `op`."""
    from ttopt.dialects.errors import AttrError

    try:
        model = attr.resolve().typed  # type: ignore[attr-defined]
    except AttrError as e:
        raise fail(module, op, f"{what}: {e.message}") from None
    if model is None:
        raise fail(module, op, f"{what}: expected a typed attribute, got {attr.text}")
    return model


# ---- functions ----------------------------------------------------------------------------------
def functions(module: Module) -> list[Operation]:
    """Top-level `func.func` ops, in order."""
    return [op for op in module.body.ops if op.name == "func.func"]


def func_name(func: Operation) -> str:
    return str_value(func.properties["sym_name"])


def is_public(func: Operation) -> bool:
    vis = func.properties.get("sym_visibility")
    return vis is None or str_value(vis) == "public"


def has_body(func: Operation) -> bool:
    return bool(func.regions) and bool(func.regions[0].blocks)


def func_type(func: Operation) -> Any:
    return cast(TypeAttr, func.properties["function_type"]).type


def _dicts(func: Operation, key: str, n: int) -> list[dict[str, Attribute]]:
    arr = func.properties.get(key)
    out: list[dict[str, Attribute]] = []
    items = cast(ArrayAttr, arr).items if arr is not None and n else ()
    for i in range(n):
        d = items[i] if i < len(items) else None
        out.append(dict(d.entries) if isinstance(d, DictAttr) else {})
    return out


def _set_dicts(func: Operation, key: str, dicts: list[dict[str, Attribute]]) -> None:
    if any(dicts):
        func.properties[key] = ArrayAttr(tuple(DictAttr(dict(sorted(d.items()))) for d in dicts))
    else:
        func.properties.pop(key, None)


def arg_attrs(func: Operation) -> list[dict[str, Attribute]]:
    """Copies of the argument attribute dictionaries (one per argument)."""
    return _dicts(func, "arg_attrs", len(func_type(func).inputs))


def res_attrs(func: Operation) -> list[dict[str, Attribute]]:
    """Copies of the result attribute dictionaries (one per result)."""
    return _dicts(func, "res_attrs", len(func_type(func).results))


def set_arg_attrs(func: Operation, dicts: list[dict[str, Attribute]]) -> None:
    """Store argument dictionaries (keys sorted, as MLIR does; dropped when all are empty)."""
    _set_dicts(func, "arg_attrs", dicts)


def set_res_attrs(func: Operation, dicts: list[dict[str, Attribute]]) -> None:
    _set_dicts(func, "res_attrs", dicts)


def strip_sdy_shardings(func: Operation) -> None:
    """tt-mlir's `removeSdyTensorShardings`: drop the `sdy.sharding` key from argument, result and op
    dictionaries (manual_computation and collective properties stay)."""
    args = arg_attrs(func)
    if any(SDY_SHARDING in d for d in args):
        set_arg_attrs(func, [{k: v for k, v in d.items() if k != SDY_SHARDING} for d in args])
    res = res_attrs(func)
    if any(SDY_SHARDING in d for d in res):
        set_res_attrs(func, [{k: v for k, v in d.items() if k != SDY_SHARDING} for d in res])
    for op in func.walk():
        if op is not func:
            op.attributes.pop(SDY_SHARDING, None)


def argument_label(func: Operation, i: int) -> str:
    return f"argument #{i} of @{func_name(func)}"


def result_label(func: Operation, i: int) -> str:
    return f"result #{i} of @{func_name(func)}"


def require_ranked_signature(module: Module, func: Operation) -> None:
    """Shardings exist for ranked tensors only: any other argument or result type is a Diagnostic at `func`."""
    from ttopt.ir.types import TensorType

    if not has_body(func):
        return
    ft = func_type(func)
    for label, types in ((argument_label, ft.inputs), (result_label, ft.results)):
        for i, t in enumerate(types):
            r = t.resolve()
            if not isinstance(r, TensorType) or r.shape is None:
                kind = "an unranked tensor" if isinstance(r, TensorType) else "not a tensor"
                raise fail(module, func, f"{label(func, i)} has type {t.text}, which is {kind}; the sharding "
                           "pipeline shards ranked tensors only")


# ---- sdy annotations ----------------------------------------------------------------------------
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


# ---- symbols ------------------------------------------------------------------------------------
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
