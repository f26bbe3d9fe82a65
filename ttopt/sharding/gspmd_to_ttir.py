"""`convert-to-ttir` for GSPMD-partitioned functions: each `@Sharding` + SPMD shape custom call pair
becomes the `ttir.mesh_shard` a Shardy manual computation's boundary becomes (tt-mlir's
StableHLOToTTIRCustomCallOpConversionPattern).

The pair's global string is read as an sdy sharding on the module's mesh (gspmd_partitioned.py), so
`shard_spec` gives `shard_type` / `shard_shape` / `shard_dims` exactly as for Shardy. The mesh_shard
takes the place of the SPMD call. Pre-sharded arguments (`ttcore.shard_status`, set for arguments
with an `mhlo.sharding`) and results are the local tensors already, as in HEAD: the argument takes
the local type and no mesh_shard is made; read also elsewhere, it keeps an `identity` mesh_shard,
as on the Shardy path. A `@Sharding` call left over (a hint with no SPMD call) is the identity and
goes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.values import BlockArgument
from ttopt.sharding.func_attrs import arg_attrs, res_attrs
from ttopt.sharding.gspmd_partitioned import SHARDING, SPMD_TARGETS, Pair, call_target, pair_sharding, read_pair
from ttopt.sharding.shard_spec import ShardSpec, refresh_function_type, shard_spec

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.sharding.convert_ttir import Converter


def convert_pairs(conv: Converter, func: Operation) -> None:
    """Every pair of `func` to a `ttir.mesh_shard` (or to nothing for pre-sharded values)."""
    spmd = [op for op in func.walk() if call_target(op) in SPMD_TARGETS]
    if spmd:
        if conv.mesh is None:
            raise conv.fail(spmd[0], "needs the module's 'sdy.mesh' (run the stablehlo-pipeline first)")
        args, results = conv.shard_statuses(arg_attrs(func)), conv.shard_statuses(res_attrs(func))
        for op in spmd:
            _convert(conv, func, read_pair(conv.module, op), args, results)
    for op in [op for op in func.walk() if call_target(op) == SHARDING]:
        op.results[0].replace_all_uses_with(op.operands[0])
        op.erase()
    if spmd:
        refresh_function_type(func)


def _convert(conv: Converter, func: Operation, pair: Pair, presharded_args: list[bool], presharded_res: list[bool]) -> None:
    assert conv.mesh is not None, "convert_pairs checks the mesh"
    s = pair_sharding(conv.module, pair, conv.mesh)
    spec = shard_spec(conv.module, pair.spmd_op, conv.mesh, s, f"mhlo.sharding \"{pair.global_text}\"")
    source, target = (pair.full_value, pair.local_value) if pair.direction == "full_to_shard" else (pair.local_value, pair.full_value)
    boundary = _presharded_boundary(func, pair, presharded_args, presharded_res)
    if boundary == "forward":
        if pair.direction == "full_to_shard":
            # HEAD's presharded argument: the function receives the local tensor.
            source.type = target.type
        target.replace_all_uses_with(source)
    else:
        if boundary == "identity":
            spec = ShardSpec("identity", spec.shape, spec.dims)
        new = conv.mesh_shard(pair.spmd_op, source, target.type, spec, pair.direction, after=False)
        target.replace_all_uses_with(new)
    pair.spmd_op.erase()
    if not pair.sharding_op.results[0].users:
        pair.sharding_op.erase()


def _presharded_boundary(func: Operation, pair: Pair, presharded_args: list[bool], presharded_res: list[bool]) -> str | None:
    """"forward" when the pair is a pre-sharded argument or result's only boundary, "identity" when
    that value is also read elsewhere, None for a mesh_shard."""
    if pair.direction == "full_to_shard":
        v = pair.full_value
        entry = func.regions[0].blocks[0]
        if not (isinstance(v, BlockArgument) and v.block is entry and presharded_args[v.index]):
            return None
        only = all(u is pair.sharding_op for u in v.users) and all(u is pair.spmd_op for u in pair.sharding_op.results[0].users)
        return "forward" if only else "identity"
    full = pair.full_value
    returned = [k for u in full.users if u.name == "func.return" for k, x in enumerate(u.operands) if x is full]
    if not any(presharded_res[k] for k in returned):
        return None
    return "forward" if all(u.name == "func.return" for u in full.users) else "identity"
