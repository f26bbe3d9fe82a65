"""KV caches: which function arguments are caches, and storing them in a block-float data type
(tt-mlir's TTIRInferKVCacheArgumentTypes and TTNNKVCacheDtypeConversion; the backend pipeline's
`experimental-kv-cache-dtype`).

`ttir-infer-kv-cache-argument-types` marks `{ttcore.kv_cache}` on every argument a cache op
(`ttir.update_cache`, `fill_cache`, `paged_update_cache`, `paged_fill_cache`) writes: directly, or
through a `ttir.mesh_shard` of the argument (multichip programs). The trace transform keeps such
arguments on the device.

`ttnn-kv-cache-dtype-conversion` (`target-dtype` bfp_bf8 / bfp_bf4) gives every `ttcore.kv_cache`
argument of a forward function the target data type (its layout's tiles; the function type
follows, returned caches included; also in a function with no cache op, where only readers such
as paged attention see the cache) and puts a `ttnn.typecast` to that type on the input of each
`fill_cache`, `update_cache` and `paged_fill_cache` (`paged_update_cache` converts its input
itself). A function where some cache op's cache is not directly a `ttcore.kv_cache` argument is
left as it is, as tt-mlir leaves it (no partial conversion).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import UnitAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType
from ttopt.lowering.dtype_types import with_dtype
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.func_attrs import arg_attrs, set_arg_attrs

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

KV_CACHE = "ttcore.kv_cache"
CACHE_OPS = ("update_cache", "fill_cache", "paged_update_cache", "paged_fill_cache")
# Cache ops whose written input is cast to the cache's type (tt-metal's paged_update_cache takes
# f32/bf16 input and converts it).
CAST_INPUT = frozenset({"ttnn.fill_cache", "ttnn.update_cache", "ttnn.paged_fill_cache"})
BFP_DTYPES = ("none", "bfp_bf8", "bfp_bf4")


def _block_args(func: Any) -> list[Any]:
    return list(func.regions[0].entry.args) if func.regions and func.regions[0].blocks else []


def cache_arguments(func: Any, dialect: str) -> set[int]:
    """Indices of the arguments of `func` that `dialect`'s cache ops write (through a mesh_shard too)."""
    names = {f"{dialect}.{n}" for n in CACHE_OPS}
    out: set[int] = set()
    owned = {id(a) for a in _block_args(func)}
    for op in func.walk():
        if op.name not in names or not op.operands:
            continue
        v = op.operands[0]
        p = getattr(v, "op", None)
        if p is not None and p.name == f"{dialect}.mesh_shard" and p.operands:
            v = p.operands[0]
        if id(v) in owned:
            out.add(v.index)
    return out


@register_pass
@dataclass
class TTIRInferKVCacheArgumentTypes(Pass):
    """Mark the arguments cache ops write as `{ttcore.kv_cache}` (tt-mlir's ttir-infer-kv-cache-argument-types)."""

    name = "ttir-infer-kv-cache-argument-types"
    summary = "Mark every function argument a TTIR cache op writes (directly or through a mesh_shard) with {ttcore.kv_cache}"

    def run(self, module: Module, ctx: PassContext) -> None:
        marked = 0
        for func in list(module.functions()):
            found = cache_arguments(func, "ttir")
            if not found:
                continue
            attrs = arg_attrs(func)
            for i in sorted(found):
                if KV_CACHE not in attrs[i]:
                    attrs[i][KV_CACHE] = UnitAttr()
                    marked += 1
            set_arg_attrs(func, attrs)
        ctx.stats.setdefault(self.name, {})["kv-cache-arguments"] = marked


def convert_function(func: Any, dtype: str, aliaser: LayoutAliaser) -> int:
    """Store the `ttcore.kv_cache` arguments of `func` as `dtype`; returns how many changed (0 when a
    cache op's cache is not such an argument)."""
    args = _block_args(func)
    attrs = arg_attrs(func)
    caches = {i for i, d in enumerate(attrs) if KV_CACHE in d}
    ops = [op for op in func.walk() if op.name in {f"ttnn.{n}" for n in CACHE_OPS}]
    if any(getattr(op.operands[0], "op", None) is not None or op.operands[0].index not in caches for op in ops):
        return 0
    changed = 0
    for i in sorted(caches):
        a = args[i]
        lay = current_layout(a.type)
        t = a.type.resolve()
        if lay is None or not isinstance(t, TensorType) or lay.dtype.value == dtype:
            continue
        a.type = with_dtype(a.type, dtype, aliaser)
        changed += 1
    for op in ops:
        if op.name not in CAST_INPUT or len(op.operands) < 2:
            continue
        v = op.operands[1]
        lay = current_layout(v.type)
        t = v.type.resolve()
        if lay is None or not isinstance(t, TensorType) or lay.dtype.value == dtype:
            continue
        cast = Operation("ttnn.typecast", [v], [with_dtype(v.type, dtype, aliaser)], location=op.location)
        block = op.parent
        assert block is not None
        block.insert(block.index(op), cast)
        op.set_operand(1, cast.results[0])
    update_function_type(func)
    return changed


@register_pass
@dataclass
class TTNNKVCacheDtypeConversion(Pass):
    """Store KV cache arguments in a block-float type (tt-mlir's ttnn-kv-cache-dtype-conversion)."""

    name = "ttnn-kv-cache-dtype-conversion"
    summary = "Give every {ttcore.kv_cache} argument of a forward function the target block-float type; typecast what cache ops write into it"

    target_dtype: str = option("none", "Block-float type of the KV caches (none: nothing changes)", choices=BFP_DTYPES)

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.lowering.trace import is_forward

        if self.target_dtype == "none":
            return
        aliaser = LayoutAliaser(module)
        count = sum(convert_function(f, self.target_dtype, aliaser) for f in list(module.functions()) if is_forward(f))
        ctx.stats.setdefault(self.name, {})["kv-cache-arguments"] = count
