"""Candidate configs per op: layouts x op-specific knobs (seed 002 §3.1.3-3.1.4, reference §2.3-2.4).

These are candidates, not verdicts: the optimizer (or `ttopt analyze`) validates each with the op
model. Order matters downstream (ties are broken by index): interleaved layouts first, then sharded
by volume; matmul gets one derived program config per layout; conv2d repeats all layouts for each
config of its search space (odometer order).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ttopt.device.conv2d_config import Conv2dConfig, conv2d_search_space
from ttopt.device.device import Device
from ttopt.device.layout_info import layout_info
from ttopt.device.layout_pool import layout_pool
from ttopt.device.matmul_config import derive_program_config, is_batched, matmul_dims
from ttopt.device.op_config import OpConfig
from ttopt.device.op_families import Family, family_of, fixed_dispatch
from ttopt.device.tensor import TensorTypeError, check_shape, element_dtype
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType

# Ops whose layout the optimizer never changes (reference §2.3).
FIXED_LAYOUT_OPS = frozenset({"ttnn.to_layout", "ttnn.to_memory_config", "ttnn.empty"})


def _current(t: TensorType) -> TTNNLayoutAttr | None:
    try:
        typed = getattr(t.encoding.resolve(), "typed", None) if t.encoding is not None else None
    except AttrError:
        return None
    return typed if isinstance(typed, TTNNLayoutAttr) else None


def candidate_configs(
    op: Any, device: Device, max_legal_layouts: int = 8, row_major_enabled: bool = False
) -> list[OpConfig]:
    """The configs to try for `op`, in upstream's order (see module docstring)."""
    if len(op.results) != 1 or not isinstance(op.results[0].type.resolve(), TensorType):
        return []
    rt = op.results[0].type.resolve()
    current = _current(rt)
    fam = family_of(op.name)
    if fam is None or op.name in FIXED_LAYOUT_OPS or fixed_dispatch(op.name):
        return [OpConfig(output=current)] if current is not None else []
    dtype = element_dtype(rt)
    if dtype is None:
        return []
    try:
        pool = layout_pool(rt.shape, dtype, device.worker_grid, row_major_enabled)
    except TensorTypeError:
        return []
    layouts = pool.op_layouts(max_legal_layouts)
    if fam is Family.MATMUL:
        return _matmul_configs(op, device, layouts)
    if fam is Family.CONV:
        attr = op.get_attr("conv2d_config")
        try:
            base = Conv2dConfig.from_attr(attr.resolve().typed if attr is not None else None)
        except AttrError:
            base = Conv2dConfig()
        if base.weights_dtype is None and len(op.operands) > 1:
            wt = op.operands[1].type.resolve()
            wd = element_dtype(wt) if isinstance(wt, TensorType) else None
            if wd is not None:
                base = replace(base, weights_dtype=wd.value)
        return [OpConfig(output=lay, conv2d=cfg) for cfg in conv2d_search_space(base) for lay in layouts]
    return [OpConfig(output=lay) for lay in layouts]


def _matmul_configs(op: Any, device: Device, layouts: tuple[TTNNLayoutAttr, ...]) -> list[OpConfig]:
    try:
        shapes = [check_shape(t.shape) for t in (v.type.resolve() for v in op.operands) if isinstance(t, TensorType)]
        out_shape = check_shape(op.results[0].type.resolve().shape)
    except TensorTypeError:
        return [OpConfig(output=lay) for lay in layouts]  # the op model reports the shape itself
    if len(shapes) < 2:
        return [OpConfig(output=lay) for lay in layouts]
    ta = op.get_attr("transpose_a")
    dims = matmul_dims(shapes[0], shapes[1], out_shape, bool(getattr(ta, "value", False)))
    act = op.get_attr("activation")
    act_name = getattr(act.resolve(), "value", None) if act is not None else None
    batched = is_batched(shapes[1])
    out = []
    for lay in layouts:
        cfg = None if batched else derive_program_config(dims, layout_info(lay), device.max_subblock, act_name or None)
        out.append(OpConfig(output=lay, matmul=cfg))
    return out
