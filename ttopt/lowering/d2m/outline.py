"""`ttnn-create-d2m-subgraphs` (tt-mlir's TTNNCreateD2MSubgraphs): maximal chains of fusible
eltwise TTNN ops become `ttnn.d2m_subgraph @d2m_subgraph_N ins(...) outs(%empty)` calls of a
private function holding the chain.

The grouping is HEAD's ElementwiseFusionAnalysis:
1. an *exit* is a fusible op none of whose users is fusible;
2. from each exit (walking each block bottom-up), producers are added backwards while they are
   fusible, not yet grouped, and *every* user of theirs is already in the group (a value read
   outside the group would escape from its middle: such a producer starts another group);
3. a group needs at least two ops; its inputs are the values defined outside it, its output is the
   exit's result (a `ttnn.empty` on the function's device is the output buffer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttnn_device import DEVICE_TYPE as DEVICE
from ttopt.ir.attributes import DenseArrayAttr, DialectAttr, StringAttr, SymbolRefAttr, TypeAttr
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.rewriter import rebuild_block
from ttopt.ir.types import FunctionType
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

# HEAD's isAllowedToBeFused, in TTNN op names.
FUSIBLE_UNARY = frozenset({
    "abs", "cbrt", "ceil", "sign", "cos", "exp", "erf", "erfc", "floor", "gelu", "isfinite", "logical_not",
    "bitwise_not", "neg", "tan", "tanh", "reciprocal", "relu", "sin", "sqrt", "rsqrt", "sigmoid", "hardsigmoid",
    "silu", "mish", "log", "log1p", "expm1",
})  # fmt: skip
FUSIBLE_BINARY = frozenset({
    "add", "divide", "multiply", "subtract", "eq", "ne", "ge", "le", "lt", "gt", "logical_and", "logical_or",
    "logical_xor", "logical_right_shift", "bitwise_and", "bitwise_or", "bitwise_xor", "maximum", "minimum",
    "remainder", "logical_left_shift", "atan2", "pow_tensor",
})  # fmt: skip
FUSIBLE = frozenset(f"ttnn.{n}" for n in FUSIBLE_UNARY | FUSIBLE_BINARY | {"clamp_tensor"})
SUBGRAPH_PREFIX = "d2m_subgraph_"


def is_fusible(op: Any) -> bool:
    """Can `op` be part of a D2M subgraph (an eltwise op HEAD's analysis accepts)?"""
    return op is not None and op.name in FUSIBLE


def _producer(v: Any) -> Any:
    return getattr(v, "op", None)


def _is_exit(op: Operation) -> bool:
    return is_fusible(op) and not any(is_fusible(u) for r in op.results for u in r.users)


def _build_group(exit_op: Operation, visited: set[int], pos: dict[int, int]) -> list[Operation]:
    """The exit plus every producer reached backwards whose users all lie in the group, in block order."""
    group = {id(exit_op): exit_op}
    stack = [exit_op]
    while stack:
        cur = stack.pop()
        for v in cur.operands:
            p = _producer(v)
            if p is None or not is_fusible(p) or id(p) in visited or id(p) in group:
                continue
            if all(id(u) in group for r in p.results for u in r.users):
                group[id(p)] = p
                stack.append(p)
    return sorted(group.values(), key=lambda o: pos[id(o)])


def fusion_groups(module_op: Operation) -> list[list[Operation]]:
    """HEAD's fusion groups (two ops or more), in the order it finds their exits."""
    exits: list[Operation] = []
    pos: dict[int, int] = {}
    for op in module_op.walk():
        for region in op.regions:
            for block in region.blocks:
                pos.update((id(o), i) for i, o in enumerate(block.ops))
                exits += [o for o in reversed(block.ops) if _is_exit(o)]
    visited: set[int] = set()
    groups = []
    for e in exits:
        if id(e) in visited:
            continue
        g = _build_group(e, visited, pos)
        if len(g) >= 2:
            visited |= {id(o) for o in g}
            groups.append(g)
    return groups


@dataclass(frozen=True)
class Outlined:
    """One outlined group: the call, and the function it calls."""

    call: Operation
    func: Operation


def device_of(block: Block) -> Any:
    """The block's `ttnn.get_device`, inserted at the block's start when it has none (HEAD's getOrInsertDevice)."""
    dev = next((o for o in block.ops if o.name == "ttnn.get_device" and not o.operands), None)
    if dev is None:
        dev = Operation("ttnn.get_device", [], [DEVICE], properties={"mesh_shape": DialectAttr("ttnn", "mesh_shape 1x1")})
        block.insert(0, dev)
    return dev.results[0]


def outline_group(
    group: list[Operation], index: int, module_block: Block, device: Any, pos: dict[int, int]
) -> tuple[Outlined, int, list[Operation]]:
    """Outline `group` as `@d2m_subgraph_<index>`: returns the call, the block position it goes
    before (after the last op defining an input, HEAD's rule) with its output buffers, and leaves
    the group's ops for the caller to drop."""
    members = {id(o) for o in group}
    inputs: list[Any] = []
    seen: set[int] = set()
    for op in group:
        for v in op.operands:
            p = _producer(v)
            if (p is None or id(p) not in members) and id(v) not in seen:
                seen.add(id(v))
                inputs.append(v)
    exit_op = group[-1]
    outputs = list(exit_op.results)
    block = exit_op.parent
    first = group[0]
    definers = [pos[id(p)] for v in inputs if (p := _producer(v)) is not None and p.parent is block]
    at = max(definers, default=pos[id(first)] - 1) + 1
    new_ops: list[Operation] = []
    buffers = []
    for r in outputs:
        shape = DialectAttr("ttnn.shape", "x".join(map(str, r.type.resolve().shape)))
        empty = Operation("ttnn.empty", [device], [r.type], properties={"shape": shape}, location=first.location)
        new_ops.append(empty)
        buffers.append(empty.results[0])
    name = f"{SUBGRAPH_PREFIX}{index}"
    body = Block([v.type for v in inputs])
    mapping: dict[int, Any] = {id(v): a for v, a in zip(inputs, body.args)}
    for op in group:
        body.append(op.clone(mapping))
    body.append(Operation("func.return", [mapping[id(r)] for r in outputs], [], location=first.location))
    func = Operation("func.func", properties={
        "sym_name": StringAttr(name),
        "function_type": TypeAttr(FunctionType(tuple(v.type for v in inputs), tuple(r.type for r in outputs))),
        "sym_visibility": StringAttr("private"),
    }, regions=[Region([body])], location=first.location)  # fmt: skip
    module_block.append(func)
    call = Operation("ttnn.d2m_subgraph", [*inputs, *buffers], [r.type for r in outputs], properties={
        "d2m_func": SymbolRefAttr(name),
        "operandSegmentSizes": DenseArrayAttr("i32", (len(inputs), len(buffers))),
    }, location=first.location)  # fmt: skip
    call.pos = first.pos  # errors compiling the subgraph point at the chain's first op
    new_ops.append(call)
    for old, new in zip(outputs, call.results):
        old.replace_all_uses_with(new)
    return Outlined(call, func), at, new_ops


def _module_block(module: Module) -> Block:
    return module.op.regions[0].entry


def outline_module(module: Module) -> list[Outlined]:
    """Outline every fusion group of the module; numbering continues after existing subgraphs.
    Each block is rebuilt once (inserting op by op would be quadratic on large functions)."""
    groups = fusion_groups(module.op)
    if not groups:
        return []
    taken = {getattr(o.properties.get("sym_name"), "value", "") for o in _module_block(module).ops if o.name == "func.func"}
    by_block: dict[int, list[list[Operation]]] = {}
    blocks: dict[int, Block] = {}
    for g in groups:
        b = g[0].parent
        assert b is not None
        by_block.setdefault(id(b), []).append(g)
        blocks[id(b)] = b
    out: list[Outlined] = []
    n = 0
    names: dict[int, int] = {}
    for g in groups:  # names in HEAD's order (the order the exits were found)
        while f"{SUBGRAPH_PREFIX}{n}" in taken:
            n += 1
        names[id(g[0])] = n
        taken.add(f"{SUBGRAPH_PREFIX}{n}")
    for key, gs in by_block.items():
        block = blocks[key]
        device = device_of(block)
        pos = {id(o): i for i, o in enumerate(block.ops)}
        inserts: dict[int, list[Operation]] = {}
        dropped: set[int] = set()
        for g in gs:
            o, at, new_ops = outline_group(g, names[id(g[0])], _module_block(module), device, pos)
            inserts.setdefault(at, []).extend(new_ops)
            dropped |= {id(op) for op in g}
            out.append(o)
        rebuilt: list[Operation] = []
        for i, op in enumerate(block.ops):
            rebuilt += inserts.get(i, [])
            if id(op) not in dropped:
                rebuilt.append(op)
            else:
                op.drop_all_references()
        rebuilt += inserts.get(len(block.ops), [])
        rebuild_block(block, rebuilt)
    out.sort(key=lambda o: int(o.call.properties["d2m_func"].root.removeprefix(SUBGRAPH_PREFIX)))  # type: ignore[attr-defined]
    return out


@register_pass
@dataclass
class TTNNCreateD2MSubgraphs(Pass):
    """Outline maximal fusible eltwise chains into ttnn.d2m_subgraph calls (tt-mlir's ttnn-create-d2m-subgraphs)."""

    name = "ttnn-create-d2m-subgraphs"
    summary = (
        "Outline maximal chains of eltwise TTNN ops into private functions called by ttnn.d2m_subgraph (tt-mlir's TTNNCreateD2MSubgraphs)"
    )

    def run(self, module: Module, ctx: PassContext) -> None:
        done = outline_module(module)
        if ctx.trace.enabled:
            for o in done:
                body = o.func.regions[0].entry.ops[:-1]
                names = ", ".join(op.name.removeprefix("ttnn.") for op in body)
                ctx.trace.print(f"{self.name}: @{o.call.properties['callee'].root}: {names} ({len(o.call.operands) - 1} inputs)")  # type: ignore[attr-defined]
            if not done:
                ctx.trace.print(f"{self.name}: no chain of two or more fusible eltwise ops")
        ctx.stats.setdefault(self.name, {}).update({"subgraphs": len(done), "ops": sum(len(o.func.regions[0].entry.ops) - 1 for o in done)})
