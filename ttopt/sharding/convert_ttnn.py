"""`convert-to-ttnn-ccl`: TTIR sharding ops -> the TTNN ops of seed 004 §6.

Each function that has TTIR mesh/CCL ops gets one `ttnn.get_device` (mesh shape from the module's
`ttcore.meshes`) at its start; every converted op takes that device as its second operand:

| TTIR | TTNN | attributes |
|---|---|---|
| mesh_shard | ttnn.mesh_shard | shard_dims, shard_direction, shard_shape, shard_type |
| all_gather | ttnn.all_gather | all_gather_dim, cluster_axis, num_links |
| reduce_scatter | ttnn.reduce_scatter | cluster_axis, num_links, reduce_type, scatter_dim |
| all_reduce | ttnn.all_reduce | cluster_axis, num_links, reduce_type |
| collective_permute | ttnn.collective_permute | source_target_pairs |
| all_to_all | ttnn.all_to_all | cluster_axis, concat_dim, num_links, split_count, split_dim |
| mesh_partition | ttnn.mesh_partition (no device: a local slice) | cluster_axis, dim |

Other ops are left as they are (this pass converts the sharding ops only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.attributes import DialectAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import OpaqueType, ScalarType
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.util import fail, functions, op_label, typed

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

WITH_LINKS = frozenset({"ttir.all_gather", "ttir.reduce_scatter", "ttir.all_reduce", "ttir.all_to_all"})
CONVERTED = frozenset({"ttir.mesh_shard", "ttir.collective_permute", "ttir.mesh_partition", *WITH_LINKS})


@register_pass
@dataclass
class ConvertToTTNNCCL(Pass):
    """TTIR mesh_shard / CCL ops -> TTNN ops on a device."""

    name = "convert-to-ttnn-ccl"
    summary = "ttir.mesh_shard and TTIR collectives -> ttnn ops with a ttnn.get_device operand (and num_links)"

    num_links: int = option(1, "Ethernet links per CCL op (ttnn num_links)")

    def validate(self) -> None:
        """num_links is written into the IR as a ui32 count of links: at least one."""
        if not 1 <= self.num_links <= 0xFFFFFFFF:
            raise ValueError(f"num-links must be between 1 and 4294967295, got {self.num_links}")

    def run(self, module: Module, ctx: PassContext) -> None:
        meshes = module.op.attributes.get("ttcore.meshes")
        shape = (1, 1)
        if meshes is not None:
            m = typed(module, module.op, meshes, "ttcore.meshes").meshes
            if len(m) != 1:
                raise fail(module, module.op, f"ttcore.meshes has {len(m)} meshes; convert-to-ttnn-ccl needs exactly one")
            shape = m[0].shape
        device_type = OpaqueType("!ttnn.device", "ttnn.device")
        count = 0
        for f in functions(module):
            ops = [op for op in f.walk() if op.name in CONVERTED]
            if not ops:
                continue
            if meshes is None:
                raise fail(module, ops[0], f"{op_label(ops[0])} needs the module attribute ttcore.meshes (run convert-to-ttir)")
            dev_op = Operation("ttnn.get_device", [], [device_type], properties={
                "mesh_shape": DialectAttr("ttnn", f"mesh_shape {'x'.join(map(str, shape))}")})
            f.regions[0].blocks[0].insert(0, dev_op)
            dev = dev_op.results[0]
            blocks = {id(op.parent): op.parent for op in ops if op.parent is not None}  # all are: walked inside f
            for block in blocks.values():
                out = []
                for op in block.ops:
                    if op.name not in CONVERTED:
                        out.append(op)
                        continue
                    name = "ttnn." + op.name.split(".", 1)[1]
                    props = dict(op.properties)
                    if op.name in WITH_LINKS:
                        props["num_links"] = IntegerAttr(self.num_links, ScalarType("ui32"))
                    operands = [op.operands[0]] if op.name == "ttir.mesh_partition" else [op.operands[0], dev]
                    new = Operation(name, operands, [op.results[0].type], properties=props, location=op.location)
                    new.pos = op.pos
                    new.parent = block
                    out.append(new)
                    op.results[0].replace_all_uses_with(new.results[0])
                    op.drop_all_references()
                    op.parent = None
                    count += 1
                block.ops = out
        ctx.stats.setdefault(self.name, {})["converted"] = count
