"""`apply-shardy-argument-annotations` (seed 004 step 4; upstream `analyze-mesh`, ref §2.4).

The seed's decision tree, in this order:

a. **Solved** (a manual_computation with manual axes exists): drop every `sdy.sharding` from
   arguments, results and ops (tt-mlir's `removeSdyTensorShardings`); the mesh is kept.
b. **Partially solved** (sdy annotations exist: on arguments, results, ops, or a
   `sdy.sharding_constraint`): change nothing but the mesh: a 1-D mesh `["a"=N]` becomes
   `["a_updated"=1, "a"=N]` (upstream 72cb), so every mesh is 2-D. Every sharding is checked
   against the mesh (known axes, each axis once, rank).
c. **GSPMD**: the mesh `["x"=a, "y"=b]` as tt-mlir derives it (gspmd.py: the first string that names
   devices, arguments first, then the SPMD custom calls in order, then results and `@Sharding`).
   A *partitioned* module (`@SPMDFullToShardShape` / `@SPMDShardToFullShape` pairs around a local
   body, gspmd_partitioned.py) keeps its strings and custom calls: the pipeline leaves it alone
   and `convert-to-ttir` turns each pair into a `ttir.mesh_shard`; every pair is checked against the
   mesh here. Otherwise (strings on arguments/results only) each string becomes an `sdy.sharding`
   and each `custom_call @Sharding` an `sdy.sharding_constraint`, for the Shardy path.
d. **No annotations**: a fresh `sdy.mesh @mesh = <["model"=a, "batch"=b]>` (the seed's names) whose
   shape is `--mesh-shape` (`1,N` or `N`), else the shape of a mesh the module already has, else
   `1x1` (single chip, upstream's fallback). Then batch parallelism:
   - with tt argument types: each `input` argument of the largest input rank gets
     `[{"batch"}, {}, ...]` (closed, as in the seed); `parameter`/`constant` arguments are closed
     replicated; other arguments are left open (`{?}`) for propagation;
   - otherwise, with `automatic-arg-analysis` (default on, the seed's "automatic analysis"): each
     argument of the largest rank (at least 4, as upstream) whose first dimension is not 1 gets
     `{"batch"}` on it; the others are open;
   - a first dimension that the batch axis does not divide stays unsharded (with a warning).
   A 1x1 mesh gets no argument shardings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import DialectAttr
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.values import BlockArgument
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding import gspmd, gspmd_partitioned
from ttopt.sharding.diagnostics import fail, typed, warn
from ttopt.sharding.func_attrs import (
    ARGUMENT_TYPE,
    MHLO_SHARDING,
    SDY_SHARDING,
    arg_attrs,
    argument_label,
    func_name,
    func_type,
    functions,
    has_body,
    require_ranked_signature,
    res_attrs,
    result_label,
    set_arg_attrs,
    set_res_attrs,
    strip_sdy_shardings,
)
from ttopt.sharding.mesh import Mesh, ShardingError, make_mesh_op, mesh_of, mesh_ops, the_mesh, validate_sharding
from ttopt.sharding.sdy_ir import is_solved, manual_computations, sdy_annotations

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.passes.context import PassContext

MESH_NAME = "mesh"
BATCH_AXES = ("model", "batch")


def parse_mesh_shape(values: list[Any]) -> tuple[int, int] | None:
    """`--mesh-shape 1,8` / `8` / `1x8` -> (1, 8); None when not given."""
    items: list[str] = []
    for v in values:
        items.extend(p for p in str(v).replace("x", ",").split(",") if p.strip())
    if not items:
        return None
    try:
        dims = [int(x) for x in items]
    except ValueError:
        raise Diagnostic(f"--mesh-shape: expected integers like '1,8', got '{','.join(items)}'") from None
    if any(d <= 0 for d in dims):
        raise Diagnostic(f"--mesh-shape: dimensions must be positive, got {dims}")
    if len(dims) == 1:
        return (1, dims[0])
    if len(dims) == 2:
        return (dims[0], dims[1])
    raise Diagnostic(f"--mesh-shape: tt devices are 1-D or 2-D meshes, got {len(dims)} dimensions {dims}")


def check_mesh_shape(values: list[Any]) -> None:
    """parse_mesh_shape's complaint as a ValueError (for Pass.validate)."""
    try:
        parse_mesh_shape(values)
    except Diagnostic as e:
        raise ValueError(e.message) from None


