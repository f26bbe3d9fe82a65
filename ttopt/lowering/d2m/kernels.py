"""The kernels of a compiled D2M subgraph, written as tt-mlir's D2M -> TTKernel -> EmitC lowering
leaves them: `func.func private @<thread>_kernel<N>()` with `emitc` calls of the tt-metal kernel
API (`tt.function_type = "kernel"`, `ttkernel.thread`, `ttkernel.arg_spec`).

Every kernel loops over the output tiles of its core: the core's block of the output's tile grid
(block sharded on the compute grid), tile (r, c) at `r = y * bh + t / bw`, `c = x * bw + t % bw`.
Readers fetch tiles by page id through a TensorAccessor, so any layout of the source works; an
operand broadcast across tiles reads the same source tile again (its index drops the broadcast
dimensions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ttopt.lowering.d2m.tile_program import Cb, TileProgram

CB_T = '!emitc.opaque<"::tt::CB">'
SIZE_T = "!emitc.size_t"


@dataclass(frozen=True)
class TileGrid:
    """The output's tiles as (rows, cols) after collapsing leading dims, the compute grid, and each
    operand's tile shape (`dims`: leading dims then tile rows, tile cols)."""

    dims: tuple[int, ...]  # result: leading..., tile rows, tile cols
    grid: tuple[int, int]

    @property
    def block(self) -> tuple[int, int]:
        """Tiles per core (rows, cols)."""
        rows = 1
        for d in self.dims[:-1]:
            rows *= d
        return rows // self.grid[0], self.dims[-1] // self.grid[1]


