"""Dialect definitions: op tables (arity, traits, custom formats) and typed attributes.

Importing this package registers every op definition with `ttopt.ir.opdef`.
"""

from ttopt.dialects import builtin, chlo, func, sdy, stablehlo, ttcore, ttir, ttnn  # noqa: F401
from ttopt.dialects import sdy_attrs, ttcore_attrs, ttnn_attrs, ttnn_layout  # noqa: F401,E402  typed attribute factories
