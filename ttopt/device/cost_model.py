"""Estimated latency of ops and modules (docs/device-model.md §5; the terms are in cost_terms.py).

Per op `ns = dispatch + op_to_op + launch + compute + max(dram, noc) - overlap + sync` (cost_terms):
matmuls through `matmul_terms` (2-D multicast, 1-D decode, DRAM-sharded weights, or the no-reuse
fallback of an interleaved output that is not all DRAM), every other kind through `stream_terms`
with the DRAM bytes and pages, L1-interleaved bytes and reshard bytes its layouts imply.
Module cost = the sum over each function's ops in program order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from math import ceil, prod
from typing import Any, Callable, Sequence

from ttopt.device.conv3d_program import DEFAULT_FIDELITY as CONV3D_FIDELITY
from ttopt.device.conv3d_program import Conv3dShape, blocking_of, conv3d_split, conv3d_terms
from ttopt.device.conversion_steps import steps
from ttopt.device.cost_terms import (
    FIDELITY_PASSES,
    Accumulation,
    ConvShape,
    CostParams,
    Terms,
    accumulation_of,
    conv_k_tiles,
    conv_program_terms,
    fidelity_for,
    matmul_terms,
    params_for,
    reshape_tiled_terms,
    rotary_terms,
    runs_unfused_1d,
    sdpa_decode_terms,
    stream_terms,
    tile_bytes,
    tile_row_reader_terms,
    tilize_terms,
    transpose_hc_terms,
    untilize_terms,
)
from ttopt.device.device import Device
from ttopt.device.layout_info import BLOCK, HEIGHT, WIDTH, LayoutInfo, layout_info, tensor_tiles
from ttopt.device.matmul_config import (
    MCAST_IN1,
    MULTICAST_1D,
    NO_REUSE,
    derive_program_config,
    interleaved_factor,
    interleaved_program,
    matmul_dims,
)
from ttopt.device.op_families import Family, family_of
from ttopt.device.presets import cost_arch, unary_kind
from ttopt.device.rules.argmax import argmax_multicore
from ttopt.device.rules.cache_write import CACHE_WRITES, cache_write_cost
from ttopt.device.rules.data_movement import is_reshape_view
from ttopt.device.rules.moe_gpt import MOE_GPT, moe_gpt_cost
from ttopt.device.rules.transformer import has_one_config, heads_shape
from ttopt.device.rules.weight_preparation import WEIGHT_PREPARATIONS, preparation_cost
from ttopt.device.tensor import check_shape
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType

# Data-movement-family ops that reduce through the FPU (their own cycles and streaming efficiency).
REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "argmax"})
# Unpack-math-pack passes per input tile of a reduction program, where sum/mean/max make one:
# tt-metal computes min as -max(-x) in one fused program (reduce_*_neg: copy, negate and pack the
# tile; copy the accumulator back; reduce and pack), three passes (cost_terms.stream_terms).
REDUCTION_PASSES = {"min": 3}
# Cross-core statistic passes of a sharded norm (tt-metal's sharded layernorm program: RMS norm
# gathers E[x^2] once; layer norm gathers the mean, then the variance). Softmax keeps a row on one core.
NORM_EXCHANGES = {"rms_norm": 1, "dit_rms_norm_unary_fused": 1, "layer_norm": 2}
# Head split / concat programs that read a tile row's tiles one at a time (`head_program_rows`).
HEAD_PROGRAMS = frozenset({"ttnn.concatenate_heads", "ttnn.split_query_key_value_and_split_heads"})
# Norms whose interleaved program splits the tile rows over the cores (layernorm_op_multi_core,
# softmax_program_factory_attention_optimized: split_work_to_cores(grid, NC x Ht)).
# Not placed by the optimizer (op_families.NOT_MODELLED), but priced in module estimates: tt-metal's kernel.
ATTENTION_DECODE = "ttnn.scaled_dot_product_attention_decode"
CONV3D = "ttnn.conv3d"
# Ops the optimizer does not place that module estimates still price, each by its own program's model.
PRICED_UNPLACED = frozenset({ATTENTION_DECODE, CONV3D})
ROW_SPLIT_NORMS = frozenset({"ttnn.rms_norm", "ttnn.layer_norm", "ttnn.softmax", "ttnn.dit_rms_norm_unary_fused"})


def head_program_rows(name: str, shapes: Sequence[Sequence[int]]) -> tuple[int, int]:
    """(tile rows, tiles a row reads) of tt-metal's nlp_concat_heads ([B, H, S, D] -> [B, S, H * D])
    or nlp_create_qkv_heads ([B, S, hidden], and a [B, S, 2 * kv hidden] input: Q, K and V
    tiles): each core takes whole tile rows of the sequence (`tile_row_reader_terms`)."""
    x = shapes[0]
    if name == "ttnn.concatenate_heads":
        return prod(x[:-3]) * ceil(x[-2] / 32), x[-3] * ceil(x[-1] / 32)
    return prod(x[:-2]) * ceil(x[-2] / 32), sum(ceil(s[-1] / 32) for s in shapes)


def tile_rows(shape: Sequence[int]) -> int:
    """Tile rows of a tensor: the leading dimensions x ceil(rows / 32)."""
    return max(1, prod(shape[:-2]) * ceil(shape[-2] / 32)) if len(shape) >= 2 else 1


def _row_cores(info: LayoutInfo) -> int:
    """The cores one row of a sharded tensor is split over: every core when width sharded, a grid
    row when block sharded; 1 when height sharded or interleaved (whole rows on one core)."""
    if info.memory_layout is WIDTH:
        return info.num_cores
    if info.memory_layout is BLOCK:
        return info.bbox[1]
    return 1


def _reduces_h_only(op: Any, rank: int) -> bool:
    """Whether a reduction's `dim_arg` is the second-to-last dimension alone (tt-metal's reduce-H
    program: each core reads whole tile columns)."""
    attr = op.properties.get("dim_arg") if hasattr(op, "properties") else None
    dims = list(getattr(attr, "items", ()))
    if len(dims) != 1 or rank < 2 or not isinstance(getattr(dims[0], "value", None), int):
        return False
    return dims[0].value % rank == rank - 2

_FIDELITY = re.compile(r"math_fidelity\s*=\s*(\w+)", re.I)
_FIDELITY_NAMES = {"lofi": "LoFi", "hifi2": "HiFi2", "hifi3": "HiFi3", "hifi4": "HiFi4"}


def _compute_config(op: Any) -> str | None:
    """The text of `op`'s compute config, if it has one."""
    cfg = op.get_attr("compute_config") if hasattr(op, "get_attr") else None
    return cfg.canonical() if cfg is not None else None


def _config_fidelity(op: Any) -> str | None:
    """The math fidelity `op`'s compute config runs at (None: the op has no config).

    tt-mlir's runtime builds a given config on WormholeComputeKernelConfig, whose fidelity is LoFi
    where the attribute names none, and ttnn runs a given config as it is."""
    text = _compute_config(op)
    if text is None:
        return None
    m = _FIDELITY.search(text)
    return _FIDELITY_NAMES.get(m.group(1).lower(), "LoFi") if m else "LoFi"


_CONFIG_FLAG = re.compile(r"(fp32_dest_acc_en|packer_l1_acc)\s*=\s*(true|false)", re.I)


