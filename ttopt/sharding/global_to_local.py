"""`update-global-to-local-shapes` (seed 004 step 11; ref §2.11, §4.1-4.2).

Solved graphs keep their local bodies (their `sdy.sharding` attributes are dropped); GSPMD-partitioned
graphs have no manual computation to cut (their body is local already). For every other
manual_computation:

1. `manual_axes` becomes every mesh axis, in mesh order; each region argument gets the local type of
   its `in_shardings` entry.
2. Ops are visited in order (nested regions too). An op with `sdy.sharding` gets local result types;
   ops whose meaning depends on positions along a dimension get that dimension whole (gathered
   before, all-sliced after; see local_rules.py) and their size attributes rewritten; local types are
   checked where an op fixes them. An op without a sharding must not read a sharded value.
3. sdy collectives become StableHLO collectives over the mesh axes' replica groups (collectives.py):
   all_gather (minor axis first, any number of axes per dimension), all_slice (a partition_id-based
   composite), all_to_all, reduce_scatter, all_reduce (combiner from `reduction_kind` or from the
   producing reduction: max/min stay max/min) and collective_permute (pairs from the operand and result
   shardings). Size-1 axes need no collective.
4. `sdy.sharding` is removed from arguments, results and ops; `in_shardings`/`out_shardings` stay.

Every failure is a diagnostic naming the op: an axis that does not divide a dimension, a value whose
local type disagrees with its use, a leftover `sdy.reshard`/`sdy.sharding_constraint`, sub-axes in a
collective, a call inside the computation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ttopt.ir.attributes import DenseElementsAttr
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.opdef import TERMINATOR
from ttopt.ir.values import OpResult
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass
from ttopt.sharding import local_rules
from ttopt.sharding.collectives import ALL_SLICE, CollectiveBuilder, body_kind
from ttopt.sharding.diagnostics import fail, op_label, typed
from ttopt.sharding.func_attrs import SDY_SHARDING, func_name, functions, strip_sdy_shardings
from ttopt.sharding.ir_views import int_value, static_tensor, tensor_type
from ttopt.sharding.mesh import Mesh, ShardingError, coords, dim_shards, local_shape, the_mesh, validate_sharding
from ttopt.sharding.sdy_ir import is_solved, manual_axes, manual_axes_attr, manual_computations, referenced_symbols

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation
    from ttopt.ir.values import BlockArgument, Value
    from ttopt.passes.context import PassContext

SDY_COLLECTIVES = frozenset({
    "sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.reduce_scatter", "sdy.all_reduce", "sdy.collective_permute",
})
_SDY_WITH_SHARDING = {"sdy.reshard": "sharding", "sdy.sharding_constraint": "sharding", **{n: "out_sharding" for n in SDY_COLLECTIVES}}
_TERMINATORS = frozenset({"sdy.return", "stablehlo.return", "func.return"})
# Ops Shardy treats as data flow (no factor rule): they run replicated at step 11.
_DATA_FLOW = frozenset({"stablehlo.while", "stablehlo.case", "stablehlo.if", "stablehlo.optimization_barrier"})


def _elementwise() -> frozenset[str]:
    from ttopt.dialects.chlo import _BINARY as CHLO_BINARY
    from ttopt.dialects.chlo import _UNARY as CHLO_UNARY
    from ttopt.dialects.stablehlo import BINARY_ELEMENTWISE, UNARY_ELEMENTWISE

    return frozenset((
        *(f"stablehlo.{n}" for n in (*UNARY_ELEMENTWISE, *BINARY_ELEMENTWISE, "select", "clamp", "compare")
          if n != "bitcast_convert"),  # a bitcast between widths adds or drops a minor dimension
        *(f"chlo.{n}" for n in (*CHLO_UNARY, *CHLO_BINARY)),
    ))


class _ListInserter:
    """Appends ops to a list that becomes (part of) a block's new op list."""

    __slots__ = ("block", "ops")

    def __init__(self, block: Block, ops: list[Operation]) -> None:
        self.block = block
        self.ops = ops

    def add(self, op: Operation) -> Operation:
        op.parent = self.block
        self.ops.append(op)
        return op


