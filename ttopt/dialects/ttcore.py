"""The ttcore dialect: `ttcore.device_module`, `ttcore.cpu_module`, `ttcore.device`, `ttcore.optimization_barrier` (what
`stablehlo.optimization_barrier` lowers to; generic form)."""

from ttopt.dialects.func_formats import ModuleFormat, SymEqFormat
from ttopt.ir.opdef import OpDef, register

register(
    OpDef("ttcore.device_module", operands=0, results=0, regions=1, format=ModuleFormat()),
    OpDef("ttcore.cpu_module", operands=0, results=0, regions=1, format=ModuleFormat()),
    OpDef("ttcore.device", operands=0, results=0, format=SymEqFormat("device_attr", "ttcore.device")),
    OpDef("ttcore.optimization_barrier", operands=(0, None), results=(0, None)),
)
