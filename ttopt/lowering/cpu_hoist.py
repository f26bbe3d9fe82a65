"""`cpu-hoist-const-eval` and `cpu-hoist-manually-tagged`: TTIR ops move from the device program to
host functions in a `ttcore.cpu_module` (tt-mlir's CPUHoistConstEvalTransform and
CPUHoistManuallyTaggedOpsTransform, lib/Dialect/TTIR/Transforms/HoistCPUOps/).

Const-eval functions run once, so their arithmetic can run on the host in 32 bits: more precise
than bf16 on the device, and the intermediates never take device memory. Per TTIR const-eval
function of the device module:

* Ops that only build a returned constant (a creation op, possibly through reshapes and typecasts)
  stay on the device: later passes read their values, and the host gains nothing on them.
* The rest is cut into segments at collectives and mesh shards, which stay on the device. A segment
  with an op the CPU lowering cannot take (`cpu_llvm.lowerable`) stays on the device too, with a
  warning at that op, as tt-mlir warns.
* Each segment becomes `func.func @cpu_hoisted_const_eval_<hash>` in the CPU module: its inputs are
  the values it reads from outside (one argument per read, not deduplicated, as tt-mlir), its
  results the values read after it; floats become f32 and integers 32-bit (signless inside the
  definition), constants are re-typed to match. It carries `arg_ranks` / `result_ranks` (the
  LLVM wrapper's), `func_hash` (SHA-256 of the printed definition) and `tt.function_type =
  "forward_cpu"`. A definition with the hash of an existing one is not added twice.
* The device module gets a private declaration of it (`forward_cpu_declaration`, signed integer
  types kept) and, in place of the segment, `ttir.to_layout`s to the 32-bit types, a `func.call`
  marked `ttir.cpu_hoisted_call`, and `ttir.to_layout`s back to the original types.

`cpu-hoist-manually-tagged` hoists each op tagged `ttir.should_hoist` on its own, in any function,
as `@cpu_hoisted_<op name>_<hash>`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ttopt.ir.attributes import ArrayAttr, DenseElementsAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from ttopt.ir.module import Module
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.printer import print_module
from ttopt.ir.types import FunctionType, ScalarType, TensorType
from ttopt.lowering.dense_values import DenseValueError, narrowed_body
from ttopt.lowering.device_module import cpu_inner_module, device_inner_module
from ttopt.lowering.function_types import FORWARD_CPU, FORWARD_CPU_DECLARATION, FUNCTION_TYPE, HOISTED_CALL, is_const_eval
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass
from ttopt.sharding.diagnostics import warn
from ttopt.sharding.func_attrs import set_arg_attrs

if TYPE_CHECKING:
    from ttopt.passes.context import PassContext

SHOULD_HOIST = "ttir.should_hoist"
FUNC_HASH = "func_hash"

# Ops that only change format, not meaning: a creation op seen through them still builds a constant.
TRANSPARENT = frozenset({"ttir.reshape", "ttir.typecast"})
CREATION = frozenset({"ttir.arange", "ttir.full", "ttir.rand", "ttir.zeros", "ttir.ones", "ttir.constant", "ttir.empty"})
# Collectives and mesh shards run on the device; they split a const-eval subgraph into segments.
BARRIERS = frozenset({
    "ttir.all_gather", "ttir.all_reduce", "ttir.reduce_scatter", "ttir.collective_permute", "ttir.all_to_all",
    "ttir.collective_broadcast", "ttir.mesh_shard", "ttir.mesh_partition",
})  # fmt: skip


# -- types ------------------------------------------------------------------------------------------
def _cpu_element(name: str) -> str:
    """The 32-bit element type the host computes `name` in, signedness kept (tt-mlir's
    getCPUCompatibleElementType); non-numeric types unchanged. i1 is a signless integer there too, so
    it becomes i32: the device holds booleans as bf16, and an i1 host argument would be handed a bf16
    buffer once convert-ttir-to-ttnn types the declaration."""
    if name in ("bf16", "f16", "f32", "f64") or name.startswith("f8"):
        return "f32"
    for prefix in ("si", "ui", "i"):
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            return f"{prefix}32"
    return name


def _signless(name: str) -> str:
    return "i" + name[2:] if name[:2] in ("si", "ui") and name[2:].isdigit() else name


def cpu_type(t: Any, drop_sign: bool = False) -> Any:
    """The host type of a ranked tensor type (others unchanged)."""
    t = t.resolve() if hasattr(t, "resolve") else t
    if not isinstance(t, TensorType):
        return t
    elem = _cpu_element(t.element_type.resolve().text)
    if drop_sign:
        elem = _signless(elem)
    if elem == t.element_type.resolve().text and t.encoding is None:
        return t
    return TensorType(t.shape, ScalarType(elem))


def _retype_constant(op: Operation) -> None:
    """Re-spell a cloned `ttir.constant`'s value for its (already re-typed) result type."""
    value = op.properties.get("value")
    if not isinstance(value, DenseElementsAttr):
        return
    src = value.type.resolve()
    dst = op.results[0].type.resolve()
    if not isinstance(src, TensorType) or src.element_type.resolve().text == dst.element_type.resolve().text:
        return
    shape = tuple(d for d in (src.shape or ()) if isinstance(d, int))
    # HEAD's convertDenseElementsAttr truncates integers (sextOrTrunc): 5000000000 : si64 is 705032704.
    body = narrowed_body(value, src.element_type.resolve().text, dst.element_type.resolve().text, shape, wrap=True)
    op.properties["value"] = DenseElementsAttr(body, dst)


