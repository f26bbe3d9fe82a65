"""A small interpreter of the LLVM-dialect subset `convert-cpu-module-to-llvm` writes, for tests.

Memory is one byte heap (`Memory`): pointers are addresses in it, `malloc` / `free` are built in, as
are the C library's float functions the lowering calls (`LIBM`); globals are laid out at load.
Values are Python ints (wrapped to their width), numpy float32 and tuples (structs and arrays).
`call_memref` passes numpy arrays through MLIR's memref calling convention (any strides and offset:
a numpy view is passed as the view of its base buffer) and reads the result descriptors back;
`call_helper` goes through the `<name>_helper` WrappedTensor wrapper.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

import numpy as np

from ttopt.dialects.llvm import short_type, split_top
from ttopt.ir.attributes import DenseElementsAttr, FloatAttr, IntegerAttr, TypeAttr
from ttopt.ir.types import TensorType
from ttopt.testing.ttir_interpreter import _BF16, dense

if TYPE_CHECKING:
    from ttopt.ir.operation import Block, Operation

# bf16 is held as its 16 bits in memory and as an np.float32 of bf16 precision in registers.
SCALARS = {"f32": ("<f", 4), "i32": ("<i", 4), "i64": ("<q", 8), "i8": ("<b", 1), "i1": ("<B", 1), "ptr": ("<Q", 8), "bf16": ("<H", 2)}
DTYPE_ELEMENT = {np.dtype(np.float32): "f32", np.dtype(np.int32): "i32", np.dtype(np.bool_): "i1"}
if _BF16 is not np.float32:  # ml_dtypes' bfloat16 (the TTIR interpreter's bf16 when installed)
    DTYPE_ELEMENT[np.dtype(_BF16)] = "bf16"


def _bf16_bits(x: Any) -> int:
    """The upper 16 bits of an f32 value already rounded to bf16 (`llvm.fptrunc` rounds)."""
    return int(np.array([x], np.float32).view(np.uint32)[0]) >> 16


def _from_bf16_bits(bits: int) -> np.float32:
    return np.array([bits << 16], np.uint32).view(np.float32)[0]


def _round_to_bf16(x: Any) -> np.float32:
    """f32 -> bf16 as `llvm.fptrunc`: to nearest, ties to even (NaN stays NaN)."""
    if math.isnan(float(x)):
        return np.float32("nan")
    bits = int(np.array([x], np.float32).view(np.uint32)[0])
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return np.array([bits], np.uint32).view(np.float32)[0]


class LLVMError(Exception):
    """The program did something the interpreter refuses (bad pointer, double free, unknown op)."""


def parse_type(short: str) -> Any:
    """A nested llvm type spelling as a tree: a scalar name, ("struct", [fields]) or ("array", n, elem)."""
    s = short.strip()
    if s.startswith("!llvm."):
        s = s[len("!llvm.") :]
    if s.startswith("struct<("):
        return ("struct", [parse_type(f) for f in split_top(s[len("struct<(") : -2])])
    if s.startswith("array<"):
        n, _, elem = s[len("array<") : -1].partition(" x ")
        return ("array", int(n), parse_type(elem))
    return s


def size_align(t: Any) -> tuple[int, int]:
    """Bytes and alignment of a type tree (C layout)."""
    if isinstance(t, str):
        n = SCALARS[t][1]
        return n, n
    if t[0] == "array":
        size, align = size_align(t[2])
        return size * t[1], align
    offset, align = 0, 1
    for f in t[1]:
        s, a = size_align(f)
        offset = (offset + a - 1) // a * a + s
        align = max(align, a)
    return (offset + align - 1) // align * align, align


def _field_offsets(t: Any) -> list[int]:
    offsets, offset = [], 0
    for f in t[1]:
        s, a = size_align(f)
        offset = (offset + a - 1) // a * a
        offsets.append(offset)
        offset += s
    return offsets


class Memory:
    """A growable byte heap with malloc and free; address 0 is null."""

    def __init__(self) -> None:
        self.data = bytearray(16)
        self.live: dict[int, int] = {}  # address -> size of malloc'd blocks not yet freed
        self.frees = 0

    def malloc(self, n: int) -> int:
        addr = (len(self.data) + 15) // 16 * 16
        self.data.extend(bytes(addr - len(self.data) + max(n, 0) + 16))  # 16 bytes of slack catch nothing, but keep blocks apart
        self.live[addr] = n
        return addr

    def free(self, addr: int) -> None:
        if addr == 0:
            return
        if addr not in self.live:
            raise LLVMError(f"free of {addr:#x}, which is not a live malloc'd block")
        del self.live[addr]
        self.frees += 1

    def load(self, addr: int, t: Any) -> Any:
        if addr <= 0 or addr + size_align(t)[0] > len(self.data):
            raise LLVMError(f"load from bad address {addr:#x}")
        if isinstance(t, str):
            fmt, n = SCALARS[t]
            v = struct.unpack_from(fmt, self.data, addr)[0]
            if t == "bf16":
                return _from_bf16_bits(v)
            return np.float32(v) if t == "f32" else (v & 1 if t == "i1" else v)
        if t[0] == "array":
            step = size_align(t[2])[0]
            return tuple(self.load(addr + i * step, t[2]) for i in range(t[1]))
        return tuple(self.load(addr + o, f) for o, f in zip(_field_offsets(t), t[1]))

    def store(self, addr: int, t: Any, v: Any) -> None:
        if addr <= 0 or addr + size_align(t)[0] > len(self.data):
            raise LLVMError(f"store to bad address {addr:#x}")
        if isinstance(t, str):
            fmt, n = SCALARS[t]
            if t == "f32":
                value: float | int = float(v)
            elif t == "bf16":
                value = _bf16_bits(v)
            elif fmt[1].isupper():  # unsigned formats (i1, ptr): the bits
                value = int(v) & ((1 << (8 * n)) - 1)
            else:
                value = _wrap(int(v), 8 * n)
            struct.pack_into(fmt, self.data, addr, value)
            return
        if t[0] == "array":
            step = size_align(t[2])[0]
            for i, x in enumerate(v):
                self.store(addr + i * step, t[2], x)
            return
        for o, f, x in zip(_field_offsets(t), t[1], v):
            self.store(addr + o, f, x)

    def put_array(self, a: np.ndarray) -> int:
        """Copy `a` (contiguous) into a fresh block; its address."""
        raw = np.ascontiguousarray(a).tobytes()
        addr = self.malloc(len(raw))
        del self.live[addr]  # caller-owned memory: not the program's to free
        self.data[addr : addr + len(raw)] = raw
        return addr


def _wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if bits > 1 and v >> (bits - 1) else v


def _bits(t: str) -> int:
    return {"i1": 1, "i8": 8, "i32": 32, "i64": 64}[t]


def _fcmp(pred: int, a: Any, b: Any) -> int:
    unordered = math.isnan(a) or math.isnan(b)
    table: dict[int, Callable[[], bool]] = {
        1: lambda: a == b, 2: lambda: a > b, 3: lambda: a >= b, 4: lambda: a < b, 5: lambda: a <= b, 6: lambda: a != b, 7: lambda: True}
    if pred in table:
        return int(not unordered and table[pred]())
    if pred in range(8, 15):
        return int(unordered or table[pred - 7]())
    return int(pred == 15)


def _icmp(pred: int, a: int, b: int, bits: int) -> int:
    ua, ub = a & ((1 << bits) - 1), b & ((1 << bits) - 1)
    return int([a == b, a != b, a < b, a <= b, a > b, a >= b, ua < ub, ua <= ub, ua > ub, ua >= ub][pred])


def _f32(f: Callable[..., Any]) -> Callable[..., Any]:
    def g(*xs: Any) -> Any:
        with np.errstate(all="ignore"):
            return np.float32(f(*(np.float32(x) for x in xs)))

    return g


FLOAT_OPS: dict[str, Callable[..., Any]] = {
    "llvm.fadd": _f32(lambda a, b: a + b), "llvm.fsub": _f32(lambda a, b: a - b), "llvm.fmul": _f32(lambda a, b: a * b),
    "llvm.fdiv": _f32(lambda a, b: np.divide(a, b)), "llvm.frem": _f32(np.fmod), "llvm.fneg": _f32(lambda a: -a),
    "llvm.intr.fabs": _f32(np.abs), "llvm.intr.exp": _f32(np.exp), "llvm.intr.log": _f32(np.log), "llvm.intr.sqrt": _f32(np.sqrt),
    "llvm.intr.floor": _f32(np.floor), "llvm.intr.roundeven": _f32(np.rint), "llvm.intr.ceil": _f32(np.ceil), "llvm.intr.sin": _f32(np.sin), "llvm.intr.cos": _f32(np.cos),
    "llvm.intr.tan": _f32(np.tan), "llvm.intr.tanh": _f32(np.tanh), "llvm.intr.pow": _f32(np.power),
    "llvm.intr.maximum": _f32(np.maximum), "llvm.intr.minimum": _f32(np.minimum),
    "llvm.intr.atan": _f32(np.arctan), "llvm.intr.asin": _f32(np.arcsin), "llvm.intr.acos": _f32(np.arccos),
    "llvm.intr.atan2": _f32(np.arctan2),
}  # fmt: skip


def _libm(f: Callable[[float], float]) -> Callable[[Any], Any]:
    """A C library float function: computed in double, rounded once to f32 (glibc's are within an ulp)."""

    def g(x: Any) -> Any:
        v = float(x)
        return np.float32(v if math.isnan(v) else f(v))

    return g


# The libm functions the lowering calls (declared `llvm.func @<name>(f32) -> f32`).
LIBM: dict[str, Callable[[Any], Any]] = {
    "erff": _libm(math.erf), "erfcf": _libm(math.erfc), "cbrtf": _libm(lambda v: float(np.cbrt(v))), "asinhf": _libm(math.asinh),
}  # fmt: skip
INT_OPS: dict[str, Callable[[int, int], int]] = {
    "llvm.add": lambda a, b: a + b, "llvm.sub": lambda a, b: a - b, "llvm.mul": lambda a, b: a * b,
    "llvm.intr.smax": max, "llvm.intr.smin": min, "llvm.and": lambda a, b: a & b, "llvm.or": lambda a, b: a | b,
    "llvm.xor": lambda a, b: a ^ b,
}  # fmt: skip


class LLVMInterpreter:
    """Runs the llvm.funcs of one builtin.module (the inner module of a ttcore.cpu_module)."""

    def __init__(self, module_op: Operation, memory: Memory | None = None) -> None:
        self.memory = memory or Memory()
        self.funcs: dict[str, Operation] = {}
        self.globals: dict[str, int] = {}
        for op in module_op.regions[0].entry.ops:
            name = getattr(op.properties.get("sym_name"), "value", None)
            if op.name == "llvm.func" and name:
                self.funcs[name] = op
            elif op.name == "llvm.mlir.global" and name:
                self.globals[name] = self._lay_out(op)

    def _lay_out(self, op: Operation) -> int:
        attr = op.properties["value"].resolve()
        assert isinstance(attr, DenseElementsAttr) and isinstance(attr.type, TensorType)
        return self.memory.put_array(dense(attr, attr.type))

    # -- calls ----------------------------------------------------------------------------------
    def call(self, name: str, args: Sequence[Any]) -> Any:
        """Call function `name` with scalar / pointer / aggregate arguments; its result (None for void)."""
        if name == "malloc":
            return self.memory.malloc(int(args[0]))
        if name == "free":
            self.memory.free(int(args[0]))
            return None
        if name in LIBM and not getattr(self.funcs.get(name), "regions", None):  # declared, not defined
            return LIBM[name](args[0])
        f = self.funcs.get(name)
        if f is None or not f.regions:
            raise LLVMError(f"call of undefined function @{name}")
        return self._run(f, list(args))

    def _run(self, f: Operation, args: list[Any]) -> Any:
        env: dict[int, Any] = {}
        block: Block = f.regions[0].blocks[0]
        for a, v in zip(block.args, args):
            env[id(a)] = v
        while True:
            nxt = None
            for op in block.ops:
                ins = [env[id(v)] for v in op.operands]
                if op.name == "llvm.return":
                    return ins[0] if ins else None
                if op.name == "llvm.br":
                    nxt = (op.successors[0], ins)
                    break
                if op.name == "llvm.cond_br":
                    sizes = op.properties["operandSegmentSizes"].resolve().values  # type: ignore[attr-defined]
                    then_args, else_args = ins[1 : 1 + sizes[1]], ins[1 + sizes[1] :]
                    nxt = (op.successors[0], then_args) if ins[0] else (op.successors[1], else_args)
                    break
                out = self._op(op, ins)
                if op.results:
                    env[id(op.results[0])] = out
            if nxt is None:
                raise LLVMError("block without a terminator")
            block, values = nxt
            for a, v in zip(block.args, values):
                env[id(a)] = v

    def _op(self, op: Operation, ins: list[Any]) -> Any:
        name = op.name
        rt = short_type(op.results[0].type) if op.results else ""
        p = op.properties
        if name in FLOAT_OPS:
            return FLOAT_OPS[name](*ins)
        if name in INT_OPS:
            return _wrap(INT_OPS[name](*ins), _bits(rt))
        if name in ("llvm.sdiv", "llvm.srem"):
            a, b = ins
            if b == 0:
                raise LLVMError(f"{name} by zero")
            q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            return _wrap(q if name == "llvm.sdiv" else a - q * b, _bits(rt))
        if name in ("llvm.shl", "llvm.lshr"):
            bits = _bits(rt)
            a, n = ins[0] & ((1 << bits) - 1), ins[1]
            if not 0 <= n < bits:
                raise LLVMError(f"{name} by {n} (poison)")
            return _wrap(a << n if name == "llvm.shl" else a >> n, bits)
        if name == "llvm.urem":
            return ins[0] % ins[1]
        if name == "llvm.intr.abs":
            return _wrap(abs(ins[0]), _bits(rt))
        if name == "llvm.mlir.constant":
            v = p["value"].resolve()
            if isinstance(v, FloatAttr):
                return np.float32(v.value)
            return int(cast(IntegerAttr, v).value) if not hasattr(v, "text") or v.text not in ("true", "false") else int(v.text == "true")
        if name == "llvm.icmp":
            return _icmp(int(cast(IntegerAttr, p["predicate"]).value), ins[0], ins[1], _bits(short_type(op.operands[0].type)))
        if name == "llvm.fcmp":
            return _fcmp(int(cast(IntegerAttr, p["predicate"]).value), float(ins[0]), float(ins[1]))
        if name == "llvm.select":
            return ins[1] if ins[0] else ins[2]
        if name == "llvm.fptosi":
            x = float(ins[0])
            if math.isnan(x) or not -(2**31) <= x < 2**31:
                raise LLVMError(f"fptosi of {x} (poison)")
            return int(x)
        if name in ("llvm.sitofp", "llvm.uitofp"):
            return np.float32(ins[0])
        if name == "llvm.fptrunc":
            return _round_to_bf16(ins[0])
        if name == "llvm.fpext":
            return np.float32(ins[0])
        if name == "llvm.trunc":
            return _wrap(ins[0], _bits(rt))
        if name == "llvm.sext":
            return _wrap(ins[0], _bits(rt))
        if name == "llvm.zext":
            return ins[0] & ((1 << _bits(short_type(op.operands[0].type))) - 1)
        if name == "llvm.getelementptr":
            elem = parse_type(short_type(cast(TypeAttr, p["elem_type"]).type))
            return ins[0] + ins[1] * size_align(elem)[0]
        if name == "llvm.load":
            return self.memory.load(ins[0], parse_type(rt))
        if name == "llvm.store":
            self.memory.store(ins[1], parse_type(short_type(op.operands[0].type)), ins[0])
            return None
        if name == "llvm.call":
            return self.call(p["callee"].resolve().root, ins)  # type: ignore[attr-defined]
        if name == "llvm.mlir.undef":
            return _undef(parse_type(rt))
        if name == "llvm.mlir.addressof":
            return self.globals[p["global_name"].resolve().root]  # type: ignore[attr-defined]
        if name == "llvm.extractvalue":
            v = ins[0]
            for i in p["position"].resolve().values:  # type: ignore[attr-defined]
                v = v[i]
            return v
        if name == "llvm.insertvalue":
            return _insert(ins[0], list(p["position"].resolve().values), ins[1])  # type: ignore[attr-defined]
        raise LLVMError(f"the interpreter does not know {name}")

    # -- the memref calling convention ----------------------------------------------------------------
    def descriptor_args(self, a: np.ndarray) -> list[Any]:
        """(allocated, aligned, offset, sizes..., strides...) of numpy array `a` (any view), its base
        buffer copied into memory."""
        base = a
        while isinstance(base.base, np.ndarray):
            base = base.base
        if not base.flags["C_CONTIGUOUS"]:
            base = np.ascontiguousarray(a)
        addr = self.memory.put_array(base)
        item = a.itemsize
        delta = a.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        if base is not a and (delta % item or any(s % item for s in a.strides)):
            raise LLVMError("a view whose offset or strides are not whole elements")
        offset = delta // item
        strides = [s // item for s in a.strides] if a.size else [0] * a.ndim
        return [addr, addr, offset, *a.shape, *strides]

    def read_descriptor(self, desc: Sequence[Any], dtype: Any) -> np.ndarray:
        """The array a result descriptor describes (copied out of memory)."""
        aligned, offset = desc[1], desc[2]
        sizes, strides = (list(desc[3]), list(desc[4])) if len(desc) > 3 else ([], [])
        return self.read_strided(aligned, offset, sizes, strides, np.dtype(dtype))

    def read_strided(self, aligned: int, offset: int, sizes: list[int], strides: list[int], dtype: np.dtype) -> np.ndarray:
        el = DTYPE_ELEMENT[dtype]
        out = np.zeros(sizes, dtype=dtype)
        for idx in np.ndindex(*sizes):
            at = offset + sum(i * s for i, s in zip(idx, strides))
            out[idx] = self.memory.load(aligned + at * SCALARS[el][1], el)
        return out

    def call_memref(self, name: str, arrays: Sequence[np.ndarray], result_dtypes: Sequence[Any]) -> list[np.ndarray]:
        """Call lowered function `name` on numpy arrays; its results as numpy arrays."""
        args: list[Any] = []
        for a in arrays:
            args += self.descriptor_args(a)
        res = self.call(name, args)
        if not result_dtypes:
            return []
        descs = [res] if len(result_dtypes) == 1 else list(res)
        return [self.read_descriptor(d, dt) for d, dt in zip(descs, result_dtypes)]

    def call_helper(self, name: str, arrays: Sequence[np.ndarray], result_dtypes: Sequence[Any]) -> list[np.ndarray]:
        """Call `<name>_helper` with an array of WrappedTensors; the results it packs."""
        wrapped = ("struct", ["ptr", "ptr", "i64", "ptr"])
        table = self.memory.malloc(32 * max(len(arrays), 1))
        for i, a in enumerate(arrays):
            alloc, aligned, offset, *rest = self.descriptor_args(a)
            sizes_strides = self.memory.malloc(8 * max(len(rest), 1))
            for j, v in enumerate(rest):
                self.memory.store(sizes_strides + 8 * j, "i64", v)
            self.memory.store(table + 32 * i, wrapped, (alloc, aligned, offset, sizes_strides))
        out = self.call(name + "_helper", [table])
        if not result_dtypes:
            return []
        ranks = [int(x.resolve().value) for x in self.funcs[name].attributes["result_ranks"].resolve().items]  # type: ignore[attr-defined]
        results = []
        for i, (rank, dt) in enumerate(zip(ranks, result_dtypes)):
            _, aligned, offset, ss = self.memory.load(out + 32 * i, wrapped)
            vals = [self.memory.load(ss + 8 * j, "i64") for j in range(2 * rank)]
            results.append(self.read_strided(aligned, offset, vals[:rank], vals[rank:], np.dtype(dt)))
        return results


def _undef(t: Any) -> Any:
    if isinstance(t, str):
        return 0
    if t[0] == "array":
        return tuple(_undef(t[2]) for _ in range(t[1]))
    return tuple(_undef(f) for f in t[1])


def _insert(agg: Any, position: list[int], v: Any) -> Any:
    i, rest = position[0], position[1:]
    items = list(agg)
    items[i] = _insert(items[i], rest, v) if rest else v
    return tuple(items)
