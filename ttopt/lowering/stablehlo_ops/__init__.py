"""StableHLO/CHLO lowerings to TTIR that live in their own modules, one op family per module.

Each module registers its handlers with `ttopt.lowering.stablehlo_handlers.lowers`; importing this
package imports them all.
"""

from ttopt.lowering.stablehlo_ops import (  # noqa: F401  (each registers its lowerings on import)
    attention,
    attention_composites,
    batch_norm,
    chlo,
    convolution,
    custom_call,
    dot_general,
    gather,
    kv_cache,
    optimization_barrier,
    pad_slices,
    quantization,
    reduce_multi,
    reduce_window,
    rng,
    rounding,
    scatter,
    select_and_scatter,
    shape_queries,
    shifts,
    sort_topk,
    sparse_moe,
)
