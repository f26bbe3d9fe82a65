"""The device side of CPU-hoisted functions in `convert-ttir-to-ttnn` (tt-mlir's TTNNLayout rules for
`ttir.cpu_hoisted_call` calls and `forward_cpu_declaration` functions).

A hoisted function runs on the host, so its declaration takes and returns row-major tensors in system
memory, and each `ttir.to_layout` the hoisting put around the call moves a tensor across: to the host
(`ttnn.from_device`, an untilize, then the typecast on the host, as HEAD's CHECKs have it:
`ttnn.typecast` of the host argument, no `ttnn.from_device` once const-eval inputs arrive in system
memory) or back to the device (the typecast and the tilize on the host, then `ttnn.to_device`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import TypeAttr
from ttopt.ir.types import FunctionType, TensorType
from ttopt.lowering.function_types import is_hoisted_call
from ttopt.lowering.host_tensors import host_row_major
from ttopt.optimizer.analyses import current_layout, ranked_shape

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering


def _host(lw: _Lowering, v: Any, target: TensorType, op: Any) -> Any:
    """`v` (a device or host tensor) as a row-major host tensor of `target`'s element type."""
    moved: list[Any] = []
    v = host_row_major(v, op, lw.aliaser, moved)
    lw.out.extend(moved)
    out = lw.layout_type(target, op, host=True, tiled=False)
    if out.resolve() != v.type.resolve():
        v = lw.emit("ttnn.typecast", [v], out)
    return v


def _device(lw: _Lowering, v: Any, target: TensorType, op: Any) -> Any:
    """A host tensor `v` on the device in `target`'s element type and default (tiled DRAM) layout:
    typecast and tilized on the host, then moved (HEAD's order: ttnn.to_layout, ttnn.to_device)."""
    host = lw.layout_type(target, op, host=True, tiled=False)
    if host.resolve() != v.type.resolve():
        v = lw.emit("ttnn.typecast", [v], host)
    tiled = lw.layout_type(target, op)
    lay = current_layout(tiled)
    if lay is not None and lay.is_tiled:
        shape = ranked_shape(target)
        # Built on the device type, not `target`: a TTIR element TTNN does not hold (si64, i1) is already
        # the layout's dtype (si32, bf16) there.
        host_tiles = lw.aliaser.tensor_type(tiled.resolve(), TTNNLayoutAttr.build(shape, lay.dtype, tiled=True, buffer_type="system_memory"))
        v = lw.emit("ttnn.to_layout", [v], host_tiles)
    return lw.emit("ttnn.to_device", [v, lw.get_device()], tiled)


def around_hoisted_call(op: Any) -> bool:
    """Whether a `ttir.to_layout` feeds a CPU-hoisted call or reads one's result."""
    src = getattr(op.operands[0], "op", None)
    return any(is_hoisted_call(u) for u in op.results[0].users) or (src is not None and is_hoisted_call(src))


def to_layout(lw: _Lowering, op: Any) -> Any:
    """`ttir.to_layout` between a device tensor and a CPU-hoisted call's host tensor."""
    target = op.results[0].type.resolve()
    src = op.operands[0]
    if any(is_hoisted_call(u) for u in op.results[0].users):
        return _host(lw, src, target, op)
    return _device(lw, src, target, op)


def convert_call(lw: _Lowering, call: Any) -> None:
    """A hoisted call (appended to the conversion's output): operands moved to the host, results
    row-major in system memory, and moved to the device for readers other than a `ttir.to_layout`
    (a hoisted op of the forward function, `ttir.should_hoist`, has no conversions around it)."""
    moved: list[Any] = []
    call.set_operands([host_row_major(v, call, lw.aliaser, moved) for v in call.operands])
    lw.out.extend(moved)
    for r in call.results:
        r.type = lw.layout_type(r.type, call, host=True, tiled=False)
    lw.out.append(call)
    for r in call.results:
        # Another hoisted call reads the host tensor as it is; device readers get it moved in
        # front of the first of them (the conversion's loop runs the move there).
        others = [u for u in r.users if u.name != "ttir.to_layout" and not is_hoisted_call(u)]
        if others:
            lw.host_results[r] = _mover(lw, r, others, call)


def _mover(lw: _Lowering, r: Any, readers: list[Any], call: Any) -> Callable[[], None]:
    """Emit `r`'s move to the device and hand the device tensor to `readers`."""

    def move() -> None:
        device = _device(lw, r, r.type.resolve(), call)
        for u in readers:
            u.set_operands([device if v is r else v for v in u.operands])

    return move


def host_declaration(lw: _Lowering, func: Any) -> None:
    """A CPU-hoisted declaration's signature in system memory (it has no body to convert)."""
    ft = func.properties["function_type"].type.resolve()
    func.properties["function_type"] = TypeAttr(FunctionType(
        tuple(lw.layout_type(t, func, host=True, tiled=False) for t in ft.inputs),
        tuple(lw.layout_type(t, func, host=True, tiled=False) for t in ft.results),
    ))  # fmt: skip
