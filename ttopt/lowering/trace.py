"""`ttnn-trace-hoist-transform`: the forward function's device computation is captured once in a
device trace and replayed after (tt-mlir's TTNNTraceHoistTransform; the backend pipeline's
`enable-trace=true`).

Per forward function (public, with a body, no `tt.function_type` or `forward_device`):

* The ops from the first to the last hoistable op move into `@trace_<N>_<func>` (`tt.function_type
  = "trace_main"`). Not hoistable: `ttnn.get_device`, `ttcore.load_cached`, creation ops
  (`ttnn.empty`, `zeros`, `ones`, `full`, `constant`, `arange`, `rand`, ...), which run again on every
  call; a creation op between hoistable ops moves in front of them, any other op there is an error.
  The trace function takes its inputs, then one output slot per result used outside, and stores each
  result into its slot with `ttnn.copy` (it returns nothing).
* Inputs are block arguments (in argument order) then op results (in block order); the
  device-resident ones (parameter / constant / `ttcore.kv_cache` arguments, `ttcore.load_cached`
  results, `ttnn.empty` results) come first and are their own persistent slots; the others are
  host-staged: written from the host into a DRAM slot on every call.
* `@allocate_slots_trace_<N>_<func>` (`trace_allocate_slots`) takes the device-resident inputs and
  returns every input slot and output slot (`ttnn.empty` for the new ones).
  `@run_and_capture_trace_<N>_<func>` (`trace_run_and_capture`) takes the host-staged inputs (in
  system memory) and all slots, writes the inputs into their slots (`ttnn.write_tensor`), runs the
  trace function once, runs it again between `ttnn.begin_trace_capture` and `ttnn.end_trace_capture`,
  replays it (`ttnn.execute_trace`) and returns the trace id (`tensor<ui32, #ttnn.trace_id>`).
  `@execute_trace_<N>_<func>` (`trace_execute`) replays the trace of a given id.
* The forward function calls `ttnn.capture_or_execute_trace` with the device and the inputs; a
  host-staged input on the device goes to the host first (`ttnn.from_device`, what HEAD's
  `ttnn.to_tensor_spec` to system memory decomposes to), and when that input is a function argument
  read only there, the argument itself becomes a host tensor instead.

The functions go in front of the forward function in that order; N counts traces in the module.

A device-resident input in system memory is an error, as in HEAD (`Device-resident input must be on
device, but found on system memory`, at the function, before the trace is built): the trace
would read it in place, and a host tensor has no device address to replay. The notes name the
first inputs and their readers. In practice these are conv weights and biases without the
optimizer: at `optimization-level=0` a parameter read only by a conv stays on the host, row-major,
for the conv to prepare on every call (HEAD's TTIRFusing tags it `ttir.conv2d_weight`, its
TTNNLayout keeps it on the host), so a conv2d / conv_transpose2d model traces only from
`optimization-level=1`, where the prepared weights and biases are const-eval results on the device.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttnn_device import GET_DEVICE as DEVICE
from ttopt.dialects.ttnn_device import new_device
from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, DialectAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import FunctionType, ScalarType, TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass
from ttopt.sharding.func_attrs import ARGUMENT_TYPE, arg_attrs, argument_kinds, func_name, is_public, set_arg_attrs

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

FUNCTION_TYPE = "tt.function_type"
KV_CACHE = "ttcore.kv_cache"
TRACE_OP = "ttnn.capture_or_execute_trace"
# TTNNOps.td's ops with TTCore_CreationOpTrait: recreated on every call, never traced.
CREATION_OPS = frozenset({"ttnn.empty", "ttnn.zeros", "ttnn.ones", "ttnn.full", "ttnn.constant", "ttnn.arange", "ttnn.rand",
                          "ttnn.alloc", "ttnn.create_global_semaphore", "ttnn.allocate_moe_compute_semaphore"})  # fmt: skip
NOT_TRACED = frozenset({"func.return", "ttcore.load_cached", TRACE_OP, DEVICE})
# Scratch buffers allocated before the trace: device-resident inputs, as load_cached results are.
PRELUDE_BUFFERS = frozenset({"ttnn.empty", "ttnn.alloc"})
TRACE_ID = TensorType((), ScalarType("ui32"), DialectAttr("ttnn.trace_id", None))
UI32 = ScalarType("ui32")


def is_forward(func: Any) -> bool:
    """Whether `func` is a forward device function: public, with a body, untyped or `forward_device`."""
    kind = getattr(func.attributes.get(FUNCTION_TYPE), "value", None)
    return is_public(func) and bool(func.regions) and bool(func.regions[0].blocks) and kind in (None, "forward_device")


def _cq() -> dict[str, Any]:
    return {"cq_id": IntegerAttr(0, UI32)}


def _argument_type(func: Any, index: int) -> str:
    return argument_kinds(func)[index] or "input"


def _device_resident(func: Any, v: Any) -> bool:
    if getattr(v, "op", None) is None:
        return _argument_type(func, v.index) in ("parameter", "constant") or KV_CACHE in arg_attrs(func)[v.index]
    return v.op.name == "ttcore.load_cached" or v.op.name in PRELUDE_BUFFERS


def _in_memory(t: Any, buffer_type: str, aliaser: LayoutAliaser) -> Any:
    """`t` with its layout moved to `buffer_type` (DRAM: interleaved), as tt-mlir's
    RankedTensorTypeFactory::create(type, bufferType)."""
    lay = current_layout(t)
    rt = t.resolve()
    if lay is None or not isinstance(rt, TensorType):
        return t
    return aliaser.tensor_type(rt, lay.relayout(ranked_shape(rt), buffer_type=buffer_type))


def traced_ops(func: Any, module: Module) -> list[Operation]:
    """The ops of `func` to trace (first to last hoistable one); creation ops among them are moved
    in front of the first."""
    block = func.regions[0].entry
    ops = [op for op in block.ops if op.name != "func.return"]
    idx = [i for i, op in enumerate(ops) if op.name not in NOT_TRACED and op.name not in CREATION_OPS]
    if not idx:
        return []
    first, last = idx[0], idx[-1]
    traced: list[Operation] = []
    sink: list[Operation] = []
    for op in ops[first:last + 1]:
        if op.name in CREATION_OPS:
            sink.append(op)
        elif op.name in NOT_TRACED:
            raise Diagnostic(f"ttnn-trace-hoist-transform: '{op.name}' cannot be traced and is in the middle of the traced ops",
                             op_position(module.source, op))  # fmt: skip
        else:
            traced.append(op)
    if sink:
        at = block.index(ops[first])
        block.remove_many(sink)
        for i, op in enumerate(sink):
            block.insert(at + i, op)
    return traced


@dataclass
class _Boundary:
    inputs: list[Any]  # device-resident first, then host-staged
    resident: int
    outputs: list[Any]


def _boundary(func: Any, ops: list[Operation]) -> _Boundary:
    members = {id(op) for op in ops}
    seen: dict[int, Any] = {}
    for op in ops:
        for v in op.operands:
            if not isinstance(v.type.resolve(), TensorType):
                continue
            p = getattr(v, "op", None)
            if (p is None or id(p) not in members) and id(v) not in seen:
                seen[id(v)] = v
    block = func.regions[0].entry
    order = {id(op): i for i, op in enumerate(block.ops)}

    def key(v: Any) -> tuple[int, int, int]:
        p = getattr(v, "op", None)
        return (0, v.index, 0) if p is None else (1, order[id(p)], v.index)

    inputs = sorted(seen.values(), key=key)
    resident = [v for v in inputs if _device_resident(func, v)]
    staged = [v for v in inputs if not _device_resident(func, v)]
    outputs = [r for op in ops for r in op.results if any(id(u) not in members for u in r.uses)]
    return _Boundary([*resident, *staged], len(resident), outputs)


def _func(name: str, kind: str, ins: list[Any], outs: list[Any], location: Any) -> tuple[Operation, Block]:
    body = Block(ins)
    f = Operation("func.func", properties={
        "sym_name": StringAttr(name),
        "function_type": TypeAttr(FunctionType(tuple(ins), tuple(outs))),
        "sym_visibility": StringAttr("private"),
    }, attributes={FUNCTION_TYPE: StringAttr(kind)}, regions=[Region([body])], location=location)  # fmt: skip
    return f, body


def _device(body: Block, like: Operation) -> Any:
    return body.append(like.clone({})).results[0]


def hoist_trace(module: Module, func: Any, index: int, aliaser: LayoutAliaser) -> bool:
    """Trace the device computation of forward function `func` as trace `index`; False when there is none."""
    ops = traced_ops(func, module)
    if not ops:
        return False
    b = _boundary(func, ops)
    # Before anything is built or inserted: a rejected function keeps its ops.
    check_resident_on_device(module, func, b.inputs[:b.resident], ops)
    block = func.regions[0].entry
    device_op = get_or_insert_device(module, block).op
    loc = func.location
    name = func_name(func)
    base = f"trace_{index}_{name}"
    n_in, out_types = len(b.inputs), [r.type for r in b.outputs]
    in_attrs = _input_attrs(func, b.inputs)

    # The trace function: [inputs][output slots] -> ().
    trace, body = _func(base, "trace_main", [v.type for v in b.inputs] + out_types, [], loc)
    set_arg_attrs(trace, in_attrs + [{} for _ in out_types])
    mapping: dict[int, Any] = {id(v): a for v, a in zip(b.inputs, body.args)}
    if any(v is device_op.results[0] for op in ops for v in op.operands):
        mapping[id(device_op.results[0])] = _device(body, device_op)
    for op in ops:
        body.append(op.clone(mapping))
    for i, r in enumerate(b.outputs):
        body.append(Operation("ttnn.copy", [mapping[id(r)], body.args[n_in + i]], [], location=loc))
    body.append(Operation("func.return", [], [], location=loc))

    resident, staged = b.inputs[:b.resident], b.inputs[b.resident:]
    slot_types = [v.type for v in resident] + [_in_memory(v.type, "dram", aliaser) for v in staged]

    # Slot allocation: (device-resident inputs) -> (input slots..., output slots...).
    alloc, abody = _func(f"allocate_slots_{base}", "trace_allocate_slots", [v.type for v in resident], slot_types + out_types, loc)
    set_arg_attrs(alloc, in_attrs[:b.resident])
    dev = _device(abody, device_op)
    slots: list[Any] = list(abody.args)
    for t in slot_types[b.resident:] + out_types:
        shape = DialectAttr("ttnn.shape", "x".join(map(str, ranked_shape(t.resolve()))))
        slots.append(abody.append(Operation("ttnn.empty", [dev], [t], properties={"shape": shape}, location=loc)).results[0])
    abody.append(Operation("func.return", slots, [], location=loc))

    # Capture: (host inputs..., input slots..., output slots...) -> trace id.
    host_types = [_in_memory(v.type, "system_memory", aliaser) for v in staged]
    cap, cbody = _func(f"run_and_capture_{base}", "trace_run_and_capture", host_types + slot_types + out_types, [TRACE_ID], loc)
    set_arg_attrs(cap, in_attrs[b.resident:] + in_attrs[:b.resident] + [{} for _ in staged] + [{} for _ in out_types])
    dev = _device(cbody, device_op)
    host_args = cbody.args[:len(staged)]
    in_slots = cbody.args[len(staged):len(staged) + n_in]
    out_slots = cbody.args[len(staged) + n_in:]
    for h, s in zip(host_args, in_slots[b.resident:]):
        cbody.append(Operation("ttnn.write_tensor", [h, s], [], properties={"blocking": BoolAttr(False), **_cq()}, location=loc))
    call_args = [*in_slots, *out_slots]
    cbody.append(Operation("func.call", call_args, [], properties={"callee": SymbolRefAttr(base)}, location=loc))
    tid = cbody.append(Operation("ttnn.begin_trace_capture", [dev], [TRACE_ID], properties=_cq(), location=loc)).results[0]
    cbody.append(Operation("func.call", call_args, [], properties={"callee": SymbolRefAttr(base)}, location=loc))
    cbody.append(Operation("ttnn.end_trace_capture", [dev, tid], [], properties=_cq(), location=loc))
    cbody.append(Operation("ttnn.execute_trace", [dev, tid], [], properties={"blocking": BoolAttr(False), **_cq()}, location=loc))
    cbody.append(Operation("func.return", [tid], [], location=loc))

    # Execute: (trace id) -> ().
    exe, ebody = _func(f"execute_{base}", "trace_execute", [TRACE_ID], [], loc)
    dev = _device(ebody, device_op)
    ebody.append(Operation("ttnn.execute_trace", [dev, ebody.args[0]], [], properties={"blocking": BoolAttr(False), **_cq()}, location=loc))
    ebody.append(Operation("func.return", [], [], location=loc))

    # The forward function: host-staged inputs to the host, one capture_or_execute_trace.
    at = block.index(ops[0])
    operands = list(resident)
    moved: list[tuple[Any, Operation]] = []
    for v in staged:
        lay = current_layout(v.type)
        if lay is not None and lay.is_system_memory:
            operands.append(v)
            continue
        to_host = Operation("ttnn.from_device", [v], [_in_memory(v.type, "system_memory", aliaser)], location=loc)
        block.insert(at, to_host)
        at += 1
        operands.append(to_host.results[0])
        moved.append((v, to_host))
    props = {"allocate_slots_callee": SymbolRefAttr(f"allocate_slots_{base}"),
             "capture_callee": SymbolRefAttr(f"run_and_capture_{base}"), "execute_callee": SymbolRefAttr(f"execute_{base}"),
             "operandSegmentSizes": DenseArrayAttr("i32", (1, len(operands), 0))}  # fmt: skip
    call = Operation(TRACE_OP, [device_op.results[0], *operands], out_types, properties=props, location=loc)
    block.insert(at, call)
    for r, c in zip(b.outputs, call.results):
        r.replace_all_uses_with(c)
    for op in ops:
        op.drop_all_references()
    block.remove_many(ops)
    _merge_host_args(func, moved)
    update_function_type(func)

    parent = func.parent
    assert parent is not None
    where = parent.index(func)
    for i, f in enumerate((trace, alloc, cap, exe)):
        parent.insert(where + i, f)
    return True


# Ops whose operand 1 is the weight and a tensor operand 2 the bias.
CONVS = frozenset({"ttnn.conv1d", "ttnn.conv2d", "ttnn.conv_transpose2d", "ttnn.conv3d"})
ROLES = {1: "weight", 2: "bias"}
# Convs whose weight and bias stay on the host without the optimizer (HEAD's TTNNLayout and
# Conv2dRewritePattern) and are prepared on the device with it (TTNNPrepareConv2dWeightsAndBias).
PREPARED_WITH_OPTIMIZER = frozenset({"ttnn.conv2d", "ttnn.conv_transpose2d"})
NOTED = 3  # host-resident inputs named in the diagnostic; the rest are counted


def check_resident_on_device(module: Module, func: Any, resident: list[Any], ops: list[Operation]) -> None:
    """Reject a device-resident trace input (parameter, constant, KV cache, const-eval result) in
    system memory, as HEAD's insertCaptureOrExecuteTraceOp does: the trace reads it in place, on the device."""
    on_host = [v for v in resident if (lay := current_layout(v.type)) is not None and lay.is_system_memory]
    if not on_host:
        return
    notes: list[str] = []
    conv = False
    for v in on_host[:NOTED]:
        readers = [(op.name, i) for op in ops for i, o in enumerate(op.operands) if o is v]
        conv |= any(name in PREPARED_WITH_OPTIMIZER and i in ROLES for name, i in readers)
        read = ", ".join(dict.fromkeys(f"the {ROLES[i]} of '{name}'" if name in CONVS and i in ROLES
                                       else f"operand {i} of '{name}'" for name, i in readers))  # fmt: skip
        notes.append(f"{_describe(func, v)} is in system memory, read as {read}")
    if len(on_host) > NOTED:
        notes.append(f"and {len(on_host) - NOTED} more device-resident input(s) in system memory")
    if conv:
        notes.append("without the optimizer a conv2d keeps its weight and bias on the host and prepares them on every call, "
                     "which a trace cannot replay (tt-mlir rejects this program the same way); from optimization-level=1 "
                     "they are prepared once, on the device, in const-eval, and the trace reads the cached results")  # fmt: skip
    raise Diagnostic("ttnn-trace-hoist-transform: Device-resident input must be on device, but found on system memory",
                     op_position(module.source, func), tuple(notes))  # fmt: skip