class _Frame:
    """A block being rebuilt: ops kept so far, and ops to place after the current op."""

    __slots__ = ("block", "out", "post")

    def __init__(self, block: Block) -> None:
        self.block = block
        self.out: list[Operation] = []
        self.post: list[Operation] = []


class Localizer:
    """Cuts one function's manual computations to local shapes.

    Blocks are rebuilt in one pass (new ops are appended to a fresh op list), so inserting
    collectives costs O(1) per op instead of a scan of the block.
    """

    def __init__(self, module: Module, mesh: Mesh, builder: CollectiveBuilder) -> None:
        self.module = module
        self.mesh = mesh
        self.b = builder
        self.gtypes: dict[int, Any] = {}
        self.shard: dict[int, Any] = {}
        self.unsliced: dict[int, tuple[Value, frozenset[int]]] = {}  # all-sliced value -> (whole value, dims)
        self.gathered: dict[tuple[int, int, tuple[int, ...]], Value] = {}  # (block, value, dims) -> gathered
        self.frames: list[_Frame] = []
        self._local_cache: dict[tuple, tuple[Any, tuple[int, ...]]] = {}
        self._valid: dict[tuple[int, int | None], Any] = {}  # (id(sharding), rank) -> the sharding, once it validated
        self.elementwise = _elementwise()

    # -- the Ctx protocol of local_rules ---------------------------------------------------------
    def gtype(self, v: Value) -> Any:
        return self.gtypes.get(id(v), v.type)

    def sharding(self, v: Value) -> Any:
        return self.shard.get(id(v))

    def shards(self, sharding: Any, dim: int) -> int:
        return dim_shards(self.mesh, sharding.dim_shardings[dim]) if sharding is not None else 1

    # -- helpers ---------------------------------------------------------------------------------
    def fail(self, op: Operation, message: str) -> Diagnostic:
        return fail(self.module, op, f"{op_label(op)} {message}")

    def retype(self, v: Value, t: Any) -> None:
        old: Any = v.type  # a tensor type wherever the shapes compare equal
        if t is old or (getattr(t, "shape", None) == getattr(old, "shape", 0) and t.element_type is old.element_type
                        and t.encoding is old.encoding):
            return
        self.gtypes.setdefault(id(v), old)
        v.type = t

    def local(self, op: Operation, t: Any, s: Any, what: str, keep: frozenset[int] = frozenset()) -> Any:
        if s is None or not hasattr(t, "shape"):
            return t
        key = (t.shape, id(s), keep)
        hit = self._local_cache.get(key)
        if hit is None or hit[0] is not s:
            try:
                hit = self._local_cache[key] = (s, local_shape(t.shape, s, self.mesh, keep))
            except ShardingError as e:
                raise self.fail(op, f"{what}: {e}") from None
        return t if hit[1] == t.shape else t.with_shape(hit[1])

    def axis_names(self, op: Operation, refs: Any) -> list[str]:
        names = []
        for r in refs:
            if r.sub_axis is not None:
                raise self.fail(op, f"uses the sub-axis {r.print_body()}; collectives over sub-axes are not supported")
            if self.mesh.size(r.name) != 1:
                names.append(r.name)
        return names

    def need_device_order(self, op: Operation) -> None:
        if not self.mesh.iota_devices:
            raise self.fail(op, f"needs collectives, but mesh @{self.mesh.name} has explicit device_ids; only the "
                            "default row-major device order is supported")

    # -- driver ----------------------------------------------------------------------------------
    def run(self, mc: Operation) -> None:
        ins = typed(self.module, mc, mc.properties["in_shardings"], "in_shardings").shardings
        outs = typed(self.module, mc, mc.properties["out_shardings"], "out_shardings").shardings
        block = mc.regions[0].blocks[0]
        if len(ins) != len(block.args) or len(outs) != len(mc.results):
            raise self.fail(mc, f"has {len(ins)} in_shardings for {len(block.args)} operand(s) and {len(outs)} "
                            f"out_shardings for {len(mc.results)} result(s)")
        for label, ss, vals in (("in_shardings", ins, block.args), ("out_shardings", outs, mc.results)):
            for i, (s, v) in enumerate(zip(ss, vals)):
                try:
                    validate_sharding(s, self.mesh, getattr(v.type, "rank", None))
                except ShardingError as e:
                    raise self.fail(mc, f"{label}[{i}]: {e}") from None
        for a, s in zip(block.args, ins):
            self.shard[id(a)] = s
        for op in mc.walk():
            if op is mc:
                continue
            if op.name == "sdy.manual_computation":
                raise self.fail(op, "is nested in another manual_computation; nesting is not supported")
            attr = op.attributes.get(SDY_SHARDING)
            if attr is not None:
                per = typed(self.module, op, attr, "sdy.sharding").shardings
                if len(per) != len(op.results):
                    raise self.fail(op, f"has {len(per)} sharding(s) for {len(op.results)} result(s)")
                for r, s in zip(op.results, per):
                    rank = getattr(r.type, "rank", None)
                    if self._valid.get((id(s), rank)) is not s:  # one check per sharding object and rank
                        try:
                            validate_sharding(s, self.mesh, rank)
                        except ShardingError as e:
                            raise self.fail(op, f"result #{r.index}: {e}") from None
                        self._valid[(id(s), rank)] = s
                    self.shard[id(r)] = s
            key = _SDY_WITH_SHARDING.get(op.name)
            if key is not None and op.results:
                self.shard[id(op.results[0])] = typed(self.module, op, op.properties[key], key)
        mc.properties["manual_axes"] = manual_axes_attr(self.mesh.axis_names)
        for i, (a, s) in enumerate(zip(block.args, ins)):
            self.retype(a, self.local(mc, a.type, s, f"in_shardings[{i}]"))
        self.block(block)
        ret = block.ops[-1]
        for j, (v, r, s) in enumerate(zip(ret.operands, mc.results, outs)):
            want = self.local(mc, r.type, s, f"out_shardings[{j}]")
            if v.type != want:
                raise self.fail(ret, f"operand #{j} has local type {v.type.text}, but out_shardings[{j}] {s.op_text()} "
                                f"of the global {r.type.text} needs {want.text} (a reshard is missing)")

    def block(self, block: Block) -> None:
        frame = _Frame(block)
        self.frames.append(frame)
        for op in list(block.ops):
            frame.post = []
            if self.op(op) is not False:
                frame.out.append(op)
            frame.out.extend(frame.post)
        block.ops = frame.out
        self.frames.pop()

    def before(self) -> _ListInserter:
        """Where ops go that must run before the op being visited."""
        f = self.frames[-1]
        return _ListInserter(f.block, f.out)

    def after(self) -> _ListInserter:
        """Where ops go that must run after the op being visited."""
        f = self.frames[-1]
        return _ListInserter(f.block, f.post)

    def op(self, op: Operation) -> bool:
        """Localize one op (and its regions); False when the op was replaced and dropped."""
        name = op.name
        if name in SDY_COLLECTIVES:
            self.collective(op)
            return False
        if name in ("sdy.reshard", "sdy.sharding_constraint"):
            raise self.fail(op, "is still here; reshard-to-collectives (step 10) must turn it into collectives "
                            "before update-global-to-local-shapes")
        if name == "func.call":
            raise self.fail(op, "calls a function inside the manual computation; run the inliner first")
        shardings = [self.sharding(r) for r in op.results]
        d = op.opdef
        if SDY_SHARDING in op.attributes:
            self.sharded_op(op, shardings)
        elif name in _TERMINATORS or (d is not None and d.has(TERMINATOR)):
            pass
        elif not self.has_rule(op):
            # An op Shardy has no rule for (custom calls, while/case/if, top_k, ...) is opaque: it
            # runs replicated, as XLA's partitioner would run it, so sharded inputs are gathered.
            self.replicate_opaque(op)
        elif any(v.type != self.gtype(v) for v in op.operands):
            # No sharding on an op with a rule means replicated results (Shardy's "closed if
            # missing"): right when the op turns local operands into a whole result (a reduction
            # followed by an all_reduce); `check` catches the rest.
            self.sharded_op(op, shardings)
        for region in op.regions:
            for blk in region.blocks:
                self.block(blk)
        return True

    def has_rule(self, op: Operation) -> bool:
        """Does Shardy have a sharding rule for `op` (so propagation and explicit reshards saw it)?
        Asks the Shardy core's rule registry; without it, the ops this pass checks count."""
        if op.name in _DATA_FLOW:
            return False
        try:
            from ttopt.sharding.rules import rule_for
        except ImportError:
            return op.name in self.elementwise or op.name in local_rules.CHECKED or op.name in local_rules.RULES
        try:
            return rule_for(op) is not None
        except Exception:  # noqa: BLE001 - a rule that cannot be built for these types is no rule
            return False

    def replicate_opaque(self, op: Operation) -> None:
        """Gather every sharded operand (and every sharded value its regions capture) before `op`."""
        for i, v in enumerate(list(op.operands)):
            whole = self.whole(op, v)
            if whole is not v:
                op.set_operand(i, whole)
        if not op.regions:
            return
        inside = {id(o) for o in op.walk()}
        for inner in op.walk():
            if inner is op:
                continue
            for j, v in enumerate(list(inner.operands)):
                if isinstance(v, OpResult):
                    owner: Operation | None = v.op
                else:  # a block argument (the only other kind of value)
                    blk = cast("BlockArgument", v).block
                    owner = blk.parent.parent if blk is not None and blk.parent is not None else None
                if owner is not None and id(owner) in inside:
                    continue
                whole = self.whole(op, v)
                if whole is not v:
                    inner.set_operand(j, whole)

    def whole(self, op: Operation, v: Value) -> Value:
        """`v` all-gathered along every sharded dimension (before `op`), or `v` when replicated."""
        if v.type == self.gtype(v):
            return v
        s = self.sharding(v)
        if s is None:
            raise self.fail(op, f"reads {v.type.text}, a local piece of {self.gtype(v).text} whose sharding is unknown")
        dims = [d for d, ds in enumerate(s.dim_shardings) if ds.axes]
        return self.gather(op, v, s, dims)

    def sharded_op(self, op: Operation, shardings: list[Any]) -> None:
        rule = local_rules.RULES.get(op.name)
        plan = rule.whole(op, self) if rule is not None else local_rules.Plan(
            [set() for _ in op.operands], [set() for _ in op.results])
        # Operands: gather the whole dimensions that are sharded.
        for i, v in enumerate(list(op.operands)):
            s = self.sharding(v)
            dims = sorted(d for d in plan.whole_in[i] if s is not None and d < s.rank and s.dim_shardings[d].axes)
            if dims:
                op.set_operand(i, self.gather(op, v, s, dims))
        for j, (r, s) in enumerate(zip(op.results, shardings)):
            self.retype(r, self.local(op, r.type, s, f"result #{j}", frozenset(plan.whole_out[j])))
        if op.name == "stablehlo.while":
            for region in op.regions:
                for arg, res in zip(region.blocks[0].args, op.results):
                    self.retype(arg, res.type)
        try:
            if rule is not None and rule.fix is not None:
                rule.fix(op, self, plan)
            local_rules.check(op, op.name in self.elementwise)
            self.check_collective(op)
        except local_rules.LocalError as e:
            have = ", ".join(s.op_text() for s in shardings if s is not None) or "none (replicated results)"
            raise self.fail(op, f"with shardings {have}: {e}") from None
        # Results: all-slice the whole dimensions that are sharded.
        for j, (r, s) in enumerate(zip(op.results, shardings)):
            dims = sorted(d for d in plan.whole_out[j] if s is not None and d < s.rank and s.dim_shardings[d].axes)
            if not dims:
                continue
            self.need_device_order(op)
            at = self.after()
            v = r
            first = None
            for d in dims:
                for a in self.axis_names(op, s.dim_shardings[d].axes):
                    sliced = self.b.all_slice(at, v, d, a)
                    v = sliced
                    if first is None:
                        first = sliced.op
            if first is not None:
                r.replace_all_uses_with(v, except_in=first)
                self.gtypes[id(v)] = self.gtype(r)
                self.shard[id(v)] = s
                self.unsliced[id(v)] = (r, frozenset(dims))

    def gather(self, op: Operation, v: Value, s: Any, dims: list[int]) -> Value:
        """All-gather `v` along `dims` (minor axis first) before `op`; a value this pass all-sliced
        along exactly these dims is replaced by the whole value it was sliced from."""
        whole = self.unsliced.get(id(v))
        if whole is not None and whole[1] == frozenset(dims):
            return whole[0]
        key = (id(op.parent), id(v), tuple(dims))
        done = self.gathered.get(key)
        if done is not None:
            return done
        self.need_device_order(op)
        at = self.before()
        g = self.gtype(v)
        for d in dims:
            for a in reversed(self.axis_names(op, s.dim_shardings[d].axes)):
                v = self.b.all_gather(at, v, d, [a])
        from ttopt.dialects.sdy_attrs import DimensionSharding

        rest = tuple(DimensionSharding(is_closed=ds.is_closed) if i in dims else ds for i, ds in enumerate(s.dim_shardings))
        self.gtypes[id(v)] = g
        self.shard[id(v)] = s.model_copy(update={"dim_shardings": rest})
        self.gathered[key] = v
        return v

    def check_collective(self, op: Operation) -> None:
        """A StableHLO collective already in the graph must agree with its local types."""
        groups = op.properties.get("replica_groups")
        if groups is None or not op.name.startswith("stablehlo.") or not op.results:
            return
        gshape = static_tensor(cast(DenseElementsAttr, groups).type).shape
        n = gshape[1] if len(gshape) == 2 else 1
        src, res = tensor_type(op.operands[0]).shape, tensor_type(op.results[0]).shape
        want = list(src)
        if op.name == "stablehlo.all_gather":
            want[int_value(op.properties["all_gather_dim"])] *= n
        elif op.name == "stablehlo.reduce_scatter":
            want[int_value(op.properties["scatter_dimension"])] //= n
        elif op.name == "stablehlo.all_to_all":
            want[int_value(op.properties["split_dimension"])] //= n
            want[int_value(op.properties["concat_dimension"])] *= n
        if tuple(want) != tuple(res):
            raise local_rules.LocalError(
                f"over replica groups of {n} device(s) turns the local {'x'.join(map(str, src))} into "
                f"{'x'.join(map(str, want))}, but its sharding makes the result {'x'.join(map(str, res))}")

    # -- sdy collectives -------------------------------------------------------------------------
    def collective(self, op: Operation) -> None:
        from ttopt.dialects.sdy_attrs import AllToAllParamListAttr

        v = op.operands[0]
        out_s = self.sharding(op.results[0])
        glob = op.results[0].type
        at = self.before()
        name = op.name
        lists_key = {"sdy.all_gather": "gathering_axes", "sdy.all_slice": "slicing_axes", "sdy.reduce_scatter": "reduce_scatter_axes"}
        self.need_device_order(op)
        if name in lists_key:
            lists = typed(self.module, op, op.properties[lists_key[name]], lists_key[name]).lists
            kind = self.kind(op)
            for d, refs in enumerate(lists):
                axes = self.axis_names(op, refs)
                if name == "sdy.all_gather":
                    for a in reversed(axes):
                        v = self.b.all_gather(at, v, d, [a])
                elif name == "sdy.all_slice":
                    for a in axes:
                        v = self.b.all_slice(at, v, d, a)
                else:
                    for a in axes:
                        v = self.b.reduce_scatter(at, v, d, [a], kind)
        elif name == "sdy.all_reduce":
            kind = self.kind(op)
            for a in self.axis_names(op, typed(self.module, op, op.properties["reduction_axes"], "reduction_axes").axes):
                v = self.b.all_reduce(at, v, [a], kind)
        elif name == "sdy.all_to_all":
            params: AllToAllParamListAttr = typed(self.module, op, op.properties["params"], "params")
            for p in params.params:
                axes = self.axis_names(op, p.axes)
                if axes:
                    v = self.b.all_to_all(at, v, p.src_dim, p.tgt_dim, axes)
        else:  # sdy.collective_permute
            pairs = self.permute_pairs(op, self.sharding(v), out_s)
            if any(s != t for s, t in pairs):
                v = self.b.collective_permute(at, v, pairs)
        want = self.local(op, glob, out_s, "out_sharding")
        if v.type != want:
            raise self.fail(op, f"lowers to a local {v.type.text}, but its out_sharding {out_s.op_text()} of the global "
                            f"{glob.text} is {want.text} (operand sharding and collective axes disagree)")
        op.results[0].replace_all_uses_with(v)
        op.drop_all_references()
        op.parent = None
        self.gtypes.setdefault(id(v), glob)
        self.shard[id(v)] = out_s

    def kind(self, op: Operation) -> str:
        """Combiner: the op's own reduction kind, else that of the reduction producing its operand."""
        k = op.properties.get("reduction_kind")
        if k is not None:
            return k.text
        src = op.operands[0]
        prod_op = getattr(src, "op", None)
        if prod_op is not None and prod_op.name in ("stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.all_reduce"):
            found = body_kind(prod_op)
            if found is not None:
                return found
        return "sum"

    def permute_pairs(self, op: Operation, s_in: Any, s_out: Any) -> list[tuple[int, int]]:
        """(source, target): each device receives the piece its out_sharding gives it from a device
        that holds it under the operand sharding (itself when possible)."""
        n = self.mesh.num_devices
        tile_in = [self.tile(op, s_in, d) for d in range(n)]
        tile_out = [self.tile(op, s_out, d) for d in range(n)]
        used: set[int] = set()
        pairs = []
        for t in range(n):
            cands = [s for s in range(n) if tile_in[s] == tile_out[t] and s not in used]
            if not cands:
                raise self.fail(op, f"cannot find a source device for device {t}: the operand and out shardings do not hold the same pieces")
            s = t if t in cands else cands[0]
            used.add(s)
            pairs.append((s, t))
        return pairs

    def tile(self, op: Operation, s: Any, device: int) -> tuple[int, ...]:
        if s is None:
            return ()
        c = coords(self.mesh, device)
        out = []
        for ds in s.dim_shardings:
            idx = 0
            for r in ds.axes:
                if r.sub_axis is not None:
                    raise self.fail(op, f"uses the sub-axis {r.print_body()}; collectives over sub-axes are not supported")
                k = self.mesh.index(r.name)
                idx = idx * self.mesh.shape[k] + c[k]
            out.append(idx)
        return tuple(out)