# -- segments ---------------------------------------------------------------------------------------
@dataclass
class Segment:
    """Ops hoisted as one host function, the values read after them, and the name's middle part."""

    ops: list[Operation]
    outputs: list[Any]
    suffix: str


def _creation_chain(v: Any) -> list[Operation]:
    """The ops from `v` back through transparent ops to a creation op; empty when it reaches none."""
    chain: list[Operation] = []
    op = getattr(v, "op", None)
    while op is not None:
        chain.append(op)
        if op.name in CREATION:
            return chain
        if op.name not in TRANSPARENT or not op.operands:
            return []
        op = getattr(op.operands[0], "op", None)
    return []


def _outputs(ops: list[Operation]) -> list[Any]:
    members = {id(op) for op in ops}
    return [r for op in ops for r in op.results if any(id(u) not in members for u in r.users)]


def _lowerable_on_host(op: Operation, lowerable: Callable[[Operation], bool]) -> bool:
    """`lowerable` asked of `op` as the host function will hold it: 32-bit types, signless (tt-mlir's
    canLowerTTIRToLinalg tries a converted clone the same way)."""
    probe = Block([cpu_type(v.type, drop_sign=True) for v in op.operands])
    clone = op.clone({id(v): a for v, a in zip(op.operands, probe.args)})
    for r in clone.results:
        r.type = cpu_type(r.type, drop_sign=True)
    try:
        if clone.name == "ttir.constant":
            _retype_constant(clone)
        return lowerable(clone)
    except DenseValueError:
        return False  # a constant whose values cannot be re-spelled for the host stays on the device
    finally:
        clone.drop_all_references()


def const_eval_segments(module: Module, func: Operation, lowerable: Callable[[Operation], bool]) -> list[Segment]:
    """The segments of one const-eval function to hoist (tt-mlir's analyzeConstEval)."""
    if not is_const_eval(func) or not func.regions or not func.regions[0].blocks:
        return []
    block = func.regions[0].entry
    if any(HOISTED_CALL in op.attributes for op in block.ops):
        return []
    ret = block.ops[-1] if block.ops and block.ops[-1].name == "func.return" else None
    skip = {id(op) for v in (ret.operands if ret is not None else ()) for op in _creation_chain(v)}
    segments: list[list[Operation]] = [[]]
    for op in block.ops:
        if op.name == "func.return" or id(op) in skip:
            continue
        if op.name in BARRIERS:
            segments.append([])
            continue
        segments[-1].append(op)
    out: list[Segment] = []
    for ops in segments:
        if not ops:
            continue
        bad = next((op for op in ops if not _lowerable_on_host(op, lowerable)), None)
        if bad is not None:
            warn(module, bad, "Skipping CPU hoisting of const-eval subgraph: op cannot be lowered to Linalg")
            continue
        out.append(Segment(ops, _outputs(ops), "const_eval"))
    return out