def stablehlo_mesh_attr(mesh: Any) -> Any:
    """JAX's `{axes = [{name = "x", size = 2 : i64}, ...]}` description of a mesh."""
    from ttopt.ir.attributes import ArrayAttr, DictAttr, IntegerAttr, StringAttr
    from ttopt.ir.types import ScalarType

    i64 = ScalarType("i64")
    axes = tuple(DictAttr({"name": StringAttr(a.name), "size": IntegerAttr(a.size, i64)}) for a in mesh.axes)
    return DictAttr({"axes": ArrayAttr(axes)})


def check_shardings(module: Module, mesh: Mesh) -> None:
    """Every sharding on arguments, results, ops and sdy ops fits the mesh and its tensor."""

    def check(op: Operation, label: str, attr: Any, types: list[Any], per_value: bool) -> None:
        model = typed(module, op, attr, f"{label}: sdy sharding")
        shardings = model.shardings if per_value else (model,)
        if len(shardings) != len(types):
            raise fail(module, op, f"{label}: {len(shardings)} sharding(s) for {len(types)} value(s)")
        for s, t in zip(shardings, types):
            try:
                validate_sharding(s, mesh, getattr(t, "rank", None))
            except ShardingError as e:
                raise fail(module, op, f"{label}: {e}") from None

    for f in functions(module):
        ft = func_type(f)
        for i, d in enumerate(arg_attrs(f)):
            if SDY_SHARDING in d:
                check(f, argument_label(f, i), d[SDY_SHARDING], [ft.inputs[i]], False)
        for i, d in enumerate(res_attrs(f)):
            if SDY_SHARDING in d:
                check(f, result_label(f, i), d[SDY_SHARDING], [ft.results[i]], False)
        for op in f.walk():
            label = f"'{op.name}' op"
            if op is not f and SDY_SHARDING in op.attributes:
                check(op, label, op.attributes[SDY_SHARDING], [r.type for r in op.results], True)
            for key in ("sharding", "out_sharding"):
                if key in op.properties and op.name.startswith("sdy."):
                    check(op, label, op.properties[key], [op.results[0].type if op.results else op.operands[0].type], False)


