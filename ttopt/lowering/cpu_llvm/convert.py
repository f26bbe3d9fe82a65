"""`convert-cpu-module-to-llvm` and `ttnn-common-to-runtime-pipeline`: every TTIR `func.func` of a
`ttcore.cpu_module` becomes an `llvm.func` with MLIR's memref calling convention, as HEAD's
`createSHLOAndTTIRToLLVMPipeline` leaves it, plus its `<name>_helper` wrapper (wrappers.py). The
StableHLO the CPU fallback hoists becomes TTIR first (hoisted_stablehlo.py).

Calling convention (func-to-llvm after bufferization, identity layouts): a tensor argument of rank R
is `(allocated ptr, aligned ptr, offset i64, sizes i64 x R, strides i64 x R)`, any strides and
offset honoured; a result is a freshly malloc'd contiguous buffer returned as
`!llvm.struct<(ptr, ptr, i64, array<R x i64>, array<R x i64>)>` (a struct of those for several
results, nothing for none). Buffers the function allocates and does not return are freed before
it returns. The C functions it calls (malloc, free, and libm's float functions for the math no LLVM
intrinsic computes) are declared in the module. Every op is checked before anything changes: an op `lowerable` refuses is an error at
that op, and the module is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Sequence, cast

from ttopt.dialects.llvm import func_type, llvm_type, short_type
from ttopt.ir.attributes import DenseElementsAttr, DialectAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.module import CPU_MODULE, Module
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import FunctionType, TensorType, Type
from ttopt.ir.values import Value
from ttopt.lowering.cpu_llvm.builder import F32, I32, I64, PTR, Builder
from ttopt.lowering.cpu_llvm.lowerable import ELEMENT_TYPES, why_not
from ttopt.lowering.cpu_llvm.scalars import LIBM
from ttopt.lowering.cpu_llvm.tensor_ops import copy, lower
from ttopt.lowering.cpu_llvm.views import ELEMENT, View, alloc, row_major
from ttopt.lowering.cpu_llvm.wrappers import helper
from ttopt.passes.base import Pass
from ttopt.passes.manager import PipelinePass, PipelineStep
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.diagnostics import SourceFile
    from ttopt.passes.context import PassContext

MALLOC = ("malloc", func_type(PTR, [I64]))
FREE = ("free", func_type(None, [PTR]))


class CPULoweringError(Diagnostic):
    """An op or function of the CPU module the LLVM lowering cannot take (reported at it)."""


def descriptor_type(rank: int) -> Type:
    """MLIR's memref descriptor struct of a rank-`rank` memref."""
    if rank == 0:
        return llvm_type("!llvm.struct<(ptr, ptr, i64)>")
    return llvm_type(f"!llvm.struct<(ptr, ptr, i64, array<{rank} x i64>, array<{rank} x i64>)>")


def result_type(ranks: Sequence[int]) -> Type | None:
    """The llvm.func result of results of these ranks: one descriptor, a struct of them, or None."""
    if not ranks:
        return None
    if len(ranks) == 1:
        return descriptor_type(ranks[0])
    return llvm_type(f"!llvm.struct<({', '.join(short_type(descriptor_type(r)) for r in ranks)})>")


def _tensor(t: Type) -> TensorType | None:
    r = t.resolve()
    ok = isinstance(r, TensorType) and r.shape is not None and all(d is not None for d in r.shape)
    return r if ok and r.element_type.resolve().text in ELEMENT_TYPES else None  # type: ignore[return-value]


def _rank(t: Type) -> int:
    return len(cast(TensorType, t.resolve()).shape or ())


@dataclass
class _Function:
    """The lowering of one function: its builder, its buffers and the module-level constants."""

    b: Builder
    name: str
    globals_: list[Operation]
    allocations: list[View] = field(default_factory=list)

    def alloc(self, shape: Sequence[int], element: str) -> View:
        v = alloc(self.b, shape, element)
        self.allocations.append(v)
        return v

    def global_constant(self, attr: DenseElementsAttr, shape: Sequence[int], element: str) -> Value:
        name = f"{self.name}_cst_{len(self.globals_)}"
        gtype = short_type(ELEMENT[element])
        for d in reversed(shape):
            gtype = f"array<{d} x {gtype}>"
        props = {"sym_name": StringAttr(name), "global_type": TypeAttr(llvm_type("!llvm." + gtype)), "value": attr, "constant": UnitAttr(),
                 "linkage": _linkage("internal"), "addr_space": IntegerAttr(0, I32, "0 : i32")}  # fmt: skip
        self.globals_.append(Operation("llvm.mlir.global", properties=props, location=self.b.location))
        return self.b.op("llvm.mlir.addressof", [], PTR, {"global_name": SymbolRefAttr(name)})


