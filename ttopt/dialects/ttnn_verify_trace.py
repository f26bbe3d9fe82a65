"""Verifiers of the TTNN trace ops (HEAD's WriteTensorOp, CopyOp, BeginTraceCaptureOp,
EndTraceCaptureOp, ExecuteTraceOp and CaptureOrExecuteTraceOp::verify), with HEAD's messages.

A trace id is a `tensor<ui32, #ttnn.trace_id>`; its errors are HEAD's `op->emitError()`, reported
without the `'name' op` prefix. A command queue id is 0 or 1 (VALID_CQ_IDS)."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import attr, int_attr, is_device, layout, tensor_type
from ttopt.ir.attributes import DialectAttr, StringAttr, SymbolRefAttr
from ttopt.ir.diagnostics import BareOpError
from ttopt.ir.types import FunctionType, ScalarType, TensorType, Type

VALID_CQ_IDS = (0, 1)


def _on_device(t: Any) -> bool:
    """utils::isTensorOnDevice; a tensor without a TTNN layout is taken to be on device (no check)."""
    from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

    enc = getattr(t, "encoding", None)
    typed = getattr(enc.resolve(), "typed", None) if enc is not None else None
    return not (isinstance(typed, TTNNLayoutAttr) and typed.is_system_memory)


def _cq(op: Any) -> None:
    cq = int_attr(op, "cq_id", 0)
    if cq not in VALID_CQ_IDS:
        raise ValueError(f"Invalid CQ ID {cq}")


def _is_trace_id_encoding(t: TensorType) -> bool:
    enc = t.encoding.resolve() if t.encoding is not None else None
    return isinstance(enc, DialectAttr) and enc.name == "ttnn.trace_id"


def _trace_id(value: Any) -> None:
    """verifyTraceIdTensor."""
    t = value.type.resolve()
    if not isinstance(t, TensorType) or t.shape is None:
        raise BareOpError("Trace ID must be a ranked tensor type")
    if t.shape:
        raise BareOpError("Trace ID must be a scalar")
    e = t.element_type.resolve()
    if not (isinstance(e, ScalarType) and e.is_integer):
        raise BareOpError("Trace ID must be an integer")
    if not e.name.startswith("ui"):
        raise BareOpError("Trace ID must be unsigned")
    if e.bitwidth != 32:
        raise BareOpError("Trace ID must be 32-bit")
    if not _is_trace_id_encoding(t):
        raise BareOpError("Trace ID must have the TraceIdAttr encoding")


def verify_write_tensor(op: Any) -> None:
    """A host tensor written into a device tensor on a valid queue."""
    host, dev = (tensor_type(v) for v in op.operands[:2])
    if host is not None and _on_device(host) and layout(op.operands[0]) is not None:
        raise ValueError("Host tensor must be on system memory")
    if dev is not None and not _on_device(dev):
        raise ValueError("Device tensor must be on device memory")
    _cq(op)


def verify_copy(op: Any) -> None:
    """An on-device source copied into an on-device destination of its type."""
    src, dst = (tensor_type(v) for v in op.operands[:2])
    if src is None or dst is None:
        return
    if not _on_device(src):
        raise ValueError("Source tensor must be on device memory")
    if not _on_device(dst):
        raise ValueError("Destination tensor must be on device memory")
    if src != dst:
        raise ValueError(f"Source and destination tensor types must match, but got '{src.text}' and '{dst.text}'")


def verify_begin_trace_capture(op: Any) -> None:
    """A valid queue; the result is a trace id."""
    _cq(op)
    if op.results:
        _trace_id(op.results[0])


def verify_trace_id_operand(op: Any) -> None:
    """end_trace_capture / execute_trace: a valid queue and a trace id operand (after the device)."""
    _cq(op)
    ids = [v for v in op.operands if not is_device(v)]
    if ids:
        _trace_id(ids[0])


def _lookup_func(op: Any, name: str) -> Any:
    """SymbolTable::lookupNearestSymbolFrom for a func.func: the nearest enclosing symbol table's."""
    scope = op.parent_op
    while scope is not None:
        if scope.name in ("builtin.module", "module"):
            break
        scope = scope.parent_op
    if scope is None or not scope.regions or not scope.regions[0].blocks:
        return None
    for f in scope.regions[0].blocks[0].ops:
        sym = f.properties.get("sym_name") if f.name == "func.func" else None
        if isinstance(sym, StringAttr) and sym.value == name:
            return f
    return None


