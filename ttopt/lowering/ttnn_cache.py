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

`ttir.paged_update_cache(cache, input, update_index[, page_table])` becomes
`ttnn.paged_update_cache` with the same operands and `share_cache` (HEAD's
PagedUpdateCacheOpConversionPattern), after HEAD's TTIR verifier's checks: a 4-D cache and input, a
1-D index with one entry per user (the input's dim 1; its dim 0 is 1), the input's head dim (dim 3)
the cache's, and with a page table: a 2-D table with one row per user and a cache block (dim 2) of
whole tiles. The same workarounds as above follow: the input L1 height-sharded on [users, 1] cores,
the index and the page table row-major.

`ttir.paged_fill_cache(cache, input, page_table[, batch_idx_tensor])` becomes
`ttnn.paged_fill_cache` with the same operands (HEAD's PagedFillCacheOpConversionPattern), after
HEAD's TTIR verifier's checks: a 4-D float cache and input of one element type, a 2-D integer page
table, a 1-D integer batch index with one entry per input batch (without one, the input batch must
be 1: tt-metal is then called with batch index 0), a cache block (dim 2) of whole tiles, and the
input's heads (dim 1) and head dim (dim 3) the cache's. HEAD's TTNN workarounds then make the page
table and batch index row-major, and pad the input's sequence to whole tiles.

The cache is a function argument in every model that uses them, so it keeps the argument's
DRAM-interleaved layout; the optimizer leaves ops without a result where they are (no layout of
theirs to choose).
"""

from __future__ import annotations

import re
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


def _paged_update_cache(lw: _Lowering, op: Any) -> list[Any]:
    """`ttir.paged_update_cache` -> `ttnn.paged_update_cache` with HEAD's workarounds (module doc)."""
    ins = inputs(op)
    if not 3 <= len(ins) <= 4:
        raise ValueError(f"has {len(ins)} operands; paged_update_cache takes 3 or 4")
    _check_paged_update(*(_shape(v) for v in ins))
    cache, x, *indices = ins
    indices = [row_major(lw, op, v) for v in indices]
    x = _height_sharded(lw, op, x)
    share = op.get_attr("share_cache")
    share_cache = BoolAttr(bool(getattr(share, "value", False)))
    lw.out.append(Operation("ttnn.paged_update_cache", [cache, x, *indices], [], properties={"share_cache": share_cache}, location=op.location))
    return []


def _check_paged_update(cshape: tuple[int, ...], xshape: tuple[int, ...], ishape: tuple[int, ...], pshape: tuple[int, ...] | None = None) -> None:
    """HEAD's PagedUpdateCacheOp::verify (TTIROps.cpp), its messages."""
    if len(cshape) != 4:
        raise ValueError("Cache tensor must be a 4D tensor")
    if len(xshape) != 4:
        raise ValueError("Input tensor must be a 4D tensor")
    if len(ishape) != 1:
        raise ValueError("Update index tensor must be a 1D tensor")
    users = ishape[0]
    if pshape is not None and cshape[2] % 32:
        raise ValueError(f"Block size must be divisible by 32, got {cshape[2]}")
    if xshape[0] != 1:
        raise ValueError(f"Input tensor must have dim 0 be equal to 1, got {xshape[0]}")
    if xshape[1] != users:
        raise ValueError(f"Input tensor must have shape equal to the number of users (determined by update index shape): {users}, got {xshape[1]}")
    if xshape[3] != cshape[3]:
        raise ValueError(f"Input tensor must have dim 3 be equal to the head dimension (determined by cache shape): {cshape[3]}, got {xshape[3]}")
    if pshape is None:
        return
    if len(pshape) != 2:
        raise ValueError("Page table tensor must be a 2D tensor")
    if pshape[0] != users:
        raise ValueError(f"Page table tensor must have dim 0 be equal to the number of users (determined by update index shape): {users}, got {pshape[0]}")


def _paged_fill_cache(lw: _Lowering, op: Any) -> list[Any]:
    """`ttir.paged_fill_cache` -> `ttnn.paged_fill_cache`, same operands, once HEAD's verifier accepts them."""
    ins = inputs(op)
    if not 3 <= len(ins) <= 4:
        raise ValueError(f"has {len(ins)} operands; paged_fill_cache takes 3 or 4")
    _check_paged_fill(*(v.type.resolve() for v in ins))
    lw.out.append(Operation("ttnn.paged_fill_cache", ins, [], location=op.location))
    return []


def _check_paged_fill(cache: Any, x: Any, page_table: Any, batch_idx: Any = None) -> None:
    """HEAD's PagedFillCacheOp::verify (TTIROps.cpp), its messages."""
    cshape, xshape = tuple(cache.shape), tuple(x.shape)
    if len(cshape) != 4:
        raise ValueError("Cache tensor must be a 4D tensor")
    if len(xshape) != 4:
        raise ValueError("Input tensor must be a 4D tensor")
    if len(page_table.shape) != 2:
        raise ValueError("Page table tensor must be a 2D tensor")
    celem, xelem = cache.element_type.resolve().text, x.element_type.resolve().text
    if celem != xelem:
        raise ValueError("Cache and input tensors must have the same dtype")
    if not _is_float(celem):
        raise ValueError("Cache tensor must be a floating point type")
    if not _is_integer(page_table.element_type.resolve().text):
        raise ValueError("Page table tensor must be an integer type")
    if batch_idx is not None:
        if len(batch_idx.shape) != 1:
            raise ValueError("Batch index tensor must be a 1D tensor")
        n = batch_idx.shape[0]
        if isinstance(n, int) and isinstance(xshape[0], int) and n != xshape[0]:
            raise ValueError(f"Batch index tensor must have dim 0 equal to input batch ({xshape[0]}), got {n}")
        if not _is_integer(batch_idx.element_type.resolve().text):
            raise ValueError("Batch index tensor must be an integer type")
    elif xshape[0] != 1:
        got = xshape[0] if isinstance(xshape[0], int) else "dynamic"
        raise ValueError(f"Input batch must be statically 1 when no batch_idx_tensor is provided, got {got}")
    if isinstance(cshape[2], int) and cshape[2] % 32:
        raise ValueError(f"Block size must be divisible by 32, got {cshape[2]}")
    if xshape[1] != cshape[1]:
        raise ValueError("Input must have the same number of heads as the cache.")
    if xshape[3] != cshape[3]:
        raise ValueError("Input must have same head dimension as cache.")


def _is_float(elem: str) -> bool:
    # Block floats (bfp_bf8 / bfp_bf4 caches) are floats to ttcore, as HEAD's isFloat reads the tile type.
    return re.fullmatch(r"f\d+|bf16|tf32|f8E\w+", elem) is not None or "bfp_" in elem


def _is_integer(elem: str) -> bool:
    return re.fullmatch(r"(s|u)?i\d+", elem) is not None


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


CACHE_RULES = {"update_cache": _update_cache, "paged_update_cache": _paged_update_cache, "fill_cache": _cache_op("fill_cache", 2),
               "paged_fill_cache": _paged_fill_cache}
# Ops without results (the lowering's one-result check does not apply).
NO_RESULT = frozenset(CACHE_RULES)