def _linkage(kind: str) -> DialectAttr:
    return DialectAttr("llvm.linkage", kind, f"#llvm.linkage<{kind}>")


def check(func: Operation, source: SourceFile | None) -> None:
    """Raise CPULoweringError at the first part of `func` the lowering cannot take."""
    ft = cast(FunctionType, cast(TypeAttr, func.properties["function_type"]).type)
    for t in [*ft.inputs, *ft.results]:
        if _tensor(t) is None:
            raise CPULoweringError(f"'func.func' op {t.text} is not a static tensor of f32, bf16, i32 or i1: the LLVM lowering "
                                   "takes no other argument or result", op_position(source, func))  # fmt: skip
    if not func.regions:
        return
    if len(func.regions[0].blocks) != 1:
        raise CPULoweringError("'func.func' op has several blocks; the LLVM lowering takes straight-line functions", op_position(source, func))
    for op in func.regions[0].blocks[0].ops:
        if op.name == "func.return":
            continue
        if op.regions:
            raise CPULoweringError(f"'{op.name}' op has regions; the LLVM lowering takes straight-line functions", op_position(source, op))
        reason = why_not(op)
        if reason is not None:
            raise CPULoweringError(f"'{op.name}' op cannot be lowered to the LLVM dialect: {reason}", op_position(source, op))


def convert_function(func: Operation) -> tuple[Operation, list[Operation]]:
    """The llvm.func of a checked TTIR `func`, and the constant globals it reads."""
    name = cast(StringAttr, func.properties["sym_name"]).value
    ft = cast(FunctionType, cast(TypeAttr, func.properties["function_type"]).type)
    arg_types: list[Type] = []
    for t in ft.inputs:
        r = _rank(t)
        arg_types += [PTR, PTR, I64, *([I64] * (2 * r))]
    res = result_type([_rank(t) for t in ft.results])
    attrs = dict(func.attributes)
    props = {"sym_name": StringAttr(name), "function_type": TypeAttr(func_type(res, arg_types))}
    if not func.regions:
        return Operation("llvm.func", properties=props, attributes=attrs, location=func.location), []
    region = Region([Block(arg_types)])
    new = Operation("llvm.func", properties=props, attributes=attrs, regions=[region], location=func.location)
    fn = _Function(Builder(region, func.location), name, [])
    env: dict[int, View] = {}
    args = iter(region.entry.args)
    for a in func.regions[0].blocks[0].args:
        t = cast(TensorType, a.type.resolve())
        shape = tuple(int(d) for d in t.shape or () if d is not None)
        _, aligned, offset = next(args), next(args), next(args)
        sizes = [next(args) for _ in shape]
        strides = tuple(next(args) for _ in shape)
        del sizes  # the static shape is the type's (HEAD's memrefs are static too)
        env[id(a)] = View(aligned, offset, shape, strides, t.element_type.resolve().text)
    for op in func.regions[0].blocks[0].ops:
        fn.b.location = op.location
        if op.name == "func.return":
            _return(fn, [env[id(v)] for v in op.operands], res)
            break
        env[id(op.results[0])] = lower(fn, op, [env[id(v)] for v in op.operands])
    return new, fn.globals_