# -- hoisting ---------------------------------------------------------------------------------------
def _inputs(ops: list[Operation]) -> list[Any]:
    """Every operand read from outside `ops`, once per read (tt-mlir does not deduplicate)."""
    members = {id(op) for op in ops}
    return [v for op in ops for v in op.operands if id(getattr(v, "op", None)) not in members]


def _to_layout(v: Any, t: Any, loc: Any) -> list[Operation]:
    """`ttir.empty` and `ttir.to_layout(v, empty)` to type `t` (TTIR's destination-passing conversion)."""
    empty = Operation("ttir.empty", [], [t], location=loc)
    return [empty, Operation("ttir.to_layout", [v, empty.results[0]], [t], location=loc)]


def _ranks(types: list[Any]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(len(t.resolve().shape)) for t in types if isinstance(t.resolve(), TensorType)))


def _function_hash(func: Operation) -> str:
    """SHA-256 of the definition as ttopt prints it (its name left out)."""
    probe = Module(Operation("builtin.module", regions=[Region([Block()])]))
    probe.body.append(func.clone())
    return hashlib.sha256(print_module(probe).encode()).hexdigest()


def _definition(seg: Segment, inputs: list[Any], loc: Any) -> Operation:
    """The host function computing `seg` from `inputs` (already 32-bit typed)."""
    body = Block([cpu_type(v.type, drop_sign=True) for v in inputs])
    mapping: dict[int, Any] = {}
    members = {id(op) for op in seg.ops}
    at = 0
    for op in seg.ops:
        clone = op.clone(mapping)
        for i, v in enumerate(op.operands):
            if id(getattr(v, "op", None)) not in members:
                clone.set_operand(i, body.args[at])
                at += 1
        for r in clone.results:
            r.type = cpu_type(r.type, drop_sign=True)
        if clone.name == "ttir.constant":
            _retype_constant(clone)
        body.append(clone)
    body.append(Operation("func.return", [mapping[id(r)] for r in seg.outputs], [], location=loc))
    results = [cpu_type(r.type, drop_sign=True) for r in seg.outputs]
    func = Operation("func.func", properties={
        "sym_name": StringAttr("cpu_hoisted_func"),
        "function_type": TypeAttr(FunctionType(tuple(a.type for a in body.args), tuple(results))),
    }, attributes={
        "arg_ranks": _ranks([v.type for v in inputs]),
        "result_ranks": _ranks([r.type for r in seg.outputs]),
        FUNCTION_TYPE: StringAttr(FORWARD_CPU),
    }, regions=[Region([body])], location=loc)  # fmt: skip
    set_arg_attrs(func, [{"bufferization.access": StringAttr("read")} for _ in body.args])
    func.attributes[FUNC_HASH] = StringAttr(_function_hash(func))
    return func


def _declaration(name: str, inputs: list[Any], outputs: list[Any], digest: str, loc: Any) -> Operation:
    return Operation("func.func", properties={
        "sym_name": StringAttr(name),
        "function_type": TypeAttr(FunctionType(tuple(cpu_type(v.type) for v in inputs), tuple(cpu_type(r.type) for r in outputs))),
        "sym_visibility": StringAttr("private"),
    }, attributes={FUNCTION_TYPE: StringAttr(FORWARD_CPU_DECLARATION), FUNC_HASH: StringAttr(digest)}, location=loc)  # fmt: skip


