"""TTIR -> TTNN for the KV-cache ops (tt-mlir's TTIRToTTNN UpdateCache / FillCache patterns).

`ttir.fill_cache(cache, input)` writes `cache` in place and has no result; it becomes
`ttnn.fill_cache` with the same operands and its `batch_offset` (I32Attr).

`ttir.update_cache(cache, input, update_index)` becomes `ttnn.paged_update_cache`, as HEAD's
pipeline leaves it: the TTIR canonicalizer rewrites it to `ttir.paged_update_cache` (no page table,
`share_cache = false`, `batch_offset` dropped), the input permuted (0, 2, 1, 3) to
[1, users, heads, head_dim] when it is written [1, heads, users, head_dim], a one-element index
repeated to one per user (users = the cache's dim 0). HEAD's TTNN workarounds then give the op
what tt-metal's kernel reads: the input L1 height-sharded on a [users, 1] grid
(PagedUpdateCacheOpRewritePattern; a `ttnn.to_memory_config` once decomposed) and the index
row-major (`ttnn.to_layout`). (HEAD repeats the index in TTIR, where a constant index folds into
a constant; here the repeat is a `ttnn.repeat`, which const-eval hoists for a constant index.)

The cache is a function argument in every model that uses them, so it keeps the argument's
DRAM-interleaved layout; the optimizer leaves ops without a result where they are (no layout of
theirs to choose).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.device.device import from_module_desc
from ttopt.device.layout_info import HEIGHT, L1, make_layout
from ttopt.device.presets import CHIP_PRESETS
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, DialectAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttnn_direct import row_major
from ttopt.optimizer.memory_move import conversion_ops

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

I32 = ScalarType("i32")


def _cache_op(name: str, operands: int) -> Any:
    """TTIR in-place cache op -> the TTNN op of the same name, no results."""

    def rule(lw: _Lowering, op: Any) -> list[Any]:
        ins = inputs(op)
        if len(ins) != operands:
            raise ValueError(f"has {len(ins)} operands; {name} takes {operands}")
        offset = getattr(op.get_attr("batch_offset"), "value", None)
        if not isinstance(offset, int):
            raise ValueError("needs an integer 'batch_offset'")
        new = Operation(f"ttnn.{name}", ins, [], properties={"batch_offset": IntegerAttr(offset, I32)}, location=op.location)
        lw.out.append(new)
        return []

    return rule


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in v.type.resolve().shape)


def _update_cache(lw: _Lowering, op: Any) -> list[Any]:
    """`ttir.update_cache` as HEAD's canonical `paged_update_cache` with its workarounds (module doc)."""
    ins = inputs(op)
    if len(ins) != 3:
        raise ValueError(f"has {len(ins)} operands; update_cache takes 3")
    cache, x, index = ins
    cshape, xshape, ishape = _shape(cache), _shape(x), _shape(index)
    if len(cshape) != 4 or len(xshape) != 4 or len(ishape) != 1:
        raise ValueError("needs a 4-D cache and input and a 1-D update index")
    users, heads = cshape[0], cshape[1]
    loc = op.location
    if xshape[2] == users and xshape[1] == heads:
        perm = (0, 2, 1, 3)
        shape = tuple(xshape[p] for p in perm)
        x = lw.emit("ttnn.permute", [x], _like(lw, op, shape, x), {"permutation": DenseArrayAttr("i64", perm)}, loc)
    if ishape[0] == 1 and users != 1:
        index = lw.emit("ttnn.repeat", [index], _like(lw, op, (users,), index), {"repeat_dims": DialectAttr("ttnn.shape", str(users))}, loc)
    index = row_major(lw, op, index)
    x = _height_sharded(lw, op, x)
    new = Operation("ttnn.paged_update_cache", [cache, x, index], [], properties={"share_cache": BoolAttr(False)}, location=loc)
    lw.out.append(new)
    return []


def _like(lw: _Lowering, op: Any, shape: tuple[int, ...], v: Any) -> Any:
    return lw.layout_type(TensorType(shape, v.type.resolve().element_type), op)


def _height_sharded(lw: _Lowering, op: Any, x: Any) -> Any:
    """`x` in L1, height sharded on a [users, 1] grid (users = its dim 1), tt-mlir's canonical cores."""
    t = x.type.resolve()
    src = t.encoding.resolve().typed
    device = from_module_desc(lw.module)
    wg = tuple(device.worker_grid) if device is not None else CHIP_PRESETS["wormhole_b0"].grid
    try:
        dst = make_layout(tuple(t.shape), src.dtype, True, L1, HEIGHT, (int(t.shape[1]), 1), (int(wg[0]), int(wg[1])))
    except AttrError as e:
        raise ValueError(f"input {list(t.shape)} has no height-sharded layout on {t.shape[1]} cores: {e.message}") from None
    ops = conversion_ops(x, src, dst, lw.aliaser.tensor_type, "paged_update_cache_input", (int(wg[0]), int(wg[1])), location=op.location)
    lw.out.extend(ops)
    return ops[-1].results[0] if ops else x


CACHE_RULES = {"update_cache": _update_cache, "fill_cache": _cache_op("fill_cache", 2)}
# Ops without results (the lowering's one-result check does not apply).
NO_RESULT = frozenset(CACHE_RULES)
