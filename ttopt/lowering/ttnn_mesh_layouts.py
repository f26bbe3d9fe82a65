"""The layouts tt-mlir HEAD's TTNNLayout gives `mesh_shard` and `mesh_partition`, with the transfers
HEAD's TTNNDecomposeLayouts makes around them:

* `mesh_shard` (`ttnn.distribute_tensor` / `ttnn.aggregate_tensor`) reads and writes row-major host
  tensors (TTNNLayoutMeshShardRewriter). A device input is brought to the host first: a tiled one
  is untilized on the device (`ttnn.to_layout`) and read back (`ttnn.from_device`); for data types
  the device cannot untilize (not bf16, f32, ui32, ui16, si32) the untilize runs on the host after
  the transfer.
* `mesh_partition` reads and writes row-major DRAM (TTNNLayoutMeshPartitionRewriter): a tiled input
  is untilized by a `ttnn.to_layout`, a host one moved by `ttnn.to_device`.
* Readers of those results get what they take: another mesh_shard the host tensor, another
  mesh_partition row-major DRAM, the function's return a mesh_shard result as it is, and every
  other op one tiled DRAM-interleaved copy (`ttnn.to_device` + `ttnn.to_layout`, tilizing on the
  device when the data type allows, else on the host first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout
from ttopt.sharding.ttnn_collectives import COLLECTIVE_RULES
from ttopt.sharding.ttnn_mesh_shard import MESH_SHARD_RULES

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

# Data types tt-metal tilizes and untilizes on the device (TTNNDecomposeLayouts).
DEVICE_RELAYOUT = frozenset({DataType.BF16, DataType.F32, DataType.U32, DataType.U16, DataType.SI32})
HOST, DEVICE_RM, TILED = "host", "device_rm", "tiled"


def _kind(v: Any) -> str:
    lay = current_layout(v.type)
    if lay is None or lay.is_tiled:
        return TILED
    return HOST if lay.is_system_memory else DEVICE_RM


def _typed(lw: _Lowering, v: Any, kind: str, op: Any) -> Any:
    """`v`'s tensor type in the memory and page layout `kind`."""
    t = v.type.resolve()
    shape = tuple(int(d) for d in t.shape)
    plain = TensorType(shape, t.element_type)
    if kind == HOST:
        return lw.layout_type(plain, op, host=True)
    tiled = lw.layout_type(plain, op)
    if kind == TILED:
        return tiled
    lay = current_layout(tiled)
    assert lay is not None
    return lw.aliaser.tensor_type(plain, lay.relayout(shape, tiled=False))


def _op(lw: _Lowering, name: str, operands: list[Any], result_type: Any, loc: Any) -> Any:
    op = Operation(name, operands, [result_type], location=loc)
    lw.out.append(op)
    return op.results[0]


def convert(lw: _Lowering, v: Any, kind: str, op: Any) -> Any:
    """`v` moved and relaid out to `kind` with HEAD's primitive transfers (a tiled tensor reaches
    the host through `to_host`)."""
    have = _kind(v)
    if have == kind:
        return v
    loc = op.location
    if kind == HOST:
        if have == TILED:
            v = _op(lw, "ttnn.to_layout", [v], _typed(lw, v, DEVICE_RM, op), loc)
        return _op(lw, "ttnn.from_device", [v], _typed(lw, v, HOST, op), loc)
    if kind == DEVICE_RM:
        if have == HOST:
            return _op(lw, "ttnn.to_device", [v, lw.get_device()], _typed(lw, v, DEVICE_RM, op), loc)
        return _op(lw, "ttnn.to_layout", [v], _typed(lw, v, DEVICE_RM, op), loc)
    if have == HOST and _dtype(v) not in DEVICE_RELAYOUT:
        # Tilized on the host, then moved: the device cannot tilize this data type.
        v = _op(lw, "ttnn.to_layout", [v], _relaid_type(lw, v, buffer_type="system_memory", tiled=True), loc)
        return _op(lw, "ttnn.to_device", [v, lw.get_device()], _typed(lw, v, TILED, op), loc)
    if have == HOST:
        v = _op(lw, "ttnn.to_device", [v, lw.get_device()], _typed(lw, v, DEVICE_RM, op), loc)
    return _op(lw, "ttnn.to_layout", [v], _typed(lw, v, TILED, op), loc)


def _dtype(v: Any) -> Any:
    lay = current_layout(v.type)
    return lay.dtype if lay is not None else None


def _relaid_type(lw: _Lowering, v: Any, **changes: Any) -> Any:
    lay = current_layout(v.type)
    assert lay is not None
    t = v.type.resolve()
    shape = tuple(int(d) for d in t.shape)
    return lw.aliaser.tensor_type(TensorType(shape, t.element_type), lay.relayout(shape, **changes))


def to_host(lw: _Lowering, v: Any, op: Any) -> Any:
    """`v` on the host, row-major: untilized on the device when its data type allows, else after the transfer."""
    if _kind(v) == TILED and _dtype(v) not in DEVICE_RELAYOUT:
        v = _op(lw, "ttnn.from_device", [v], _relaid_type(lw, v, buffer_type="system_memory"), op.location)
        return _op(lw, "ttnn.to_layout", [v], _typed(lw, v, HOST, op), op.location)
    return convert(lw, v, HOST, op)


def _feed_readers(lw: _Lowering, op: Any, result: Any) -> Any:
    """Give each TTIR reader of `op`'s result the form it takes; the value the other readers use."""
    own = op.results[0]
    mesh_shard = op.name == "ttir.mesh_shard"
    forms: dict[str, Any] = {}
    others = False
    for u in list(own.users):
        if u.name == "ttir.mesh_shard":
            want = HOST
        elif u.name == "ttir.mesh_partition":
            want = DEVICE_RM
        elif u.name == "func.return" and mesh_shard:
            want = _kind(result)
        else:
            others = True
            continue
        if want not in forms:
            forms[want] = to_host(lw, result, op) if want == HOST else convert(lw, result, want, op)
        for i, v in enumerate(u.operands):
            if v is own:
                u.set_operand(i, forms[want])
    return convert(lw, result, TILED, op) if others else result


def _relaid(rule_name: str, input_kind: str, result_kind: str) -> Any:
    """The shared rule `rule_name`, its input brought to `input_kind`, its result typed `result_kind`."""
    rule = {**COLLECTIVE_RULES, **MESH_SHARD_RULES}[rule_name]

    def relaid(lw: _Lowering, op: Any) -> Any:
        before = len(lw.out)
        result = rule(lw, op)
        emitted = lw.out[before:]
        if not emitted or emitted[-1].results[0] is not result:
            return result  # folded, or a pre-sharded argument read as it is
        new = emitted[-1]
        del lw.out[before:]
        lw.out.extend(emitted[:-1])
        x = new.operands[0]
        x2 = to_host(lw, x, op) if input_kind == HOST else convert(lw, x, input_kind, op)
        new.set_operand(0, x2)
        lw.out.append(new)
        result.type = _typed(lw, result, result_kind, op)
        return _feed_readers(lw, op, result)

    return relaid


MESH_LAYOUT_RULES = {
    "mesh_shard": _relaid("mesh_shard", HOST, HOST),
    "mesh_partition": _relaid("mesh_partition", DEVICE_RM, DEVICE_RM),
}
