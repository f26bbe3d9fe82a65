"""slice of a matmul / linear output -> the matmul on a slice of the operand that produces the sliced
dimension (HEAD's PermuteSliceAfterMatmulPattern, under ttir-fusing's
`enable-permute-slice-after-matmul-fusion`, on by default as at HEAD).

A row (M) slice becomes a slice of A, a column (N) slice a slice of B, with the slice's begin, end
and step on that operand's dimension (the last or second-to-last, by its transpose flag). A
linear's bias is sliced along the dimension right-aligned with the sliced output dimension, unless
the bias has none there or it is 1 (a broadcast). A 1-D operand has no row / column dimension (M
is present when A has rank >= 2, N when B has).

Preconditions, as HEAD: the matmul / linear is read only by the slice; the slice keeps every
dimension whole but one, the row or column dimension, which it narrows with a positive step to a
non-empty range. The new matmul / linear takes its old location and only its transpose flags, as
HEAD creates it; the new slices take the slice's location. Slices pushed up a chain of matmuls
reach its first operand over the rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.lowering.fusing.match import Builder, Candidate, Rejected, i32_array, one_use, producer, shape

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "permute_slice_after_matmul"


def _flag(op: Operation, name: str) -> bool:
    attr = op.properties.get(name)
    return bool(getattr(attr.resolve() if attr is not None else None, "value", False))


def _narrowed(slc: Operation, out: tuple[int, ...]) -> int | str | None:
    """The one dimension the slice narrows; why not, or None when it narrows none."""
    begins, ends, steps = (int_values(slc.properties.get(k)) for k in ("begins", "ends", "step"))
    if begins is None or ends is None or steps is None or not len(begins) == len(ends) == len(steps) == len(out):
        return None
    dim = None
    for d, (b, e, s, n) in enumerate(zip(begins, ends, steps, out)):
        if s < 1:
            return "the slice's step is not positive"
        if (b + n if b < 0 else b) == 0 and (e + n if e < 0 else e) == n and s == 1:
            continue
        if dim is not None:
            return "the slice narrows more than one dimension"
        dim = d
    return dim


def _slice_along(b: Builder, slc: Operation, src_dim: int, v: Value, dim: int) -> Value:
    """`v` narrowed on `dim` with the range and step `slc` takes on its `src_dim`."""
    s = shape(v)
    begins, ends, steps = [0] * len(s), list(s), [1] * len(s)
    for out, key in ((begins, "begins"), (ends, "ends"), (steps, "step")):
        out[dim] = (int_values(slc.properties.get(key)) or ())[src_dim]
    new = list(s)
    new[dim] = shape(slc.results[0])[src_dim]
    t = v.type.resolve()
    return b.emit("slice_static", [v], TensorType(tuple(new), t.element_type, t.encoding),
                  begins=i32_array(begins), ends=i32_array(ends), step=i32_array(steps))  # fmt: skip


def match(slc: Operation) -> Candidate | Rejected | None:
    """slice_static(matmul(a, b)) narrowing rows or columns -> matmul(slice(a), b) / matmul(a, slice(b))."""
    mm = producer(inputs(slc)[0], "ttir.matmul", "ttir.linear")
    if mm is None:
        return None
    if not one_use(mm.results[0]):
        return Rejected(NAME, slc, f"the {mm.name[5:]} has other users")
    ins = inputs(mm)
    a, w = ins[0], ins[1]
    bias = ins[2] if mm.name == "ttir.linear" and len(ins) > 2 else None
    out = shape(mm.results[0])
    rank = len(out)
    col = rank - 1 if len(shape(w)) >= 2 else -1
    row = (rank - 2 if len(shape(w)) >= 2 else rank - 1) if len(shape(a)) >= 2 else -1
    if row < 0 and col < 0:
        return None
    dim = _narrowed(slc, out)
    if dim is None:
        return None
    if isinstance(dim, str):
        return Rejected(NAME, slc, dim)
    if dim not in (row, col):
        return Rejected(NAME, slc, "the slice narrows neither the row nor the column dimension")
    size = shape(slc.results[0])[dim]
    if size <= 0:
        return Rejected(NAME, slc, "the slice is empty")
    rows = dim == row
    ta, tb = _flag(mm, "transpose_a"), _flag(mm, "transpose_b")
    operand = a if rows else w
    r = len(shape(operand))
    operand_dim = (r - 1 if ta else r - 2) if rows else (r - 2 if tb else r - 1)

    def build(b: Builder) -> Value:
        cut = _slice_along(b, slc, dim, operand, operand_dim)
        new_bias = bias
        if bias is not None:
            bdim = len(shape(bias)) - (rank - dim)
            if bdim >= 0 and shape(bias)[bdim] != 1:
                new_bias = _slice_along(b, slc, dim, bias, bdim)
        t = mm.results[0].type.resolve()
        narrowed = list(out)
        narrowed[dim] = size
        operands = [cut, w] if rows else [a, cut]
        y = b.emit(mm.name[5:], operands + ([new_bias] if new_bias is not None else []), TensorType(tuple(narrowed), t.element_type, t.encoding),
                   transpose_a=BoolAttr(ta), transpose_b=BoolAttr(tb))  # fmt: skip
        b.ops[-1].location = mm.location
        return y

    return Candidate(NAME, slc, mm.name, build, note=f"{'rows' if rows else 'columns'} sliced before the {mm.name[5:]}")
