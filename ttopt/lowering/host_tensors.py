"""Moving a TTNN tensor to the host: what const-eval's conv weight preparation and CPU-hoisted calls
read (row-major tensors in system memory)."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape
from ttopt.optimizer.rewrite import LayoutAliaser


def host_row_major(v: Any, anchor: Operation, aliaser: LayoutAliaser, new: list[Operation]) -> Any:
    """`v` on the host, row-major (a `ttnn.from_device`, then a `ttnn.to_layout`, as needed)."""
    lay = current_layout(v.type)
    t = v.type.resolve()
    if lay is None or not isinstance(t, TensorType):
        return v
    shape = ranked_shape(t)
    loc = anchor.location
    if not lay.is_system_memory:
        host = TTNNLayoutAttr.build(shape, lay.dtype, tiled=lay.is_tiled, buffer_type="system_memory")
        op = Operation("ttnn.from_device", [v], [aliaser.tensor_type(t, host)], location=loc)
        new.append(op)
        v, lay = op.results[0], host
    if lay.is_tiled:
        rm = TTNNLayoutAttr.build(shape, lay.dtype, tiled=False, buffer_type="system_memory")
        op = Operation("ttnn.to_layout", [v], [aliaser.tensor_type(t, rm)], location=loc)
        new.append(op)
        v = op.results[0]
    return v
