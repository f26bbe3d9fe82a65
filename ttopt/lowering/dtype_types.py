"""Tensor types with another TTNN data type, as tt-mlir's RankedTensorTypeFactory::create(type,
dtype) builds them: the layout's element becomes that data type (a tile of it when tiled) and the
tensor's element type follows: a builtin type when the data type has one, else the tile itself
(`tensor<128x64x!ttcore.tile<32x32, bfp_bf4>, #layout>` for the block-float types)."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.ttcore_attrs import DataType, TileType
from ttopt.ir.types import ScalarType, TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape
from ttopt.optimizer.rewrite import LayoutAliaser


def with_dtype(t: Any, dtype: str, aliaser: LayoutAliaser, buffer_type: str | None = None) -> Any:
    """`t` (a TTNN tensor type) stored as `dtype` (and in `buffer_type` when given)."""
    lay = current_layout(t)
    rt = t.resolve()
    if lay is None or not isinstance(rt, TensorType):
        return t
    shape = ranked_shape(rt)
    new = lay.relayout(shape, dtype=dtype, buffer_type=buffer_type)
    dt = DataType(dtype)
    elem = ScalarType(dt.builtin) if dt.builtin is not None else TileType(dtype=dt).to_type()
    return TensorType(shape, elem, aliaser.encoding(new))


def dtype_of(t: Any) -> str | None:
    """The TTNN data type of tensor type `t` (its layout's), or None without a layout."""
    lay = current_layout(t)
    return None if lay is None else lay.dtype.value