def _return(fn: _Function, values: list[View], res: Type | None) -> None:
    """Return fresh contiguous buffers (copies of any view, argument or constant), free the rest."""
    b = fn.b
    returned: list[View] = []
    taken: set[int] = set()
    for v in values:
        if v.allocated is None or id(v.allocated) in taken or not v.contiguous() or v.offset != 0:
            v = copy(fn, v)
        taken.add(id(v.allocated))
        returned.append(v)
    for v in fn.allocations:
        if v.allocated is not None and id(v.allocated) not in taken:
            b.call("free", [v.allocated], None)
    descs = []
    for v in returned:
        d = b.undef(descriptor_type(len(v.shape)))
        assert v.allocated is not None
        d = b.insert(d, v.allocated, [0])
        d = b.insert(d, v.ptr, [1])
        d = b.insert(d, b.i64(0), [2])
        for k, n in enumerate(v.shape):
            d = b.insert(d, b.i64(n), [3, k])
        for k, s in enumerate(row_major(v.shape)):  # the buffer is fresh and contiguous
            d = b.insert(d, b.i64(s), [4, k])
        descs.append(d)
    if res is None:
        b.op("llvm.return", [], None)
        return
    if len(descs) == 1:
        b.op("llvm.return", descs, None)
        return
    agg = b.undef(res)
    for i, d in enumerate(descs):
        agg = b.insert(agg, d, [i])
    b.op("llvm.return", [agg], None)


def _declare(block: Block, name: str, ftype: Type, at: int) -> int:
    """Declare the C function `name` at position `at` unless the module has it; the next position."""
    if any(op.name == "llvm.func" and getattr(op.properties.get("sym_name"), "value", None) == name for op in block.ops):
        return at
    block.insert(at, Operation("llvm.func", properties={"sym_name": StringAttr(name), "function_type": TypeAttr(ftype)}))
    return at + 1


def convert_module(module_op: Operation, source: SourceFile | None) -> None:
    """Lower every func.func of one builtin.module of a CPU module (checked first, all or nothing)."""
    block = module_op.regions[0].entry
    funcs = [op for op in block.ops if op.name == "func.func"]
    if not funcs:
        return
    for f in funcs:
        check(f, source)
    lowered = []
    for f in funcs:
        new, globals_ = convert_function(f)
        i = block.index(f)
        f.drop_all_references()
        block.remove(f)
        for g in globals_:
            block.insert(i, g)
            i += 1
        block.insert(i, new)
        lowered.append(new)
    called = {getattr(op.properties.get("callee"), "root", None) for f in lowered for op in f.walk() if op.name == "llvm.call"}
    at = _declare(block, *MALLOC, 0)
    if "free" in called:
        at = _declare(block, *FREE, at)
    for name in LIBM:
        if name in called:
            at = _declare(block, name, func_type(F32, [F32]), at)
    for new in lowered:
        h = helper(new)
        if h is not None:
            block.append(h)


def cpu_modules(module: Module) -> Iterator[Operation]:
    """The builtin.modules inside every ttcore.cpu_module of `module`."""
    for op in list(module.walk()):
        if op.name == CPU_MODULE:
            for inner in op.regions[0].entry.ops if op.regions else ():
                if inner.name == "builtin.module":
                    yield inner


@register_pass
@dataclass
class ConvertCPUModuleToLLVM(Pass):
    """Lower each ttcore.cpu_module's TTIR functions to LLVM-dialect functions and their wrappers."""

    name = "convert-cpu-module-to-llvm"
    summary = ("Lower the TTIR functions of each ttcore.cpu_module to llvm.func (MLIR's memref calling convention, "
               "malloc'd contiguous results) plus HEAD's <name>_helper WrappedTensor wrappers")  # fmt: skip

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.lowering.cpu_llvm.hoisted_stablehlo import stablehlo_to_ttir  # the StableHLO lowering: only when it runs

        for inner in list(cpu_modules(module)):
            # StableHLO the CPU fallback hoisted becomes TTIR first (or stays, for the ops lowered directly).
            stablehlo_to_ttir(module, inner)
            convert_module(inner, module.source)


@register_pass
@dataclass
class TTNNCommonToRuntimePipeline(PipelinePass):
    """HEAD's createTTNNCommonToRuntimePipeline: the CPU module to the LLVM dialect."""

    name = "ttnn-common-to-runtime-pipeline"
    summary = "tt-mlir's TTNN-to-runtime steps: lower each ttcore.cpu_module to the LLVM dialect (convert-cpu-module-to-llvm)"

    def steps(self, module: Module) -> Iterator[PipelineStep]:
        yield PipelineStep(1, "convert-cpu-module-to-llvm", ConvertCPUModuleToLLVM())
