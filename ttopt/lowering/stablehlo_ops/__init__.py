"""StableHLO/CHLO lowerings to TTIR that live in their own modules, one op family per module.

Each module registers its handlers with `ttopt.lowering.stablehlo_to_ttir.lowers`; importing this
package imports them all.
"""

from ttopt.lowering.stablehlo_ops import (  # noqa: F401  (each registers its lowerings on import)
    batch_norm,
    chlo,
    custom_call,
    optimization_barrier,
    quantization,
    reduce_multi,
    rng,
    rounding,
    shape_queries,
    shifts,
    sort_topk,
)
