"""Op verifiers of the TTNN dialect: HEAD's `verify()` methods (lib/Dialect/TTNN/IR/TTNNOps.cpp),
one family per module (ttnn_verify_*.py), with HEAD's messages, merged into the one table
ttnn.py registers. Each raises ValueError(message); the IR verifier reports it at the op."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

import ttopt.dialects.ttnn_verify_ccl as ttnn_verify_ccl
import ttopt.dialects.ttnn_verify_conv as ttnn_verify_conv
import ttopt.dialects.ttnn_verify_data_movement as ttnn_verify_data_movement
import ttopt.dialects.ttnn_verify_eltwise as ttnn_verify_eltwise
import ttopt.dialects.ttnn_verify_matmul as ttnn_verify_matmul
import ttopt.dialects.ttnn_verify_norm as ttnn_verify_norm
import ttopt.dialects.ttnn_verify_reduction as ttnn_verify_reduction
import ttopt.dialects.ttnn_verify_sampling as ttnn_verify_sampling
import ttopt.dialects.ttnn_verify_spatial as ttnn_verify_spatial
import ttopt.dialects.ttnn_verify_trace as ttnn_verify_trace
import ttopt.dialects.ttnn_verify_transformer as ttnn_verify_transformer
from ttopt.dialects.ttnn_verify_matmul import matmul_result_shape
from ttopt.dialects.verify_common import element, layout

Verifier = Callable[[Any], None]

__all__ = ["VERIFIERS", "matmul_result_shape", "merge", "with_traits"]


def _both(first: Verifier, second: Verifier) -> Verifier:
    def check(op: Any) -> None:
        first(op)
        second(op)

    return check


def merge(*tables: Mapping[str, Verifier]) -> dict[str, Verifier]:
    """One verifier per op: register_verifiers replaces, so an op two families check runs both."""
    out: dict[str, Verifier] = {}
    for table in tables:
        for name, fn in table.items():
            out[name] = _both(out[name], fn) if name in out else fn
    return out


def check_tile_type(op: Any) -> None:
    """HEAD's CheckTileTypeTrait (every TTNN op): a result whose element type is a tile type must
    carry the TTNN layout's scalar element type instead; TTNN tensors hold scalars, the layout tiles."""
    for r in op.results:
        e = element(r)
        if e is None or not e.startswith("!ttcore.tile<"):
            continue
        lay = layout(r)
        if lay is None:
            continue
        # A block-float tile has no scalar type: TTNNLayoutAttr::getScalarElementType is the tile itself.
        tile = lay.tile
        scalar = lay.element_text if tile is None or tile.dtype.value.startswith("bfp") else tile.dtype.value
        if e != scalar:
            raise ValueError(
                f"Output element type must match the scalar element type from encoding. Element type: '{e}', "
                f"Scalar element type: '{scalar}'."
            )


def with_traits(verifiers: Mapping[str, Verifier], names: Iterable[str]) -> dict[str, Verifier]:
    """The table with HEAD's TTNN_Op traits checked first on every op in `names` (MLIR runs an op's
    trait verifiers before its verify())."""
    out = dict(verifiers)
    for name in names:
        out[name] = _both(check_tile_type, out[name]) if name in out else check_tile_type
    return out


VERIFIERS: dict[str, Verifier] = merge(
    ttnn_verify_matmul.VERIFIERS,
    ttnn_verify_data_movement.VERIFIERS,
    ttnn_verify_reduction.VERIFIERS,
    ttnn_verify_eltwise.VERIFIERS,
    ttnn_verify_conv.VERIFIERS,
    ttnn_verify_spatial.VERIFIERS,
    ttnn_verify_norm.VERIFIERS,
    ttnn_verify_sampling.VERIFIERS,
    ttnn_verify_transformer.VERIFIERS,
    ttnn_verify_trace.VERIFIERS,
    ttnn_verify_ccl.VERIFIERS,
)
