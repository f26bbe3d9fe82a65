"""The tile computation of one D2M subgraph: what the compute kernel does for each output tile.

The chain's ops run in order on one output tile at a time. Values live in circular buffers (the
subgraph inputs, streamed in by the reader; scratch buffers) or in DST registers:

* `add` / `subtract` / `multiply` run on the FPU (`add_tiles`, `sub_tiles`, `mul_tiles`), which
  reads both operands from circular buffers: an operand still in DST is packed into a scratch
  buffer first (D2M's spill), when that loses no other live DST tile; else they run on the SFPU;
* every other op runs on the SFPU in DST: an operand still in a circular buffer is copied in
  (`copy_tile`), then `exp_tile(d)` / `div_binary_tile(a, b, out)`, writing over its first
  operand, which is copied first (`copy_dest_values`) when the chain reads it again;
  `clamp_tensor` is `binary_max_tile` then `binary_min_tile`;
* an operand broadcast inside the tile (a `...x1` column, a `1x...` row, or both) is expanded into
  DST with `unary_bcast<COL|ROW|SCALAR>` and its op runs on the SFPU (`add_binary_tile`), as D2M
  lowers implicit broadcasts. Broadcasts across whole tiles are the reader's job (it reads the
  same source tile again).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

FPU_BINARY = {"add": "add_tiles", "subtract": "sub_tiles", "multiply": "mul_tiles"}
SFPU_BINARY = {
    "add": "add_binary_tile", "subtract": "sub_binary_tile", "multiply": "mul_binary_tile", "divide": "div_binary_tile",
    "pow_tensor": "power_binary_tile", "maximum": "binary_max_tile", "minimum": "binary_min_tile",
    "eq": "eq_binary_tile", "ne": "ne_binary_tile", "gt": "gt_binary_tile", "lt": "lt_binary_tile",
    "ge": "ge_binary_tile", "le": "le_binary_tile", "bitwise_and": "bitwise_and_binary_tile",
    "bitwise_or": "bitwise_or_binary_tile", "bitwise_xor": "bitwise_xor_binary_tile",
    "logical_left_shift": "binary_left_shift_tile", "logical_right_shift": "binary_logical_right_shift_tile",
    "logical_and": "logical_and_binary_tile", "logical_or": "logical_or_binary_tile", "logical_xor": "logical_xor_binary_tile",
    "remainder": "remainder_binary_tile", "atan2": "atan2_binary_tile",
}  # fmt: skip
SFPU_UNARY = {
    "abs": "abs_tile", "cbrt": "cbrt_tile", "ceil": "ceil_tile", "sign": "sign_tile", "cos": "cos_tile", "exp": "exp_tile",
    "erf": "erf_tile", "erfc": "erfc_tile", "floor": "floor_tile", "gelu": "gelu_tile", "isfinite": "isfinite_tile",
    "logical_not": "logical_not_unary_tile", "bitwise_not": "bitwise_not_tile", "neg": "negative_tile", "tan": "tan_tile",
    "tanh": "tanh_tile", "reciprocal": "recip_tile", "relu": "relu_tile", "sin": "sin_tile", "sqrt": "sqrt_tile",
    "rsqrt": "rsqrt_tile", "sigmoid": "sigmoid_tile", "hardsigmoid": "hardsigmoid_tile", "silu": "silu_tile",
    "mish": "mish_tile", "log": "log_tile", "log1p": "log1p_tile", "expm1": "expm1_tile",
}  # fmt: skip
DST_TILES = 8  # bf16 DST in half-sync mode: the registers one tile iteration may hold


_FORMATS = {"bf16": "Float16_b", "f16": "Float16", "f32": "Float32", "i32": "Int32", "si32": "Int32", "ui32": "UInt32"}


def data_format(v: Any) -> str:
    """tt-metal's DataFormat of a value's elements (Float16_b for bf16)."""
    et = v.type.resolve().element_type.resolve().text
    return _FORMATS.get(et, "Float16_b")


class TileProgramError(ValueError):
    """The chain has an op (or a broadcast) the tile compiler cannot express."""


@dataclass(frozen=True)
class Step:
    """One compute-kernel call: `fn(args...)`; `init` is its init call (None: needs none)."""

    fn: str
    args: tuple[Any, ...]
    init: tuple[str, tuple[Any, ...]] | None = None
    template: str | None = None  # e.g. "BroadcastType::COL"


@dataclass(frozen=True)
class Cb:
    """A circular buffer by port: ("in", i) an input, ("scratch", j), ("out", 0)."""

    kind: str
    index: int


@dataclass
class TileProgram:
    """The compute kernel's per-tile steps and the circular buffers they use."""

    num_inputs: int
    steps: list[Step] = field(default_factory=list)
    num_scratch: int = 0

    @property
    def ports(self) -> list[Cb]:
        """Every circular buffer, in port order: inputs, scratch buffers, output."""
        return [*(Cb("in", i) for i in range(self.num_inputs)), *(Cb("scratch", j) for j in range(self.num_scratch)), Cb("out", 0)]

    def port(self, cb: Cb) -> int:
        """The port number of `cb`."""
        return self.ports.index(cb)

    def calls(self) -> list[str]:
        """The tile functions called, in order (inits and CB synchronisation left out)."""
        return [s.fn for s in self.steps if not s.fn.startswith(("cb_", "tile_regs"))]