def _accumulation_flags(op: Any) -> tuple[bool | None, bool | None, bool]:
    """(fp32_dest_acc_en, packer_l1_acc) as `op`'s compute config sets them (None: not set), and
    whether it has a config at all."""
    text = _compute_config(op)
    flags = {k.lower(): v.lower() == "true" for k, v in _CONFIG_FLAG.findall(text or "")}
    return flags.get("fp32_dest_acc_en"), flags.get("packer_l1_acc"), text is not None


def op_accumulation(op: Any, program: str, out_fmt: str) -> Accumulation:
    """How `op`'s compute kernel carries partial results between K blocks (`cost_terms.accumulation_of`)."""
    fp32, l1_acc, configured = _accumulation_flags(op)
    return accumulation_of(program, out_fmt, fp32, l1_acc, configured)


def op_fidelity(op: Any, fmt: str) -> str:
    """The math fidelity of `op`: its compute config's (LoFi where it names none), else tt-metal's default for the format."""
    return fidelity_for(fmt, _config_fidelity(op))


_OP_TYPE = re.compile(r"op_type\s*=\s*(\w+)")
_WEIGHTS_DTYPE = re.compile(r"weights_dtype\s*=\s*(\w+)")
# A config's activation: a matmul program config's `fused_activation = #ttnn.unary_with_param<op_type
# = ...>`, a conv2d_config's `activation = <op_type = ...>`.
_CONFIG_ACT = re.compile(r"activation\s*=\s*(?:#ttnn\.unary_with_param)?<\s*op_type\s*=\s*(\w+)")


def fused_activation(op: Any) -> str | None:
    """The unary a matmul, conv2d or fused norm applies to its output tiles: its `activation` attribute, else the
    one its program config carries (`fused_activation`, where the optimizer moves it: tt-metal
    #35060), else its conv2d_config's."""
    if not hasattr(op, "get_attr"):
        return None
    act = op.get_attr("activation")
    if act is not None:
        v = getattr(act.resolve(), "value", None)
        if isinstance(v, str):
            return v or None
        m = _OP_TYPE.search(act.canonical())  # the #ttnn.unary_with_param<op_type = ...> form
        if m:
            return m.group(1)
    for key in ("matmul_program_config", "conv2d_config"):
        cfg = op.get_attr(key)
        m = _CONFIG_ACT.search(cfg.canonical()) if cfg is not None else None
        if m:
            return m.group(1)
    return None


def activation_cycles(p: CostParams, name: str | None) -> float:
    """Cycles per tile of a fused activation: the unary's own (cost_params.json), an upper bound as
    the standalone kernel's figure also copies each tile into DEST, which the fused pass finds there."""
    if not name:
        return 0.0
    return p.tile_cycles(unary_kind(name), name)


def mem_of(info: LayoutInfo) -> str:
    """The cost model's memory placement of a layout (cost_terms.MEMS; host tensors count as DRAM)."""
    if info.dram or info.system:
        return "dram_s" if info.dram and info.sharded else "dram_i"
    return "l1_s" if info.sharded else "l1_i"


@dataclass(frozen=True, slots=True)
class OpCost:
    """Estimated latency of one op and what it is made of (ns = dispatch + floor + compute +
    max(dram, noc) - overlap + sync; floor = device launch + op-to-op gap)."""

    ns: float
    compute_ns: float
    dram_ns: float
    noc_ns: float
    dispatch_ns: float
    work_tiles: int
    cores: int
    dram_bytes: int
    noc_bytes: int
    floor_ns: float = 0.0
    overlap_ns: float = 0.0
    fidelity: str = ""
    op_to_op_ns: float = 0.0
    sync_ns: float = 0.0  # serial cross-core hand-offs (a sharded norm's statistics exchange)

    @property
    def launch_ns(self) -> float:
        """The device-side launch part of the floor."""
        return self.floor_ns - self.op_to_op_ns

    @property
    def bound(self) -> str:
        """Which term dominates: compute, dram or noc."""
        terms = {"compute": self.compute_ns, "dram": self.dram_ns, "noc": self.noc_ns}
        return max(terms, key=terms.__getitem__)


