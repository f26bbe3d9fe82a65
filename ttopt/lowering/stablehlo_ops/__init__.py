"""StableHLO/CHLO lowerings to TTIR that live in their own modules, one op family per module.

Each module registers its handlers with `ttopt.lowering.stablehlo_to_ttir.lowers`; importing this
package imports them all.
"""

from ttopt.lowering.stablehlo_ops import custom_call, sort_topk  # noqa: F401  (register on import)
