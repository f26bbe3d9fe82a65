"""StableHLO/CHLO lowerings to TTIR that live in their own modules, one op family per module.

Each module registers its handlers with `ttopt.lowering.stablehlo_to_ttir.lowers`; importing this
package imports them all.
"""

from ttopt.lowering.stablehlo_ops import dot_general  # noqa: F401
from ttopt.lowering.stablehlo_ops import pad_slices  # noqa: F401
from ttopt.lowering.stablehlo_ops import reduce_window  # noqa: F401
from ttopt.lowering.stablehlo_ops import select_and_scatter  # noqa: F401
from ttopt.lowering.stablehlo_ops import gather  # noqa: F401
from ttopt.lowering.stablehlo_ops import scatter  # noqa: F401
