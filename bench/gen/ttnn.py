"""Generate large TTNN modules in generic form, in the style of testdata/ttnn/*.mlir.

Layout of the output (as tt-mlir prints it without --mlir-print-local-scope):

    #dram = #ttnn.buffer_type<dram>
    #l1 = #ttnn.buffer_type<l1>
    #system_memory = #ttnn.buffer_type<system_memory>
    #system_desc = #ttcore.system_desc<...>
    #ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
    ... a few dozen #ttnn_layoutN (DRAM/L1 interleaved, height/width/block sharded, system memory)
    module attributes {ttcore.system_desc = #system_desc} {
      func.func @forward(%arg0: ... loc("input"), ...) -> ... attributes {tt.function_type = "forward_device"} {
        %0 = "ttnn.get_device"() <{...}> : () -> !ttnn.device loc(#loc)
        %1 = "ttnn.matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}> : (...) -> ... loc(#loc2)
        ...
        return %N : ... loc(#loc)
      } loc(#loc)
    } loc(#loc)
    #loc = loc(unknown)
    #loc1 = loc("model.py":12:8)
    #loc2 = loc("matmul_0"(#loc1))
    ...

Tensor types are (shape, dtype, memory) triples; each distinct triple gets one `#ttnn_layoutN`
alias, numbered in order of first use. Shapes come from a small pool (sequence x hidden sizes, their
3-D reshapes, row reductions and the 4-D flattened-NHWC conv activations), so the number of layout
aliases stays in the few dozens however large the module is.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from .pool import Value, ValuePool

SYSTEM_DESC = (
    '#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], '
    "[{arch = <wormhole_b0>, grid = 8x8, coord_translation_offsets = 18x18, l1_size = 1499136, "
    "num_dram_channels = 12, dram_channel_size = 1073741824, noc_l1_address_align_bytes = 16, "
    "pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 1024, "
    "erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 1073741824, "
    "supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, "
    "<bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  "
    "16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, "
    "num_datamovement_threads = 2, dram_grid = 1x12, dram_bank_to_logical_worker_noc0 = [(7, 3), (0, 0), "
    "(0, 4), (4, 0), (4, 4), (7, 7), (7, 0), (0, 7), (3, 3), (4, 7), (7, 4), (3, 0)], "
    "dram_bank_to_logical_worker_noc1 = [(7, 4), (0, 1), (0, 5), (4, 1), (4, 5), (7, 6), (7, 1), (0, 6), "
    "(3, 4), (4, 6), (7, 5), (3, 1)]}], [0], [1 : i32], [ 0x0x0x0]>"
)

SEQ = (128, 256)  # rows of the 2-D activations (tokens)
HIDDEN = (128, 256, 512, 1024)  # columns (features)
SHARDED = ("height", "width", "block")
UNARY = ("relu", "gelu", "silu", "exp", "rsqrt", "tanh", "sigmoid", "neg")
BINARY = ("add", "multiply", "subtract", "maximum")
MAX_WEIGHTS_PER_SHAPE = 6  # reuse weight arguments beyond this (keeps the signature realistic)

TType = tuple[tuple[int, ...], str, str]  # (shape, dtype, memory)


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


@dataclass
class LayoutTable:
    """`#ttnn_layoutN` aliases, one per (shape, dtype, memory), numbered in order of first use."""

    names: dict[TType, str] = field(default_factory=dict)  # type -> alias name
    by_body: dict[str, str] = field(default_factory=dict)
    bodies: list[tuple[str, str]] = field(default_factory=list)

    def alias(self, t: TType) -> str:
        """The alias name for tensor type `t`, defining it on first use.

        Like MLIR's attribute uniquing, types whose layouts print the same (e.g. small tensors
        interleaved over the full L1 grid) share one alias.
        """
        name = self.names.get(t)
        if name is None:
            body = layout_body(t)
            name = self.by_body.get(body)
            if name is None:
                n = len(self.bodies)
                name = "#ttnn_layout" if n == 0 else f"#ttnn_layout{n}"
                self.by_body[body] = name
                self.bodies.append((name, body))
            self.names[t] = name
        return name

    def lines(self) -> list[str]:
        return [f"{name} = {body}" for name, body in self.bodies]


def affine_map(shape: tuple[int, ...]) -> str:
    """The collapse-to-2-D map tt-mlir prints, e.g. `(d0, d1, d2) -> (d0 * 32 + d1, d2)`."""
    r = len(shape)
    dims = ", ".join(f"d{i}" for i in range(r))
    if r == 1:
        return "(d0) -> (0, d0)"
    terms = []
    for i in range(r - 1):
        coeff = math.prod(shape[i + 1 : r - 1])
        terms.append(f"d{i}" if coeff == 1 or i == r - 2 else f"d{i} * {coeff}")
    return f"({dims}) -> ({' + '.join(terms)}, d{r - 1})"


def physical_2d(shape: tuple[int, ...]) -> tuple[int, int]:
    """(rows, cols) after collapsing all but the last dimension."""
    if len(shape) == 1:
        return 1, shape[0]
    return math.prod(shape[:-1]), shape[-1]


def shard_grid(mem: str, t_rows: int, t_cols: int) -> tuple[int, int]:
    """(grid_y, grid_x) of the cores a sharded/interleaved layout is spread over."""
    if mem == "height":
        return min(8, t_rows), 1
    if mem == "width":
        return 1, min(8, t_cols)
    if mem == "block":
        return min(4, t_rows), min(4, t_cols)
    if mem == "l1":
        return 8, 8
    return 1, 1


def layout_body(t: TType) -> str:
    """`#ttnn.ttnn_layout<map, <grid>, memref<...>, <memory_layout>[, core_ranges = ...]>`."""
    shape, dtype, mem = t
    rows, cols = physical_2d(shape)
    amap = affine_map(shape)
    if mem == "sysmem":  # host, row-major: element type, no memory layout
        return f"#ttnn.ttnn_layout<{amap}, <1x1>, memref<{rows}x{cols}x{dtype}, #system_memory>>"
    tr, tc = _ceil(rows, 32), _ceil(cols, 32)
    gy, gx = shard_grid(mem, tr, tc)
    memref = f"memref<{_ceil(tr, gy)}x{_ceil(tc, gx)}x!ttcore.tile<32x32, {dtype}>, #{'dram' if mem == 'dram' else 'l1'}>"
    if mem in ("dram", "l1"):
        return f"#ttnn.ttnn_layout<{amap}, <{gy}x{gx}>, {memref}, <interleaved>>"
    ranges = ", ".join(f"#ttnn.core_range<{a}, {b}>" for a, b in core_ranges(gy, gx))
    return f"#ttnn.ttnn_layout<{amap}, <{gy}x{gx}>, {memref}, <{mem}_sharded>, core_ranges = <[{ranges}]>>"


def core_ranges(gy: int, gx: int) -> list[tuple[str, str]]:
    """Core ranges `(x, y)` covering a gy x gx grid (height sharding wraps at 8 cores per row)."""
    if gx == 1 and gy > 1:  # height sharded: gy cores laid out row-major on the 8-wide worker grid
        out, left, y = [], gy, 0
        while left > 0:
            n = min(8, left)
            out.append((f"(0, {y})", f"({n - 1}, {y})"))
            left -= n
            y += 1
        return out
    return [("(0, 0)", f"({gx - 1}, {gy - 1})")]


class TTNNGenerator:
    """Builds one `func.func @forward` body as a DAG, then wraps it with aliases and locations."""

    def __init__(self, n_ops: int, seed: int, attrs: str = "default") -> None:
        if attrs not in ATTR_STYLES:
            raise ValueError(f"unknown attribute style {attrs!r}; expected one of {', '.join(ATTR_STYLES)}")
        self.heavy = attrs == "heavy"
        self.rng = random.Random(seed)
        self.n_ops = n_ops
        self.layouts = LayoutTable()
        self.pool: ValuePool[TType] = ValuePool(self.rng)
        self.args: list[tuple[str, TType, str, str]] = []  # (name, type, argument_type, loc name)
        self.weights: dict[tuple, list[Value[TType]]] = {}
        self.body: list[str] = []
        self.locs: list[str] = ['loc(unknown)']  # index = N of #locN (#loc for 0)
        self.next_value = 0
        self.op_count = 0
        self.op_index = 0  # per-op suffix of location names: matmul_17, add_18, ...
        self.line = 10

    # ---- small helpers ---------------------------------------------------------------------------
    def ty(self, t: TType | None) -> str:
        """`tensor<MxNxbf16, #ttnn_layoutK>`; the device value (type None) is `!ttnn.device`."""
        if t is None:
            return "!ttnn.device"
        shape, dtype, _ = t
        return f"tensor<{'x'.join(map(str, shape))}x{dtype}, {self.layouts.alias(t)}>"

    def new_arg(self, t: TType, kind: str, loc: str) -> Value[TType]:
        name = f"%arg{len(self.args)}"
        self.args.append((name, t, kind, loc))
        return Value(name, t, is_arg=True)

    def loc(self, opname: str) -> str:
        """Allocate `#locN = loc("opname_I"(...))` (sometimes with a file:line:col child)."""
        label = f"{opname}_{self.op_index}"
        self.op_index += 1
        if self.rng.random() < 0.5:
            self.line += self.rng.randint(1, 3)
            self.locs.append(f'loc("model.py":{self.line}:{self.rng.choice((4, 8, 12, 15))})')
            child = len(self.locs) - 1
            self.locs.append(f'loc("{label}"(#loc{child}))')
        else:
            self.locs.append(f'loc("{label}")')
        return f"loc(#loc{len(self.locs) - 1})"

    def emit(self, op: str, operands: list[Value[TType]], result: TType | None, props: str = "",
             attrs: str = "", extra_types: tuple[str, ...] = ()) -> Value[TType] | None:
        """Append one generic op line; returns (and pools) its result value."""
        ins = ", ".join(self.ty(v.type) for v in operands) if operands else ""
        if extra_types:
            ins = ", ".join([ins, *extra_types]) if ins else ", ".join(extra_types)
        names = ", ".join(v.name for v in operands)
        if self.heavy and result is not None:
            props = with_layout_properties(props, result)
        props = f" <{{{props}}}>" if props else ""
        attrs = f" {{{attrs}}}" if attrs else ""
        loc = self.loc(op.split(".", 1)[1])
        self.op_count += 1
        if result is None:
            self.body.append(f'    "{op}"({names}){props}{attrs} : ({ins}) -> () {loc}')
            return None
        name = f"%{self.next_value}"
        self.next_value += 1
        self.body.append(f'    {name} = "{op}"({names}){props}{attrs} : ({ins}) -> {self.ty(result)} {loc}')
        return self.pool.add(Value(name, result))

    def bf16_2d(self, v: Value[TType]) -> bool:
        shape, dtype, _ = v.type
        return dtype == "bf16" and len(shape) == 2 and shape[0] in SEQ and shape[1] in HIDDEN

    def weight(self, key: tuple, t: TType, prefix: str) -> Value[TType]:
        """A parameter argument of type `t` (a new one, or a reused one once there are enough)."""
        ws = self.weights.setdefault(key, [])
        if len(ws) < MAX_WEIGHTS_PER_SHAPE and (not ws or self.rng.random() < 0.5):
            ws.append(self.new_arg(t, "parameter", f"{prefix}{len(self.args)}"))
        return self.rng.choice(ws)

    def mem_for(self, shape: tuple[int, ...]) -> str:
        return self.rng.choice(("dram", "dram", "l1", *SHARDED))

    # ---- op emitters (each returns False when its operands are not available) --------------------
    def op_matmul(self) -> bool:
        lhs = self.pool.pick(self.bf16_2d)
        if lhs is None:
            return False
        (m, k), _, _ = lhs.type
        n = self.rng.choice(HIDDEN)
        w = self.weight(("mm", k, n), ((k, n), "bf16", "dram"), "layers.w")
        mem = self.mem_for((m, n))
        props = "transpose_a = false, transpose_b = false"
        r = self.rng.random()
        if mem in ("height", "block") and r < 0.5:
            props = f"matmul_program_config = {self.program_config(mem, m, k, n)}, {props}"
        elif r < 0.15:
            props = f'activation = "{self.rng.choice(("gelu", "relu", "silu"))}", {props}'
        self.emit("ttnn.matmul", [lhs, w], ((m, n), "bf16", mem), props)
        return True

    def program_config(self, mem: str, m: int, k: int, n: int) -> str:
        """A 1-D (height-sharded) or 2-D (block-sharded) matmul program config, as in l1_sharded_chain."""
        tr, tc, tk = m // 32, n // 32, k // 32
        gy, gx = shard_grid(mem, tr, tc)
        pm, pn = _ceil(tr, gy), _ceil(tc, gx)
        sw = next(s for s in (4, 2, 1) if pn % s == 0)
        if mem == "height":
            act = ", fused_activation = #ttnn.unary_with_param<op_type = relu>" if self.rng.random() < 0.3 else ""
            return (f"#ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config<compute_with_storage_grid_size = "
                    f"#ttnn.core_coord<{gy}, 1>, in0_block_w = {min(tk, 4)}, out_subblock_h = 1, out_subblock_w = {sw}, "
                    f"out_block_h = {pm}, out_block_w = {pn}, per_core_m = {pm}, per_core_n = {pn}, fuse_batch = true"
                    f"{act}, mcast_in0 = false, gather_in0 = false, hop_cores = #ttnn.core_range_set<>, "
                    f"num_global_cb_receivers = 0, untilize_out = false>")
        return (f"#ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = "
                f"#ttnn.core_coord<{gx}, {gy}>, in0_block_w = 1, out_subblock_h = 1, out_subblock_w = {sw}, "
                f"out_block_h = {pm}, out_block_w = {pn}, per_core_m = {pm}, per_core_n = {pn}, "
                f"transpose_mcast = false, fuse_batch = false>")

    def op_binary(self) -> bool:
        lhs = self.pool.pick(lambda v: v.type[1] == "bf16" and len(v.type[0]) in (2, 3))
        if lhs is None:
            return False
        shape = lhs.type[0]
        rhs = self.pool.of_type(lhs.type, exclude=lhs)
        if rhs is None and len(shape) == 2 and self.rng.random() < 0.7:
            # broadcast operand: a row reduction (M x 1) or a bias parameter (1 x N)
            rhs = self.pool.of_type(((shape[0], 1), "bf16", "dram"))
            if rhs is None:
                rhs = self.weight(("bias", shape[1]), ((1, shape[1]), "bf16", "l1"), "layers.b")
        if rhs is None:
            rhs = self.pool.pick(lambda v: v.type[0] == shape and v.type[1] == "bf16") or lhs
        op = self.rng.choice(BINARY)
        props = "dtype = #ttcore.supportedDataTypes<bf16>" if op == "add" and self.rng.random() < 0.4 else ""
        self.emit(f"ttnn.{op}", [lhs, rhs], lhs.type, props)
        return True

    def op_unary(self) -> bool:
        x = self.pool.pick(lambda v: len(v.type[0]) in (2, 3))
        if x is None:
            return False
        self.emit(f"ttnn.{self.rng.choice(UNARY)}", [x], x.type)
        return True

    def op_softmax(self) -> bool:
        x = self.pool.pick(self.bf16_2d)
        if x is None:
            return False
        dim = self.rng.choice(("1 : si32", "-1 : si32"))
        self.emit("ttnn.softmax", [x], x.type, f"dimension = {dim}")
        return True

    def op_reshape(self) -> bool:
        x = self.pool.pick(lambda v: v.type[1] == "bf16" and (self.bf16_2d(v) or len(v.type[0]) == 3))
        if x is None:
            return False
        shape = x.type[0]
        new = (2, shape[0] // 2, shape[1]) if len(shape) == 2 else (shape[0] * shape[1], shape[2])
        mem = "dram" if len(new) == 3 else self.mem_for(new)
        attr = ", ".join(f"{d} : i32" for d in new)
        self.emit("ttnn.reshape", [x], (new, "bf16", mem), f"shape = [{attr}]")
        return True

    def op_permute(self) -> bool:
        x = self.pool.pick(lambda v: self.bf16_2d(v) and v.type[0][1] in SEQ)
        if x is None:
            return False
        m, n = x.type[0]
        self.emit("ttnn.permute", [x], ((n, m), "bf16", "dram"), "permutation = array<i64: 1, 0>")
        return True

    def op_relayout(self) -> bool:
        x = self.pool.pick(self.bf16_2d)
        if x is None:
            return False
        cur = x.type[2]
        mem = self.rng.choice([m for m in ("dram", "l1", *SHARDED) if m != cur])
        op = "ttnn.to_memory_config" if self.rng.random() < 0.3 else "ttnn.to_layout"
        attrs = "ttnn.hoist_generic_via_d2m" if self.rng.random() < 0.05 else ""
        self.emit(op, [x], (x.type[0], "bf16", mem), attrs=attrs)
        return True

    def op_typecast(self) -> bool:
        x = self.pool.pick(lambda v: len(v.type[0]) == 2)
        if x is None:
            return False
        dtype = "bf16" if x.type[1] == "f32" else "f32"
        self.emit("ttnn.typecast", [x], (x.type[0], dtype, "dram"))
        return True

    def op_reduce(self) -> bool:
        x = self.pool.pick(self.bf16_2d)
        if x is None:
            return False
        m, _ = x.type[0]
        op = self.rng.choice(("sum", "mean", "max"))
        self.emit(f"ttnn.{op}", [x], ((m, 1), "bf16", "dram"), "dim_arg = [1 : i32], keep_dim = true")
        return True

    def op_deallocate(self) -> bool:
        x = self.pool.pick(lambda v: not v.is_arg and len(self.pool.by_type[v.type]) > 1)
        if x is None or x is self.pool.values[-1]:
            return False
        self.emit("ttnn.deallocate", [x], None, "force = false")
        self.pool.remove(x)
        return True

    def op_conv2d(self) -> bool:
        """reshape (HW x C) -> 1x1xHWxC, conv2d 3x3/1 (+relu), reshape back: a ResNet-ish block."""
        x = self.pool.pick(lambda v: self.bf16_2d(v) and v.type[0][0] == 256 and v.type[0][1] <= 512)
        if x is None:
            return False
        hw, cin = x.type[0]
        cout = self.rng.choice([c for c in HIDDEN if c <= 512])
        flat = self.emit("ttnn.reshape", [x], ((1, 1, hw, cin), "bf16", "dram"),
                         f"shape = [1 : i32, 1 : i32, {hw} : i32, {cin} : i32]")
        w = self.weight(("conv_w", cin, cout), ((cout, cin, 3, 3), "bf16", "sysmem"), "conv.weight")
        b = self.weight(("conv_b", cout), ((1, 1, 1, cout), "bf16", "sysmem"), "conv.bias")
        act = ", activation = <op_type = relu>" if self.rng.random() < 0.6 else ""
        props = (f"batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16{act}, "
                 f"deallocate_activation = true, act_block_h_override = 0>, conv2d_slice_config = "
                 f"#ttnn.conv2d_slice_config<l1_full, 0>, dilation = array<i32: 1, 1>, dtype = "
                 f"#ttcore.supportedDataTypes<bf16>, groups = 1 : i32, in_channels = {cin} : i32, "
                 f"input_height = 16 : i32, input_width = 16 : i32, kernel_size = array<i32: 3, 3>, "
                 f"out_channels = {cout} : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>")
        y = self.emit("ttnn.conv2d", [flat, w, b, self.device], ((1, 1, hw, cout), "bf16", "dram"), props)
        self.emit("ttnn.reshape", [y], ((hw, cout), "bf16", "dram"), f"shape = [{hw} : i32, {cout} : i32]")
        return True

    # ---- driver ----------------------------------------------------------------------------------
    OPS = (
        ("matmul", 14), ("binary", 22), ("unary", 16), ("softmax", 4), ("reshape", 6), ("permute", 3),
        ("relayout", 10), ("typecast", 4), ("reduce", 4), ("deallocate", 8), ("conv2d", 1),
    )

    def build_body(self) -> None:
        """Emit ops until the module holds `n_ops` operations."""
        self.pool.add(self.new_arg(((256, 512), "bf16", "dram"), "input", "input"))
        self.pool.add(self.new_arg(((128, 256), "bf16", "dram"), "input", "attention_mask"))
        self.body.append('    %0 = "ttnn.get_device"() <{mesh_offset = #ttnn<mesh_offset 0x0>, '
                         'mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device loc(#loc)')
        self.next_value, self.op_count = 1, 1
        self.device = Value("%0", None)
        names = [n for n, _ in self.OPS]
        weights = [w for _, w in self.OPS]
        target = max(self.n_ops - 3, 1)  # module + func + return
        while self.op_count < target:
            if target - self.op_count < 16:  # finish with single ops to land on n_ops exactly
                self.op_unary()
            else:
                getattr(self, f"op_{self.rng.choices(names, weights)[0]}")()
            self.pool.trim()

    def text(self) -> str:
        """The full module text."""
        self.build_body()
        results = [v for v in reversed(self.pool.values) if not v.is_arg][:2] or self.pool.values[-1:]
        res_types = [self.ty(v.type) for v in results]
        ret = f"    return {', '.join(v.name for v in results)} : {', '.join(res_types)} loc(#loc)"
        sig_out = res_types[0] if len(res_types) == 1 else f"({', '.join(res_types)})"
        args = ", ".join(
            f"{n}: {self.ty(t)} {{ttcore.argument_type = #ttcore.argument_type<{kind}>}} loc(\"{loc}\")"
            for n, t, kind, loc in self.args
        )
        head = [
            "#dram = #ttnn.buffer_type<dram>",
            "#l1 = #ttnn.buffer_type<l1>",
            "#system_memory = #ttnn.buffer_type<system_memory>",
            SYSTEM_DESC,
            *self.layouts.lines(),
            "module attributes {ttcore.system_desc = #system_desc} {",
            f"  func.func @forward({args}) -> {sig_out} attributes {{tt.function_type = \"forward_device\"}} {{",
        ]
        tail = [ret, "  } loc(#loc)", "} loc(#loc)"]
        locs = [f"#loc{'' if i == 0 else i} = {body}" for i, body in enumerate(self.locs)]
        return "\n".join([*head, *self.body, *tail, *locs]) + "\n"


def generate_ttnn(n_ops: int, seed: int = 0, attrs: str = "default") -> str:
    """A TTNN generic-form module with about `n_ops` operations (deterministic in `seed`); with
    `attrs="heavy"` every op with a result also carries `dtype` and `memory_config` properties."""
    return TTNNGenerator(n_ops, seed, attrs).text()


# "heavy": every op with a result states its output's dtype and memory config, as tt-mlir's
# workaround and layout passes leave TTNN IR (`dtype = #ttcore.supportedDataTypes<bf16>,
# memory_config = #ttnn.memory_config<#dram, <interleaved>>`).
ATTR_STYLES = ("default", "heavy")
_BUFFER = {"dram": "#dram", "l1": "#l1", "height": "#l1", "width": "#l1", "block": "#l1", "sysmem": "#system_memory"}


def with_layout_properties(props: str, result: TType) -> str:
    """`props` (a `k = v, ...` body) with `dtype` and `memory_config` for `result` added, keys
    kept sorted as MLIR prints them; a key already there is kept."""
    _, dtype, mem = result
    layout = "interleaved" if mem in ("dram", "l1", "sysmem") else f"{mem}_sharded"
    items = dict(_split_props(props))
    items.setdefault("dtype", f"#ttcore.supportedDataTypes<{dtype}>")
    items.setdefault("memory_config", f"#ttnn.memory_config<{_BUFFER[mem]}, <{layout}>>")
    return ", ".join(f"{k} = {v}" for k, v in sorted(items.items()))


def _split_props(props: str) -> list[tuple[str, str]]:
    """`a = 1, b = #x<c, d>` -> [("a", "1"), ("b", "#x<c, d>")] (top-level commas only)."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(props + ","):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0:
            key, _, value = props[start:i].partition("=")
            if key.strip():
                items.append((key.strip(), value.strip()))
            start = i + 1
    return items