def _describe(func: Any, v: Any) -> str:
    """`argument N (parameter 'name')` for an argument, `the result of '<op>' (@callee)` for a value."""
    p = getattr(v, "op", None)
    if p is None:
        name = getattr(arg_attrs(func)[v.index].get("ttir.name"), "value", None)
        return f"argument {v.index} ({_argument_type(func, v.index)}{f' {name!r}' if name else ''})"
    callee = p.properties.get("callee")
    return f"the result of '{p.name}'" + (f" ({callee.print()})" if isinstance(callee, SymbolRefAttr) else "")


def get_or_insert_device(module: Module, block: Block) -> Any:
    """The block's `ttnn.get_device` result; one is put at the block's start when there is none."""
    op = next((o for o in block.ops if o.name == DEVICE and not o.operands), None)
    if op is None:
        op = new_device(module)
        block.insert(0, op)
    return op.results[0]


def _input_attrs(func: Any, inputs: list[Any]) -> list[dict[str, Any]]:
    """Trace argument attributes: an argument keeps its own; a const-eval result or prelude buffer is
    a constant."""
    attrs = arg_attrs(func)
    out: list[dict[str, Any]] = []
    for v in inputs:
        p = getattr(v, "op", None)
        if p is None:
            out.append(dict(attrs[v.index]))
        elif p.name == "ttcore.load_cached" or p.name in PRELUDE_BUFFERS:
            out.append({ARGUMENT_TYPE: DialectAttr("ttcore.argument_type", "constant")})
        else:
            out.append({})
    return out


