"""`func.func` as the sharding passes read it: the module's functions, their names, visibility
and type, and their argument / result attribute dictionaries (the sharding keys among them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ttopt.ir.attributes import ArrayAttr, Attribute, DictAttr, TypeAttr
from ttopt.ir.operation import Operation
from ttopt.sharding.diagnostics import fail
from ttopt.sharding.ir_views import str_value

if TYPE_CHECKING:
    from ttopt.ir.module import Module

SDY_SHARDING = "sdy.sharding"
ARGUMENT_TYPE = "ttcore.argument_type"
SHARD_STATUS = "ttcore.shard_status"
MHLO_SHARDING = "mhlo.sharding"


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


def argument_kinds(func: Operation) -> list[str | None]:
    """Each argument's `ttcore.argument_type` (input, parameter, constant, default), None when untyped."""
    out: list[str | None] = []
    for d in arg_attrs(func):
        a = d.get(ARGUMENT_TYPE)
        if a is None:
            out.append(None)
            continue
        value = getattr(getattr(a.resolve(), "typed", None), "value", None)
        value = getattr(value, "value", value)
        out.append(str(value) if value is not None else a.resolve().text.rsplit("<", 1)[-1].rstrip(">"))
    return out


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
