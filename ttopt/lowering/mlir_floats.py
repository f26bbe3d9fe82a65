"""MLIR's float attribute spelling, now at the IR layer (ttopt/ir/float_spelling.py): re-exported
here for lowering modules that still import it from this place."""

from ttopt.ir.float_spelling import SEMANTICS, float_text, mlir_float_attr, round_to  # noqa: F401  (re-exported)