def _merge_host_args(func: Any, moved: list[tuple[Any, Operation]]) -> None:
    """An argument read only by the transfer to the host becomes a host argument (the transfer goes)."""
    block = func.regions[0].entry
    for v, to_host in moved:
        if getattr(v, "op", None) is not None or len(v.uses) != 1:
            continue
        v.type = to_host.results[0].type
        to_host.results[0].replace_all_uses_with(v)
        to_host.drop_all_references()
        block.remove(to_host)


@register_pass
@dataclass
class TTNNTraceHoistTransform(Pass):
    """Capture each forward function's device computation in a trace (tt-mlir's ttnn-trace-hoist-transform)."""

    name = "ttnn-trace-hoist-transform"
    summary = ("Move the device computation of each forward function into @trace_N_<func>, with slot allocation, "
               "capture and execute functions, called through ttnn.capture_or_execute_trace")  # fmt: skip

    def run(self, module: Module, ctx: PassContext) -> None:
        aliaser = LayoutAliaser(module)
        count = 0
        for func in list(module.functions()):
            if not is_forward(func):
                continue
            if len(func.regions[0].blocks) != 1:
                raise Diagnostic(f"{self.name}: function with {len(func.regions[0].blocks)} blocks", op_position(module.source, func))
            if hoist_trace(module, func, count, aliaser):
                count += 1
        ctx.stats.setdefault(self.name, {})["traces"] = count
