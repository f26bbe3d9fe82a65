"""MLIR's float attribute spelling, now at the IR layer (ttopt/ir/float_spelling.py,
ttopt/ir/attributes.py `mlir_float_attr`): re-exported here for lowering modules that still
import it from this place."""

from ttopt.ir.attributes import mlir_float_attr  # noqa: F401  (re-exported)
from ttopt.ir.float_spelling import SEMANTICS, float_text, round_to  # noqa: F401  (re-exported)