@register_pass
@dataclass
class UpdateGlobalToLocalShapes(Pass):
    """Cut manual computation bodies to per-device shapes and lower sdy collectives."""

    name = "update-global-to-local-shapes"
    summary = "Set all mesh axes manual, give manual_computation bodies local shapes, lower sdy collectives to StableHLO"

    def run(self, module: Module, ctx: PassContext) -> None:
        if is_solved(module):
            for f in functions(module):
                strip_sdy_shardings(f)
            return
        work = [(f, manual_computations(f)) for f in functions(module)]
        if not any(mcs for _, mcs in work):
            return
        mesh = the_mesh(module, what="update-global-to-local-shapes")
        builder = CollectiveBuilder(module, mesh)
        for f, mcs in work:
            if not mcs:
                continue
            loc = Localizer(module, mesh, builder)
            for mc in mcs:
                if manual_axes(module, mc):
                    continue
                loc.run(mc)
            strip_sdy_shardings(f)
            for op in list(f.walk()):
                if op.name == "stablehlo.composite" and op.parent is not None and not op.results[0].uses and \
                        getattr(op.properties.get("name"), "value", None) == ALL_SLICE:
                    op.erase()
        used = referenced_symbols(module)
        for f in functions(module):
            if func_name(f) in builder.slice_functions and func_name(f) not in used:
                f.drop_all_references()
                module.body.remove(f)
        ctx.stats.setdefault(self.name, {}).update({f"created_{k}": v for k, v in builder.created.items()})
