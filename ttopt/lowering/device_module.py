"""`ttcore-wrap-device-module`: the program moves into `ttcore.device_module { builtin.module {...} }`
(tt-mlir's TTCoreWrapDeviceModulePass), so that host code sits beside it in a `ttcore.cpu_module`.

The root module's attributes move to the inner module with its body, as tt-mlir moves them; a
`ttcore.cpu_module` already at the root stays there, after the device module; a module that already
has a device module is left as it is. The backend pipeline wraps last, once it has built a CPU
module: its passes read the root's attributes and functions until then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.operation import Block, Operation, Region
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

DEVICE_MODULE = "ttcore.device_module"
CPU_MODULE = "ttcore.cpu_module"


def _inner(wrapper: Operation | None) -> Operation | None:
    if wrapper is None or not wrapper.regions or not wrapper.regions[0].blocks:
        return None
    ops = wrapper.regions[0].entry.ops
    return ops[0] if ops and ops[0].name == "builtin.module" else None


def device_inner_module(module: Module) -> Operation:
    """The `builtin.module` inside the root's `ttcore.device_module`; the root until it is wrapped."""
    return _inner(next((op for op in module.body.ops if op.name == DEVICE_MODULE), None)) or module.op


def cpu_inner_module(module: Module, create: bool = False) -> Operation | None:
    """The `builtin.module` inside the root's `ttcore.cpu_module` (appended when `create`)."""
    found = _inner(next((op for op in module.body.ops if op.name == CPU_MODULE), None))
    if found is None and create:
        found = Operation("builtin.module", regions=[Region([Block()])], location=module.op.location)
        module.body.append(Operation(CPU_MODULE, regions=[Region([Block([])])], location=module.op.location))
        module.body.ops[-1].regions[0].entry.append(found)
    return found


def wrap_device_module(module: Module) -> bool:
    """Move the root module's body into a device module; False when there already is one."""
    if any(op.name == DEVICE_MODULE for op in module.body.ops):
        return False
    ops = [op for op in module.body.ops if op.name != CPU_MODULE]
    module.body.remove_many(ops)
    inner_block = Block()
    for op in ops:
        inner_block.append(op)
    inner = Operation("builtin.module", attributes=dict(module.op.attributes), regions=[Region([inner_block])],
                      location=module.op.location)  # fmt: skip
    module.op.attributes.clear()
    wrapper = Operation(DEVICE_MODULE, regions=[Region([Block()])], location=module.op.location)
    wrapper.regions[0].entry.append(inner)
    module.body.insert(0, wrapper)
    return True


@register_pass
@dataclass
class TTCoreWrapDeviceModule(Pass):
    """Wrap the program in `ttcore.device_module { builtin.module }` (tt-mlir's ttcore-wrap-device-module)."""

    name = "ttcore-wrap-device-module"
    summary = "Move the module's body (and attributes) into ttcore.device_module { builtin.module { ... } }, unless it has one"

    def run(self, module: Module, ctx: PassContext) -> None:
        ctx.stats.setdefault(self.name, {})["wrapped"] = int(wrap_device_module(module))