class _Text:
    """SSA-numbered EmitC text of one kernel body."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.n = 0
        self.consts: dict[tuple[int, str], str] = {}

    def value(self, rhs: str) -> str:
        name = f"%{self.n}"
        self.n += 1
        self.lines.append(f"{name} = {rhs}")
        return name

    def op(self, text: str) -> None:
        self.lines.append(text)

    def const(self, v: int, ty: str = SIZE_T) -> str:
        key = (v, ty)
        if key not in self.consts:
            attr = f"{v} : index" if ty == SIZE_T else f"{v} : {ty}"
            self.consts[key] = self.value(f'"emitc.constant"() <{{value = {attr}}}> : () -> {ty}')
        return self.consts[key]

    def arith(self, op: str, a: str, b: str) -> str:
        return self.value(f"emitc.{op} {a}, {b} : ({SIZE_T}, {SIZE_T}) -> {SIZE_T}")

    def cb(self, port: int) -> str:
        v = self.value(f'emitc.literal "get_compile_time_arg_val({port})" {{ttkernel.cb_ctarg_idx = {port} : i32}} : {CB_T}')
        self.op(f'emitc.verbatim "CircularBuffer cb_ctarg_{port}({{}});" args {v} : {CB_T}')
        return v

    def cb_method(self, port: int, method: str, count: str) -> None:
        self.op(f'emitc.verbatim "cb_ctarg_{port}.{method}({{}});" args {count} : i32')


def _loop(t: _Text, count: int, body: list[str]) -> None:
    """`emitc.for` over [0, count) (generic form) around `body` (which names the index `%t`)."""
    lb, ub, st = t.const(0), t.const(count), t.const(1)
    t.op(f'"emitc.for"({lb}, {ub}, {st}) ({{')
    t.op(f"^bb0(%t: {SIZE_T}):")
    t.lines += [f"  {line}" for line in body]
    t.op("  emitc.yield")
    t.op(f"}}) : ({SIZE_T}, {SIZE_T}, {SIZE_T}) -> ()")


def _func(name: str, thread: str, arg_spec: str, t: _Text) -> str:
    body = "\n".join(f"    {line}" for line in t.lines)
    return (f'  func.func private @{name}() attributes {{tt.function_type = "kernel", ttkernel.arg_spec = #ttkernel.arg_spec<{arg_spec}>, '
            f"ttkernel.thread = #ttkernel.thread<{thread}>}} {{\n{body}\n    return\n  }}")  # fmt: skip


def _cb_ports(ports: Sequence[int], io_count: int) -> str:
    return ", ".join(f"<arg_type = cb_port, operand_index = {io_count + p}>" for p in ports)


def compute_kernel(name: str, prog: TileProgram, tiles_per_core: int, io_count: int) -> str:
    """The fused compute kernel: the tile program once per output tile of the core."""
    t = _Text()
    one = t.const(1, "i32")
    cbs = [
        t.value(f'emitc.literal "get_compile_time_arg_val({p})" {{ttkernel.cb_ctarg_idx = {p} : i32}} : {CB_T}')
        for p in range(len(prog.ports))
    ]
    declared: set[int] = set()
    for s in prog.steps:
        if s.fn.startswith("cb_") and prog.port(s.args[0]) not in declared:
            p = prog.port(s.args[0])
            declared.add(p)
            t.op(f'emitc.verbatim "CircularBuffer cb_ctarg_{p}({{}});" args {cbs[p]} : {CB_T}')
    out = cbs[prog.port(Cb("out", 0))]
    ins = [cbs[prog.port(Cb("in", i))] for i in range(prog.num_inputs)]
    if any(s.fn in ("add_tiles", "sub_tiles", "mul_tiles") for s in prog.steps) and len(ins) >= 2:
        t.op(f'emitc.call_opaque "binary_op_init_common"({ins[0]}, {ins[1]}, {out}) : ({CB_T}, {CB_T}, {CB_T}) -> ()')
    else:
        t.op(f'emitc.call_opaque "init_sfpu"({ins[0] if ins else out}, {out}) : ({CB_T}, {CB_T}) -> ()')
    body: list[str] = []
    last_init: tuple | None = None

    def operand(a: Any) -> tuple[str, str]:
        if isinstance(a, Cb):
            return cbs[prog.port(a)], CB_T
        if isinstance(a, tuple):  # ("dst", slot)
            return t.const(a[1]), SIZE_T
        return t.const(int(a)), SIZE_T  # tile index

    def call(fn: str, args: Sequence[object], template: str | None = None) -> str:
        vals = [operand(a) for a in args]
        attrs = f' {{template_args = [#emitc.opaque<"{template}">]}}' if template else ""
        return f'emitc.call_opaque "{fn}"({", ".join(v for v, _ in vals)}){attrs} : ({", ".join(ty for _, ty in vals)}) -> ()'

    for s in prog.steps:
        if s.fn.startswith("cb_"):
            method = s.fn.removeprefix("cb_")
            body.append(f'emitc.verbatim "cb_ctarg_{prog.port(s.args[0])}.{method}({{}});" args {one} : i32')
            continue
        if s.init is not None and s.init != last_init:
            body.append(call(s.init[0], s.init[1], s.template if s.init[0] == "unary_bcast_init" else None))
            last_init = s.init
        if s.fn == "pack_tile":
            (d, cb, idx) = s.args
            dv, cv, iv = operand(d)[0], operand(cb)[0], t.const(idx)
            body.append(f'emitc.call_opaque "pack_tile"({dv}, {cv}, {iv}) {{template_args = [true]}} : ({SIZE_T}, {CB_T}, {SIZE_T}) -> ()')
            last_init = None
            continue
        body.append(call(s.fn, s.args, s.template))
    _loop(t, tiles_per_core, body)
    spec = f"ct_args = [{_cb_ports(range(len(prog.ports)), io_count)}]"
    return _func(name, "compute", spec, t)


def _core_tile(t: _Text, grid: TileGrid) -> tuple[list[str], str, str]:
    """Loop-body lines computing the output tile (r, c) of iteration %t, and their names."""
    bh, bw = grid.block
    y = t.value(f'emitc.literal "get_absolute_logical_y()" : {SIZE_T}')
    x = t.value(f'emitc.literal "get_absolute_logical_x()" : {SIZE_T}')
    row0 = t.arith("mul", y, t.const(bh))
    col0 = t.arith("mul", x, t.const(bw))
    sub = _Text()
    sub.n = t.n + 1000  # names inside the loop body stay distinct from the prologue's
    sub.consts = t.consts
    bwc = t.const(bw)
    r = sub.arith("add", row0, sub.arith("div", "%t", bwc))
    c = sub.arith("add", col0, sub.arith("rem", "%t", bwc))
    return sub.lines, r, c


def _source_index(t: _Text, lines: list[str], out_dims: tuple[int, ...], in_dims: tuple[int, ...], r: str, c: str) -> str:
    """The operand's page id of output tile (r, c): broadcast dims (1 in the operand) drop out."""
    sub = _Text()
    sub.n = t.n + 2000 + len(lines)
    sub.consts = t.consts
    in_dims = (1,) * (len(out_dims) - len(in_dims)) + in_dims
    wt_in = in_dims[-1]
    if out_dims == in_dims:
        src = sub.arith("add", sub.arith("mul", r, t.const(wt_in)), c)
        lines += sub.lines
        return src
    col = c if in_dims[-1] > 1 else None
    # Split r into the leading indices and the tile row, innermost first.
    rest = r
    row_terms: list[tuple[str, int]] = []  # (index value, operand stride in tiles)
    stride = wt_in
    for d_out, d_in in zip(reversed(out_dims[:-1]), reversed(in_dims[:-1])):
        idx = sub.arith("rem", rest, t.const(d_out)) if d_out > 1 else None
        rest = sub.arith("div", rest, t.const(d_out)) if d_out > 1 else rest
        if d_in > 1 and idx is not None:
            row_terms.append((idx, stride))
        stride *= d_in
    src = t.const(0)
    for idx, st in row_terms:
        src = sub.arith("add", src, sub.arith("mul", idx, t.const(st)))
    if col is not None:
        src = sub.arith("add", src, col)
    lines += sub.lines
    return src


