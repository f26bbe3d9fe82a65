"""`convert-to-ttnn-ccl`: the TTIR sharding ops -> the TTNN ops tt-mlir HEAD converts them to, on
TTIR tensor types (the compute ops stay as they are; `convert-ttir-to-ttnn` converts both at once,
with layouts, through the same rules):

| TTIR | TTNN |
|---|---|
| mesh_shard | `ttnn.distribute_tensor` / `ttnn.aggregate_tensor` on the device (ttnn_mesh_shard.py) |
| all_gather, reduce_scatter, all_reduce, all_reduce_async, mesh_partition | the TTNN op of the same name, no device operand (ttnn_collectives.py) |
| collective_permute, all_to_all | `ttnn.assign` + `ttnn.point_to_point` exchanges (ttnn_point_to_point.py) |

Every function that needs the device, nested ones (`ttcore.device_module`) included, gets one
`ttnn.get_device` with the module's mesh (`ttcore.meshes`) at its start. `num-links`, when given,
is written on the collectives; HEAD's conversion leaves it unset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttnn_device import DEVICE_TYPE as DEVICE
from ttopt.ir.attributes import ArrayAttr, DialectAttr, IntegerAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType, TensorType
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.convert_ttir import refresh_function_type
from ttopt.sharding.diagnostics import fail, op_label, typed
from ttopt.sharding.ttnn_collectives import COLLECTIVE_RULES, module_mesh
from ttopt.sharding.ttnn_mesh_shard import MESH_SHARD_RULES
from ttopt.sharding.ttnn_point_to_point import POINT_TO_POINT_RULES

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

RULES = {**COLLECTIVE_RULES, **MESH_SHARD_RULES, **POINT_TO_POINT_RULES}
CONVERTED = frozenset(f"ttir.{name}" for name in RULES)
WITH_LINKS = frozenset({"ttnn.all_gather", "ttnn.reduce_scatter", "ttnn.all_reduce", "ttnn.all_reduce_async"})
I32, UI32 = ScalarType("i32"), ScalarType("ui32")


class _TTIRTyped:
    """One block's conversion: TTNN ops on the TTIR tensor types, the function's one device."""

    def __init__(self, module: Module, func: Operation, block: Any, mesh: tuple[int, int], links: int | None) -> None:
        self.module = module
        self.func = func
        self.block = block
        self.mesh = mesh
        self.links = links
        self.device: Any = None
        self.out: list[Operation] = []

    def emit(self, name: str, operands: list[Any], result_type: Any, properties: dict[str, Any] | None = None,
             location: Any = None) -> Any:  # fmt: skip
        """Append `name` with one result."""
        props = dict(properties or {})
        if self.links is not None and name in WITH_LINKS:
            props = dict(sorted({**props, "num_links": IntegerAttr(self.links, UI32)}.items()))
        op = Operation(name, operands, [result_type], properties=props, location=location)
        self.out.append(op)
        return op.results[0]

    def layout_type(self, t: Any, op: Any, host: bool = False) -> Any:
        """TTIR types stay as they are (no TTNN layout before convert-ttir-to-ttnn)."""
        return t.resolve() if hasattr(t, "resolve") else t

    def get_device(self) -> Any:
        """The function's `ttnn.get_device` (made at the entry block's start on first use)."""
        if self.device is None:
            entry = self.func.regions[0].blocks[0]
            found = next((o for o in entry.ops if o.name == "ttnn.get_device" and not o.operands), None)
            if found is None:
                found = Operation("ttnn.get_device", [], [DEVICE], properties={
                    "mesh_shape": DialectAttr("ttnn", f"mesh_shape {'x'.join(map(str, self.mesh))}")})
                if entry is self.block:
                    self.out.insert(0, found)
                else:
                    entry.insert(0, found)
            self.device = found.results[0]
        return self.device

    def reshape(self, v: Any, shape: tuple[int, ...], like: Any, loc: Any) -> Any:
        """`v` as `shape` (a `ttnn.reshape` unless it has that shape)."""
        t = v.type.resolve()
        if tuple(t.shape) == tuple(shape):
            return v
        attr = ArrayAttr(tuple(IntegerAttr(int(d), I32) for d in shape))
        return self.emit("ttnn.reshape", [v], TensorType(tuple(shape), t.element_type), {"shape": attr}, loc)


@register_pass
@dataclass
class ConvertToTTNNCCL(Pass):
    """TTIR mesh_shard / CCL ops -> the TTNN ops HEAD converts them to."""

    name = "convert-to-ttnn-ccl"
    summary = "ttir.mesh_shard and TTIR collectives -> HEAD's TTNN ops (distribute/aggregate_tensor, collectives, point_to_point)"

    num_links: int | None = option(None, "Ethernet links per collective (ttnn num_links; default unset, as HEAD's conversion leaves it)")

    def validate(self) -> None:
        """num_links is written into the IR as a ui32 count of links: at least one."""
        if self.num_links is not None and not 1 <= self.num_links <= 0xFFFFFFFF:
            raise ValueError(f"num-links must be between 1 and 4294967295, got {self.num_links}")

    def run(self, module: Module, ctx: PassContext) -> None:
        meshes = module.op.attributes.get("ttcore.meshes")
        if meshes is not None:
            m = typed(module, module.op, meshes, "ttcore.meshes").meshes
            if len(m) != 1:
                raise fail(module, module.op, f"ttcore.meshes has {len(m)} meshes; convert-to-ttnn-ccl needs exactly one")
        mesh = module_mesh(module)
        count = 0
        for f in module.functions():
            ops = [op for op in f.walk() if op.name in CONVERTED]
            if not ops:
                continue
            if meshes is None:
                raise fail(module, ops[0], f"{op_label(ops[0])} needs the module attribute ttcore.meshes (run convert-to-ttir)")
            blocks = {id(op.parent): op.parent for op in ops if op.parent is not None}  # all are: walked inside f
            device: Any = None
            for block in blocks.values():
                em = _TTIRTyped(module, f, block, mesh, self.num_links)
                em.device = device
                for op in list(block.ops):
                    if op.name not in CONVERTED:
                        em.out.append(op)
                        continue
                    first = len(em.out)
                    try:
                        new = RULES[op.name[5:]](em, op)
                    except ValueError as e:
                        raise Diagnostic(f"convert-to-ttnn-ccl: '{op.name}' {e}", op_position(module.source, op)) from None
                    for emitted in em.out[first:]:
                        if emitted.pos is None:
                            emitted.pos = op.pos
                    op.results[0].replace_all_uses_with(new)
                    op.drop_all_references()
                    op.parent = None
                    count += 1
                for op in em.out:
                    op.parent = block
                block.ops = em.out
                device = em.device
            refresh_function_type(f)
        ctx.stats.setdefault(self.name, {})["converted"] = count

