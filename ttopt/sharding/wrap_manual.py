"""`wrap-under-manual-computation` (seed 004 step 9; ref §2.9).

Solved graphs are left alone (their `sdy.sharding` attributes are dropped, as upstream), and so are
GSPMD-partitioned ones (their body is local already, gspmd_partitioned.py). Otherwise
the body of every public function moves into one `sdy.manual_computation` with `manual_axes={}`:
`in_shardings` are the arguments' `sdy.sharding` (a missing one becomes the open replicated
`[{?}, ...]` and is written back onto the argument), `out_shardings` the results' (a missing one
becomes `[{?}, ...]` and is not written back). Types stay global; `update-global-to-local-shapes`
sets the manual axes and cuts the shapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.values import replace_all_uses
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass
from ttopt.sharding.diagnostics import fail, typed, warn
from ttopt.sharding.func_attrs import (
    MHLO_SHARDING,
    SDY_SHARDING,
    arg_attrs,
    argument_label,
    func_type,
    functions,
    has_body,
    is_public,
    require_ranked_signature,
    res_attrs,
    result_label,
    set_arg_attrs,
    strip_sdy_shardings,
)
from ttopt.sharding.gspmd_partitioned import is_partitioned
from ttopt.sharding.mesh import Mesh, ShardingError, the_mesh, validate_sharding
from ttopt.sharding.sdy_ir import is_solved, manual_computations, per_value_attr, sharding_attr

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


def open_replicated(mesh: Mesh, rank: int) -> Any:
    from ttopt.dialects.sdy_attrs import DimensionSharding, TensorShardingAttr

    return TensorShardingAttr(mesh=mesh.name, dim_shardings=tuple(DimensionSharding(is_closed=False) for _ in range(rank)))


def wrap_function(module: Module, f: Operation, mesh: Mesh) -> Operation:
    """Move `f`'s body under a new manual_computation; returns it."""
    require_ranked_signature(module, f)
    ft = func_type(f)
    quiet = mesh.num_devices == 1
    args = arg_attrs(f)
    ins = []
    wrote_back = False
    for i, (d, t) in enumerate(zip(args, ft.inputs)):
        if SDY_SHARDING in d:
            s = typed(module, f, d[SDY_SHARDING], argument_label(f, i))
        else:
            s = open_replicated(mesh, t.rank)
            d[SDY_SHARDING] = sharding_attr(s)
            wrote_back = True
            if not quiet:
                warn(module, f, f"{argument_label(f, i)} has no sdy.sharding; using the open replicated {s.op_text()}")
        _check(module, f, s, mesh, t, argument_label(f, i))
        ins.append(s)
    if wrote_back:
        set_arg_attrs(f, args)
    outs = []
    for i, (d, t) in enumerate(zip(res_attrs(f), ft.results)):
        if SDY_SHARDING in d:
            s = typed(module, f, d[SDY_SHARDING], result_label(f, i))
        else:
            s = open_replicated(mesh, getattr(t, "rank", 0))
            if not quiet:
                warn(module, f, f"{result_label(f, i)} has no sdy.sharding; using the open replicated {s.op_text()}")
        _check(module, f, s, mesh, t, result_label(f, i))
        outs.append(s)

    body = f.regions[0].blocks[0]
    ret = body.ops[-1]
    inner = Block([a.type for a in body.args])
    replace_all_uses(zip(body.args, inner.args))
    moved = body.ops[:-1]
    for op in moved:
        inner.append(op)
    sdy_ret = Operation("sdy.return", list(ret.operands), [])
    inner.append(sdy_ret)
    mc = Operation(
        "sdy.manual_computation", list(body.args), list(ft.results),
        properties={
            "in_shardings": per_value_attr(ins),
            "out_shardings": per_value_attr(outs),
            "manual_axes": _empty_axes(),
        },
        regions=[Region([inner])],
    )
    ret.set_operands(mc.results)
    body.ops = [mc, ret]
    mc.parent = body
    return mc


def _empty_axes() -> Any:
    from ttopt.sharding.sdy_ir import manual_axes_attr

    return manual_axes_attr(())


def _check(module: Module, f: Operation, s: Any, mesh: Mesh, t: Any, label: str) -> None:
    try:
        validate_sharding(s, mesh, getattr(t, "rank", None))
    except ShardingError as e:
        raise fail(module, f, f"{label}: {e}") from None


@register_pass
@dataclass
class WrapUnderManualComputation(Pass):
    """Wrap each public function body in an sdy.manual_computation (manual_axes={}, global shapes)."""

    name = "wrap-under-manual-computation"
    summary = "Move every public function body under an sdy.manual_computation with the argument/result shardings"

    def run(self, module: Module, ctx: PassContext) -> None:
        if is_solved(module):
            for f in functions(module):
                strip_sdy_shardings(f)
            return
        if is_partitioned(module):
            return  # the pairs around its local body are its manual computation (gspmd_partitioned.py)
        for f in functions(module):
            for i, d in enumerate(arg_attrs(f)):
                if MHLO_SHARDING in d:
                    raise fail(module, f, f"{argument_label(f, i)} has a GSPMD mhlo.sharding; run apply-shardy-argument-annotations "
                               "first (it translates argument strings to sdy.sharding)")
        mesh = the_mesh(module, what="wrap-under-manual-computation")
        wrapped = 0
        for f in functions(module):
            if not has_body(f) or not is_public(f) or manual_computations(f):
                continue
            wrap_function(module, f, mesh)
            wrapped += 1
        ctx.stats.setdefault(self.name, {})["wrapped_functions"] = wrapped
