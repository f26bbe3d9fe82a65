"""Dialect definitions: op tables (arity, traits, custom formats) and typed attributes.

Importing this package registers every op definition with `ttopt.ir.opdef`.
"""

from ttopt.dialects import builtin, chlo, func, sdy, stablehlo, ttcore, ttir, ttnn  # noqa: F401