def reader_kernel(
    name: str, grid: TileGrid, in_dims: Sequence[tuple[int, ...]], ports: Sequence[int], page_sizes: Sequence[int], io_count: int
) -> str:
    """Streams each input's tiles into its circular buffer, one per output tile, in core order."""
    t = _Text()
    one = t.const(1, "i32")
    cbs = [t.cb(p) for p in ports]
    accessors = []
    for i, _p in enumerate(ports):
        accessors.append(_accessor(t, f"acc{i}", i, len(ports) + i, page_sizes[i]))
    lines, r, c = _core_tile(t, grid)
    for i, p in enumerate(ports):
        src = _source_index(t, lines, grid.dims, in_dims[i], r, c)
        lines.append(f'emitc.verbatim "cb_ctarg_{p}.reserve_back({{}});" args {one} : i32')
        wp = f"%w{i}"
        lines.append(f'{wp} = emitc.call_opaque "get_write_ptr"({cbs[i]}) : ({CB_T}) -> i32')
        lines.append(f'emitc.verbatim "noc_async_read_tile({{}}, {accessors[i]}, {{}});" args {src}, {wp} : {SIZE_T}, i32')
        lines.append('emitc.call_opaque "noc_async_read_barrier"() : () -> ()')
        lines.append(f'emitc.verbatim "cb_ctarg_{p}.push_back({{}});" args {one} : i32')
    bh, bw = grid.block
    _loop(t, bh * bw, lines)
    rt = ", ".join(f"<arg_type = buffer_address, operand_index = {i}>" for i in range(len(ports)))
    acc = ", ".join(f"<arg_type = tensor_accessor_args, operand_index = {i}>" for i in range(len(ports)))
    return _func(name, "noc", f"rt_args = [{rt}] ct_args = [{_cb_ports(ports, io_count)}, {acc}]", t)


def _accessor(t: _Text, var: str, common_arg: int, ct_arg: int, page_size: int) -> str:
    """Declare `var`, a TensorAccessor over the buffer whose address is common runtime argument
    `common_arg`, with its accessor args from compile-time argument `ct_arg`; returns `var`."""
    addr = t.value(
        f'emitc.call_opaque "get_common_arg_val"({t.const(common_arg, "i32")}) {{template_args = [#emitc.opaque<"uint32_t">]}} : (i32) -> i32'
    )
    t.op(
        f'emitc.verbatim "const auto {var} = TensorAccessor(TensorAccessorArgs<{ct_arg}>(), {{}}, {{}});" args {addr}, {t.const(page_size, "i32")} : i32, i32'
    )
    return var


def aliased_writer_kernel(name: str, port: int, tiles_per_core: int, io_count: int) -> str:
    """The output circular buffer is the output tensor's own shard: the writer only waits for the
    compute kernel's tiles and frees them."""
    t = _Text()
    t.cb(port)
    n = t.const(tiles_per_core, "i32")
    t.cb_method(port, "wait_front", n)
    t.cb_method(port, "pop_front", n)
    return _func(name, "noc", f"ct_args = [{_cb_ports([port], io_count)}]", t)


def tile_writer_kernel(name: str, grid: TileGrid, port: int, dst_index: int, page_size: int, io_count: int) -> str:
    """Writes each tile of the circular buffer to its page of the destination tensor (any layout)."""
    t = _Text()
    one = t.const(1, "i32")
    cb = t.cb(port)
    _accessor(t, "dst", 0, 1, page_size)
    lines, r, c = _core_tile(t, grid)
    page = _source_index(t, lines, grid.dims, grid.dims, r, c)
    lines.append(f'emitc.verbatim "cb_ctarg_{port}.wait_front({{}});" args {one} : i32')
    lines.append(f'%rp = emitc.call_opaque "get_read_ptr"({cb}) : ({CB_T}) -> i32')
    lines.append(f'emitc.verbatim "noc_async_write_tile({{}}, dst, {{}});" args {page}, %rp : {SIZE_T}, i32')
    lines.append('emitc.call_opaque "noc_async_write_barrier"() : () -> ()')
    lines.append(f'emitc.verbatim "cb_ctarg_{port}.pop_front({{}});" args {one} : i32')
    bh, bw = grid.block
    _loop(t, bh * bw, lines)
    spec = (f"rt_args = [<arg_type = buffer_address, operand_index = {dst_index}>] "
            f"ct_args = [{_cb_ports([port], io_count)}, <arg_type = tensor_accessor_args, operand_index = {dst_index}>]")  # fmt: skip
    return _func(name, "noc", spec, t)
