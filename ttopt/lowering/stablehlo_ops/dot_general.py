"""`stablehlo.dot_general` -> `ttir.dot_general`, in every form (tt-mlir's conversion).

Batch and contracting dimensions are copied as they are: batch dimensions anywhere, several or no
contracting dimensions (outer products), contracting dimensions in any position. The TTIR
decomposition (`ttir-to-ttir-decomposition`, run before TTNN) turns it into permute + reshape +
matmul (or multiply, for an outer product) + reshape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.properties import props
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers

if TYPE_CHECKING:
    from ttopt.dialects.stablehlo_attrs import DotDimensionNumbers
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering


def _dims(values: tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(int(v) for v in values))


@lowers("stablehlo.dot_general")
def dot_general(low: Lowering, op: Operation) -> list[Value]:
    """The same contraction as a `ttir.dot_general` (result: batch, lhs free, rhs free)."""
    dd: DotDimensionNumbers = props(op).dot_dimension_numbers
    if len(dd.lhs_batching_dimensions) != len(dd.rhs_batching_dimensions):
        raise Unsupported("lhs and rhs batching dimensions differ in number")
    if len(dd.lhs_contracting_dimensions) != len(dd.rhs_contracting_dimensions):
        raise Unsupported("lhs and rhs contracting dimensions differ in number")
    a, b = op.operands
    return [low.emit("dot_general", [a, b], op.results[0].type,
                     batch_dims_lhs=_dims(dd.lhs_batching_dimensions), contract_dims_lhs=_dims(dd.lhs_contracting_dimensions),
                     batch_dims_rhs=_dims(dd.rhs_batching_dimensions), contract_dims_rhs=_dims(dd.rhs_contracting_dimensions))]  # fmt: skip