def bcast_kind(operand_shape: Sequence[int], result_shape: Sequence[int]) -> str | None:
    """The in-tile broadcast an operand of `operand_shape` needs to reach `result_shape`:
    COL (its last dim is 1 of many), ROW (its second-last is), SCALAR (both), else None."""
    o, r = list(operand_shape), list(result_shape)
    o = [1] * (len(r) - len(o)) + o
    w = len(r) >= 1 and o[-1] == 1 and r[-1] > 1
    h = len(r) >= 2 and o[-2] == 1 and r[-2] > 1
    return "SCALAR" if w and h else "COL" if w else "ROW" if h else None


class _Planner:
    def __init__(self, num_inputs: int) -> None:
        self.prog = TileProgram(num_inputs)
        self.free_dst = list(range(DST_TILES))
        self.acquired = False

    def emit(self, fn: str, *args: Any, init: tuple[str, tuple[Any, ...]] | None = None, template: str | None = None) -> None:
        if not self.acquired and not fn.startswith("cb_"):
            self.prog.steps.append(Step("tile_regs_acquire", ()))
            self.acquired = True
        self.prog.steps.append(Step(fn, tuple(args), init, template))

    def dst(self) -> int:
        if not self.free_dst:
            raise TileProgramError(f"needs more than {DST_TILES} live tiles in DST")
        return self.free_dst.pop(0)

    def release(self, slot: int) -> None:
        self.free_dst.append(slot)
        self.free_dst.sort()

    def close_regs(self) -> None:
        self.prog.steps += [Step("tile_regs_commit", ()), Step("tile_regs_wait", ())]

    def spill(self, slot: int) -> Cb:
        """Pack a DST tile into a new scratch buffer (the FPU reads only circular buffers)."""
        cb = Cb("scratch", self.prog.num_scratch)
        self.prog.num_scratch += 1
        self.prog.steps.append(Step("cb_reserve_back", (cb, 1)))
        self.close_regs()
        self.prog.steps.append(Step("pack_tile", (("dst", slot), cb, 0)))
        self.prog.steps.append(Step("tile_regs_release", ()))
        self.acquired = False
        self.prog.steps.append(Step("cb_push_back", (cb, 1)))
        self.prog.steps.append(Step("cb_wait_front", (cb, 1)))
        self.free_dst = list(range(DST_TILES))
        return cb