def _signature(func: Any) -> FunctionType | None:
    a = func.properties.get("function_type")
    t = getattr(a, "type", None)
    t = t.resolve() if t is not None else None
    return t if isinstance(t, FunctionType) else None


def _callee(op: Any, name: str) -> tuple[str, Any, FunctionType]:
    a = attr(op, name)
    callee = a.root if isinstance(a, SymbolRefAttr) else str(a)
    func = _lookup_func(op, callee)
    sig = _signature(func) if func is not None else None
    if func is None or sig is None:
        raise ValueError(f"'{callee}' does not reference a function")
    return callee, func, sig


def _q(t: Type) -> str:
    return f"'{t.resolve().text}'"


def _is_trace_id_type(t: Type) -> bool:
    r = t.resolve()
    return isinstance(r, TensorType) and r.shape == () and _is_trace_id_encoding(r)


def verify_capture_or_execute_trace(op: Any) -> None:
    """The slot allocation, capture, trace and execute functions agree with the op's inputs and
    results (HEAD's CaptureOrExecuteTraceOp::verify)."""
    inputs = [v for v in op.operands[1:] if tensor_type(v) is not None]
    semaphores = [v for v in op.operands[1:] if tensor_type(v) is None and not is_device(v)]
    outputs = list(op.results)
    device_types = [v.type for v in inputs if _on_device(tensor_type(v))]
    host_types = [v.type for v in inputs if not _on_device(tensor_type(v))]

    alloc, _, alloc_sig = _callee(op, "allocate_slots_callee")
    if len(alloc_sig.inputs) != len(device_types):
        raise ValueError(
            f"Slot allocation function '{alloc}' must take {len(device_types)} arguments (the device-resident inputs), "
            f"but has {len(alloc_sig.inputs)}"
        )
    for i, (want, got) in enumerate(zip(device_types, alloc_sig.inputs)):
        if want != got:
            raise ValueError(f"Slot allocation function argument {i} type mismatch: expected {_q(want)}, but got {_q(got)}")
    slots = list(alloc_sig.results)
    if len(slots) != len(inputs) + len(outputs):
        raise ValueError(
            f"Slot allocation function '{alloc}' must return {len(inputs) + len(outputs)} slots ({len(inputs)} input slots "
            f"+ {len(outputs)} output slots), but returns {len(slots)}"
        )
    for i, r in enumerate(outputs):
        if slots[len(inputs) + i] != r.type:
            raise ValueError(
                f"Slot allocation function output slot {i} type mismatch: expected {_q(r.type)}, but got {_q(slots[len(inputs) + i])}"
            )

    capture, capture_func, capture_sig = _callee(op, "capture_callee")
    args = list(capture_sig.inputs)
    want_args = len(host_types) + len(slots) + len(semaphores)
    if len(args) != want_args:
        raise ValueError(
            f"Capture function '{capture}' must take {want_args} arguments ({len(host_types)} host-staged inputs + "
            f"{len(slots)} slots + {len(semaphores)} semaphores), but has {len(args)}"
        )
    for i, t in enumerate(host_types):
        if args[i] != t:
            raise ValueError(f"Capture function host-staged input argument {i} type mismatch: expected {_q(t)}, but got {_q(args[i])}")
    for i, t in enumerate(slots):
        got = args[len(host_types) + i]
        if got != t:
            raise ValueError(
                f"Capture function slot argument {i} type mismatch: expected {_q(t)} from slot allocation function, but got {_q(got)}"
            )
    for i, s in enumerate(semaphores):
        got = args[len(host_types) + len(slots) + i]
        if got != s.type:
            raise ValueError(
                f"Semaphore input argument {i} type mismatch: expected {_q(got)} from capture function, but got {_q(s.type)}"
            )
    if len(capture_sig.results) != 1:
        raise ValueError(
            f"Capture function '{capture}' must return exactly one trace_id value, but returns {len(capture_sig.results)}"
        )
    if not _is_trace_id_type(capture_sig.results[0]):
        raise ValueError(f"Capture function '{capture}' must return a trace_id tensor (scalar ui32 with TraceIdAttr encoding)")

    call = next((o for o in capture_func.walk() if o.name == "func.call"), None)
    if call is None:
        raise ValueError("No trace function found in capture function")
    callee = attr(call, "callee")
    trace_name = callee.root if isinstance(callee, SymbolRefAttr) else str(callee)
    trace_func = _lookup_func(op, trace_name)
    trace_sig = _signature(trace_func) if trace_func is not None else None
    if trace_func is None or trace_sig is None:
        raise ValueError(f"'{trace_name}' does not reference a function")
    if trace_sig.results:
        raise ValueError(
            f"Trace function '{trace_name}' must return no results; it stores its outputs into the output slot arguments"
        )
    _check_trace_body(op, trace_func, trace_sig)

    execute, _, execute_sig = _callee(op, "execute_callee")
    if len(execute_sig.inputs) != 1:
        raise ValueError(
            f"Execute function '{execute}' must take exactly one trace_id argument, but has {len(execute_sig.inputs)} arguments"
        )
    if not _is_trace_id_type(execute_sig.inputs[0]):
        raise ValueError(f"Execute function '{execute}' argument must be a trace_id tensor (scalar ui32 with TraceIdAttr encoding)")


