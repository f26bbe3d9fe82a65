"""StableHLO/CHLO lowerings to TTIR that live in their own modules, one op family per module.

Each module registers its handlers with `ttopt.lowering.stablehlo_handlers.lowers`; importing this
package imports them all.
"""

from ttopt.lowering.stablehlo_ops import (
    dot_general,  # noqa: F401
    gather,  # noqa: F401
    pad_slices,  # noqa: F401
    reduce_window,  # noqa: F401
    scatter,  # noqa: F401
    select_and_scatter,  # noqa: F401
)
