"""The chlo dialect (client HLO ops JAX emits): pretty unary forms like `chlo.erf %x : A -> B`."""

from ttopt.dialects.format_base import ConstantFormat, KwargsFormat, PrettyFormat
from ttopt.ir.opdef import PURE, OpDef, register

_UNARY = (
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "bessel_i1e", "conj", "cosh", "digamma", "erf",
    "erf_inv", "erfc", "is_inf", "is_neg_inf", "is_pos_inf", "lgamma", "sinh", "square", "tan",
)
_BINARY = ("next_after", "polygamma", "zeta")
# Implicitly broadcasting binary ops: `chlo.broadcast_add %a, %b : (A, B) -> C`.
_BROADCAST = (
    "add", "and", "atan2", "compare", "complex", "divide", "maximum", "minimum", "multiply", "next_after",
    "or", "polygamma", "power", "remainder", "select", "shift_left", "shift_right_arithmetic",
    "shift_right_logical", "subtract", "xor", "zeta",
)

register(
    *(OpDef(f"chlo.{n}", operands=1, results=1, traits=frozenset({PURE}), format=PrettyFormat(style="chlo")) for n in _UNARY),
    *(OpDef(f"chlo.{n}", operands=2, results=1, traits=frozenset({PURE}), format=PrettyFormat(style="chlo")) for n in _BINARY),
    *(OpDef(f"chlo.broadcast_{n}", traits=frozenset({PURE}), format=PrettyFormat(style="functional")) for n in _BROADCAST),
    OpDef("chlo.constant", operands=0, results=1, traits=frozenset({PURE}), format=ConstantFormat()),
    OpDef("chlo.top_k", operands=1, results=2, format=KwargsFormat({"k": ("k", "i64")}, style="chlo", parens=True),
           result_name=lambda op: ["values", "indices"]),
)