def _op_cost(t: Terms, work: int, cores: int, dram_bytes: int, noc_bytes: int, fidelity: str = "") -> OpCost:
    return OpCost(
        t.ns, t.compute_ns, t.dram_ns, t.noc_ns, t.dispatch_ns, work, cores, dram_bytes, noc_bytes,
        t.floor_ns, t.overlap_ns, fidelity, t.op_to_op_ns, t.sync_ns,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class OpCostEntry:
    """One op of a module cost: its name, location name and cost (None when it could not be costed)."""

    op: Any
    name: str
    cost: OpCost | None
    note: str = ""


@dataclass(frozen=True, slots=True)
class FunctionCost:
    """Estimated total of one function."""

    name: str
    ns: float
    dram_bytes: int
    ops: tuple[OpCostEntry, ...]


def _bytes(shape: Sequence[int], info: LayoutInfo) -> int:
    """Whole-tensor bytes in this layout."""
    if info.tiled:
        return tensor_tiles(shape) * info.element_bytes
    return prod(shape) * info.element_bytes


def _moved_bytes(shape: Sequence[int], src: LayoutInfo, out_shape: Sequence[int], dst: LayoutInfo) -> tuple[int, int]:
    """(DRAM, L1) bytes a one-input program reads and writes: its input and output, each where it lives."""
    dram = (_bytes(shape, src) if src.dram else 0) + (_bytes(out_shape, dst) if dst.dram else 0)
    l1 = (_bytes(shape, src) if src.l1 else 0) + (_bytes(out_shape, dst) if dst.l1 else 0)
    return dram, l1


def _permutation(op: Any) -> tuple[int, ...] | None:
    """A `ttnn.permute`'s permutation; None for an op without attributes (a fusion estimate's)."""
    props = getattr(op, "properties", None)
    return int_values(props.get("permutation")) if props is not None else None


def _cores_with_data(shape: Sequence[int], info: LayoutInfo) -> int:
    """The shard cores of a sharded tensor that hold any of it (a grid's last shards are empty
    when its shards, whole tiles or rows, cover the tensor with cores to spare)."""
    if info.tiled:  # shard shapes count tiles
        rows, cols = tile_rows(shape), ceil(shape[-1] / 32) if shape else 1
    else:
        rows, cols = prod(shape[:-1]), shape[-1] if shape else 1
    used = ceil(rows / max(1, info.shard_shape[0])) * ceil(cols / max(1, info.shard_shape[1]))
    return max(1, min(info.num_cores, used))


def _pages(shape: Sequence[int], info: LayoutInfo) -> int:
    """DRAM pages of a tensor: tiles, or rows of a row-major tensor."""
    if info.tiled:
        return tensor_tiles(shape)
    return prod(shape[:-1]) if len(shape) > 1 else 1


class CostModel:
    """Latency estimates for one device; memoised like the op model."""

    def __init__(self, device: Device, params: CostParams | None = None) -> None:
        self.device = device
        base = params or params_for(cost_arch(device.arch))
        # The device's own grid: a matmul runs 1-D below one tile row per grid row, and streaming
        # bandwidth scales with the share of its cores that read.
        self.params = replace(base, grid_rows=device.worker_grid[0], grid_cores=device.num_cores) if params is None else base
        self._memo: dict[tuple, OpCost] = {}
        self._sig_uid: dict[tuple, int] = {}
        self._shapes: dict[Any, tuple[int, ...]] = {}  # shape -> checked shape
        self._types: dict[int, tuple[Any, Any]] = {}  # id(encoding) -> (encoding, its typed view)
        self._keep: list[Any] = []

    def cycles_per_unit(self, op: Any, fidelity: str = "") -> float:
        """Cycles per unit of work: matmul/conv blocks at the fitted LoFi rate x fidelity passes
        (the op's, else HiFi2), other kinds per tile (cost_params.json `cycles_per_tile.*`: the op's
        own figure where it has one, else its kind's)."""
        kind = self.op_kind(op)
        if kind in ("matmul", "conv"):
            return self.params.matmul_cycles_lofi * FIDELITY_PASSES[fidelity or "HiFi2"]
        return self.params.tile_cycles(kind, op.name.split(".", 1)[-1])

    def op_kind(self, op: Any) -> str:
        """The cost-parameter kind of an op (cost_terms.KINDS)."""
        fam = family_of(op.name)
        short = op.name.split(".", 1)[-1]
        if fam is Family.ELTWISE_UNARY:
            return unary_kind(short)
        if fam is Family.ELTWISE_BINARY:
            return "eltwise_binary"
        if fam in (Family.MATMUL, Family.CONV, Family.NORM, Family.LAYOUT, Family.DISPATCH):
            return fam.value
        return "reduction" if short in REDUCTIONS else "data_movement"

    def op_cost(self, op: Any, input_layouts: Sequence[TTNNLayoutAttr], output_layout: TTNNLayoutAttr) -> OpCost:
        """Estimated ns of `op` reading `input_layouts` (one per tensor operand) and writing `output_layout`."""
        ins = tuple(layout_info(x) for x in input_layouts)
        out = layout_info(output_layout)
        key = (self.signature_uid(op), tuple(i.uid for i in ins), out.uid)
        c = self._memo.get(key)
        if c is None:
            c = self._memo[key] = self._cost(op, ins, out)
        return c

    def signature_uid(self, op: Any) -> int:
        """A small int shared by ops that `_cost` cannot tell apart: name, tensor shapes, compute
        config (matmul/conv: its fidelity and accumulation flags), and the op itself for dispatch ops (their cost reads the callee's body). The
        operand and result types are read on every call, so an op whose types changed gets a new key."""
        shapes = []
        for v in op.operands:
            t = v.type.resolve()
            if isinstance(t, TensorType):
                shapes.append(self._shape(t))
        name = op.name
        fam = family_of(name)
        cfg = act = None
        perm: tuple[int, ...] | None = None
        if fam in (Family.MATMUL, Family.CONV):
            cfg = _compute_config(op)
        elif name == CONV3D:  # its blocking and compute config decide its program (a bias is an operand: shapes)
            cfg = f"{_compute_config(op)}|{_attr_text(op, 'conv3d_config')}"
        if fam in (Family.MATMUL, Family.CONV, Family.NORM):
            act = fused_activation(op)
        if name == "ttnn.permute":  # its program depends on which dimensions move (`_tile_movement`)
            perm = _permutation(op)
        sig = (
            name, tuple(shapes), self._shape(op.results[0].type.resolve()), cfg, act, perm,
            id(op) if fam is Family.DISPATCH else 0,
        )  # fmt: skip
        uid = self._sig_uid.get(sig)
        if uid is None:
            uid = self._sig_uid[sig] = len(self._sig_uid)
            if fam is Family.DISPATCH:
                self._keep.append(op)  # the id in its signature must not be reused by another op
        return uid

    def _shape(self, t: Any) -> tuple[int, ...]:
        """`check_shape(t.shape)` per shape (a bad shape is not cached: it raises every time, as
        check_shape does)."""
        shape = t.shape
        try:
            s = self._shapes.get(shape)
        except TypeError:  # an unhashable shape: not cached
            return check_shape(shape)
        if s is None:
            s = self._shapes[shape] = check_shape(shape)
        return s

    def _cost(self, op: Any, ins: tuple[LayoutInfo, ...], out: LayoutInfo) -> OpCost:
        # Costed ops passed the op model, so their shapes are static (TensorTypeError is a ValueError).
        shapes = [check_shape(t.shape) for t in (v.type.resolve() for v in op.operands) if isinstance(t, TensorType)]
        fam = family_of(op.name)
        # A split into heads writes every head: its output traffic is all three results.
        out_shape = heads_shape(op) if fam is Family.TRANSFORMER else check_shape(op.results[0].type.resolve().shape)
        if fam is Family.MATMUL and len(shapes) >= 2 and len(ins) >= 2:
            return self._matmul(op, shapes, ins, out_shape, out)
        if op.name == "ttnn.reshape" and ins and shapes and is_reshape_view(shapes[0], out_shape, ins[0], out):
            return self._view(out)
        if op.name in ("ttnn.reshape", "ttnn.permute") and ins and shapes:
            moved = self._tile_movement(op, shapes[0], out_shape, ins[0], out)
            if moved is not None:
                return moved
        if op.name == "ttnn.rotary_embedding" and len(ins) >= 3 and shapes:
            return self._rotary(op, shapes[0], ins, out)
        if op.name == ATTENTION_DECODE and len(ins) >= 3 and len(shapes[0]) == 4 and len(shapes[1]) == 4:
            return self._attention_decode(shapes, ins)
        if op.name == CONV3D and len(ins) >= 2 and len(shapes[0]) == 5 and len(out_shape) == 5:
            return self._conv3d(op, shapes, ins, out_shape, out)
        if op.name in HEAD_PROGRAMS and ins and shapes and not any(i.sharded for i in ins) and len(shapes[0]) >= 3:
            return self._heads(op, shapes, ins, out)
        if op.name == "ttnn.to_layout" and ins and shapes:
            paged = self._page_program(shapes[0], ins[0], out)
            if paged is not None:
                return paged
        work = self._work(op, fam, shapes, out_shape)
        if fam is Family.CONV:
            return self._conv(op, work, shapes, ins, out_shape, out)
        # A reduction's cores each take whole output tiles (a column or row of input each); argmax
        # reads row-major pages with its own split over the reduced dimension.
        kind = self.op_kind(op)
        parallel = tensor_tiles(out_shape) if kind == "reduction" and not op.name.endswith(".argmax") else 0
        if op.name == "ttnn.argmax" and ins and shapes and not argmax_multicore(op, ins[0].tiled, len(shapes[0])):
            parallel = 1  # tt-metal's single-core argmax program
        if op.name in ROW_SPLIT_NORMS and ins and shapes and not ins[0].sharded:
            # tt-metal's interleaved layernorm / softmax programs give each core whole tile rows
            # (split_work_to_cores over NC x Ht): a [32, 4096] norm runs on one core.
            parallel = tile_rows(shapes[0])
        stride = 0
        if parallel and shapes and _reduces_h_only(op, len(shapes[0])):
            # A column reduction's cores each read a run of whole columns, in step.
            workers = max(1, min(self._cores(out), parallel))
            stride = ceil(parallel / workers)
        exchanges = NORM_EXCHANGES.get(op.name.split(".", 1)[-1], 0) if kind == "norm" and ins else 0
        if op.name.split(".", 1)[-1].startswith("slice") and shapes:
            # A slice's reader fetches only the pages it keeps.
            shapes = [tuple(out_shape)] + shapes[1:]
            work = tensor_tiles(out_shape)
        passes = REDUCTION_PASSES.get(op.name.split(".", 1)[-1], 1) if kind == "reduction" else 1
        act = self._fused_cycles(op) if fam is Family.NORM else 0.0
        sticks = 0
        if op.name in ROW_SPLIT_NORMS and ins and shapes and not ins[0].sharded:
            # A row-major gamma / beta (a weight operand not in tiles) is read a stick per tile, each waited for.
            sticks = sum(ceil(shapes[0][-1] / 32) for i in ins[1:] if not i.tiled and not i.system)
        return self._stream(
            kind, work, shapes, ins, out_shape, out, parallel=parallel, stride=stride, exchanges=exchanges,
            passes=passes, name=op.name.split(".", 1)[-1], act_cycles=act, stick_reads=sticks,
        )  # fmt: skip

    def _fused_cycles(self, op: Any) -> float:
        """Cycles per output tile a fused norm adds to its passes: its activation's, and an add of its
        residual input (`dit_rms_norm_unary_fused` sums input and residual before normalising)."""
        cycles = activation_cycles(self.params, fused_activation(op))
        counts = int_values(op.properties.get("operandSegmentSizes")) if op.name == "ttnn.dit_rms_norm_unary_fused" else None
        if counts is not None and len(counts) == 4 and counts[3]:
            cycles += self.params.tile_cycles("eltwise_binary")
        return cycles

    def _view(self, out: LayoutInfo) -> OpCost:
        """A view (tt-metal reinterprets the input's buffer): no device program, so no launch, no
        op-to-op gap and no traffic; only the host dispatch of the op."""
        p = self.params
        t = Terms(0.0, 0.0, 0.0, 0.0, 0.0, p.dispatch_ns, 0.0)
        return _op_cost(t, 0, self._cores(out), 0, 0)

    def _cores(self, out: LayoutInfo) -> int:
        return out.num_cores if out.sharded else self.device.num_cores

    def _matmul(self, op: Any, shapes: list, ins: tuple[LayoutInfo, ...], out_shape: Sequence[int], out: LayoutInfo) -> OpCost:
        a, b = shapes[0], shapes[1]
        fidelity = op_fidelity(op, ins[0].dtype.value)
        batched_rhs = len(b) > 2 and prod(b[:-2]) > 1
        # fuse_batch folds a batched activation into M; a batched rhs is `batch` separate matmuls.
        batch = prod(out_shape[:-2]) if batched_rhs and len(out_shape) > 2 else 1
        m = out_shape[-2] if batched_rhs and len(out_shape) > 1 else prod(out_shape[:-1]) if len(out_shape) > 1 else 1
        cores = out.num_cores if out.sharded else self.device.num_cores
        # The program config of a sharded output (matmul_config.py): 2-D multicast for a block
        # grid of several rows and columns, 1-D for width/height; an interleaved output gets
        # tt-metal's default, chosen by size.
        program = "auto"
        params = self.params
        # The grid a 1-D program runs on and its in0_block_w: a sharded output's program config
        # (tt-mlir derives one from the output layout); without one, a width-sharded activation's
        # shard grid (ttnn's get_matmul_program_config), else the device grid and ttnn's default.
        in0_cores, block_w, grid_cols = 0, 0, self.device.worker_grid[1]
        shared_b = False
        # The weight-multicast program streams one weight matrix; DRAM-sharded weights run their own program.
        weights_multicast = not batched_rhs and mem_of(ins[1]) != "dram_s"
        if out.sharded:
            program = "2d" if out.memory_layout is BLOCK and out.bbox[0] > 1 and out.bbox[1] > 1 else "1d"
            grid_cols = out.bbox[1]
            cfg = derive_program_config(matmul_dims(a, b, out_shape), out, self.device.max_subblock)
            if cfg is not None and cfg.kind == MULTICAST_1D and not cfg.mcast_in0 and weights_multicast:
                program = MCAST_IN1  # height sharded: each core its rows, the weights multicast
            # A DRAM-sharded program picks its own in0_block_w (cost_terms.dram_sharded_weight_ns).
            block_w = cfg.in0_block_w if cfg is not None and mem_of(ins[1]) != "dram_s" else 0
        elif ins[0].sharded and ins[0].l1 and ins[0].memory_layout is WIDTH:
            in0_cores, grid_cols = ins[0].num_cores, ins[0].bbox[1]
        elif ins[0].sharded and ins[0].l1 and ins[0].memory_layout is HEIGHT and weights_multicast:
            # ttnn's get_matmul_program_config: a height-sharded activation runs the weight-multicast
            # program on its shard grid, the whole K one block.
            program, cores, block_w = MCAST_IN1, ins[0].num_cores, ceil(a[-1] / 32)
        elif not ins[0].sharded and not ins[1].sharded and self._unfused_1d(a, out_shape, batched_rhs):
            # A batched activation over one B, wide per batch: ttnn's 1-D program with the batch
            # unfused, a loop of K hops per batch (cost_terms.runs_unfused_1d).
            batch, m, program, shared_b = prod(a[:-2]), a[-2], "1d", True  # ttnn's default in0_block_w
        elif not ins[0].sharded and not ins[1].sharded:
            program = self._interleaved_program(a, b, ins, out)
            if program == MCAST_IN1 and len(a) > 2 and prod(a[:-2]) > 1 and not batched_rhs:
                # The auto-picker's 1-D configs leave the batch unfused: a loop on every core.
                batch, m, shared_b = prod(a[:-2]), a[-2], True
            if program == NO_REUSE:
                params, program = self._no_reuse_params(batch * ceil(m / 32) * ceil(out_shape[-1] / 32)), "2d"
        t = matmul_terms(
            params, m, a[-1], out_shape[-1], ins[0].dtype.value, ins[1].dtype.value, out.dtype.value, fidelity,
            mem_of(ins[0]), mem_of(ins[1]), mem_of(out), cores, batch, program, in0_cores, block_w, grid_cols, shared_b,
            act_cycles=activation_cycles(params, fused_activation(op)), accumulation=op_accumulation(op, "matmul", out.dtype.value),
        )  # fmt: skip
        tensors = [(a, ins[0]), (b, ins[1]), (out_shape, out)]
        dram = sum(_bytes(s, i) for s, i in tensors if i.dram or i.system)
        noc = sum(_bytes(s, i) for s, i in tensors if i.l1)
        work = batch * ceil(m / 32) * ceil(out_shape[-1] / 32) * ceil(a[-1] / 32)
        return _op_cost(t, work, cores, dram, noc, fidelity)

    def _no_reuse_params(self, out_tiles: int) -> CostParams:
        """The parameters matmul_terms prices the no-reuse program with (the fallback of a "2d"
        size): only the cores holding output tiles re-read, so its bandwidth is their share of the grid."""
        p = self.params
        return replace(p, fallback_gbps=p.fallback_gbps * min(1.0, out_tiles / p.grid_cores))

    @staticmethod
    def _unfused_1d(a: Sequence[int], out_shape: Sequence[int], batched_rhs: bool) -> bool:
        """Whether an interleaved matmul of a batched activation over one B runs ttnn's 1-D program
        with the batch unfused (cost_terms.runs_unfused_1d)."""
        return not batched_rhs and len(a) > 2 and prod(a[:-2]) > 1 and runs_unfused_1d(a[-2], out_shape[-1])

    def _interleaved_program(
        self, a: Sequence[int], b: Sequence[int], ins: tuple[LayoutInfo, ...], out: LayoutInfo, weight_bytes: int | None = None,
    ) -> str:
        """The program tt-metal picks for an interleaved matmul without a program config (matmul_config);
        `weight_bytes`: the weights' element bytes where they are read in another format than stored."""
        x, w = ins[0], ins[1]
        all_dram = all(mem_of(i) == "dram_i" for i in (x, w, out))
        wb = w.element_bytes if weight_bytes is None else weight_bytes
        factor = interleaved_factor(x.element_bytes, wb, out.element_bytes, self.device.usable_l1)
        return interleaved_program(a, b, all_dram, factor, self.device.worker_grid)

    def _conv(self, op: Any, work: int, shapes: list, ins: tuple[LayoutInfo, ...], out_shape: Sequence[int], out: LayoutInfo) -> OpCost:
        """tt-metal's conv2d program (`cost_terms.conv_program_terms`) on the grid its output's shard
        spec gives; an interleaved output's program runs on the input's shard spec, or, from an
        interleaved input, on the height or block sharding tt-metal's auto-shard picks (the cheaper)."""
        p = self.params
        fidelity = _conv_fidelity(op)
        cores = out.num_cores if out.sharded else self.device.num_cores
        tensors = list(zip(shapes, ins)) + [(out_shape, out)]
        dram = sum(_bytes(s, i) for s, i in tensors if i.dram or i.system)
        l1i = sum(_bytes(s, i) for s, i in tensors if i.l1 and not i.sharded)
        conv = _conv_shape(op, shapes, out_shape)
        weights = ins[1] if len(ins) >= 2 else None
        in_dram = weights is not None and (weights.dram or weights.system)
        fmt = _weights_format(op, weights)
        act = activation_cycles(p, fused_activation(op))

        if _runs_as_matmul(op, conv) and len(ins) >= 2 and not (ins[0].sharded and ins[0].memory_layout is WIDTH):
            return self._matmul_conv(op, work, shapes, ins, out_shape, out, conv, fmt)

        # A block-sharded input splits the input channels over its own grid columns.
        c_in = ins[0].bbox[1] if ins and ins[0].sharded and ins[0].memory_layout is BLOCK else 0

        acc = op_accumulation(op, "conv", out.dtype.value)

        def on(rows: int, cols: int, width: bool = False, block: bool = False) -> Terms:
            return conv_program_terms(
                p, conv, rows, cols, fidelity, fmt, in_dram, dram, l1i, act, width, c_in if block else 0, acc,
            )  # fmt: skip

        grid = out if out.sharded else ins[0] if ins and ins[0].sharded else None
        if grid is None:
            # tt-metal's auto-shard sizes a height grid to the output's tile rows and a block grid to
            # its tile rows by a divisor of its channel tiles; it picks by L1 footprint, the model
            # the cheaper of the two.
            m_tiles, n_tiles = ceil(conv.pixels / 32), ceil(conv.out_channels / 32)
            grid_rows, grid_cols = self.device.worker_grid
            height = (min(cores, m_tiles), 1)
            block = (min(grid_rows, m_tiles), max(d for d in range(1, grid_cols + 1) if n_tiles % d == 0))
            t, spec = min(((on(*height), (HEIGHT, height)), (on(*block, block=True), (BLOCK, block))), key=lambda c: c[0].device_ns)
        elif grid.memory_layout is BLOCK:
            t, spec = on(*grid.bbox, block=True), (BLOCK, grid.bbox)
        elif grid.memory_layout is WIDTH:
            t, spec = on(1, grid.num_cores, width=True), (WIDTH, (1, grid.num_cores))
        else:
            t, spec = on(grid.num_cores, 1), (HEIGHT, (grid.num_cores, 1))
        # conv2d shards an interleaved input onto the grid it runs on first, and converts its output
        # shards to an interleaved memory config after (programs of their own: to_memory_config).
        extra = 0.0
        if ins and not ins[0].sharded and shapes:
            extra += self._shard_conversion(shapes[0], ins[0], *spec, into=True)
        if not out.sharded:
            extra += self._shard_conversion(out_shape, out, *spec, into=False)
        if extra:
            t = replace(t, sync_ns=t.sync_ns + extra)
        return _op_cost(t, work, cores, dram, l1i, fidelity)

    def _matmul_conv(
        self, op: Any, work: int, shapes: list, ins: tuple[LayoutInfo, ...], out_shape: Sequence[int], out: LayoutInfo,
        conv: ConvShape, weight_fmt: str,
    ) -> OpCost:
        """A 1x1 stride-1 conv as tt-metal runs it (conv2d's `use_matmul_for_1x1_conv`): a row-major
        activation tilized first, then `ttnn::linear` of the [N*H*W, C_in] activation and the
        prepared [C_in, C_out] weights. A height-sharded input runs the weight-multicast program on
        its shard grid with the whole K one block, a block-sharded one the 2-D program on its grid,
        both into shards of the input's spec; an interleaved input is not sharded first (the
        auto-shard path skips it for a matmul conv) and takes the auto-picker's program into DRAM
        interleaved (linear's default). conv2d converts that result to the output's memory config
        after, a program of its own where they differ."""
        p = self.params
        x, w = ins[0], ins[1]
        fidelity = _conv_fidelity(op)
        m, k, n = conv.pixels, conv.in_channels, conv.out_channels
        kt = ceil(k / 32)
        act = activation_cycles(p, fused_activation(op))
        tensors = list(zip(shapes, ins)) + [(out_shape, out)]
        dram = sum(_bytes(s, i) for s, i in tensors if i.dram or i.system)
        l1i = sum(_bytes(s, i) for s, i in tensors if i.l1 and not i.sharded)
        a_mem, b_mem = mem_of(x), "dram_i" if w.system else mem_of(w)
        params, extra, block_w = p, 0.0, 0
        if x.sharded:
            cores = x.num_cores
            program = MCAST_IN1 if x.memory_layout is HEIGHT else "2d"
            block_w = kt if program == MCAST_IN1 else 0
            out_mem = "l1_s"
            if not out.sharded:
                grid = (x.num_cores, 1) if x.memory_layout is HEIGHT else x.bbox
                extra += self._shard_conversion(out_shape, out, x.memory_layout, grid, into=False)
        else:
            cores = self.device.num_cores
            dram_out = out.layout.relayout(out_shape, buffer_type="dram", memory_layout="interleaved", worker_grid=self.device.worker_grid)
            mm_out = layout_info(dram_out)
            program = self._interleaved_program((m, k), (k, n), ins, mm_out, weight_bytes=tile_bytes(weight_fmt))
            if program == NO_REUSE:
                params, program = self._no_reuse_params(ceil(m / 32) * ceil(n / 32)), "2d"
            out_mem = "dram_i"
            if out.uid != mm_out.uid:
                extra += self.conversion_cost(out_shape, dram_out, out.layout).ns
        if not x.tiled and shapes:
            tiled = x.layout.relayout(shapes[0], tiled=True, worker_grid=self.device.worker_grid)
            extra += self.conversion_cost(shapes[0], x.layout, tiled).ns
        t = matmul_terms(
            params, m, k, n, x.dtype.value, weight_fmt, out.dtype.value, fidelity, a_mem, b_mem, out_mem, cores, 1, program,
            in0_block_w=block_w, act_cycles=act, accumulation=op_accumulation(op, "conv", out.dtype.value),
        )  # fmt: skip
        if extra:
            t = replace(t, sync_ns=t.sync_ns + extra)
        return _op_cost(t, work, cores, dram, l1i, fidelity)

    def _shard_conversion(self, shape: Sequence[int], info: LayoutInfo, layout: Any, grid: tuple[int, int], into: bool) -> float:
        """ns of converting a `shape` tensor between its interleaved layout `info` and the `layout`
        shards on `grid` (into them, or out of them)."""
        try:
            shards = TTNNLayoutAttr.build(
                tuple(shape), info.dtype.value, tiled=True, buffer_type="l1", memory_layout=layout, grid=grid,
                worker_grid=self.device.worker_grid,
            )  # fmt: skip
        except (AttrError, ValueError):
            return 0.0  # no shard spec of that grid fits the tensor: the conversion is not priced
        src, dst = (info.layout, shards) if into else (shards, info.layout)
        return self.conversion_cost(shape, src, dst).ns

    def _stream(
        self, kind: str, work: int, shapes: list, ins: tuple[LayoutInfo, ...], out_shape: Sequence[int], out: LayoutInfo,
        parallel: int = 0, stride: int = 0, exchanges: int = 0, passes: int = 1, name: str = "", act_cycles: float = 0.0,
        stick_reads: int = 0,
    ) -> OpCost:
        """A streaming op's cost from its tensors' placements (`stream_terms`); `act_cycles`: what a
        fused activation (and a fused norm's residual add) costs per output tile; `stick_reads`: the
        short reads a core waits for one by one (an interleaved norm's row-major gamma and beta)."""
        dram = pages = l1i = moved = 0
        write_dram = write_l1i = 0
        tensors = list(zip(ins, shapes)) + [(out, out_shape)]
        for i, (info, shape) in enumerate(tensors):
            nbytes = _bytes(shape, info)
            written = nbytes if i == len(tensors) - 1 else 0
            if info.dram or info.system:
                dram += nbytes
                pages += _pages(shape, info)
                write_dram += written
            elif info.l1 and not info.sharded:
                l1i += nbytes  # L1-interleaved pages live on other cores' banks
                write_l1i += written
        if kind == "layout" and ins and ins[0].l1 and out.l1 and (ins[0].sharded or out.sharded):
            if ins[0].spec_key != out.spec_key:
                moved += _bytes(shapes[0], ins[0])  # a reshard moves every byte between cores
        cores = out.num_cores if out.sharded else self.device.num_cores
        if kind == "layout" and ins and (ins[0].sharded != out.sharded):
            # A conversion between L1 shards and interleaved pages runs on the shard cores, one
            # shard each: the cores of the grid that hold any of the tensor. (DRAM shards keep
            # their grid: their program maps banks to workers.)
            shards, shard_shape = (ins[0], shapes[0]) if ins[0].sharded else (out, out_shape)
            cores = _cores_with_data(shard_shape, shards) if shards.l1 else shards.num_cores
        row_cores = _row_cores(ins[0]) if exchanges and ins else 0
        t = stream_terms(
            self.params, kind, work, cores, dram, pages, l1i, moved, parallel=parallel, stride=stride,
            exchanges=exchanges if row_cores > 1 else 0, exchange_fmt=ins[0].dtype.value if ins else "bf16",
            exchange_cores=row_cores, passes=passes, write_dram_bytes=write_dram, write_l1i_bytes=write_l1i, op=name,
            act_tiles=tensor_tiles(out_shape) if act_cycles else 0, act_cycles=act_cycles, stick_reads=stick_reads,
        )  # fmt: skip
        return _op_cost(t, work, cores, dram, l1i + moved)

    def _rotary(self, op: Any, shape: Sequence[int], ins: tuple[LayoutInfo, ...], out: LayoutInfo) -> OpCost:
        """`ttnn.rotary_embedding` as tt-metal's program runs it (`rotary_terms`): decode mode when
        the op carries a token index; a sharded input runs on its shard cores."""
        x, cache = ins[0], ins[1]
        cores = x.num_cores if x.sharded else self.device.num_cores
        decode = op.properties.get("token_index") is not None
        t = rotary_terms(
            self.params, shape, x.dtype.value, cache.dtype.value, decode, x.dram, cache.dram, out.dram, x.sharded, cores,
        )  # fmt: skip
        dram = sum(_bytes(shape, i) for i in (x, out) if i.dram) + (2 * _bytes(shape, cache) if cache.dram else 0)
        return _op_cost(t, tensor_tiles(shape), cores, dram, 0)

    def _tile_movement(self, op: Any, shape: Sequence[int], out_shape: Sequence[int], x: LayoutInfo, out: LayoutInfo) -> OpCost | None:
        """A tiled interleaved reshape that is not a view (`reshape_tiled_terms`: each output tile
        gathers its input tiles one read at a time) or a rank-3 or rank-4 permute that swaps the two
        dimensions before the last (`transpose_hc_terms`: a write per face line); None for any other,
        and for block-float tensors (tt-metal typecasts them to bf16 and back around both programs)."""
        if not (x.tiled and out.tiled) or x.sharded or out.sharded or x.system or out.system or x.dtype != out.dtype:
            return None
        if x.dtype.value.startswith("bfp"):  # tt-metal typecasts block floats to bf16 around both programs: not modelled
            return None
        cores = self.device.num_cores
        if op.name == "ttnn.reshape":
            t = reshape_tiled_terms(self.params, shape, out_shape, x.dtype.value, x.dram, out.dram, cores)
        else:
            n = len(shape)
            hc = [*range(n - 3), n - 2, n - 3, n - 1]
            perm = _permutation(op)
            if perm is not None:
                swaps = list(perm) == hc
            else:  # an op without attributes (a fusion estimate's): the shapes say which dims moved
                swaps = n >= 3 and shape[-3] != shape[-2] and tuple(out_shape) == tuple(shape[i] for i in hc)
            if n not in (3, 4) or not swaps:  # tt-metal runs a rank-5 permute as its generic program
                return None
            t = transpose_hc_terms(self.params, shape, x.dtype.value, x.dram, out.dram, cores)
        return _op_cost(t, tensor_tiles(out_shape), cores, *_moved_bytes(shape, x, out_shape, out))

    def _heads(self, op: Any, shapes: list, ins: tuple[LayoutInfo, ...], out: LayoutInfo) -> OpCost:
        """Splitting a fused QKV into heads and concatenating heads (interleaved), as tt-metal's
        nlp_create_qkv_heads / nlp_concat_heads run them (`tile_row_reader_terms`): each core takes
        whole tile rows of the sequence and reads a row's tiles (Q, K and V; every head's) one by one."""
        rows, per_row = head_program_rows(op.name, shapes)
        t = tile_row_reader_terms(self.params, rows, per_row, ins[0].dtype.value, ins[0].dram, out.dram, self.device.num_cores)
        dram = sum(_bytes(s, i) for s, i in zip(shapes, ins) if i.dram) * (2 if out.dram else 1)
        return _op_cost(t, rows * per_row, min(rows, self.device.num_cores), dram, 0)

    def _attention_decode(self, shapes: list, ins: tuple[LayoutInfo, ...]) -> OpCost:
        """`ttnn.scaled_dot_product_attention_decode` (query [1, B, Hq, D], K and V [B, Hkv, S, D])
        as `sdpa_decode_terms` prices tt-metal's kernel."""
        (_, b, heads, d), (_, kv_heads, kv_len, _) = shapes[0], shapes[1]
        q, k = ins[0], ins[1]
        t = sdpa_decode_terms(self.params, b, heads, kv_heads, d, kv_len, k.dtype.value, q.dtype.value, cores=self.device.num_cores)
        dram = 2 * _bytes(shapes[1], k) if k.dram else 0
        return _op_cost(t, tensor_tiles(shapes[1]), self.device.num_cores, dram, 0)

    def _conv3d(self, op: Any, shapes: list, ins: tuple[LayoutInfo, ...], out_shape: Sequence[int], out: LayoutInfo) -> OpCost:
        """`ttnn.conv3d` as tt-metal's conv3d program runs it (`conv3d_program.conv3d_terms`): the
        blocking of its conv3d_config (tt-metal's defaults without one) on the config's grid or
        the device's, its compute config's fidelity and fp32 accumulation (HiFi2 without one)."""
        p = self.params
        x, w = ins[0], ins[1]
        shape = conv3d_shape(op, shapes[0], out_shape)
        blocking = blocking_of(_attr_text(op, "conv3d_config"))
        fidelity = _config_fidelity(op) or CONV3D_FIDELITY
        fp32 = bool(_accumulation_flags(op)[0])
        bias = len(ins) >= 3
        grid = self.device.num_cores
        t = conv3d_terms(
            p, shape, blocking, grid, x.element_bytes, x.dtype.value, w.dtype.value, fidelity, fp32, bias,
            in_dram=x.dram or x.system, out_dram=out.dram or out.system, weights_dram=w.dram or w.system,
            l1_bytes=self.device.l1_size - self.device.l1_unreserved_base,
        )  # fmt: skip
        split = conv3d_split(shape, blocking, grid)
        work = split.cores * split.blocks_per_core * split.m_tiles * split.k_tiles * split.n_tiles
        tensors = list(zip(shapes, ins)) + [(out_shape, out)]
        dram = sum(_bytes(s, i) for s, i in tensors if i.dram or i.system)
        l1i = sum(_bytes(s, i) for s, i in tensors if i.l1)
        return _op_cost(t, work, split.cores, dram, l1i, fidelity)

    def _page_program(self, shape: Sequence[int], src: LayoutInfo, dst: LayoutInfo) -> OpCost | None:
        """An interleaved tensor's page layout changed on the device by tt-metal's tilize
        (`tilize_terms`, the program tt-metal picks) or untilize (`untilize_terms`); None for any
        other conversion."""
        if src.tiled == dst.tiled or src.sharded or dst.sharded or src.system or dst.system:
            return None
        if src.tiled:
            l1 = self.device.l1_size - self.device.l1_unreserved_base
            t = untilize_terms(self.params, shape, src.dtype.value, dst.element_bytes, src.dram, dst.dram, self.device.num_cores, l1)
        else:
            t = tilize_terms(self.params, shape, src.element_bytes, dst.dtype.value, src.dram, dst.dram, self.device.num_cores)
        return _op_cost(t, tensor_tiles(shape), self.device.num_cores, *_moved_bytes(shape, src, shape, dst))

    def conversion_cost(self, shape: Sequence[int], src: TTNNLayoutAttr, dst: TTNNLayoutAttr) -> OpCost:
        """Estimated ns of converting a `shape` tensor from `src` to `dst` (what a reshard or spill
        the optimizer inserts will cost, before it exists in the IR): one program per op tt-mlir
        HEAD's layout decomposition emits (`conversion_programs`), each with its own launch."""
        a, b = layout_info(src), layout_info(dst)
        key = ("to_layout", tuple(shape), a.uid, b.uid)
        c = self._memo.get(key)
        if c is None:
            s = check_shape(tuple(shape))
            parts = []
            for x, y in conversion_programs(s, src, dst, self.device.worker_grid):
                xi, yi = layout_info(x), layout_info(y)
                paged = self._page_program(s, xi, yi)
                parts.append(paged if paged is not None else self._stream("layout", tensor_tiles(s), [s], (xi,), s, yi))
            c = self._memo[key] = _sum_costs(parts)
        return c

    def _work(self, op: Any, fam: Family | None, shapes: list, out_shape: Sequence[int]) -> int:
        """Tiles of work (matmul/conv: 32x32x32 blocks; dispatch: cycles of the fused ops)."""
        out_t = tensor_tiles(out_shape)
        if fam is Family.MATMUL and len(shapes) >= 2:
            kt = ceil(shapes[0][-1] / 32)
            return out_t * kt
        if fam is Family.CONV and len(shapes) >= 2:
            return out_t * conv_k_tiles(_conv_shape(op, shapes, out_shape))
        if op.name in ROW_SPLIT_NORMS and shapes:
            # A norm's passes run over its input's tiles; gamma and beta are rows each core reads, not
            # tiles of work (a fused residual's pre-add is priced per output tile: `_fused_cycles`).
            return max(out_t, tensor_tiles(shapes[0]))
        if fam in (Family.NORM, Family.DATA_MOVEMENT, Family.CONCAT):
            return max(out_t, sum(tensor_tiles(s) for s in shapes) if shapes else 0)
        if fam is Family.DISPATCH:
            from ttopt.device.rules.dispatch import _body

            try:
                inner, _, _ = _body(op)
            except Exception:  # an unresolvable callee costs like a copy
                return out_t * int(self.params.cycles_per_tile.get("data_movement", 16.0))
            total = 0.0
            for o in inner:
                if not o.results or not isinstance(o.results[0].type.resolve(), TensorType):
                    continue
                ishapes = [t.shape for t in (v.type.resolve() for v in o.operands) if isinstance(t, TensorType)]
                f = family_of(o.name)
                total += self._work(o, f, ishapes, o.results[0].type.resolve().shape) * self.cycles_per_unit(o)
            return int(total)
        return out_t

    def current_op_cost(self, op: Any) -> OpCost | None:
        """The cost of an op with the layouts the IR has now (None if some tensor has no layout)."""
        ins = []
        for v in op.operands:
            t = v.type.resolve()
            if isinstance(t, TensorType):
                typed = self._typed(t)
                if not isinstance(typed, TTNNLayoutAttr):
                    return None
                ins.append(typed)
        if not has_one_config(op):
            return None
        t = op.results[0].type.resolve()
        if not isinstance(t, TensorType):
            return None
        typed = self._typed(t)
        if not isinstance(typed, TTNNLayoutAttr):
            return None
        return self.op_cost(op, ins, typed)

    def _typed(self, t: TensorType) -> Any:
        """`t.encoding.typed` (None without an encoding) per encoding object: attributes are never
        mutated in place, and the rewrite shares one encoding object per layout. Errors are not cached."""
        enc = t.encoding
        if enc is None:
            return None
        e = self._types.get(id(enc))
        if e is None or e[0] is not enc:
            e = self._types[id(enc)] = (enc, enc.typed)
        return e[1]

    def module_cost(self, module: Any) -> list[FunctionCost]:
        """Per function (top-level ops in program order): the summed estimate of its ttnn ops."""
        out = []
        for fn in module.functions():
            body = fn.regions[0].entry if fn.regions and fn.regions[0].blocks else None
            if body is None or fn.get_attr("ttkernel.thread") is not None:  # a ttnn.generic's kernel: costed with it
                continue
            entries = []
            total = 0.0
            dram = 0
            for op in body.ops:
                outside = _outside_op_model(op.name)
                if outside is not None:  # costed from the operands it reads and writes, not placed
                    try:
                        g = outside(self, op)
                    except (AttrError, TypeError, ValueError, ArithmeticError) as e:
                        entries.append(OpCostEntry(op, op_name(op), None, str(e)))
                        continue
                    total += g.ns
                    dram += g.dram_bytes
                    entries.append(OpCostEntry(op, op_name(op), g))
                    continue
                if not op.name.startswith("ttnn.") or not op.results:
                    continue
                if family_of(op.name) is None and op.name not in PRICED_UNPLACED:
                    entries.append(OpCostEntry(op, op_name(op), None, "no op-model rule"))
                    continue
                try:
                    c = self.current_op_cost(op)
                except AttrError as e:
                    entries.append(OpCostEntry(op, op_name(op), None, e.message))
                    continue
                except (TypeError, ValueError, ArithmeticError):  # dynamic or malformed shapes
                    entries.append(OpCostEntry(op, op_name(op), None, "shape cannot be costed"))
                    continue
                if c is None:
                    entries.append(OpCostEntry(op, op_name(op), None, "a tensor has no ttnn layout"))
                    continue
                total += c.ns
                dram += c.dram_bytes
                entries.append(OpCostEntry(op, op_name(op), c))
            name = getattr(fn.properties.get("sym_name"), "value", "?")
            out.append(FunctionCost(name, total, dram, tuple(entries)))
        return out


def _outside_op_model(name: str) -> Callable[[CostModel, Any], OpCost] | None:
    """The cost rule of an op module estimates cost outside the op model (no layouts to choose):
    `ttnn.generic`, the in-place cache writes, the conv weight preparations, `ttnn.moe_gpt`."""
    if name == "ttnn.generic":
        from ttopt.device.rules.generic import generic_cost

        return generic_cost
    if name in CACHE_WRITES:
        return cache_write_cost
    if name in WEIGHT_PREPARATIONS:
        return preparation_cost
    if name == MOE_GPT:
        return moe_gpt_cost
    return None


def conversion_programs(
    shape: tuple[int, ...], src: TTNNLayoutAttr, dst: TTNNLayoutAttr, wg: Sequence[int]
) -> list[tuple[TTNNLayoutAttr, TTNNLayoutAttr]]:
    """(from, to) of each program taking `src` to `dst`: one per op of tt-mlir HEAD's layout
    decomposition (`conversion_steps.steps`, which the optimizer writes), at least one."""
    plan = steps(shape, src, dst, (wg[0], wg[1]))
    if not plan:
        return [(src, dst)]
    chain = [src] + [lay for _, lay in plan]
    return list(zip(chain, chain[1:]))


def _sum_costs(parts: Sequence[OpCost]) -> OpCost:
    """The cost of programs run one after another (each with its own launch and op-to-op gap)."""
    if len(parts) == 1:
        return parts[0]
    total = {f: sum(getattr(c, f) for c in parts) for f in (
        "ns", "compute_ns", "dram_ns", "noc_ns", "dispatch_ns", "work_tiles", "dram_bytes", "noc_bytes", "floor_ns",
        "overlap_ns", "op_to_op_ns", "sync_ns",
    )}  # fmt: skip
    return OpCost(cores=max(c.cores for c in parts), fidelity="", **total)


def op_name(op: Any) -> str:
    """The op's NameLoc name (`matmul_0`) when it has one, else its op name."""
    loc = op.location
    try:
        name = loc.name if loc is not None else None
    except Exception:  # a malformed location is not worth failing a cost estimate for
        name = None
    return name or op.name


def _conv_shape(op: Any, shapes: list, out_shape: Sequence[int]) -> ConvShape:
    """A conv op's `ConvShape` from its attributes (the weight's OIHW shape and the input's channels
    where they are missing); its output pixels from its result, 1x1x(N*H*W)xC as TTNN flattens it."""
    props = getattr(op, "properties", {})
    kernel, cin, cout, groups = (getattr(props.get(k), "values", None) or getattr(props.get(k), "value", None)
                                 for k in ("kernel_size", "in_channels", "out_channels", "groups"))  # fmt: skip
    ws: list[int] = list(shapes[1]) if len(shapes) >= 2 else []
    oihw = len(ws) == 4 and not (ws[0] == 1 and ws[1] == 1)
    prepared = len(ws) == 4 and not oihw  # 1x1x(in*kh*kw)xout: its K is known, its kernel is not
    kh, kw = (int(kernel[0]), int(kernel[-1])) if kernel else (ws[2], ws[3]) if oihw else (1, 1)
    channels = int(cin) if cin else ws[1] * int(groups or 1) if oihw else ws[2] if prepared and not kernel else shapes[0][-1]
    return ConvShape(
        pixels=prod(out_shape[:-1]) if out_shape else 1, in_channels=channels,
        out_channels=int(cout) if cout else (out_shape[-1] if out_shape else 1), groups=int(groups or 1),
        kernel_h=kh, kernel_w=kw,
    )  # fmt: skip


def _attr_text(op: Any, name: str) -> str | None:
    """The canonical text of `op`'s attribute `name` (None: the op has none)."""
    attr = op.get_attr(name) if hasattr(op, "get_attr") else None
    return attr.canonical() if attr is not None else None


def conv3d_shape(op: Any, x: Sequence[int], out_shape: Sequence[int]) -> Conv3dShape:
    """A `ttnn.conv3d`'s `Conv3dShape`: its output [N, T, H, W, C_out] from the result, its input
    channels from the [N, T, H, W, C_in] input, kernel and stride from its attributes (1 where
    an attribute is missing)."""
    props = getattr(op, "properties", {})
    kernel = tuple(int_values(props.get("kernel_size")) or (1, 1, 1))
    stride = tuple(int_values(props.get("stride")) or (1, 1, 1))
    kernel = kernel if len(kernel) == 3 else (1, 1, 1)
    stride = stride if len(stride) == 3 else (1, 1, 1)
    n, t, h, w, c_out = out_shape
    return Conv3dShape(n, t, h, w, x[-1], c_out, kernel, stride)  # type: ignore[arg-type]


def _runs_as_matmul(op: Any, conv: ConvShape) -> bool:
    """Whether tt-metal runs a conv as a matmul (`use_matmul_for_1x1_conv`): a 1x1 kernel, stride
    1, no padding, dilation 1, one group (and not width sharded: the caller checks)."""
    props = getattr(op, "properties", {})
    # The kernel must be stated: a prepared weight without one hides its kernel in K.
    kernel = int_values(props.get("kernel_size"))
    stride, padding, dilation = (int_values(props.get(k)) or () for k in ("stride", "padding", "dilation"))
    return (
        kernel in ((1, 1), (1,)) and conv.groups == 1 and all(s == 1 for s in stride) and not any(padding)
        and all(d == 1 for d in dilation)
    )  # fmt: skip


def _conv_fidelity(op: Any) -> str:
    """A conv's math fidelity: its compute config's (LoFi where it names none), else tt-metal's conv
    default, HiFi4 (get_conv_default_compute_kernel_config), whatever the formats."""
    return _config_fidelity(op) or "HiFi4"


def _weights_format(op: Any, weights: LayoutInfo | None) -> str:
    """The format a conv's weights are read in: its conv2d_config's `weights_dtype` (host weights are
    prepared in it), else the weight tensor's."""
    cfg = op.get_attr("conv2d_config") if hasattr(op, "get_attr") else None
    m = _WEIGHTS_DTYPE.search(cfg.canonical()) if cfg is not None else None
    return m.group(1) if m else weights.dtype.value if weights is not None else "bf16"