@register_pass
@dataclass
class ApplyShardyArgumentAnnotations(Pass):
    """Decide the mesh and the argument shardings (solved / partially solved / GSPMD / none)."""

    name = "apply-shardy-argument-annotations"
    summary = "Mesh and argument sdy.sharding from existing annotations, GSPMD strings, tt argument types or batch analysis"
    aliases = ("analyze-mesh",)

    mesh_shape: list = option([], "Device mesh for unannotated graphs, '1,N' (default: the module's mesh, else 1x1)")
    automatic_arg_analysis: bool = option(True, "Batch-shard unannotated graphs without tt argument types")

    def validate(self) -> None:
        """A malformed --mesh-shape is a usage error, whatever the input."""
        check_mesh_shape(self.mesh_shape)

    def run(self, module: Module, ctx: PassContext) -> None:
        shape = parse_mesh_shape(self.mesh_shape)
        meshes = mesh_ops(module)
        if len(meshes) > 1:
            the_mesh(module)  # raises the two-meshes diagnostic
        stats = ctx.stats.setdefault(self.name, {})
        self._check_one_partitioner(module)
        if is_solved(module):
            stats["graph"] = "solved"
            for f in functions(module):
                self._check_presharded(module, f)
                strip_sdy_shardings(f)
            return
        sdy_first = next(sdy_annotations(module), None)
        if sdy_first is not None:
            stats["graph"] = "partially solved"
            if not meshes:
                raise fail(module, sdy_first[0], f"{sdy_first[1]} has an sdy sharding but the module has no 'sdy.mesh'")
            if shape is not None:
                warn(module, meshes[0], "--mesh-shape is ignored: the module has sdy annotations and its own mesh")
            mesh = self._normalize(module, meshes[0])
            check_shardings(module, mesh)
            return
        if gspmd_partitioned.is_partitioned(module):
            stats["graph"] = "gspmd partitioned"
            self._gspmd_partitioned(module)
            return
        for f in functions(module):
            for op in f.walk():
                if op is not f and MHLO_SHARDING in op.attributes and gspmd_partitioned.call_target(op) != "Sharding":
                    raise fail(module, op, f"'{op.name}' op has an mhlo.sharding; ttopt reads GSPMD strings on "
                               "arguments, results and custom_call @Sharding only")
        gspmd_args = list(self._gspmd_strings(module))
        constraints = [op for f in functions(module) for op in f.walk() if gspmd_partitioned.call_target(op) == "Sharding"]
        if gspmd_args or constraints:
            stats["graph"] = "gspmd"
            self._from_gspmd(module, gspmd_args, constraints)
            return
        stats["graph"] = "unannotated"
        self._batch_parallel(module, shape, meshes)

    @staticmethod
    def _check_presharded(module: Module, f: Operation) -> None:
        """A pre-sharded argument read by a solved manual_computation with another sharding would
        need a reshard that a solved graph no longer gets (the identity mesh_shard moves no data)."""
        if not has_body(f):
            return
        entry = f.regions[0].blocks[0]
        dicts = arg_attrs(f)
        for mc in manual_computations(f):
            ins = typed(module, mc, mc.properties["in_shardings"], "in_shardings").shardings
            for v, s_in in zip(mc.operands, ins):
                if not isinstance(v, BlockArgument) or v.block is not entry or SDY_SHARDING not in dicts[v.index]:
                    continue
                s_arg = typed(module, f, dicts[v.index][SDY_SHARDING], argument_label(f, v.index))
                axes = lambda s: [tuple(r.print_body() for r in d.axes) for d in s.dim_shardings]  # noqa: E731
                if axes(s_arg) != axes(s_in):
                    warn(module, mc, f"{argument_label(f, v.index)} is pre-sharded as {s_arg.op_text()} but the "
                         f"manual_computation reads it as {s_in.op_text()}; solved graphs get no reshard for this")

    @staticmethod
    def _check_one_partitioner(module: Module) -> None:
        """GSPMD pairs and Shardy annotations in one module would be two partitionings of it."""
        spmd = next(gspmd_partitioned.spmd_ops(module), None)
        if spmd is None:
            return
        sdy = next(sdy_annotations(module), None)
        what = sdy[1] if sdy is not None else ("a manual computation" if is_solved(module) else None)
        if what is not None:
            raise fail(module, spmd, f"GSPMD custom_call @{gspmd_partitioned.call_target(spmd)} in a module with Shardy "
                       f"annotations ({what}); ttopt takes a module partitioned by one of them")

    # -- b. partially solved ---------------------------------------------------------------------
    def _normalize(self, module: Module, op: Operation) -> Mesh:
        mesh = mesh_of(module, op)
        if len(mesh.shape) > 2:
            raise fail(module, op, f"'sdy.mesh' op @{mesh.name} has {len(mesh.shape)} axes; tt devices are 1-D or 2-D meshes")
        if len(mesh.shape) < 2:
            from ttopt.dialects.sdy_attrs import MeshAttr

            axes = list(zip(mesh.axis_names, mesh.shape)) or [("default", 1)]
            new = MeshAttr.of([(axes[0][0] + "_updated", 1), *axes], mesh.attr.device_ids)
            op.properties["mesh"] = DialectAttr.of(new)
            if "stablehlo.mesh" in op.attributes:
                op.attributes["stablehlo.mesh"] = stablehlo_mesh_attr(new)
            mesh = mesh_of(module, op)
        return mesh

    # -- c. GSPMD --------------------------------------------------------------------------------
    @staticmethod
    def _gspmd_strings(module: Module):
        for f in functions(module):
            ft = func_type(f)
            for kind, dicts, types in (("arg", arg_attrs(f), ft.inputs), ("res", res_attrs(f), ft.results)):
                for i, d in enumerate(dicts):
                    if MHLO_SHARDING in d:
                        yield f, kind, i, d[MHLO_SHARDING], types[i]

    @staticmethod
    def _parse_string(module: Module, item: tuple) -> gspmd.GspmdSharding:
        f, kind, i, attr, _ = item
        label = argument_label(f, i) if kind == "arg" else result_label(f, i)
        try:
            return gspmd.parse_gspmd(getattr(attr, "value", attr.text))
        except gspmd.GspmdError as e:
            raise fail(module, f, f"{label}: mhlo.sharding {attr.text}: {e}") from None

    @staticmethod
    def _derive_mesh(module: Module, sources: list[tuple[Operation, str, gspmd.GspmdSharding]]) -> list[tuple[str, int]]:
        """tt-mlir's mesh (the first string naming devices) as the module's `sdy.mesh`."""
        shape = (1, 1)
        for op, what, g in sources:
            try:
                found = gspmd.tt_mesh_shape(g)
            except gspmd.GspmdError as e:
                raise fail(module, op, f"{what}: {e}") from None
            if found is not None:
                shape = found
                break
        axes = [("x", shape[0]), ("y", shape[1])]
        for op in mesh_ops(module):
            module.body.remove(op)
        module.body.insert(0, make_mesh_op(MESH_NAME, axes))
        return axes

    def _gspmd_partitioned(self, module: Module) -> None:
        """The mesh from the arguments and pairs, in tt-mlir's order; each pair must map onto it."""
        sources: list[tuple[Operation, str, gspmd.GspmdSharding]] = []
        strings = list(self._gspmd_strings(module))
        pairs = gspmd_partitioned.pairs(module)
        for item in strings:
            if item[1] == "arg":
                sources.append((item[0], f"{argument_label(item[0], item[2])}: mhlo.sharding {item[3].text}",
                                self._parse_string(module, item)))
        for pair in pairs:
            sources.append((pair.spmd_op, f"mhlo.sharding \"{pair.global_text}\"", pair.global_sharding))
        for item in strings:
            if item[1] == "res":
                sources.append((item[0], f"{result_label(item[0], item[2])}: mhlo.sharding {item[3].text}",
                                self._parse_string(module, item)))
        self._derive_mesh(module, sources)
        mesh = the_mesh(module)
        for pair in pairs:
            gspmd_partitioned.pair_sharding(module, pair, mesh)

    def _from_gspmd(self, module: Module, items: list, constraints: list[Operation]) -> None:
        """Strings on arguments/results become `sdy.sharding`, `@Sharding` calls sharding constraints."""
        from ttopt.dialects.sdy_attrs import TensorShardingAttr

        parsed = [self._parse_string(module, item) for item in items]
        read: list[tuple[Operation, str, gspmd.GspmdSharding]] = []
        for op in constraints:
            text = gspmd_partitioned.sharding_text(module, op)
            try:
                read.append((op, f"custom_call @Sharding: mhlo.sharding \"{text}\"", gspmd.parse_gspmd(text)))
            except gspmd.GspmdError as e:
                raise fail(module, op, f"custom_call @Sharding: mhlo.sharding \"{text}\": {e}") from None
        order = [(it[0], f"mhlo.sharding {it[3].text}", g) for it, g in zip(items, parsed) if it[1] == "arg"]
        order += [(it[0], f"mhlo.sharding {it[3].text}", g) for it, g in zip(items, parsed) if it[1] == "res"]
        axes = self._derive_mesh(module, order + read)

        for (f, kind, i, attr, t), g in zip(items, parsed):
            label = argument_label(f, i) if kind == "arg" else result_label(f, i)
            try:
                dims = gspmd.to_dim_axes(g, t.rank, axes)
            except gspmd.GspmdError as e:
                raise fail(module, f, f"{label}: mhlo.sharding {attr.text}: {e}") from None
            s = DialectAttr.of(TensorShardingAttr.of(MESH_NAME, dims))
            dicts = arg_attrs(f) if kind == "arg" else res_attrs(f)
            d = dicts[i]
            d.pop(MHLO_SHARDING)
            d[SDY_SHARDING] = s
            (set_arg_attrs if kind == "arg" else set_res_attrs)(f, dicts)
        for op, what, g in read:
            self._to_constraint(module, op, what, g, axes)

    @staticmethod
    def _to_constraint(module: Module, op: Operation, what: str, g: gspmd.GspmdSharding, axes: list[tuple[str, int]]) -> None:
        """`custom_call @Sharding(%x)` -> `sdy.sharding_constraint %x` (tt-mlir's
        convertCustomCallToShardingConstraint, for the GSPMD spelling)."""
        from ttopt.dialects.sdy_attrs import TensorShardingAttr
        from ttopt.ir import rewriter

        if len(op.operands) != 1 or len(op.results) != 1:
            raise fail(module, op, "custom_call @Sharding must have one operand and one result")
        rank = getattr(op.results[0].type, "rank", None)
        if rank is None:
            raise fail(module, op, f"{what}: needs a ranked tensor")
        try:
            dims = gspmd.to_dim_axes(g, rank, axes)
        except gspmd.GspmdError as e:
            raise fail(module, op, f"{what}: {e}") from None
        s = TensorShardingAttr.of(MESH_NAME, dims)
        c = rewriter.create("sdy.sharding_constraint", [op.operands[0]], [op.results[0].type],
                            {"sharding": DialectAttr.of(s)}, location=op.location)
        rewriter.insert_after(op, c)
        op.results[0].replace_all_uses_with(c.results[0])
        op.erase()

    # -- d. no annotations -----------------------------------------------------------------------
    def _batch_parallel(self, module: Module, shape: tuple[int, int] | None, meshes: list[Operation]) -> None:
        if shape is None and meshes:
            try:
                shape = mesh_of(module, meshes[0]).tt_shape()
            except ValueError as e:
                raise fail(module, meshes[0], f"'sdy.mesh' op: {e}") from None
        a, b = shape or (1, 1)
        for op in meshes:
            module.body.remove(op)
        module.body.insert(0, make_mesh_op(MESH_NAME, [(BATCH_AXES[0], a), (BATCH_AXES[1], b)]))
        if a * b == 1:
            return
        for f in functions(module):
            if has_body(f):
                self._annotate(module, f, b)

    def _annotate(self, module: Module, f: Operation, batch: int) -> None:
        from ttopt.dialects.sdy_attrs import DimensionSharding, TensorShardingAttr
        from ttopt.dialects.ttcore_attrs import ArgumentType

        require_ranked_signature(module, f)
        ft = func_type(f)
        dicts = arg_attrs(f)
        types: list[ArgumentType | None] = []
        for d in dicts:
            a = d.get(ARGUMENT_TYPE)
            types.append(typed(module, f, a, "ttcore.argument_type").value if a is not None else None)
        tt = any(t is not None for t in types)
        if tt:
            for i, t in enumerate(types):
                if t is None:
                    raise fail(module, f, f"{argument_label(f, i)} has no ttcore.argument_type while other arguments "
                               "do; give every argument a type (--argument-types)")
            ranks = [ft.inputs[i].rank for i, t in enumerate(types) if t == ArgumentType.INPUT]
            largest = max(ranks, default=0)
        elif self.automatic_arg_analysis:
            largest = max([4] + [t.rank for t in ft.inputs])
        else:
            warn(module, f, f"@{func_name(f)}: no tt argument types and automatic-arg-analysis is off; "
                 "arguments stay replicated")
            return
        for i, (d, ty) in enumerate(zip(dicts, ft.inputs)):
            rank = ty.rank
            if tt:
                want = types[i] == ArgumentType.INPUT and rank == largest and rank > 0
            else:
                want = rank == largest and rank > 0 and ty.shape[0] != 1
            if want and (ty.shape[0] is None or ty.shape[0] % batch):
                warn(module, f, f"{argument_label(f, i)}: dimension 0 of size {ty.shape[0]} is not divisible by the "
                     f"batch axis ({batch}); left unsharded")
                want = False
            if want:
                s = TensorShardingAttr.of(MESH_NAME, [[BATCH_AXES[1]]] + [[] for _ in range(rank - 1)])
            elif tt and types[i] in (ArgumentType.PARAMETER, ArgumentType.CONSTANT):
                s = TensorShardingAttr.fully_replicated(MESH_NAME, rank)
            else:
                s = TensorShardingAttr(mesh=MESH_NAME, dim_shardings=tuple(DimensionSharding(is_closed=False) for _ in range(rank)))
            d[SDY_SHARDING] = DialectAttr.of(s)
        set_arg_attrs(f, dicts)



@register_pass
@dataclass
class AnalyzeMesh(ApplyShardyArgumentAnnotations):
    """Upstream's name for apply-shardy-argument-annotations."""

    name = "analyze-mesh"
    summary = "Alias of apply-shardy-argument-annotations (tt-mlir's name)"
