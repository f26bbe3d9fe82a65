"""slice_static(slice_static(x)) -> one slice_static of x, inside ttir-fusing (HEAD's SliceStaticOp
folder, which its greedy fusing driver applies to every slice it visits).

Fusions leave such pairs behind: a shared-LHS fusion replaces a sliced matmul by a slice of the
fused result, or a row slice moves up a chain of matmuls onto one. Preconditions, as HEAD: the inner
slice has no other reader. The composed slice takes the outer one's location (HEAD folds it in
place). Not cost-checked: the inner slice's copy is simply gone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.dialects.ttir import inputs
from ttopt.lowering.fusing.match import Builder, Candidate, one_use, producer
from ttopt.lowering.ttir_canonicalize.data_movement import composed_slice

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

NAME = "fold_slices"


def match(slc: Operation) -> Candidate | None:
    """A slice of a single-reader slice."""
    ins = inputs(slc)
    first = producer(ins[0], "ttir.slice_static") if len(ins) == 1 else None
    if first is None or not one_use(ins[0]) or len(inputs(first)) != 1:
        return None
    props = composed_slice(first, slc)
    if props is None:
        return None
    src = inputs(first)[0]

    def build(b: Builder) -> Value:
        return b.emit("slice_static", [src], slc.results[0].type, **props)

    return Candidate(NAME, slc, "ttir.slice_static", build, note="two slices composed", cost_checked=False)
