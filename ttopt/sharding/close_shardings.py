"""`close-shardings` (seed 004 step 12; Shardy's `sdy-close-shardings`, ref §2.12).

Every sharding in the module becomes closed: `{"x", ?}` -> `{"x"}`, `{?}` -> `{}`. That covers
function argument/result `sdy.sharding`, op `sdy.sharding_per_value`, manual_computation
`in_shardings`/`out_shardings`, and the `sharding`/`out_sharding` of sdy ops. Priorities stay (on
non-empty dimensions); `replicated={...}` is dropped, since a closed dimension already excludes
further axes. `unreduced` axes are kept: dropping them would silently turn partial sums into values.
Attributes that are already closed keep their exact text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DialectAttr
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass
from ttopt.sharding.diagnostics import typed
from ttopt.sharding.func_attrs import (
    SDY_SHARDING,
    arg_attrs,
    argument_label,
    functions,
    res_attrs,
    result_label,
    set_arg_attrs,
    set_res_attrs,
)

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.passes.context import PassContext


_KEYS: tuple[str, ...] = (SDY_SHARDING,)
_SDY_OP_KEYS: tuple[str, ...] = (SDY_SHARDING, "in_shardings", "out_shardings", "sharding", "out_sharding")


def close(s: Any) -> Any:
    """The closed form of a TensorShardingAttr (the same object when nothing changes)."""
    from ttopt.dialects.sdy_attrs import DimensionSharding

    if s.is_fully_closed and not s.replicated:
        return s
    dims = tuple(
        d if d.is_closed else DimensionSharding(axes=d.axes, is_closed=True, priority=d.priority if d.axes else None)
        for d in s.dim_shardings
    )
    return s.model_copy(update={"dim_shardings": dims, "replicated": ()})


def _closed_attr(module: Module, op: Operation, attr: Any, what: str) -> Any:
    """`attr` closed, or None when it is already closed."""
    model = typed(module, op, attr, what)
    if hasattr(model, "shardings"):
        new = [close(s) for s in model.shardings]
        if all(a is b for a, b in zip(new, model.shardings)):
            return None
        return DialectAttr.of(model.model_copy(update={"shardings": tuple(new)}))
    new = close(model)
    return None if new is model else DialectAttr.of(new)


@register_pass
@dataclass
class CloseShardings(Pass):
    """Close every open dimension sharding (`?`)."""

    name = "close-shardings"
    summary = "Close all sdy shardings: {\"x\", ?} -> {\"x\"}, {?} -> {}"
    aliases = ("sdy-close-shardings",)

    def run(self, module: Module, ctx: PassContext) -> None:
        changed = 0
        # Ops often share one attribute object (propagation writes equal shardings once): each
        # distinct one is checked and closed once, and its users share the closed attribute.
        seen: dict[int, tuple[Any, Any]] = {}

        def closed_attr(owner: Operation, attr: Any, what: str) -> Any:
            hit = seen.get(id(attr))
            if hit is None or hit[0] is not attr:
                hit = seen[id(attr)] = (attr, _closed_attr(module, owner, attr, what))
            return hit[1]

        for f in functions(module):
            for get, put, label in ((arg_attrs, set_arg_attrs, argument_label), (res_attrs, set_res_attrs, result_label)):
                dicts = get(f)
                touched = False
                for i, d in enumerate(dicts):
                    if SDY_SHARDING in d:
                        new = closed_attr(f, d[SDY_SHARDING], label(f, i))
                        if new is not None:
                            d[SDY_SHARDING] = new
                            touched = True
                            changed += 1
                if touched:
                    put(f, dicts)
            ops = f.walk_list()  # (no op list is edited here)
            for k in range(1, len(ops)):
                op = ops[k]
                attrs = op.attributes
                props = op.properties
                if not attrs and not props:  # most ops have no properties, many no attributes
                    continue
                if op.name.startswith("sdy."):  # only sdy ops keep shardings under other names
                    keys = _SDY_OP_KEYS
                elif (not attrs or SDY_SHARDING not in attrs) and (not props or SDY_SHARDING not in props):
                    continue
                else:
                    keys = _KEYS
                for store in (attrs, props):
                    if store:
                        for key in keys:
                            a = store.get(key)
                            if a is not None:
                                new = closed_attr(op, a, f"'{op.name}' op {key}")
                                if new is not None:
                                    store[key] = new
                                    changed += 1
        ctx.stats.setdefault(self.name, {})["closed"] = changed
