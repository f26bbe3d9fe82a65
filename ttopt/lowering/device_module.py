"""`ttcore-wrap-device-module`: the program moves into `ttcore.device_module { builtin.module {...} }`
(tt-mlir's TTCoreWrapDeviceModulePass), so that host code sits beside it in a `ttcore.cpu_module`.

The inner module gets the root's name and attributes, which the root keeps too, as tt-mlir copies
them; a `ttcore.cpu_module` already at the root stays there, after the device module; a module that
already has a device module is left as it is. The backend pipeline wraps last (its passes read the
root's attributes until then) and moves the system desc it registered into the inner module, where
tt-mlir registers it.
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


def wrap_device_module(module: Module, move: tuple[str, ...] = ()) -> bool:
    """Move the root module's body into a device module, its name and attributes copied (the
    attributes in `move` leave the root); False when there already is one."""
    if any(op.name == DEVICE_MODULE for op in module.body.ops):
        return False
    ops = [op for op in module.body.ops if op.name != CPU_MODULE]
    module.body.remove_many(ops)
    inner_block = Block()
    for op in ops:
        inner_block.append(op)
    inner = Operation("builtin.module", properties=dict(module.op.properties), attributes=dict(module.op.attributes),
                      regions=[Region([inner_block])], location=module.op.location)  # fmt: skip
    for name in move:
        module.op.attributes.pop(name, None)
    wrapper = Operation(DEVICE_MODULE, regions=[Region([Block()])], location=module.op.location)
    wrapper.regions[0].entry.append(inner)
    module.body.insert(0, wrapper)
    return True


@register_pass
@dataclass
class TTCoreWrapDeviceModule(Pass):
    """Wrap the program in `ttcore.device_module { builtin.module }` (tt-mlir's ttcore-wrap-device-module)."""

    name = "ttcore-wrap-device-module"
    summary = "Move the module's body into ttcore.device_module { builtin.module { ... } } (name and attributes copied), unless it has one"

    def run(self, module: Module, ctx: PassContext) -> None:
        ctx.stats.setdefault(self.name, {})["wrapped"] = int(wrap_device_module(module, self.moved()))

    def moved(self) -> tuple[str, ...]:
        """Root attributes that go to the inner module instead of being copied (none: tt-mlir's pass)."""
        return ()


def unwrap_device_module(module: Module) -> bool:
    """Move the device module's program back to the root, dropping the CPU module (tt-mlir's
    ttcore-unwrap-device-module); the inner module's attributes the root lacks join it. False
    when there is no device module."""
    wrapper = next((op for op in module.body.ops if op.name == DEVICE_MODULE), None)
    inner = _inner(wrapper)
    if wrapper is None or inner is None:
        return False
    for op in [op for op in module.body.ops if op.name == CPU_MODULE]:
        module.body.remove(op)
    at = module.body.index(wrapper)
    module.body.remove(wrapper)
    ops = list(inner.regions[0].entry.ops)
    inner.regions[0].entry.remove_many(ops)
    for i, op in enumerate(ops):
        module.body.insert(at + i, op)
    for name, value in inner.attributes.items():
        module.op.attributes.setdefault(name, value)
    return True


@register_pass
@dataclass
class TTCoreUnwrapDeviceModule(Pass):
    """Undo the device-module wrapping (tt-mlir's ttcore-unwrap-device-module, a step of its EmitC path)."""

    name = "ttcore-unwrap-device-module"
    summary = "Move the program out of ttcore.device_module back to the root module and drop the ttcore.cpu_module"

    def run(self, module: Module, ctx: PassContext) -> None:
        ctx.stats.setdefault(self.name, {})["unwrapped"] = int(unwrap_device_module(module))
