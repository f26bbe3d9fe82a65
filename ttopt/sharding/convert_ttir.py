"""`convert-to-ttir`: the sharding part of StableHLO -> TTIR (seed 004 §3-5; ref §4.3-4.4).

* `sdy.mesh` becomes the module attribute `ttcore.meshes = #ttcore.meshes<[<"mesh" = AxB>]>` (a 1-D
  mesh `[N]` is `1xN`; tt devices are 2-D).
* Each manual_computation is inlined between `ttir.mesh_shard` ops: one `full_to_shard` per operand
  (result type: the region argument's local type) and one `shard_to_full` per result (the global
  type). `shard_shape[d]` is the product of the axis sizes on tensor dimension d; `shard_dims[k]` is
  the dimension that tt mesh axis k shards (-1 when none, or when the axis has size 1). Nothing
  sharded is `replicate` with `[1]`/`[-1]`; otherwise `devices`. An argument whose
  `ttcore.shard_status` is sharded/presharded (or a function result marked so) is already the
  local tensor, as in tt-mlir HEAD's presharded path: the argument takes its local type and no
  mesh_shard is made (the result is returned as it is). Read also elsewhere, it keeps an
  `identity` mesh_shard (ttopt's spelling; HEAD has no identity shard type).
* GSPMD-partitioned functions: each `@Sharding` + `@SPMDFullToShardShape` / `@SPMDShardToFullShape`
  pair becomes the same `ttir.mesh_shard` (gspmd_to_ttir.py), in the SPMD call's place.
* StableHLO collectives become `ttir.all_reduce` / `all_gather` / `reduce_scatter` /
  `collective_permute` / `all_to_all` with `cluster_axis` = the tt mesh axis their replica groups
  follow; `collective_broadcast` keeps its replica groups. Groups over both axes are split into one op per axis (all_reduce, all_gather,
  reduce_scatter); groups of one device stay on a size-1 axis (as tt-mlir) and are no-ops otherwise. `reduce_type` comes from the reduction body.
* The `sdy.all_slice` composite becomes `ttir.mesh_partition` (its decomposition function goes).
* With `lower-compute`, `convert-stablehlo-to-ttir` then lowers the StableHLO compute ops
  (ttopt/lowering). It is off by default: without it the pass keeps its sharding-only contract, which
  the sharding tests check on every JAX file (most have ops with no TTIR lowering).
* Leftover `sdy.sharding` attributes are dropped; fully replicated `sdy.sharding_constraint`s (hints
  inside partially manual shard_maps) are dropped. Open or sub-axis shardings, partially manual
  computations that shard free axes and any other remaining sdy op are diagnostics.

The TTIR ops are written without DPS output operands (`ttir.empty`), as tt-mlir does today.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ttopt.ir.attributes import DenseArrayAttr, DialectAttr, DictAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType
from ttopt.ir.values import BlockArgument
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import get_pass, register_pass
from ttopt.sharding.collectives import ALL_SLICE, body_kind
from ttopt.sharding.diagnostics import fail, op_label, typed
from ttopt.sharding.func_attrs import SHARD_STATUS, arg_attrs, func_name, functions, res_attrs, strip_sdy_shardings
from ttopt.sharding.ir_views import int_value, tensor_type
from ttopt.sharding.mesh import Mesh, mesh_ops, replica_groups, the_mesh
from ttopt.sharding.sdy_ir import referenced_symbols
from ttopt.sharding.shard_spec import ShardSpec, refresh_function_type, shard_spec

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

UI32 = ScalarType("ui32")
SI32 = ScalarType("si32")
STABLEHLO_CCL = ("stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter",
                 "stablehlo.collective_permute", "stablehlo.all_to_all", "stablehlo.collective_broadcast")


def ui32(v: int) -> IntegerAttr:
    return IntegerAttr(v, UI32)


def si32(v: int) -> IntegerAttr:
    return IntegerAttr(v, SI32)


def _enum(name: str, value: str) -> DialectAttr:
    return DialectAttr(name, value)


def tt_mesh(module: Module, mesh: Mesh) -> Mesh:
    """The 2-D view of `mesh` tt uses (axes `d0`, `d1`), for matching replica groups."""
    from ttopt.dialects.sdy_attrs import MeshAttr

    try:
        a, b = mesh.tt_shape()
    except ValueError as e:
        raise fail(module, mesh.op, f"'sdy.mesh' op: {e}") from None
    return Mesh(mesh.name, MeshAttr.of([("d0", a), ("d1", b)]), mesh.op)


class Converter:
    def __init__(self, module: Module, mesh: Mesh | None) -> None:
        self.module = module
        self.mesh = mesh
        self.tt = tt_mesh(module, mesh) if mesh is not None else None
        self.counts: dict[str, int] = {}
        self.block_: Any = None
        self.out: list[Operation] = []

    def _count(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1

    def fail(self, op: Operation, message: str) -> Exception:
        return fail(self.module, op, f"{op_label(op)} {message}")

    # -- manual computations ---------------------------------------------------------------------
    def mesh_shard(self, anchor: Operation, v: Value, out_type: Any, spec: ShardSpec, direction: str, after: bool) -> Value:
        op = Operation("ttir.mesh_shard", [v], [out_type], properties={
            "shard_dims": DenseArrayAttr("i64", spec.dims),
            "shard_direction": _enum("ttcore.shard_direction", direction),
            "shard_shape": DenseArrayAttr("i64", spec.shape),
            "shard_type": _enum("ttcore.shard_type", spec.kind),
        })
        block = anchor.parent
        assert block is not None, "a manual_computation being converted sits in its function's body"
        block.insert(block.index(anchor) + (1 if after else 0), op)
        self._count("mesh_shard")
        return op.results[0]

    def manual(self, func: Operation, mc: Operation) -> None:
        if self.mesh is None:
            raise self.fail(mc, "needs the module's 'sdy.mesh'")
        axes = set(typed(self.module, mc, mc.properties["manual_axes"], "manual_axes").names)
        free = {a for a in self.mesh.axis_names if a not in axes and self.mesh.size(a) > 1}
        ins = typed(self.module, mc, mc.properties["in_shardings"], "in_shardings").shardings
        outs = typed(self.module, mc, mc.properties["out_shardings"], "out_shardings").shardings
        for label, ss in (("in_shardings", ins), ("out_shardings", outs)):
            for s in ss:
                used = {r.name for d in s.dim_shardings for r in d.axes} & free
                if used:
                    raise self.fail(mc, f"{label} {s.op_text()} shards the free (non-manual) axes "
                                    f"{', '.join(sorted(used))}; partially manual computations are supported only "
                                    "when free axes stay replicated")
        presharded_args = self.shard_statuses(arg_attrs(func))
        presharded_res = self.shard_statuses(res_attrs(func))
        entry = func.regions[0].blocks[0]
        block = mc.regions[0].blocks[0]
        # full_to_shard for each operand
        for i, (v, a, s) in enumerate(zip(list(mc.operands), block.args, ins)):
            spec = shard_spec(self.module, mc, self.mesh, s, f"in_shardings[{i}]")
            if isinstance(v, BlockArgument) and v.block is entry and presharded_args[v.index]:
                if all(u is mc for u in v.users):
                    # HEAD's presharded path: the argument is already the local tensor.
                    v.type = a.type
                    a.replace_all_uses_with(v)
                    continue
                spec = ShardSpec("identity", spec.shape, spec.dims)
            local = self.mesh_shard(mc, v, a.type, spec, "full_to_shard", after=False)
            a.replace_all_uses_with(local)
        # inline the body
        parent = mc.parent
        assert parent is not None, "run() converts manual computations at function level only"
        at = parent.index(mc)
        ret = block.ops[-1]
        body = block.ops[:-1]
        for op in body:
            parent.insert(at, op)
            at += 1
        block.ops = [ret]
        results = list(ret.operands)
        ret.drop_all_references()
        # shard_to_full for each result
        for j, (r, v, s) in enumerate(zip(mc.results, results, outs)):
            spec = shard_spec(self.module, mc, self.mesh, s, f"out_shardings[{j}]")
            if any(u.name == "func.return" and presharded_res[k] for u in r.users for k, x in enumerate(u.operands) if x is r):
                if all(u.name == "func.return" for u in r.users):
                    # HEAD's presharded path: the function returns the local tensor.
                    r.replace_all_uses_with(v)
                    continue
                spec = ShardSpec("identity", spec.shape, spec.dims)
            full = self.mesh_shard(mc, v, r.type, spec, "shard_to_full", after=False)
            r.replace_all_uses_with(full)
        mc.erase()
        refresh_function_type(func)

    @staticmethod
    def shard_statuses(dicts: list[dict]) -> list[bool]:
        """Per argument (or result): is it pre-sharded (`ttcore.shard_status` sharded/presharded)?"""
        out = []
        for d in dicts:
            a = d.get(SHARD_STATUS)
            body = getattr(a.resolve(), "body", None) if a is not None else None
            out.append(body is not None and body.strip() in ("sharded", "presharded"))
        return out

    # -- collectives -----------------------------------------------------------------------------
    def axes_of(self, op: Operation, exact: bool) -> list[int] | None:
        """tt mesh axes the op's replica groups follow (major first); [] for one-device groups on a mesh
        without a size-1 axis."""
        attr = op.properties.get("replica_groups")
        if attr is None:
            raise self.fail(op, "has no replica_groups")
        if self.tt is None:
            raise self.fail(op, "needs the module's 'sdy.mesh' to map its replica groups to a mesh axis")
        vals = attr.resolve().values
        shape = attr.resolve().type.shape
        if not isinstance(vals, list):
            vals = [[int(vals)] * shape[1] for _ in range(shape[0])]
        groups = [tuple(g) for g in vals]
        if all(len(g) == 1 for g in groups):
            # One-device groups are the groups of a size-1 mesh axis (axis 0 of a 1xN mesh, as JAX emits
            # for a collective over it): the op stays on that axis, as tt-mlir keeps it; on a mesh
            # without a size-1 axis they are a no-op and the op goes.
            for a in (0, 1):
                if self.tt.shape[a] == 1 and {frozenset(g) for g in groups} == {frozenset(g) for g in replica_groups(self.tt, [f"d{a}"])}:
                    return [a]
            return []
        for axes in ([1], [0], [0, 1]):
            want = [tuple(g) for g in replica_groups(self.tt, [f"d{a}" for a in axes])]
            if (sorted(groups) == sorted(want)) if exact else ({frozenset(g) for g in groups} == {frozenset(g) for g in want}):
                return [a for a in axes if self.tt.shape[a] > 1]
        return None

    def _check_channel(self, op: Operation) -> None:
        ch = op.properties.get("channel_handle")
        body = getattr(ch.resolve(), "body", "") if ch is not None else ""
        if body and not any(f"type = {t}" in body for t in (0, 1)):
            raise self.fail(op, f"has channel type {body}; only types 0 and 1 are supported")

    def collective(self, op: Operation) -> None:
        name = op.name.split(".", 1)[1]
        self._check_channel(op)
        if name == "collective_broadcast":
            # Its replica groups are the broadcast's own (the op keeps them, as tt-mlir's does).
            self.emit(Operation("ttir.collective_broadcast", [op.operands[0]], [op.results[0].type], properties={
                "replica_groups": op.properties["replica_groups"]}))
            op.results[0].replace_all_uses_with(self.out[-1].results[0])
            self.drop(op)
            return
        exact = name != "all_reduce"
        axes = [] if name == "collective_permute" else self.axes_of(op, exact)
        tt = self.tt  # set whenever axes_of returns (it raises without a mesh)
        if axes is None:
            assert tt is not None
            groups = op.properties["replica_groups"].resolve().text
            raise self.fail(op, f"has replica groups {groups} that follow no mesh axis of the "
                            f"{'x'.join(map(str, tt.shape))} tt mesh; TTIR collectives need a cluster axis")
        def emit(new: Operation) -> Value:
            self.emit(new)
            return new.results[0]

        outs: list[Value] = []
        if name == "collective_permute":
            outs.append(emit(Operation("ttir.collective_permute", [op.operands[0]], [op.results[0].type], properties={
                "source_target_pairs": op.properties["source_target_pairs"]})))
        elif name == "all_reduce":
            kind = self._kind(op)
            for v in op.operands:
                for a in axes:
                    v = emit(Operation("ttir.all_reduce", [v], [v.type], properties={
                        "cluster_axis": ui32(a), "reduce_type": _enum("ttcore.reduce_type", kind)}))
                outs.append(v)
        elif name == "all_gather":
            assert tt is not None
            dim = int_value(op.properties["all_gather_dim"])
            for v in op.operands:
                for a in reversed(axes):  # minor axis first
                    shape = list(tensor_type(v).shape)
                    shape[dim] *= tt.shape[a]
                    v = emit(Operation("ttir.all_gather", [v], [tensor_type(v).with_shape(tuple(shape))], properties={
                        "all_gather_dim": si32(dim), "cluster_axis": ui32(a)}))
                outs.append(v)
        elif name == "reduce_scatter":
            kind = self._kind(op)
            assert tt is not None
            dim = int_value(op.properties["scatter_dimension"])
            v = op.operands[0]
            for a in axes:  # major axis first
                shape = list(tensor_type(v).shape)
                shape[dim] //= tt.shape[a]
                v = emit(Operation("ttir.reduce_scatter", [v], [tensor_type(v).with_shape(tuple(shape))], properties={
                    "cluster_axis": ui32(a), "reduce_type": _enum("ttcore.reduce_type", kind), "scatter_dim": si32(dim)}))
            outs.append(v)
        else:  # all_to_all
            pr = op.properties
            if len(axes) > 1:
                raise self.fail(op, "spans both mesh axes; ttir.all_to_all needs one cluster axis")
            v = op.operands[0]
            if axes:
                v = emit(Operation("ttir.all_to_all", [v], [op.results[0].type], properties={
                    "cluster_axis": ui32(axes[0]),
                    "concat_dim": si32(int_value(pr["concat_dimension"])),
                    "replica_groups": pr["replica_groups"],
                    "split_count": si32(int_value(pr["split_count"])),
                    "split_dim": si32(int_value(pr["split_dimension"])),
                }))
            outs.append(v)
        for r, v in zip(op.results, outs):
            if v.type != r.type:
                raise self.fail(op, f"converts to a {v.type.text} result, not {r.type.text}")
            r.replace_all_uses_with(v)
        self.drop(op)

    def _kind(self, op: Operation) -> str:
        kind = body_kind(op)
        if kind is None:
            raise self.fail(op, "has a reduction body that is not add, maximum or minimum")
        return kind

    def all_slice(self, op: Operation) -> None:
        attrs = cast(DictAttr, op.properties["composite_attributes"])
        axis = attrs.get("axis").value
        dim = attrs.get("dim").value
        if self.mesh is None or not self.mesh.has(axis):
            raise self.fail(op, f"slices along axis \"{axis}\", which the module's mesh does not have")
        new = Operation("ttir.mesh_partition", [op.operands[0]], [op.results[0].type], properties={
            "cluster_axis": ui32(self.mesh.tt_axis_index(axis)), "dim": si32(dim)})
        self.emit(new)
        op.results[0].replace_all_uses_with(new.results[0])
        self.drop(op)

    # -- rebuilding blocks (one pass per block: no per-op index scans) -----------------------------
    def emit(self, new: Operation) -> None:
        new.parent = self.block_
        self.out.append(new)
        self._count(new.name)

    @staticmethod
    def drop(op: Operation) -> None:
        op.drop_all_references()
        op.parent = None

    def convert_block(self, block: Any) -> None:
        saved = (self.block_, self.out)
        self.block_, self.out = block, []
        for op in list(block.ops):
            if op.name in STABLEHLO_CCL:
                self.collective(op)
            elif op.name == "stablehlo.composite" and getattr(op.properties.get("name"), "value", None) == ALL_SLICE:
                self.all_slice(op)
            elif op.name == "sdy.sharding_constraint":
                s = typed(self.module, op, op.properties["sharding"], "sharding")
                if not s.is_fully_replicated:
                    raise self.fail(op, f"{s.op_text()} is left in the graph; run the stablehlo-pipeline first")
                op.results[0].replace_all_uses_with(op.operands[0])
                self.drop(op)
            elif op.dialect == "sdy":
                raise self.fail(op, "is left in the graph; run the stablehlo-pipeline (steps 10-11) first")
            else:
                self.out.append(op)
                for region in op.regions:
                    for b in region.blocks:
                        self.convert_block(b)
        block.ops = self.out
        self.block_, self.out = saved


@register_pass
@dataclass
class ConvertToTTIR(Pass):
    """Shardy/StableHLO sharding constructs to TTIR: mesh_shard, CCL ops, ttcore.meshes."""

    name = "convert-to-ttir"
    summary = "sdy.mesh -> ttcore.meshes, manual_computation -> ttir.mesh_shard, StableHLO collectives -> ttir CCL ops"

    lower_compute: bool = option(False, "Then lower the StableHLO compute ops to TTIR (convert-stablehlo-to-ttir)")

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.dialects.ttcore_attrs import MeshesAttr

        mesh = the_mesh(module, required=False)
        conv = Converter(module, mesh)
        if mesh is not None:
            assert conv.tt is not None  # the Converter builds the tt view of every mesh
            module.op.attributes["ttcore.meshes"] = DialectAttr.of(MeshesAttr.of([(mesh.name, conv.tt.shape)]))
        funcs = functions(module)
        # The GSPMD conversion builds on this module's Converter, so it is imported here, not above.
        from ttopt.sharding.gspmd_to_ttir import convert_pairs

        for f in funcs:
            convert_pairs(conv, f)
            for mc in [op for op in f.walk() if op.name == "sdy.manual_computation"]:
                if mc.parent_op is not f:
                    raise conv.fail(mc, "is nested inside another op; only manual computations at function level convert")
                conv.manual(f, mc)
        for f in funcs:
            for region in f.regions:
                for b in region.blocks:
                    conv.convert_block(b)
            strip_sdy_shardings(f)
        for op in mesh_ops(module):
            module.body.remove(op)
        used = referenced_symbols(module)
        for f in functions(module):
            if func_name(f).startswith(f"{ALL_SLICE}_") and func_name(f) not in used:
                f.drop_all_references()
                module.body.remove(f)
        ctx.stats.setdefault(self.name, {}).update(conv.counts)
        if not self.lower_compute:
            return
        # The compute ops go next. That pass lives in ttopt.lowering (layer 5), above sharding (layer 4),
        # and tests/architecture/test_layering.py rejects upward imports even inside a function, so it
        # is found by name through the pass registry.
        lower = get_pass("convert-stablehlo-to-ttir")
        assert lower is not None
        lower().run(module, ctx)
