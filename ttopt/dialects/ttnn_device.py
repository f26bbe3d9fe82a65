"""The TTNN device value: its type and the `ttnn.get_device` op of a module's mesh, which the
conversion, the layout decomposition, the workarounds and the trace pass all create."""

from __future__ import annotations

from typing import Any

from ttopt.ir.attributes import DialectAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import OpaqueType

DEVICE_TYPE = OpaqueType("!ttnn.device", "ttnn.device")
GET_DEVICE = "ttnn.get_device"


def new_device(module: Any) -> Operation:
    """A `ttnn.get_device` of the module's mesh (1x1 without `ttcore.meshes`), not yet in a block."""
    attr = module.op.attributes.get("ttcore.meshes")
    typed = getattr(attr.resolve(), "typed", None) if attr is not None else None
    meshes = getattr(typed, "meshes", ()) if typed is not None else ()
    mesh = "x".join(map(str, meshes[0].shape if meshes else (1, 1)))
    return Operation(GET_DEVICE, [], [DEVICE_TYPE], properties={"mesh_shape": DialectAttr("ttnn", f"mesh_shape {mesh}")})