def plan_tiles(ops: Sequence[Any], args: Sequence[Any], result: Any) -> TileProgram:
    """The per-tile program of a chain: `ops` (TTNN eltwise ops in order) reading `args` (the
    subgraph's inputs, in port order) and producing `result`."""
    pl = _Planner(len(args))
    where: dict[int, Any] = {id(a): Cb("in", i) for i, a in enumerate(args)}  # value -> Cb or ("dst", slot)
    left: dict[int, int] = {}
    for op in ops:
        for v in op.operands:
            left[id(v)] = left.get(id(v), 0) + 1
    for i in range(len(args)):
        pl.prog.steps.append(Step("cb_wait_front", (Cb("in", i), 1)))

    def own(v: Any, bcast: str | None) -> int:
        """A DST slot holding `v` that the next op may overwrite (a copy when `v` is read again)."""
        loc = where[id(v)]
        if isinstance(loc, tuple) and left[id(v)] > 1:
            if bcast is not None:
                raise TileProgramError("broadcasts an intermediate result inside the tile")
            slot = pl.dst()
            fmt = f"DataFormat::{data_format(v)}"
            pl.emit("copy_dest_values", loc, ("dst", slot), init=("copy_dest_values_init", ()), template=fmt)
            return slot
        return to_dst(v, bcast)

    def to_dst(v: Any, bcast: str | None) -> int:
        loc = where[id(v)]
        if isinstance(loc, tuple):
            if bcast is not None:
                raise TileProgramError("broadcasts an intermediate result inside the tile")
            return loc[1]
        slot = pl.dst()
        if bcast is not None:
            pl.emit(
                "unary_bcast", loc, 0, ("dst", slot), init=("unary_bcast_init", (loc, Cb("out", 0))), template=f"BroadcastType::{bcast}"
            )
        else:
            pl.emit("copy_tile", loc, 0, ("dst", slot), init=("copy_tile_init", (loc,)))
        return slot

    def consumed(v: Any) -> None:
        left[id(v)] -= 1
        loc = where.get(id(v))
        if left[id(v)] == 0 and isinstance(loc, tuple):
            pl.release(loc[1])

    for op in ops:
        kind = op.name.removeprefix("ttnn.")
        rshape = tuple(op.results[0].type.resolve().shape)
        bcasts = [bcast_kind(tuple(v.type.resolve().shape), rshape) for v in op.operands]
        if len(op.operands) == 1 and kind in SFPU_UNARY:
            (v,) = op.operands
            slot = own(v, bcasts[0])
            fn = SFPU_UNARY[kind]
            pl.emit(fn, ("dst", slot), init=(f"{fn}_init", ()))
            left[id(v)] -= 1
            where[id(op.results[0])] = ("dst", slot)
        elif len(op.operands) == 2 and (kind in FPU_BINARY or kind in SFPU_BINARY):
            a, b = op.operands
            in_dst = {id(v) for v in (a, b) if isinstance(where[id(v)], tuple)}
            # Packing a DST operand for the FPU releases every DST register: only when no other
            # tile is live there (and one operand at most needs it); else the op runs on the SFPU.
            live = [k for k, w in where.items() if isinstance(w, tuple) and k not in in_dst and left.get(k, 0) > 0]
            if kind in FPU_BINARY and not any(bcasts) and len(in_dst) <= 1 and not (in_dst and live):
                cbs = []
                for v in (a, b):
                    loc = where[id(v)]
                    if isinstance(loc, tuple):
                        loc = where[id(v)] = pl.spill(loc[1])
                    cbs.append(loc)
                out = pl.dst()
                fn = FPU_BINARY[kind]
                pl.emit(fn, cbs[0], cbs[1], 0, 0, ("dst", out), init=(f"{fn}_init", (cbs[0], cbs[1])))
                consumed(a)
                consumed(b)
            else:
                if kind not in SFPU_BINARY:
                    raise TileProgramError(f"no tile op for ttnn.{kind}")
                sa = own(a, bcasts[0])
                sb = to_dst(b, bcasts[1]) if b is not a else sa
                fn = SFPU_BINARY[kind]
                pl.emit(fn, ("dst", sa), ("dst", sb), ("dst", sa), init=(f"{fn}_init", ()))
                if sb != sa and (not isinstance(where[id(b)], tuple) or left[id(b)] == 1):
                    pl.release(sb)
                left[id(a)] -= 1
                left[id(b)] -= 1
                out = sa
            where[id(op.results[0])] = ("dst", out)
        elif kind == "clamp_tensor" and len(op.operands) == 3:
            # clamp(x, lo, hi) = min(max(x, lo), hi), both on the SFPU
            x, lo, hi = op.operands
            sx = own(x, bcasts[0])
            for v, b_, fn in ((lo, bcasts[1], "binary_max_tile"), (hi, bcasts[2], "binary_min_tile")):
                sv = to_dst(v, b_) if v is not x else sx
                pl.emit(fn, ("dst", sx), ("dst", sv), ("dst", sx), init=(f"{fn}_init", ()))
                if sv != sx and (not isinstance(where[id(v)], tuple) or left[id(v)] == 1):
                    pl.release(sv)
                left[id(v)] -= 1
            left[id(x)] -= 1
            where[id(op.results[0])] = ("dst", sx)
        else:
            raise TileProgramError(f"no tile op for ttnn.{kind}")
    loc = where[id(result)]
    if not isinstance(loc, tuple):
        slot = to_dst(result, None)
        loc = ("dst", slot)
    out_cb = Cb("out", 0)
    pl.prog.steps.append(Step("cb_reserve_back", (out_cb, 1)))
    pl.close_regs()
    pl.prog.steps.append(Step("pack_tile", (loc, out_cb, 0)))
    pl.prog.steps.append(Step("tile_regs_release", ()))
    pl.prog.steps.append(Step("cb_push_back", (out_cb, 1)))
    for i in range(len(args)):
        pl.prog.steps.append(Step("cb_pop_front", (Cb("in", i), 1)))
    for j in range(pl.prog.num_scratch):
        pl.prog.steps.append(Step("cb_pop_front", (Cb("scratch", j), 1)))
    return pl.prog
