"""The ttcore dialect: `ttcore.device_module`, `ttcore.cpu_module`, `ttcore.device`, `ttcore.optimization_barrier` (what
`stablehlo.optimization_barrier` lowers to; generic form)."""

from ttopt.dialects.func_formats import ModuleFormat, SymEqFormat
from ttopt.ir.opdef import OpDef, register
from ttopt.ir.operation import Operation


def verify_module_wrapper(op: Operation) -> None:
    """HEAD's verifyModuleWrapper: the body holds one op, a `builtin.module` (passes look only there)."""
    ops = op.regions[0].entry.ops if op.regions and op.regions[0].blocks else []
    if len(ops) != 1:
        raise ValueError("Expected exactly one block")
    if ops[0].name != "builtin.module":
        raise ValueError("Expected exactly one ModuleOp but found 0")


register(
    OpDef("ttcore.device_module", operands=0, results=0, regions=1, format=ModuleFormat(), verify=verify_module_wrapper),
    OpDef("ttcore.cpu_module", operands=0, results=0, regions=1, format=ModuleFormat(), verify=verify_module_wrapper),
    OpDef("ttcore.device", operands=0, results=0, format=SymEqFormat("device_attr", "ttcore.device")),
    OpDef("ttcore.optimization_barrier", operands=(0, None), results=(0, None)),
)
