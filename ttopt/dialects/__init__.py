"""Dialect definitions: op tables (arity, traits, custom formats) and typed attributes.

Importing this package registers every op definition with `ttopt.ir.opdef`.
"""

from ttopt.dialects import (  # noqa: F401  (import order: a module that adjusts another dialect's ops sorts after it)
    arith,
    builtin,
    chlo,
    emitc,
    formats,
    func,
    llvm,
    sdy,
    stablehlo,
    stablehlo_custom_call,
    stablehlo_properties,
    stablehlo_struct_checks,
    stablehlo_verify,
    ttcore,
    ttir,
    ttir_formats,
    ttkernel_program,
    ttnn,
)
from ttopt.dialects.op_names import OP_NAMES
from ttopt.ir.attributes import FLOAT_PARAM_DIALECTS, TYPED_ATTR_MODULES  # typed attribute models load on the first `.typed` lookup
from ttopt.ir.dialect_registry import register_dialect_ops

register_dialect_ops(OP_NAMES)

TYPED_ATTR_MODULES.update({
    "ttcore": ["ttopt.dialects.ttcore_attrs"],
    "ttir": ["ttopt.dialects.ttir_attrs"],
    "ttnn": ["ttopt.dialects.ttnn_attrs", "ttopt.dialects.ttnn_layout"],
    "sdy": ["ttopt.dialects.sdy_attrs"],
    "stablehlo": ["ttopt.dialects.stablehlo_attrs"],
})
FLOAT_PARAM_DIALECTS.add("ttnn")  # `#ttnn.unary_with_param<op_type = ..., params = [1.0 : f32]>`, also nested
