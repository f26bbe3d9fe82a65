"""`Builder`: writes LLVM-dialect ops into one function body, block by block.

Every op is written in MLIR's generic form with the properties MLIR needs to read it. Loops are
blocks: a header whose block arguments are the induction variable and the carried values, a body,
and an exit block added after the body so that ttopt's block order (each block sees the values of
the blocks before it) agrees with dominance. Constants are made once, at the top of the entry block.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ttopt.dialects.llvm import llvm_type
from ttopt.ir.attributes import Attribute, DenseArrayAttr, FloatAttr, IntegerAttr, SymbolRefAttr, TypeAttr
from ttopt.ir.float_spelling import float_text
from ttopt.ir.location import Location
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import ScalarType, Type
from ttopt.ir.values import Value

I1, I8, I32, I64, F32, BF16 = (ScalarType(n) for n in ("i1", "i8", "i32", "i64", "f32", "bf16"))
PTR = llvm_type("!llvm.ptr")
# MLIR's marker in `rawConstantIndices` for an index given as an operand.
DYNAMIC_INDEX = -2147483648
ICMP = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5, "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
FCMP = {"oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "one": 6, "ord": 7, "ueq": 8, "ugt": 9, "uge": 10, "ult": 11,
        "ule": 12, "une": 13, "uno": 14}  # fmt: skip
# Bytes of one element in memory (i1 takes a byte, as LLVM stores it).
ELEMENT_BYTES = {"f32": 4, "i32": 4, "i1": 1, "bf16": 2, "i64": 8, "ptr": 8}


def i64_attr(v: int) -> IntegerAttr:
    """`v : i64`."""
    return IntegerAttr(v, I64, f"{v} : i64")


def const_attr(value: float | int | bool, t: Type) -> Attribute:
    """The `value` property of an llvm.mlir.constant of scalar type `t`."""
    name = t.text
    if name == "f32":
        return FloatAttr(float(value), F32, f"{float_text(float(value), 'f32')} : f32")
    if name == "i1":
        return IntegerAttr(int(bool(value)), I1, f"{'true' if value else 'false'}")
    return IntegerAttr(int(value), t, f"{int(value)} : {name}")


class Builder:
    """Appends ops to the current block of a function body."""

    def __init__(self, region: Region, location: Location | None) -> None:
        self.region = region
        self.entry = region.entry
        self.block = self.entry
        self.location = location
        self._consts: dict[tuple[str, str], Value] = {}
        self._n_consts = 0

    # -- ops -----------------------------------------------------------------------------------
    def op(self, name: str, operands: Sequence[Value], result: Type | None, props: dict[str, Attribute] | None = None,
           successors: Sequence[Block] = ()) -> Value:  # fmt: skip
        """Append `name` (one result, or none when `result` is None); its result (or a dummy)."""
        op = Operation(name, list(operands), [result] if result is not None else [], properties=props or {},
                       location=self.location, successors=list(successors))  # fmt: skip
        self.block.append(op)
        return op.results[0] if op.results else Value(I1)

    def const(self, value: float | int | bool, t: Type) -> Value:
        """A constant of scalar type `t`, made once per function at the top of the entry block."""
        key = (t.text, repr(value) if t.text == "f32" else str(int(value)))
        v = self._consts.get(key)
        if v is None:
            op = Operation("llvm.mlir.constant", [], [t], properties={"value": const_attr(value, t)}, location=self.location)
            self.entry.insert(self._n_consts, op)
            self._n_consts += 1
            v = self._consts[key] = op.results[0]
        return v

    def i64(self, v: int) -> Value:
        return self.const(v, I64)

    def binary(self, name: str, a: Value, b: Value) -> Value:
        """`llvm.<name>` of two values of one type."""
        return self.op(f"llvm.{name}", [a, b], a.type)

    def add(self, a: Value, b: Value) -> Value:
        return self.binary("add", a, b)

    def mul(self, a: Value, b: Value) -> Value:
        return self.binary("mul", a, b)

    def icmp(self, pred: str, a: Value, b: Value) -> Value:
        return self.op("llvm.icmp", [a, b], I1, {"predicate": i64_attr(ICMP[pred])})

    def fcmp(self, pred: str, a: Value, b: Value) -> Value:
        return self.op("llvm.fcmp", [a, b], I1, {"predicate": i64_attr(FCMP[pred])})

    def select(self, cond: Value, a: Value, b: Value) -> Value:
        return self.op("llvm.select", [cond, a, b], a.type)

    def cast(self, name: str, v: Value, t: Type) -> Value:
        return self.op(f"llvm.{name}", [v], t)

    def gep(self, base: Value, index: Value, element: Type, inbounds: bool = False) -> Value:
        """`&base[index]` for elements of type `element`."""
        props: dict[str, Attribute] = {"elem_type": TypeAttr(element), "rawConstantIndices": DenseArrayAttr("i32", (DYNAMIC_INDEX,))}
        if inbounds:
            props["noWrapFlags"] = IntegerAttr(3, I32, "3 : i32")  # inbounds (which implies nusw)
        return self.op("llvm.getelementptr", [base, index], PTR, props)

    def load(self, ptr: Value, t: Type) -> Value:
        return self.op("llvm.load", [ptr], t)

    def store(self, v: Value, ptr: Value) -> None:
        self.op("llvm.store", [v, ptr], None)

    def call(self, callee: str, args: Sequence[Value], result: Type | None) -> Value:
        props: dict[str, Attribute] = {"callee": SymbolRefAttr(callee), "operandSegmentSizes": DenseArrayAttr("i32", (len(args), 0)),
                                       "op_bundle_sizes": DenseArrayAttr("i32", ())}  # fmt: skip
        return self.op("llvm.call", args, result, props)

    def malloc(self, nbytes: int) -> Value:
        return self.call("malloc", [self.i64(max(nbytes, 1))], PTR)

    def undef(self, t: Type) -> Value:
        return self.op("llvm.mlir.undef", [], t)

    def insert(self, agg: Value, v: Value, position: Sequence[int]) -> Value:
        return self.op("llvm.insertvalue", [agg, v], agg.type, {"position": DenseArrayAttr("i64", tuple(position))})

    def extract(self, agg: Value, t: Type, position: Sequence[int]) -> Value:
        return self.op("llvm.extractvalue", [agg], t, {"position": DenseArrayAttr("i64", tuple(position))})

    # -- control flow ---------------------------------------------------------------------------
    def _new_block(self, arg_types: Sequence[Type] = ()) -> Block:
        return Block(list(arg_types))

    def br(self, dest: Block, args: Sequence[Value]) -> None:
        self.op("llvm.br", args, None, successors=[dest])

    def cond_br(self, cond: Value, then: Block, then_args: Sequence[Value], other: Block, other_args: Sequence[Value]) -> None:
        sizes = DenseArrayAttr("i32", (1, len(then_args), len(other_args)))
        self.op("llvm.cond_br", [cond, *then_args, *other_args], None, {"operandSegmentSizes": sizes}, successors=[then, other])

    def loop(self, n: int, carried: Sequence[Value], body: Callable[[Value, list[Value]], list[Value]]) -> list[Value]:
        """`for i in range(n)` carrying `carried` through `body(i, values) -> next values`; the
        final carried values. Written as header / body / exit blocks (never unrolled)."""
        types = [v.type for v in carried]
        header = self.region.add_block(self._new_block([I64, *types]))
        self.br(header, [self.i64(0), *carried])
        self.block = header
        iv, values = header.args[0], list[Value](header.args[1:])
        loop_body = self.region.add_block(self._new_block())
        exit_ = self._new_block(types)
        self.cond_br(self.icmp("slt", iv, self.i64(n)), loop_body, [], exit_, values)
        self.block = loop_body
        nxt = body(iv, list(values))
        self.br(header, [self.add(iv, self.i64(1)), *nxt])
        self.region.add_block(exit_)
        self.block = exit_
        return list[Value](exit_.args)

    def nest(self, shape: Sequence[int], body: Callable[[list[Value]], None]) -> None:
        """Loops over every index of `shape` (row-major), calling `body(indices)` innermost."""

        def level(k: int, ivs: list[Value]) -> None:
            if k == len(shape):
                body(ivs)
                return
            if shape[k] == 1:  # the only index is 0: no loop
                level(k + 1, [*ivs, self.i64(0)])
                return
            def step(iv: Value, _: list[Value]) -> list[Value]:
                level(k + 1, [*ivs, iv])
                return []

            self.loop(shape[k], [], step)

        level(0, [])

    def fold(self, shape: Sequence[int], init: Value, body: Callable[[list[Value], Value], Value]) -> Value:
        """`acc = body(index, acc)` over every index of `shape` (row-major) from `init`; the final acc."""

        def level(k: int, ivs: list[Value], acc: Value) -> Value:
            if k == len(shape):
                return body(ivs, acc)
            if shape[k] == 1:
                return level(k + 1, [*ivs, self.i64(0)], acc)
            return self.loop(shape[k], [acc], lambda iv, vals: [level(k + 1, [*ivs, iv], vals[0])])[0]

        return level(0, [], init)
