"""Building StableHLO collectives over mesh axes (ref §4.2), for `update-global-to-local-shapes`.

* all_gather / reduce_scatter / all_reduce / all_to_all use the replica groups of one mesh axis
  (or of several, major first), `channel_handle = <handle = 1, type = 1>` as tt-mlir, plus
  `use_global_device_ids` where StableHLO has it (the groups hold flattened device ids).
* all_reduce and reduce_scatter take their combiner (sum, max, min) from the caller, so a max/min
  reduction over a sharded dimension is combined with max/min, not always with add (ref §3.6).
* collective_permute takes explicit (source, target) pairs.
* `sdy.all_slice` has no communication: every device keeps its own piece. It becomes a
  `stablehlo.composite "sdy.all_slice"` (attributes `axis`, `dim`) whose decomposition computes the
  piece from `stablehlo.partition_id` with a `dynamic_slice`; `convert-to-ttir` turns it into
  `ttir.mesh_partition`.
"""

from __future__ import annotations

from math import prod
from typing import TYPE_CHECKING, Protocol, Sequence, cast

from ttopt.ir.attributes import (
    DenseElementsAttr,
    DialectAttr,
    DictAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import FunctionType, ScalarType, TensorType, Type
from ttopt.sharding.ir_views import tensor_type
from ttopt.sharding.mesh import Mesh, replica_groups

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.values import OpResult, Value

I64 = ScalarType("i64")
UI32 = ScalarType("ui32")
COMBINERS = {"sum": "stablehlo.add", "max": "stablehlo.maximum", "min": "stablehlo.minimum"}
ALL_SLICE = "sdy.all_slice"


def i64(v: int) -> IntegerAttr:
    return IntegerAttr(v, I64)


def dense_ints(rows: Sequence[Sequence[int]]) -> DenseElementsAttr:
    """`dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>` (a splat when all values are equal, as MLIR prints)."""
    flat = [x for r in rows for x in r]
    t = TensorType((len(rows), len(rows[0]) if rows else 0), I64)
    if flat and all(x == flat[0] for x in flat):
        return DenseElementsAttr(str(flat[0]), t)
    body = "[" + ", ".join("[" + ", ".join(str(x) for x in r) + "]" for r in rows) + "]"
    return DenseElementsAttr(body, t)


def channel_handle() -> DialectAttr:
    return DialectAttr("stablehlo.channel_handle", "handle = 1, type = 1")


class OpSink(Protocol):
    """Where the builder puts the ops it creates (an Inserter, or a list that becomes a block)."""

    def add(self, op: Operation) -> Operation: ...


class Inserter:
    """Inserts ops into a block at a moving position."""

    def __init__(self, block: Block, index: int) -> None:
        self.block = block
        self.index = index

    @classmethod
    def before(cls, op: Operation) -> Inserter:
        block = op.parent
        assert block is not None, "inserting next to an op that is in no block"
        return cls(block, block.index(op))

    @classmethod
    def after(cls, op: Operation) -> Inserter:
        block = op.parent
        assert block is not None, "inserting next to an op that is in no block"
        return cls(block, block.index(op) + 1)

    def add(self, op: Operation) -> Operation:
        self.block.insert(self.index, op)
        self.index += 1
        return op


def scalar_body(kind: str, element: Type) -> Region:
    """`^bb0(%a: tensor<T>, %b: tensor<T>): %r = <combiner> %a, %b; stablehlo.return %r`."""
    t = TensorType((), element)
    block = Block([t, t])
    op = Operation(COMBINERS[kind], [block.args[0], block.args[1]], [t])
    block.append(op)
    block.append(Operation("stablehlo.return", [op.results[0]], []))
    return Region([block])


def body_kind(op: Operation) -> str | None:
    """sum / max / min from the first add/maximum/minimum in a reduction body (ref §4.4)."""
    if not op.regions or not op.regions[0].blocks:
        return None
    for inner in op.regions[0].blocks[0].ops:
        for kind, name in COMBINERS.items():
            if inner.name == name:
                return kind
    return None


class CollectiveBuilder:
    """Creates collectives over the axes of one mesh; shared decomposition functions per module."""

    def __init__(self, module: Module, mesh: Mesh) -> None:
        self.module = module
        self.mesh = mesh
        self._slice_funcs: dict[tuple, str] = {}
        self._groups: dict[tuple[str, ...], DenseElementsAttr] = {}  # one (immutable) attribute per axes
        self.created: dict[str, int] = {}

    @property
    def slice_functions(self) -> set[str]:
        """Names of the all_slice decomposition functions this builder created."""
        return set(self._slice_funcs.values())

    def _count(self, name: str) -> None:
        self.created[name] = self.created.get(name, 0) + 1

    def groups(self, axes: Sequence[str]) -> DenseElementsAttr:
        key = tuple(axes)
        hit = self._groups.get(key)
        if hit is None:
            hit = self._groups[key] = dense_ints(replica_groups(self.mesh, axes))
        return hit

    def axes_size(self, axes: Sequence[str]) -> int:
        return prod(self.mesh.size(a) for a in axes)

    # -- collectives ------------------------------------------------------------------------------
    def all_gather(self, at: OpSink, v: Value, dim: int, axes: Sequence[str]) -> OpResult:
        n = self.axes_size(axes)
        t = tensor_type(v)
        shape = list(t.shape)
        shape[dim] *= n
        op = Operation("stablehlo.all_gather", [v], [t.with_shape(tuple(shape))], properties={
            "all_gather_dim": i64(dim), "channel_handle": channel_handle(), "replica_groups": self.groups(axes),
            "use_global_device_ids": UnitAttr(),
        })
        self._count("all_gather")
        return at.add(op).results[0]

    def all_reduce(self, at: OpSink, v: Value, axes: Sequence[str], kind: str) -> OpResult:
        op = Operation("stablehlo.all_reduce", [v], [v.type], properties={
            "channel_handle": channel_handle(), "replica_groups": self.groups(axes), "use_global_device_ids": UnitAttr(),
        }, regions=[scalar_body(kind, tensor_type(v).element_type)])
        self._count("all_reduce")
        return at.add(op).results[0]

    def reduce_scatter(self, at: OpSink, v: Value, dim: int, axes: Sequence[str], kind: str) -> OpResult:
        n = self.axes_size(axes)
        t = tensor_type(v)
        shape = list(t.shape)
        shape[dim] //= n
        op = Operation("stablehlo.reduce_scatter", [v], [t.with_shape(tuple(shape))], properties={
            "channel_handle": channel_handle(), "replica_groups": self.groups(axes), "scatter_dimension": i64(dim),
            "use_global_device_ids": UnitAttr(),
        }, regions=[scalar_body(kind, t.element_type)])
        self._count("reduce_scatter")
        return at.add(op).results[0]

    def all_to_all(self, at: OpSink, v: Value, src: int, tgt: int, axes: Sequence[str]) -> OpResult:
        """sdy `{axes}: src->tgt`: split `tgt`, concatenate `src` (ref §4.2)."""
        n = self.axes_size(axes)
        t = tensor_type(v)
        shape = list(t.shape)
        shape[tgt] //= n
        shape[src] *= n
        op = Operation("stablehlo.all_to_all", [v], [t.with_shape(tuple(shape))], properties={
            "channel_handle": channel_handle(), "concat_dimension": i64(src), "replica_groups": self.groups(axes),
            "split_count": i64(n), "split_dimension": i64(tgt),
        })
        self._count("all_to_all")
        return at.add(op).results[0]

    def collective_permute(self, at: OpSink, v: Value, pairs: Sequence[tuple[int, int]]) -> OpResult:
        op = Operation("stablehlo.collective_permute", [v], [v.type], properties={
            "channel_handle": channel_handle(), "source_target_pairs": dense_ints([list(p) for p in pairs]),
        })
        self._count("collective_permute")
        return at.add(op).results[0]

    def all_slice(self, at: OpSink, v: Value, dim: int, axis: str) -> OpResult:
        """Keep this device's piece of `dim` along `axis`: a composite with an exact decomposition."""
        n = self.mesh.size(axis)
        shape = list(tensor_type(v).shape)
        shape[dim] //= n
        out = tensor_type(v).with_shape(tuple(shape))
        fn = self._slice_func(v.type, out, dim, axis)
        op = Operation("stablehlo.composite", [v], [out], properties={
            "composite_attributes": DictAttr({"axis": StringAttr(axis), "dim": i64(dim)}),
            "decomposition": SymbolRefAttr(fn),
            "name": StringAttr(ALL_SLICE),
        })
        self._count("all_slice")
        return at.add(op).results[0]

    # -- all_slice decomposition ------------------------------------------------------------------
    def _slice_func(self, src: Type, out: TensorType, dim: int, axis: str) -> str:
        key = (src.canonical(), out.canonical(), dim, axis)
        name = self._slice_funcs.get(key)
        if name is not None:
            return name
        used = {op.properties["sym_name"].value for op in self.module.body.ops if "sym_name" in op.properties}
        k = len(self._slice_funcs)
        name = f"sdy.all_slice_{k}"
        while name in used:
            k += 1
            name = f"sdy.all_slice_{k}"
        self._slice_funcs[key] = name
        self.module.body.append(self._build_slice_func(name, src, out, dim, axis))
        return name

    def _build_slice_func(self, name: str, src: Type, out: TensorType, dim: int, axis: str) -> Operation:
        """`func.func private @name(%x: src) -> out`: this device's piece of `dim` (`out` has `src`'s rank)."""
        out_shape = out.shape
        assert out_shape is not None, "all_slice builds `out` with a static shape"
        mesh = self.mesh
        k = mesh.index(axis)
        stride = prod(mesh.shape[k + 1 :])
        size = mesh.shape[k]
        scalar = TensorType((), UI32)
        block = Block([src])
        b = Inserter(block, 0)

        def const(v: int) -> Value:
            return b.add(Operation("stablehlo.constant", [], [scalar], properties={
                "value": DenseElementsAttr(str(v), scalar)}, result_names=["c"])).results[0]

        def binary(name: str, x: Value, y: Value) -> Value:
            return b.add(Operation(name, [x, y], [scalar])).results[0]

        idx: Value = b.add(Operation("stablehlo.partition_id", [], [scalar])).results[0]
        if stride != 1:
            idx = binary("stablehlo.divide", idx, const(stride))
        if k != 0:
            idx = binary("stablehlo.remainder", idx, const(size))
        offset = binary("stablehlo.multiply", idx, const(cast(int, out_shape[dim])))
        zero = const(0)
        starts = [offset if d == dim else zero for d in range(len(out_shape))]
        from ttopt.ir.attributes import DenseArrayAttr

        ds = b.add(Operation("stablehlo.dynamic_slice", [block.args[0], *starts], [out], properties={
            "slice_sizes": DenseArrayAttr("i64", tuple(out_shape))}))
        b.add(Operation("func.return", [ds.results[0]], []))
        return Operation("func.func", properties={
            "sym_name": StringAttr(name),
            "function_type": TypeAttr(FunctionType((src,), (out,))),
            "sym_visibility": StringAttr("private"),
        }, regions=[Region([block])])
