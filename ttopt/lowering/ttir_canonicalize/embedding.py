"""TTIR embedding canonicalization (tt-mlir's EmbeddingOp pattern): an embedding whose index tensor
a reshape produces, and whose every reader is a reshape, looks up the indices with their size-1
dimensions squeezed out (`[A, 1]` -> `[A]`; all size 1: `[1]`), and its result is reshaped back;
the reshapes then fold into the ones around it.
"""

from __future__ import annotations

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.rewriter import insert_before
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.ttir_canonicalize.constants import tensor_of
from ttopt.lowering.ttir_canonicalize.edits import producer, replace_with_new


def _shape_attr(shape: tuple[int, ...]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(d, ScalarType("i32")) for d in shape))


def squeeze_embedding_indices(op: Operation) -> list[Operation] | None:
    """An embedding between reshapes looks its indices up without their size-1 dimensions."""
    ins = inputs(op)
    if len(ins) != 2 or len(op.results) != 1:
        return None
    index, weight = ins
    users = op.results[0].users
    if producer(index, "ttir.reshape") is None or not users or any(u.name != "ttir.reshape" for u in users):
        return None
    info, out = tensor_of(index), tensor_of(op.results[0])
    index_t, out_t = index.type.resolve(), op.results[0].type.resolve()
    if info is None or out is None or not isinstance(index_t, TensorType) or not isinstance(out_t, TensorType):
        return None
    squeezed = tuple(d for d in info[1] if d != 1) or (1,)
    if len(squeezed) == len(info[1]) or out_t.encoding is not None:
        return None
    reshape = Operation("ttir.reshape", [index], [index_t.with_shape(squeezed).with_encoding(None)], {"shape": _shape_attr(squeezed)},
                        location=op.location)  # fmt: skip
    insert_before(op, reshape)
    lookup = Operation("ttir.embedding", [reshape.results[0], weight], [out_t.with_shape((*squeezed, out[1][-1]))], location=op.location)
    insert_before(op, lookup)
    return [reshape, lookup] + replace_with_new(op, "ttir.reshape", [lookup.results[0]], op.results[0].type, {"shape": _shape_attr(out[1])})
