"""Tensor descriptors the device model works on: a static shape and a ttcore data type.

ttopt models ranks 1 to 5 (the ranks tt-mlir's TTNN tests use) with positive static dims.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttcore_attrs import DataType

MAX_RANK = 5
_TEXT = re.compile(r"\s*(?:tensor\s*<)?\s*((?:[^x<>]*x)*)\s*([A-Za-z_][\w.]*)\s*(?:,[^>]*)?>?\s*")


class TensorTypeError(ValueError):
    """A tensor type the device model cannot describe (message names the problem)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class TensorDesc:
    """A ranked tensor with a static shape: what a layout pool and the op model need."""

    shape: tuple[int, ...]
    dtype: DataType

    @property
    def text(self) -> str:
        """`tensor<64x64xbf16>` (element spelled as the builtin scalar type when there is one)."""
        elem = self.dtype.builtin or self.dtype.value
        return f"tensor<{'x'.join(str(d) for d in self.shape)}x{elem}>"


def data_type(name: str) -> DataType:
    """The ttcore DataType of an element type name (`bf16`, `f32`, `i32`, `ui8`, `bfp_bf8`, ...)."""
    try:
        return DataType.of(name)
    except AttrError:
        known = ", ".join(d.value for d in DataType)
        raise TensorTypeError(f"unknown dtype '{name}' (expected one of {known}, or i32/ui32/ui16/ui8)") from None


def check_shape(shape: Sequence[Any] | None) -> tuple[int, ...]:
    """`shape` as a tuple of ints, if it is a rank 1..5 static shape of positive dims (None: unranked)."""
    if shape is None:
        raise TensorTypeError("unranked tensors have no TTNN layout")
    if len(shape) == 0:
        raise TensorTypeError("rank-0 tensors have no TTNN layout (rank must be 1 to 5)")
    if len(shape) > MAX_RANK:
        raise TensorTypeError(f"rank {len(shape)} is not supported (rank must be 1 to {MAX_RANK})")
    out = []
    for i, d in enumerate(shape):
        if d is None or not isinstance(d, int) or isinstance(d, bool):
            raise TensorTypeError(f"dimension {i} is dynamic or not an integer ({d!r}); shapes must be static")
        if d <= 0:
            raise TensorTypeError(f"dimension {i} has size {d}; every dimension must be >= 1")
        out.append(d)
    return tuple(out)


def tensor_desc(shape: Sequence[Any], dtype: DataType | str) -> TensorDesc:
    """A validated TensorDesc."""
    return TensorDesc(check_shape(shape), dtype if isinstance(dtype, DataType) else data_type(dtype))


def parse_tensor_type(text: str) -> TensorDesc:
    """`64x64xbf16`, `1x1x8x64xbf16` or `tensor<64x64xbf16>` (an encoding, if any, is ignored)."""
    m = _TEXT.fullmatch(text)
    if m is None:
        raise TensorTypeError(f"expected a tensor type like 64x64xbf16, got '{text}'")
    dims_text, elem = m.group(1), m.group(2)
    dims: list[Any] = []
    for d in dims_text.split("x")[:-1]:
        d = d.strip()
        if d == "?":
            dims.append(None)
        elif d.isdigit():
            dims.append(int(d))
        else:
            raise TensorTypeError(f"bad dimension '{d}' in '{text}'")
    return tensor_desc(dims, data_type(elem))


def element_dtype(tensor_type: Any) -> DataType | None:
    """The DataType of an IR TensorType: its layout's dtype when encoded, else its element type."""
    enc = tensor_type.encoding
    if enc is not None:
        try:
            typed = getattr(enc, "typed", None)
        except AttrError:
            typed = None
        dt = getattr(typed, "dtype", None)
        if isinstance(dt, DataType):
            return dt
    name = tensor_type.element_type.resolve().text
    try:
        return DataType.of(name)
    except AttrError:
        return None
