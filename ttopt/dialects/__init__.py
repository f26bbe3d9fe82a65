"""Dialect definitions: op tables (arity, traits, custom formats) and typed attributes.

Importing this package registers every op definition with `ttopt.ir.opdef`.
"""

from ttopt.dialects import builtin, chlo, formats, func, sdy, stablehlo, stablehlo_properties, stablehlo_verify, ttcore, ttir, ttnn  # noqa: F401  (after the op tables: properties and checks of their ops)
from ttopt.ir.attributes import TYPED_ATTR_MODULES  # typed attribute models load on the first `.typed` lookup

TYPED_ATTR_MODULES += [f"ttopt.dialects.{m}" for m in ("ttcore_attrs", "ttnn_attrs", "ttnn_layout", "sdy_attrs", "stablehlo_attrs")]
