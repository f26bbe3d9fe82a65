"""`ttnn-through-d2m-pipeline` and `ttnn-collaspe-d2m`: each `ttnn.d2m_subgraph` becomes the
`ttnn.generic` ops tt-mlir's D2M pipeline makes of it, then the calls are inlined.

A subgraph compiles, for the layouts the optimizer gave its call, into
1. the compute generic: a reader (each input's tiles, any layout), the fused compute kernel
   (tile_program.py) and a writer, on the compute grid D2M's grid selection picks (the largest
   grid of at most the worker grid dividing the output's tile rows and columns); it writes a new
   L1 block-sharded tensor on that grid (its output circular buffer is that tensor's shard);
2. the to_layout generic: reader and writer kernels moving that result into a tensor in the layout
   the optimizer chose for the subgraph's output.
With `enable-elementwise-fusion=false` every op of the chain is its own compute generic (through
L1 block-sharded intermediates), as D2M compiles an unfused chain.

Kernel functions are numbered module-wide in creation order (`datamovement_kernel0`,
`compute_kernel2`, ...), as D2MGenericRegionsToFuncs names them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttnn_device import DEVICE_TYPE as K_DEVICE
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import DenseArrayAttr, DialectAttr, StringAttr, TypeAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.operation import Operation
from ttopt.ir.types import FunctionType, TensorType
from ttopt.lowering.d2m import kernels as K
from ttopt.lowering.d2m import program as P
from ttopt.lowering.d2m.tile_program import Cb, TileProgramError, plan_tiles
from ttopt.passes.base import Pass
from ttopt.passes.options import option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

_KERNEL = re.compile(r"^(?:datamovement|compute)_kernel(\d+)$")


def static_shape(t: Any) -> tuple[int, ...]:
    """The shape of a ranked static tensor type."""
    return tuple(int(d) for d in (t.shape or ()))


def tile_dims(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Leading dims, then the tile rows and tile columns of the last two (padded to 32)."""
    s = (1,) * (2 - len(shape)) + tuple(shape) if len(shape) < 2 else tuple(shape)
    return (*s[:-2], -(-s[-2] // 32), -(-s[-1] // 32))


def compute_grid(dims: tuple[int, ...], worker: tuple[int, int]) -> tuple[int, int]:
    """The largest grid within `worker` whose rows divide the tile rows and columns the tile columns."""
    rows = 1
    for d in dims[:-1]:
        rows *= d
    gy = max(g for g in range(1, worker[0] + 1) if rows % g == 0)
    gx = max(g for g in range(1, worker[1] + 1) if dims[-1] % g == 0)
    return gy, gx


def _layout(t: Any) -> TTNNLayoutAttr:
    enc = t.resolve().encoding
    typed = getattr(enc.resolve(), "typed", None) if enc is not None else None
    if not isinstance(typed, TTNNLayoutAttr):
        raise ValueError("operand without a TTNN layout")
    return typed


def _device(module: Module) -> tuple[tuple[int, int], int]:
    """The worker grid and usable L1 bytes per core of the module's device (wormhole_b0 without one)."""
    from ttopt.device.device import from_module_desc, preset

    dev = from_module_desc(module) or preset("wormhole_b0")
    return (dev.worker_grid[0], dev.worker_grid[1]), dev.usable_l1


def _func_by_name(module: Module) -> dict[str, Operation]:
    return {getattr(o.properties.get("sym_name"), "value", ""): o for o in module.op.regions[0].entry.ops if o.name == "func.func"}


@dataclass
class _Builder:
    """What the compilation of one module shares: kernel numbering, the kernels' text, layouts."""

    module: Module
    worker: tuple[int, int]
    l1_budget: int
    fusion: bool
    next_kernel: int
    kernel_text: list[str]
    aliaser: Any = None

    def kernel_name(self, thread: str) -> str:
        name = f"{thread}_kernel{self.next_kernel}"
        self.next_kernel += 1
        return name

    def l1_type(self, like: TensorType, grid: tuple[int, int]) -> TensorType:
        from ttopt.optimizer.rewrite import LayoutAliaser

        lay = TTNNLayoutAttr.build(static_shape(like), _layout(like).dtype, tiled=True, buffer_type="l1",
                                   memory_layout="block_sharded", grid=grid, worker_grid=self.worker)  # fmt: skip
        if self.aliaser is None:
            self.aliaser = LayoutAliaser(self.module)
        return self.aliaser.tensor_type(like, lay)


def _generic(ios: list[Any], body: str, loc: Any) -> Operation:
    return Operation("ttnn.generic", ios, [], properties={
        "operandSegmentSizes": DenseArrayAttr("i32", (len(ios), 0)),
        "program": DialectAttr("ttnn.program", body, f"#ttnn.program<{body}>"),
    }, location=loc)  # fmt: skip


def _page(layout: TTNNLayoutAttr) -> tuple[str, int]:
    dt = layout.dtype
    el = layout.element
    size = el.size_bytes if not isinstance(el, str) else 32 * 32 * layout.element_size_bytes
    return dt.value, size


def compute_generic(
    b: _Builder, ops: list[Any], args: list[Any], result: Any, ins: list[Any], out: Any, loc: Any, direct: bool = False
) -> Operation:
    """The compute generic of `ops` (reading `args`, bound to the values `ins`) writing `out`: into
    its shard through the output circular buffer, or (`direct`) tile by tile into any layout."""
    for v in (*ins, out):
        lay = _layout(v.type)
        if not lay.is_tiled or lay.buffer_type.value == "system_memory":
            raise TileProgramError(
                f"a tensor of {lay.buffer_type.value} {'tile' if lay.is_tiled else 'row_major'} layout: D2M kernels read and write device tiles"
            )
    prog = plan_tiles(ops, args, result)
    rtype = out.type.resolve()
    dims = tile_dims(static_shape(rtype))
    grid = compute_grid(dims, b.worker)
    tg = K.TileGrid(dims, grid)
    bh, bw = tg.block
    io_count = len(ins) + 1
    pages = [_page(_layout(v.type)) for v in ins]
    out_dt, out_page = _page(_layout(rtype))
    reader, writer, compute = b.kernel_name("datamovement"), b.kernel_name("datamovement"), b.kernel_name("compute")
    in_ports = [prog.port(Cb("in", i)) for i in range(len(ins))]
    out_port = prog.port(Cb("out", 0))
    in_dims = [tile_dims(static_shape(v.type.resolve())) for v in ins]
    b.kernel_text.append(K.reader_kernel(reader, tg, in_dims, in_ports, [p for _, p in pages], io_count))
    if direct:
        b.kernel_text.append(K.tile_writer_kernel(writer, tg, out_port, len(ins), out_page, io_count))
    else:
        b.kernel_text.append(K.aliased_writer_kernel(writer, out_port, bh * bw, io_count))
    b.kernel_text.append(K.compute_kernel(compute, prog, bh * bw, io_count))
    cbs = [P.CbDesc(dt, page, 2) for dt, page in pages]
    cbs += [P.CbDesc(out_dt, out_page, 2) for _ in range(prog.num_scratch)]
    cbs.append(P.CbDesc(out_dt, out_page, 2) if direct else P.CbDesc(out_dt, out_page, bh * bw, tensor=len(ins)))
    writer_args = (
        ([P.cb_port(out_port), P.tensor_accessor(len(ins))], [P.tensor_address(len(ins))]) if direct else ([P.cb_port(out_port)], [])
    )
    kernels = [
        P.data_movement_kernel(reader, grid, True, [*(P.cb_port(p) for p in in_ports), *(P.tensor_accessor(i) for i in range(len(ins)))],
                               [P.tensor_address(i) for i in range(len(ins))]),
        P.data_movement_kernel(writer, grid, False, *writer_args),
        P.compute_kernel(compute, grid, [P.cb_port(p) for p in range(len(prog.ports))]),
    ]  # fmt: skip
    return _generic([*ins, out], P.program_body(kernels, cbs, grid), loc)


def to_layout_generic(b: _Builder, src: Any, dst: Any, loc: Any) -> Operation:
    """Moves `src` (L1 block sharded on the compute grid) into `dst` tile by tile."""
    stype = src.type.resolve()
    dims = tile_dims(static_shape(stype))
    grid = _layout(stype).grid if len(_layout(stype).grid) == 2 else compute_grid(dims, b.worker)
    grid = (grid[0], grid[1])
    tg = K.TileGrid(dims, grid)
    dt, page = _page(_layout(stype))
    _, dpage = _page(_layout(dst.type))
    reader, writer = b.kernel_name("datamovement"), b.kernel_name("datamovement")
    b.kernel_text.append(K.reader_kernel(reader, tg, [dims], [0], [page], 2))
    b.kernel_text.append(K.tile_writer_kernel(writer, tg, 0, 1, dpage, 2))
    kernels = [
        P.data_movement_kernel(reader, grid, True, [P.cb_port(0), P.tensor_accessor(0)], [P.tensor_address(0)]),
        P.data_movement_kernel(writer, grid, False, [P.cb_port(0), P.tensor_accessor(1)], [P.tensor_address(1)]),
    ]
    return _generic([src, dst], P.program_body(kernels, [P.CbDesc(dt, page, 2)], grid), loc)


def compile_subgraph(b: _Builder, call: Operation, func: Operation) -> None:
    """Replace the body of the subgraph function by its generics, for the call's layouts."""
    block = func.regions[0].entry
    n_in = call.properties["operandSegmentSizes"].values[0]  # type: ignore[attr-defined]
    ins = list(call.operands[:n_in])
    ops = [o for o in block.ops if o.name not in ("func.return", "ttnn.get_device")]
    ret = block.ops[-1]
    result = ret.operands[0]
    loc = call.location
    # Type the body as the call is typed (the optimizer laid out the call, not the callee).
    for a, v in zip(block.args, ins):
        a.type = v.type
    func.properties["function_type"] = TypeAttr(FunctionType(tuple(v.type for v in ins), tuple(r.type for r in call.results)))
    rtype = call.results[0].type.resolve()
    device = Operation("ttnn.get_device", [], [K_DEVICE], properties={"mesh_shape": DialectAttr("ttnn", "mesh_shape 1x1")})
    new_ops: list[Operation] = [device]

    def empty(t: Any) -> Any:
        shape = DialectAttr("ttnn.shape", "x".join(map(str, t.shape)))
        e = Operation("ttnn.empty", [device.results[0]], [t], properties={"shape": shape}, location=loc)
        new_ops.append(e)
        return e.results[0]

    groups = [ops] if b.fusion else [[o] for o in ops]
    env: dict[int, Any] = {id(a): a for a in block.args}
    last = None
    shard = _l1_shard_bytes(rtype, b.worker)
    if shard > b.l1_budget // 2:
        # The result's L1 shard would crowd out the rest of L1: stream every result tile to its
        # place instead (intermediates of an unfused chain the same way, in the output's layout).
        for i, g in enumerate(groups):
            g_args = _group_args(g)
            g_res = g[-1].results[0]
            out = empty(rtype if i == len(groups) - 1 else g_res.type.resolve())
            new_ops.append(compute_generic(b, g, g_args, g_res, [env[id(v)] for v in g_args], out, loc, direct=True))
            env[id(g_res)] = out
        new_ops.append(Operation("func.return", [env[id(result)]], [], location=ret.location))
        _replace_body(block, new_ops)
        return
    for g in groups:
        g_args = _group_args(g)
        g_res = g[-1].results[0]
        l1 = b.l1_type(g_res.type.resolve(), compute_grid(tile_dims(static_shape(g_res.type.resolve())), b.worker))
        out = empty(l1)
        new_ops.append(compute_generic(b, g, g_args, g_res, [env[id(v)] for v in g_args], out, loc))
        env[id(g_res)] = out
        last = out
    assert last is not None and env[id(result)] is last
    final = empty(rtype)
    new_ops.append(to_layout_generic(b, last, final, loc))
    new_ops.append(Operation("func.return", [final], [], location=ret.location))
    _replace_body(block, new_ops)


def _replace_body(block: Any, new_ops: list[Operation]) -> None:
    for o in list(block.ops):
        o.drop_all_references()
    block.remove_many(list(block.ops))
    for o in new_ops:
        block.append(o)


def _group_args(g: list[Any]) -> list[Any]:
    """Values a group of ops reads from outside it, in first-use order."""
    members = {id(o) for o in g}
    out: list[Any] = []
    for o in g:
        for v in o.operands:
            if (getattr(v, "op", None) is None or id(v.op) not in members) and v not in out:
                out.append(v)
    return out


def _l1_shard_bytes(t: TensorType, worker: tuple[int, int]) -> int:
    """Bytes per core of `t` block sharded on its compute grid."""
    dims = tile_dims(static_shape(t))
    gy, gx = compute_grid(dims, worker)
    rows = 1
    for d in dims[:-1]:
        rows *= d
    return (rows // gy) * (dims[-1] // gx) * _page(_layout(t))[1]





def compile_module(module: Module, fusion: bool = True) -> int:
    """Compile every `ttnn.d2m_subgraph` call's function; returns how many were compiled."""
    funcs = _func_by_name(module)
    taken = [int(m.group(1)) for name in funcs if (m := _KERNEL.match(name))]
    worker, budget = _device(module)
    b = _Builder(module, worker, budget, fusion, max(taken, default=-1) + 1, [])
    calls = [o for o in module.op.walk() if o.name == "ttnn.d2m_subgraph"]
    # Kernels are numbered as D2M walks the generics: inside the subgraph functions, in module order.
    order = {name: i for i, name in enumerate(funcs)}
    calls.sort(key=lambda c: order.get(c.properties["d2m_func"].root, len(order)))  # type: ignore[attr-defined]
    for call in calls:
        callee = call.properties["d2m_func"].root  # type: ignore[attr-defined]
        func = funcs.get(callee)
        if func is None:
            raise Diagnostic(
                f"'ttnn.d2m_subgraph' op references @{callee}, which is not a function of the module", op_position(module.source, call)
            )
        try:
            compile_subgraph(b, call, func)
        except (TileProgramError, ValueError, TypeError) as e:
            raise Diagnostic(
                f"'ttnn.d2m_subgraph' op @{callee} cannot be compiled through D2M: {e}", op_position(module.source, call)
            ) from None
    _add_kernels(module, b.kernel_text)
    return len(calls)


_NAME = re.compile(r"func\.func private @(\w+)\(\)")


def _add_kernels(module: Module, texts: list[str]) -> None:
    """Parse the kernels into the module: each distinct body once (chains repeat across layers),
    cloned under every name that uses it."""
    if not texts:
        return
    from ttopt.parse.parser import parse_module

    names, templates, distinct = [], [], {}  # type: ignore[var-annotated]
    for text in texts:
        m = _NAME.search(text)
        assert m is not None
        names.append(m.group(1))
        body = text[: m.start(1)] + "__kernel__" + text[m.end(1) :]
        templates.append(body)
        distinct.setdefault(body, len(distinct))
    ordered = sorted(distinct, key=distinct.__getitem__)
    parsed_text = "\n".join(t.replace("@__kernel__()", f"@__kernel{i}__()") for i, t in enumerate(ordered))
    kmod = parse_module("module {\n" + parsed_text + "\n}", "<d2m kernels>")
    parsed = list(kmod.op.regions[0].entry.ops)
    top = module.op.regions[0].entry
    for name, body in zip(names, templates):
        f = parsed[distinct[body]].clone()
        f.properties["sym_name"] = StringAttr(name)
        top.append(f)


def collapse_module(module: Module) -> int:
    """Inline each `ttnn.d2m_subgraph` call's function at the call (its device becomes the caller's),
    drop the call's now unread output buffers and the functions; returns the calls inlined."""
    funcs = _func_by_name(module)
    inlined: set[str] = set()
    n = 0
    for call in [o for o in module.op.walk() if o.name == "ttnn.d2m_subgraph"]:
        callee = call.properties["d2m_func"].root  # type: ignore[attr-defined]
        func = funcs.get(callee)
        if func is None:
            raise Diagnostic(
                f"'ttnn.d2m_subgraph' op references @{callee}, which is not a function of the module", op_position(module.source, call)
            )
        n_in = call.properties["operandSegmentSizes"].values[0]  # type: ignore[attr-defined]
        block = call.parent
        assert block is not None
        caller_dev = next((o for o in block.ops if o.name == "ttnn.get_device" and not o.operands), None)
        body = func.regions[0].entry
        mapping: dict[int, Any] = {id(a): v for a, v in zip(body.args, call.operands[:n_in])}
        at = block.index(call)
        for o in body.ops:
            if o.name == "func.return":
                for r, v in zip(call.results, o.operands):
                    r.replace_all_uses_with(mapping.get(id(v), v))
                continue
            if o.name == "ttnn.get_device" and caller_dev is not None:
                mapping[id(o.results[0])] = caller_dev.results[0]
                continue
            c = o.clone(mapping)
            block.insert(at, c)
            at += 1
            if o.name == "ttnn.get_device":
                caller_dev = c
        buffers = list(call.operands[n_in:])
        call.erase()
        for v in buffers:
            p = getattr(v, "op", None)
            if p is not None and p.name == "ttnn.empty" and not v.uses:
                p.erase()
        inlined.add(callee)
        n += 1
    for name in inlined:
        funcs[name].erase()
    return n


@register_pass
@dataclass
class TTNNThroughD2MPipeline(Pass):
    """Compile each ttnn.d2m_subgraph's function into ttnn.generic ops with generated kernels (tt-mlir's ttnn-through-d2m-pipeline)."""

    name = "ttnn-through-d2m-pipeline"
    summary = (
        "Compile the function of each ttnn.d2m_subgraph into ttnn.generic ops (fused compute + to_layout) with generated EmitC kernels"
    )

    enable_elementwise_fusion: bool = option(True, "One fused compute kernel per subgraph; false: one compute generic per eltwise op")

    def run(self, module: Module, ctx: PassContext) -> None:
        before = sum(1 for o in module.op.walk() if o.name == "ttnn.generic")
        n = compile_module(module, self.enable_elementwise_fusion)
        generics = sum(1 for o in module.op.walk() if o.name == "ttnn.generic") - before
        if ctx.trace.enabled and n:
            ctx.trace.print(f"{self.name}: {n} subgraph(s) -> {generics} ttnn.generic op(s)")
        ctx.stats.setdefault(self.name, {}).update({"subgraphs": n, "generics": generics})


@register_pass
@dataclass
class TTNNCollaspeD2M(Pass):
    """Inline compiled D2M subgraph functions at their ttnn.d2m_subgraph calls (tt-mlir's ttnn-collaspe-d2m)."""

    name = "ttnn-collaspe-d2m"
    summary = "Inline each ttnn.d2m_subgraph's (compiled) function at the call and erase the function (tt-mlir's TTNNCollaspeD2M)"

    def run(self, module: Module, ctx: PassContext) -> None:
        collapse_module(module)