def _check_trace_body(op: Any, trace_func: Any, sig: FunctionType) -> None:
    """The trace function reads and writes device tensors only, nests no trace or cache load, and
    opens the trace op's device."""
    for t in sig.inputs:
        r = t.resolve()
        if isinstance(r, TensorType):
            if not _on_device(r):
                raise ValueError("All input arguments of trace function must be on device.")
        elif not getattr(r, "text", "").startswith("!ttnn.global_semaphore"):
            raise ValueError("All input arguments of trace function must be ranked tensors or global semaphores")
    device = op.operands[0].owner if op.operands else None
    for inner in trace_func.walk():
        if inner is trace_func:
            continue
        if inner.name == "ttnn.capture_or_execute_trace":
            raise ValueError("CaptureOrExecuteTraceOp op must not be nested within trace function")
        if inner.name == "ttcore.load_cached":
            raise ValueError("LoadCached op must not be nested within trace function")
        if inner.name == "ttnn.get_device":
            same = getattr(device, "name", None) == "ttnn.get_device" and all(
                _attr_text(device, n) == _attr_text(inner, n) for n in ("mesh_shape", "mesh_offset")
            )
            if not same:
                raise ValueError("Device configuration of get_device op in callee must match device configuration of trace op")
            continue
        for v in inner.operands:
            vt = tensor_type(v)
            if vt is not None and not _on_device(vt):
                raise ValueError("All input tensors of trace function must be on device.")
        for v in inner.results:
            vt = tensor_type(v)
            if vt is not None and not _on_device(vt):
                raise ValueError("All output tensors of trace function must be on device.")


def _attr_text(op: Any, name: str) -> str | None:
    a = attr(op, name)
    return a.canonical() if a is not None else None


VERIFIERS = {
    "ttnn.write_tensor": verify_write_tensor,
    "ttnn.copy": verify_copy,
    "ttnn.begin_trace_capture": verify_begin_trace_capture,
    "ttnn.end_trace_capture": verify_trace_id_operand,
    "ttnn.execute_trace": verify_trace_id_operand,
    "ttnn.capture_or_execute_trace": verify_capture_or_execute_trace,
}
