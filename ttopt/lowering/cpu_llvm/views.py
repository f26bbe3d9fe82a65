"""`View`: a tensor of the function being lowered, as memory: an aligned pointer, an element offset
and per-dimension strides (each a constant or an SSA value read from a memref descriptor).

Permute, transpose, slice, broadcast and (of contiguous memory) reshape only make a new view, as
MLIR's memref views do; the ops that compute write a fresh contiguous buffer (`alloc`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence, Union

from ttopt.ir.types import Type
from ttopt.ir.values import Value
from ttopt.lowering.cpu_llvm.builder import BF16, ELEMENT_BYTES, F32, I1, I32, Builder

Index = Union[int, Value]  # a constant or an i64 SSA value
ELEMENT = {"f32": F32, "i32": I32, "i1": I1, "bf16": BF16}


def row_major(shape: Sequence[int]) -> tuple[int, ...]:
    """Contiguous strides of `shape`, in elements."""
    strides, n = [], 1
    for d in reversed(shape):
        strides.append(n)
        n *= d
    return tuple(reversed(strides))


def volume(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


@dataclass(frozen=True)
class View:
    """`ptr[offset + sum(i_k * strides[k])]` for each index `i` of `shape`, of element type `element`;
    `allocated` is the malloc'd pointer when this is a whole fresh buffer the function owns."""

    ptr: Value
    offset: Index
    shape: tuple[int, ...]
    strides: tuple[Index, ...]
    element: str
    allocated: Value | None = None

    @property
    def type(self) -> Type:
        return ELEMENT[self.element]

    def contiguous(self) -> bool:
        """Row-major with constant strides (dimensions of size 1 have any stride)."""
        want = row_major(self.shape)
        return all(isinstance(s, int) and (s == w or d == 1) for s, w, d in zip(self.strides, want, self.shape))

    def address(self, b: Builder, index: Sequence[Value]) -> Value:
        """The pointer to element `index`."""
        linear: Value | None = None
        terms: list[Index] = [self.offset] if self.offset != 0 else []
        for i, s, d in zip(index, self.strides, self.shape):
            if d == 1 or s == 0:
                continue  # the index is 0, or the dimension is broadcast
            terms.append(i if s == 1 else b.mul(i, b.i64(s) if isinstance(s, int) else s))
        for t in terms:
            v = b.i64(t) if isinstance(t, int) else t
            linear = v if linear is None else b.add(linear, v)
        return b.gep(self.ptr, linear if linear is not None else b.i64(0), self.type)

    def load(self, b: Builder, index: Sequence[Value]) -> Value:
        return b.load(self.address(b, index), self.type)

    def store(self, b: Builder, index: Sequence[Value], v: Value) -> None:
        b.store(v, self.address(b, index))

    # -- views ----------------------------------------------------------------------------------
    def permuted(self, perm: Sequence[int]) -> View:
        return replace(self, shape=tuple(self.shape[p] for p in perm), strides=tuple(self.strides[p] for p in perm), allocated=None)

    def broadcast_to(self, shape: Sequence[int]) -> View:
        """numpy's broadcast to `shape` (dimensions aligned on the right): stride 0 where it repeats."""
        lead = len(shape) - len(self.shape)
        strides: list[Index] = [0] * lead
        for d, s, n in zip(self.shape, self.strides, shape[lead:]):
            strides.append(0 if d == 1 and n != 1 else s)
        return replace(self, shape=tuple(shape), strides=tuple(strides), allocated=None)

    def sliced(self, b: Builder, begins: Sequence[int], steps: Sequence[int], shape: Sequence[int]) -> View:
        """Elements `begins + steps * i` (begins already in range)."""
        offset = self.offset
        strides: list[Index] = []
        for begin, step, s in zip(begins, steps, self.strides):
            if begin:
                term = begin * s if isinstance(s, int) else b.mul(s, b.i64(begin))
                offset = _add(b, offset, term)
            strides.append(s * step if isinstance(s, int) else (s if step == 1 else b.mul(s, b.i64(step))))
        return replace(self, offset=offset, shape=tuple(shape), strides=tuple(strides), allocated=None)

    def reversed(self, b: Builder, dims: Sequence[int]) -> View:
        """Dimensions `dims` read backwards: the offset moves to their last element, their strides negate."""
        offset = self.offset
        strides = list(self.strides)
        for d in dims:
            s, n = strides[d], self.shape[d]
            if n > 1:
                offset = _add(b, offset, (n - 1) * s if isinstance(s, int) else b.mul(s, b.i64(n - 1)))
                strides[d] = -s if isinstance(s, int) else b.binary("sub", b.i64(0), s)
        return replace(self, offset=offset, strides=tuple(strides), allocated=None)

    def reshaped(self, shape: Sequence[int]) -> View:
        """The same contiguous memory read with another shape (the caller checks `contiguous`)."""
        return replace(self, shape=tuple(shape), strides=row_major(shape))


def _add(b: Builder, x: Index, y: Index) -> Index:
    if isinstance(x, int) and isinstance(y, int):
        return x + y
    return b.add(b.i64(x) if isinstance(x, int) else x, b.i64(y) if isinstance(y, int) else y)


def alloc(b: Builder, shape: Sequence[int], element: str) -> View:
    """A fresh malloc'd row-major buffer."""
    p = b.malloc(volume(shape) * ELEMENT_BYTES[element])
    return View(p, 0, tuple(shape), row_major(shape), element, p)
