"""TTIR matmul and linear canonicalizations (tt-mlir's LinearOp and MatmulOp patterns).

* a `linear` without a bias is a `matmul` (same transposes);
* `reshape(matmul(reshape(a), reshape(b)))` where both input reshapes merge the same leading
  dimensions into one batch dimension (`[D0, D1, M, K] -> [D0*D1, M, K]`) and the output reshape
  splits it back (`[D0*D1, M, N] -> [D0, D1, M, N]`) is one `matmul` of `a` and `b` (the matmul
  read only by that reshape; `a` and `b` of one rank, the output's);
* a pointwise `conv3d` (NDHWC, 1x1x1 kernel, stride 1, no padding, one group) is a `matmul` of
  the input as [N*D*H*W, Cin] and the weight as [Cout, Cin] (transpose_b), or a `linear` with the
  bias as [Cout], reshaped back to the output's shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, BoolAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttir_canonicalize.constants import tensor_of
from ttopt.lowering.ttir_canonicalize.edits import producer, replace_with_new, single_input

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.values import Value

_TRANSPOSES = ("transpose_a", "transpose_b")


def linear_without_bias_is_matmul(op: Operation) -> list[Operation] | None:
    """A `linear` of two operands is a `matmul`."""
    ins = inputs(op)
    if len(ins) != 2 or len(op.results) != 1:
        return None
    props = {k: op.properties[k] for k in _TRANSPOSES if k in op.properties}
    return replace_with_new(op, "ttir.matmul", ins, op.results[0].type, props)


def _merged(reshape: Operation) -> tuple[int, ...] | None:
    """The leading input dimensions a reshape merges into its first output dimension (None if it
    is not such a merge)."""
    src = single_input(reshape)
    shapes = (tensor_of(src), tensor_of(reshape.results[0])) if src is not None else (None, None)
    if shapes[0] is None or shapes[1] is None:
        return None
    ins, out = shapes[0][1], shapes[1][1]
    if len(out) >= len(ins) or not out:
        return None
    n = len(ins) - len(out) + 1
    lead = ins[:n]
    if ins[n:] != out[1:] or any(d <= 0 for d in lead):
        return None
    total = 1
    for d in lead:
        total *= d
    return lead if total == out[0] else None


def absorb_leading_merge(op: Operation) -> list[Operation] | None:
    """A matmul between leading-dimension merges and the split back is one matmul."""
    ins = inputs(op)
    if len(ins) != 2 or len(op.results) != 1 or len(op.results[0].uses) != 1:
        return None
    split = op.results[0].uses[0]
    if split.name != "ttir.reshape" or single_input(split) is not op.results[0]:
        return None
    merges = [producer(v, "ttir.reshape") for v in ins]
    if merges[0] is None or merges[1] is None:
        return None
    lead_a, lead_b = _merged(merges[0]), _merged(merges[1])
    mid, out = tensor_of(op.results[0]), tensor_of(split.results[0])
    if lead_a is None or lead_a != lead_b or mid is None or out is None:
        return None
    n = len(out[1]) - len(mid[1]) + 1
    if n < 2 or out[1][:n] != lead_a or out[1][n:] != mid[1][1:]:
        return None
    new_a: Value | None = single_input(merges[0])
    new_b: Value | None = single_input(merges[1])
    info_a, info_b = (tensor_of(v) if v is not None else None for v in (new_a, new_b))
    if new_a is None or new_b is None or info_a is None or info_b is None:
        return None
    if len(info_a[1]) != len(info_b[1]) or len(info_a[1]) != len(out[1]):
        return None
    props = {k: op.properties[k] for k in _TRANSPOSES if k in op.properties}
    return [op] + replace_with_new(split, "ttir.matmul", [new_a, new_b], split.results[0].type, props)


_NDHWC = {"batch_dim": 0, "depth_dim": 1, "height_dim": 2, "width_dim": 3, "channel_dim": 4}


def _int(a: Attribute | None, default: int) -> int | None:
    r = a.resolve() if a is not None else None
    if r is None:
        return default
    return r.value if isinstance(r, IntegerAttr) else None


def _triple(a: Attribute | None) -> tuple[int, ...] | None:
    r = a.resolve() if a is not None else None
    if isinstance(r, IntegerAttr):
        return (r.value,) * 3
    vals = int_values(r)
    return vals if vals is not None and len(vals) == 3 else None


def _reshaped(anchor: Operation, v: Value, shape: tuple[int, ...], made: list[Operation]) -> Value:
    t = v.type.resolve()
    assert isinstance(t, TensorType)
    op = Operation("ttir.reshape", [v], [TensorType(shape, t.element_type)],
                   {"shape": ArrayAttr(tuple(IntegerAttr(d, ScalarType("i32")) for d in shape))}, location=anchor.location)
    insert_before(anchor, op)
    made.append(op)
    return op.results[0]


def pointwise_conv3d_to_matmul(op: Operation) -> list[Operation] | None:
    """A 1x1x1 NDHWC conv3d with stride 1, no padding and one group is a matmul (linear with a bias)."""
    ins = inputs(op)
    out_t = op.results[0].type.resolve() if len(op.results) == 1 else None
    if len(ins) not in (2, 3) or not isinstance(out_t, TensorType):
        return None
    if any(_int(op.properties.get(k), d) != d for k, d in _NDHWC.items()) or _int(op.properties.get("groups"), 1) != 1:
        return None
    x, w = tensor_of(ins[0]), tensor_of(ins[1])
    stride, padding = _triple(op.properties.get("stride")), _triple(op.properties.get("padding"))
    if x is None or w is None or len(x[1]) != 5 or len(w[1]) != 5 or w[1][2:] != (1, 1, 1):
        return None
    if stride != (1, 1, 1) or padding != (0, 0, 0):
        return None
    n, d, h, wd, c_in = x[1]
    c_out = w[1][0]
    rows = n * d * h * wd
    made: list[Operation] = []
    a = _reshaped(op, ins[0], (rows, c_in), made)
    b = _reshaped(op, ins[1], (c_out, c_in), made)
    operands = [a, b] + ([_reshaped(op, ins[2], (c_out,), made)] if len(ins) == 3 else [])
    name = "ttir.linear" if len(ins) == 3 else "ttir.matmul"
    result = TensorType((rows, c_out), out_t.element_type)
    contraction = Operation(name, operands, [result], {"transpose_a": BoolAttr(False), "transpose_b": BoolAttr(True)}, location=op.location)
    insert_before(op, contraction)
    made.append(contraction)
    shape = tuple(int(s) for s in out_t.shape or () if s is not None)
    return made + replace_with_new(op, "ttir.reshape", [contraction.results[0]], op.results[0].type,
                                   {"shape": ArrayAttr(tuple(IntegerAttr(s, ScalarType("i32")) for s in shape))})