def hoist_segment(module: Module, seg: Segment, device: Operation, cpu: Operation) -> str:
    """Replace `seg` by a call of its host function; returns the function's name."""
    block = seg.ops[-1].parent
    assert block is not None
    loc = seg.ops[-1].location
    inputs = _inputs(seg.ops)
    new: list[Operation] = []
    converted: list[Any] = []
    for v in inputs:
        t = cpu_type(v.type)
        if t is v.type.resolve() or t == v.type.resolve():
            converted.append(v)
        else:
            conv = _to_layout(v, t, loc)
            new += conv
            converted.append(conv[-1].results[0])
    definition = _definition(seg, converted, loc)
    digest = str(getattr(definition.attributes[FUNC_HASH], "value"))
    existing = next((f for f in device.regions[0].entry.ops
                     if f.name == "func.func" and getattr(f.attributes.get(FUNC_HASH), "value", None) == digest), None)  # fmt: skip
    if existing is not None:
        name = str(getattr(existing.properties["sym_name"], "value"))
    else:
        name = f"cpu_hoisted_{seg.suffix}_{digest[:8]}".replace(".", "_")
        definition.properties["sym_name"] = StringAttr(name)
        cpu.regions[0].entry.append(definition)
        # Before the CPU module when the program is not wrapped yet (it sits in the same block then).
        ops = device.regions[0].entry.ops
        at = next((i for i, o in enumerate(ops) if o.name == "ttcore.cpu_module"), len(ops))
        device.regions[0].entry.insert(at, _declaration(name, converted, seg.outputs, digest, loc))
    call = Operation("func.call", converted, [cpu_type(r.type) for r in seg.outputs],
                     properties={"callee": SymbolRefAttr(name)}, attributes={HOISTED_CALL: UnitAttr()}, location=loc)  # fmt: skip
    new.append(call)
    for r, c in zip(seg.outputs, call.results):
        if c.type == r.type.resolve():
            r.replace_all_uses_with(c)
            continue
        back = _to_layout(c, r.type, loc)
        new += back
        r.replace_all_uses_with(back[-1].results[0])
    at = block.index(seg.ops[-1]) + 1
    for i, op in enumerate(new):
        block.insert(at + i, op)
    for op in reversed(seg.ops):
        op.drop_all_references()
    block.remove_many(seg.ops)
    return name


def _lowerable() -> Callable[[Operation], bool]:
    from ttopt.lowering.cpu_llvm.lowerable import lowerable

    return lowerable


def _modules(module: Module) -> tuple[Operation, Operation]:
    cpu = cpu_inner_module(module, create=True)
    assert cpu is not None
    return device_inner_module(module), cpu


def _drop_empty_cpu_module(module: Module) -> None:
    cpu = cpu_inner_module(module)
    if cpu is not None and not cpu.regions[0].entry.ops:
        module.body.remove_many([op for op in module.body.ops if op.name == "ttcore.cpu_module"])


@register_pass
@dataclass
class CPUHoistConstEval(Pass):
    """Hoist the ops of TTIR const-eval functions to host functions (tt-mlir's cpu-hoist-const-eval)."""

    name = "cpu-hoist-const-eval"
    summary = ("Move the ops of each const-eval function (but returned constants, collectives and ops the CPU "
               "lowering cannot take) into @cpu_hoisted_const_eval_<hash> functions of a ttcore.cpu_module, "
               "called in 32-bit types")  # fmt: skip

    def run(self, module: Module, ctx: PassContext) -> None:
        device, cpu = _modules(module)
        lowerable = _lowerable()
        hoisted = 0
        for func in [op for op in device.regions[0].entry.ops if op.name == "func.func"]:
            for seg in const_eval_segments(module, func, lowerable):
                hoist_segment(module, seg, device, cpu)
                hoisted += 1
        _drop_empty_cpu_module(module)
        ctx.stats.setdefault(self.name, {})["hoisted-segments"] = hoisted


@register_pass
@dataclass
class CPUHoistManuallyTagged(Pass):
    """Hoist ops tagged `ttir.should_hoist` to host functions (tt-mlir's cpu-hoist-manually-tagged)."""

    name = "cpu-hoist-manually-tagged"
    summary = "Move each op tagged ttir.should_hoist into its own @cpu_hoisted_<op>_<hash> function of a ttcore.cpu_module"

    def run(self, module: Module, ctx: PassContext) -> None:
        tagged = [op for f in module.functions() for op in f.walk() if SHOULD_HOIST in op.attributes]
        if not tagged:
            return
        device, cpu = _modules(module)
        for op in tagged:
            op.attributes.pop(SHOULD_HOIST)
            hoist_segment(module, Segment([op], list(op.results), op.name), device, cpu)
        ctx.stats.setdefault(self.name, {})["hoisted-ops"] = len(tagged)
