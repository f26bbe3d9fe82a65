"""`<name>_helper`: HEAD's calling-convention wrapper (lib/Dialect/LLVM/Transforms/EmitWrapperFuncs.cpp)
of each lowered function that has `arg_ranks` and `result_ranks`.

The runtime passes one pointer to an array of WrappedTensor structs
`{ptr start, ptr aligned_start, i64 start_idx, ptr sizes_and_strides}` (32 bytes each); the helper
unpacks each into the memref arguments of the function, calls it, and packs its result descriptors
into a malloc'd array of WrappedTensors whose sizes and strides live in one more malloc'd buffer.
It returns that array (`!llvm.ptr`), or nothing when the function has no results.
"""

from __future__ import annotations

from typing import cast

from ttopt.dialects.llvm import func_type, llvm_type, signature
from ttopt.ir.attributes import ArrayAttr, IntegerAttr, StringAttr, TypeAttr
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import Type
from ttopt.lowering.cpu_llvm.builder import I8, I64, PTR, Builder

WRAPPED_TENSOR = llvm_type("!llvm.struct<(ptr, ptr, i64, ptr)>")
WRAPPED_TENSOR_BYTES = 32  # 4 fields * 8 bytes
WRAPPED_TENSOR_PTRS = 4  # the same in pointer-sized steps (HEAD's GEP over `ptr` elements)


def ranks(func: Operation, key: str) -> list[int] | None:
    """The integers of `arg_ranks` / `result_ranks`, or None when absent or not integers."""
    a = func.attributes.get(key)
    r = a.resolve() if a is not None else None
    if not isinstance(r, ArrayAttr) or not all(isinstance(x.resolve(), IntegerAttr) for x in r.items):
        return None
    return [cast(IntegerAttr, x.resolve()).value for x in r.items]


def helper(func: Operation) -> Operation | None:
    """The `<name>_helper` llvm.func of `func` (None without arg_ranks and result_ranks, as HEAD)."""
    arg_ranks, result_ranks = ranks(func, "arg_ranks"), ranks(func, "result_ranks")
    if arg_ranks is None or result_ranks is None:
        return None
    name = cast(StringAttr, func.properties["sym_name"]).value
    result_type, _ = signature(func)
    has_outputs = bool(result_ranks)
    region = Region([Block([PTR])])
    op = Operation("llvm.func", properties={"sym_name": StringAttr(name + "_helper"),
                   "function_type": TypeAttr(func_type(PTR if has_outputs else None, [PTR]))},
                   regions=[region], location=func.location)  # fmt: skip
    b = Builder(region, func.location)
    array = region.entry.args[0]
    call_args = []
    for idx, rank in enumerate(arg_ranks):
        offset = b.mul(b.i64(idx), b.i64(WRAPPED_TENSOR_PTRS))
        wrapped = b.load(b.gep(array, offset, PTR, inbounds=True), WRAPPED_TENSOR)
        call_args += [b.extract(wrapped, PTR, [0]), b.extract(wrapped, PTR, [1]), b.extract(wrapped, I64, [2])]
        sizes_and_strides = b.extract(wrapped, PTR, [3])
        for i in range(2 * rank):
            call_args.append(b.load(b.gep(sizes_and_strides, b.i64(i), PTR), I64))
    if not has_outputs or result_type is None:
        b.call(name, call_args, None)
        b.op("llvm.return", [], None)
        return op
    result = b.call(name, call_args, result_type)
    outputs = b.call("malloc", [b.i64(len(result_ranks) * WRAPPED_TENSOR_BYTES)], PTR)
    sizes_base = b.call("malloc", [b.i64(sum(2 * r * 8 for r in result_ranks))], PTR)
    at = 0
    for out_idx, rank in enumerate(result_ranks):
        desc = result if len(result_ranks) == 1 else b.extract(result, _member(result_type, out_idx), [out_idx])
        base, aligned, offset = b.extract(desc, PTR, [0]), b.extract(desc, PTR, [1]), b.extract(desc, I64, [2])
        sizes = b.gep(sizes_base, b.i64(at), I8)
        for i in range(2 * rank):
            v = b.extract(desc, I64, [3, i] if i < rank else [4, i - rank])
            b.store(v, b.gep(sizes, b.i64(i), I64))
        w = b.undef(WRAPPED_TENSOR)
        for pos, field in enumerate((base, aligned, offset, sizes)):
            w = b.insert(w, field, [pos])
        b.store(w, b.gep(outputs, b.i64(out_idx), WRAPPED_TENSOR))
        at += 2 * rank * 8
    b.op("llvm.return", [outputs], None)
    return op


def _member(struct: Type, i: int) -> Type:
    """The type of member `i` of an `!llvm.struct<(...)>`."""
    from ttopt.dialects.llvm import full_type, split_top

    body = struct.resolve().canonical()[len("!llvm.struct<(") : -2]
    return full_type(split_top(body)[i])
