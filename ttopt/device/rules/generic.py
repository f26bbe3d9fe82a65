"""`ttnn.generic` (a compiled D2M subgraph, or any program of custom kernels): its L1 and its cost.

The op writes its last tensor operand (D2M puts outputs after inputs) and has no result, so it is
costed from its operands: one program launch, the compute kernel's per-tile calls times the tiles
(cycles of the eltwise kind each call is: FPU binaries, SFPU binaries and unaries, transcendental
SFPU ops; unpacks, broadcasts and packs as data movement), and the traffic of reading every input
and writing the output in their layouts. A program without a compute kernel (D2M's to_layout)
streams its tiles like a layout conversion. L1 per core: the program's own circular buffers (those
not aliased to a tensor) plus every L1 tensor operand's shard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.device.layout_info import layout_info
from ttopt.device.presets import unary_kind
from ttopt.device.rules.common import value_layout
from ttopt.dialects.ttkernel_program import program_body, summarize
from ttopt.ir.types import TensorType

if TYPE_CHECKING:
    from ttopt.device.cost_model import CostModel, OpCost
    from ttopt.device.cost_terms import CostParams

_BINARY_CALLS = ("_tiles", "_binary_tile")
_MOVE_CALLS = frozenset({"copy_tile", "unary_bcast", "pack_tile"})
_TILE_NAMES = {"recip": "reciprocal", "negative": "neg"}  # tt-metal's tile function -> the TTNN op


@dataclass(frozen=True)
class GenericIO:
    """The tensor operands of a generic: inputs, and the output it writes (its last tensor)."""

    inputs: tuple[Any, ...]
    output: Any


def generic_io(op: Any) -> GenericIO:
    """Inputs and output of a `ttnn.generic` (ValueError without a tensor operand)."""
    seg = op.properties.get("operandSegmentSizes")
    n = seg.values[0] if seg is not None and len(getattr(seg, "values", ())) == 2 else len(op.operands)
    tensors = [v for v in op.operands[:n] if isinstance(v.type.resolve(), TensorType)]
    if not tensors:
        raise ValueError("ttnn.generic has no tensor operand")
    return GenericIO(tuple(tensors[:-1]), tensors[-1])



def _kernel_body_calls(op: Any, symbol: str) -> list[str]:
    top = op
    while top.parent_op is not None:
        top = top.parent_op
    for f in top.walk():
        if f.name == "func.func" and getattr(f.properties.get("sym_name"), "value", None) == symbol:
            return [getattr(o.properties.get("callee"), "value", "") for o in f.walk() if o.name == "emitc.call_opaque"]
    return []


def call_kind(fn: str) -> str | None:
    """The cost kind of one compute-kernel call (None: setup, synchronisation, inits)."""
    if fn.endswith("_init") or fn.startswith(("tile_regs", "init_sfpu", "binary_op_init", "cb_")):
        return None
    if fn in _MOVE_CALLS:
        return "data_movement"
    if fn.endswith(_BINARY_CALLS):
        return "eltwise_binary"
    if fn.endswith("_tile"):
        base = fn.removesuffix("_tile")
        return unary_kind(_TILE_NAMES.get(base, base))
    return None


def compute_cycles_per_tile(op: Any, p: CostParams) -> float | None:
    """Cycles the program's compute kernel spends per output tile (None: no compute kernel)."""
    body = program_body(op)
    if body is None:
        return None
    computes = [sym for kind, sym in summarize(body).kernels if kind == "compute_kernel"]
    if not computes:
        return None
    total = 0.0
    for sym in computes:
        for fn in _kernel_body_calls(op, sym):
            total += call_cycles(fn, p)
    return total


def call_cycles(fn: str, p: CostParams) -> float:
    """Cycles per tile of one compute-kernel call (0: not per tile): a unary call as its op
    (`CostParams.tile_cycles`), any other its kind's."""
    kind = call_kind(fn)
    if kind is None:
        return 0.0
    base = fn.removesuffix("_tile")
    return p.tile_cycles(kind, _TILE_NAMES.get(base, base) if kind.startswith("eltwise_unary") else "")


def generic_l1(op: Any) -> int:
    """L1 bytes per core while the program runs: its own circular buffers and its L1 operands' shards."""
    body = program_body(op)
    own = summarize(body).cb_bytes if body is not None else 0
    io = generic_io(op)
    return own + sum(layout_info(value_layout(v, "a ttnn.generic operand")).per_core_bytes for v in (*io.inputs, io.output))


def generic_cost(model: CostModel, op: Any) -> OpCost:
    """Estimated ns of one `ttnn.generic` with the layouts its operands have."""
    from ttopt.device.layout_info import tensor_tiles

    io = generic_io(op)
    ins = tuple(layout_info(value_layout(v, "a ttnn.generic operand")) for v in io.inputs)
    out = layout_info(value_layout(io.output, "a ttnn.generic operand"))
    shapes = [tuple(v.type.resolve().shape) for v in io.inputs]
    out_shape = tuple(io.output.type.resolve().shape)
    per_tile = compute_cycles_per_tile(op, model.params)
    if per_tile is None:  # reader + writer only: a relayout
        return model._stream("layout", tensor_tiles(out_shape), shapes, ins, out_shape, out)
    # The dispatch kind counts work in cycles (cycles_per_tile.dispatch = 1).
    return model._stream("dispatch", int(per_tile * tensor_tiles(out_shape)), shapes, ins, out_shape, out)
