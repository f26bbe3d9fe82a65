"""Graph transformation shared by every policy (seed 002 §3.5, reference §2.10).

`apply_decisions` writes a policy's `LayoutDecisions` into one function:
1. reorder the block to the schedule (buffer ops right before their first user);
2. per op: the chosen (or default) config's layout on the result type, the matmul program config
   (removing `activation` when the config fuses it), the conv2d config, and on every conv2d
   `conv2d_slice_config = <l1_full, 0>`;
3. dispatch ops: output layout from their dispatch config (output buffer and callee/region types
   synced);
4. reshards: a `"ttnn.to_memory_config"` before the consumer (`<consumer>_mem_reconfig`; with a
   `ttnn.to_layout` too when the page layout changes, memory_move.py), or, when the operand already
   comes from a single-use conversion, that op retyped in place (replaced when its kind cannot
   express the new change);
5. spills: a `"ttnn.to_memory_config"` to DRAM (or L1) interleaved right after a chain's last op
   (`<op>_spill`), every use rewired to it, except that reshards on its outgoing branches read the
   L1 result directly (and are not inserted at all when they would convert to the same layout);
6. the function's result types follow its return operands.

New layouts are hoisted into `#ttnn_layoutN` aliases (buffer types into `#dram`/`#l1`), as tt-mlir
prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ttopt.device import OpConfig
from ttopt.device.layout_info import DRAM, INTERLEAVED, L1, make_layout
from ttopt.device.op_families import Family, family_of
from ttopt.device.rules.transformer import SHARED_CONFIG_OPS, result_layouts
from ttopt.device.tensor import element_dtype
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_attrs import BufferType, Conv2dSliceConfigAttr
from ttopt.dialects.ttnn_layout import DEFAULT_WORKER_GRID, TTNNLayoutAttr
from ttopt.ir.attributes import AliasRef, Attribute, DialectAttr, TypeAttr
from ttopt.ir.types import FunctionType, ScalarType, TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape
from ttopt.optimizer.chain import Edge, MemReconfigEntry, SpillLocation
from ttopt.optimizer.memory_move import CONVERSION_OPS, conversion_ops, expresses
from ttopt.optimizer.policies import FunctionContext, LayoutDecisions
from ttopt.optimizer.scheduler import apply_schedule

__all__ = ["CONVERSION_OPS", "LayoutAliaser", "apply_decisions", "apply_sink_reshards", "update_function_type"]


class LayoutAliaser:
    """Turns layouts into encodings that print as `#ttnn_layoutN` aliases (one per distinct layout)."""

    def __init__(self, module: Any) -> None:
        self.scope = module.aliases
        self._encodings: dict[TTNNLayoutAttr, Attribute] = {}
        # Hashing a layout walks its pydantic fields; most calls pass a layout object seen before,
        # so an identity table (holding the object, so its id stays its own) answers them first.
        self._by_id: dict[int, tuple[TTNNLayoutAttr, Attribute]] = {}
        self._buffers: dict[BufferType, str] = {}

    def mark(self) -> int:
        """A point to `rollback` to: the number of alias definitions made so far."""
        return len(self.scope)

    def rollback(self, mark: int) -> None:
        """Remove the aliases defined after `mark` (their uses already gone) and forget their encodings."""
        dropped = self.scope.drop_since(mark)
        if not dropped:
            return
        def kept(enc: Attribute) -> bool:
            return not (isinstance(enc, AliasRef) and enc.name in dropped)

        self._encodings = {k: v for k, v in self._encodings.items() if kept(v)}
        self._by_id = {k: v for k, v in self._by_id.items() if kept(v[1])}
        self._buffers = {k: v for k, v in self._buffers.items() if v not in dropped}

    def buffer_alias(self, buffer: BufferType) -> str:
        """The alias name of a buffer type (`dram`), defined on first use (or an existing one reused)."""
        name = self._buffers.get(buffer)
        if name is None:
            text = f"#ttnn.buffer_type<{buffer.value}>"
            ref = self.scope.add_attr(buffer.value, DialectAttr("ttnn.buffer_type", buffer.value, text))
            name = self._buffers[buffer] = ref.name
        return name

    def encoding(self, layout: TTNNLayoutAttr) -> Attribute:
        """An alias reference printing as `#ttnn_layoutN` whose definition is `layout`."""
        hit = self._by_id.get(id(layout))
        if hit is not None and hit[0] is layout:
            return hit[1]
        enc = self._encodings.get(layout)
        if enc is None:
            buf = layout.buffer_type
            body = layout.print_body(alias_buffer=False).replace(
                f"#ttnn.buffer_type<{buf.value}>", f"#{self.buffer_alias(buf)}"
            )
            attr = DialectAttr("ttnn.ttnn_layout", body, f"#ttnn.ttnn_layout<{body}>", typed=layout, scope=self.scope)
            enc = self._encodings[layout] = self.scope.add_attr("ttnn_layout", attr)
        self._by_id[id(layout)] = (layout, enc)
        return enc

    def tensor_type(self, old: TensorType, layout: TTNNLayoutAttr) -> TensorType:
        """`old` with `layout` as encoding (element type follows a changed dtype when it has a builtin)."""
        elem = old.element_type
        dt = element_dtype(old)
        if dt is not None and layout.dtype is not dt and layout.dtype.builtin is not None:
            elem = ScalarType(layout.dtype.builtin)
        return TensorType(ranked_shape(old), elem, self.encoding(layout))


class _Insertions:
    """New ops to put before/after anchors, applied in one pass over the block (inserting one by
    one would search the block for each anchor: quadratic on 10^4-op functions)."""

    def __init__(self) -> None:
        self._before: dict[int, list[Any]] = {}
        self._after: dict[int, list[Any]] = {}
        self._dropped: set[int] = set()

    def before(self, anchor: Any, op: Any) -> None:
        self._before.setdefault(id(anchor), []).append(op)

    def after(self, anchor: Any, op: Any) -> None:
        self._after.setdefault(id(anchor), []).append(op)

    def drop(self, op: Any) -> None:
        """Remove `op` (its results unused by now) from the block when the insertions are applied."""
        self._dropped.add(id(op))
        op.drop_all_references()

    def apply(self, block: Any) -> None:
        if not self._before and not self._after and not self._dropped:
            return
        out: list[Any] = []
        for op in block.ops:
            out.extend(self._before.get(id(op), ()))
            if id(op) not in self._dropped:
                out.append(op)
            out.extend(self._after.get(id(op), ()))
        for op in out:
            op.parent = block
        block.ops = out


@dataclass
class InsertedOp:
    """An op the rewrite created (or retyped): for traces and stats."""

    op: Any
    kind: str  # reshard | spill
    source: str  # producer label
    target: str  # consumer label (reshards) or op label (spills)
    operand: int | None
    layout: TTNNLayoutAttr
    in_place: bool = False


@dataclass
class RewriteResult:
    reshards: list[InsertedOp] = field(default_factory=list)
    spills: list[InsertedOp] = field(default_factory=list)


def _set_result_layout(op: Any, layout: TTNNLayoutAttr | None, aliaser: LayoutAliaser) -> bool:
    if layout is not None and op.name in SHARED_CONFIG_OPS:
        return _set_result_layouts(op, layout, aliaser)
    if layout is None or len(op.results) != 1:
        return False
    r = op.results[0]
    t = r.type.resolve()
    if not isinstance(t, TensorType):
        return False
    if current_layout(t) == layout:
        return False
    r.type = aliaser.tensor_type(t, layout)
    return True


def _set_result_layouts(op: Any, first: TTNNLayoutAttr, aliaser: LayoutAliaser) -> bool:
    """Every result in result 0's memory config (ops whose results share one; only interleaved
    configs are legal for them, so the worker grid, which places shards, is not read)."""
    try:
        lays = result_layouts(op, first, DEFAULT_WORKER_GRID)
    except ValueError:
        return False
    changed = False
    for r, lay in zip(op.results, lays):
        t = r.type.resolve()
        if isinstance(t, TensorType) and current_layout(t) != lay:
            r.type = aliaser.tensor_type(t, lay)
            changed = True
    return changed


def _pop_attr(op: Any, name: str) -> None:
    op.properties.pop(name, None)
    op.attributes.pop(name, None)


def config_attr(cfg: Any) -> DialectAttr:
    """The attribute of an op-specific config (matmul program config, conv2d config): one object
    per distinct config, shared by the ops that get it (attributes are never mutated in place;
    building and printing one per op was a sixth of the rewrite on 10k-op modules)."""
    # repr tells apart field values that compare equal but print differently (True and 1).
    return _config_attr(type(cfg).__qualname__, repr(cfg), cfg)


@lru_cache(maxsize=4096)
def _config_attr(kind: str, text: str, cfg: Any) -> DialectAttr:
    return DialectAttr.of(cfg.to_attr())


def apply_config(op: Any, cfg: OpConfig, aliaser: LayoutAliaser) -> None:
    """The config's layout on the result and its op-specific attributes on the op (reference §2.10)."""
    if isinstance(cfg.output, TTNNLayoutAttr):
        _set_result_layout(op, cfg.output, aliaser)
    fam = family_of(op.name)
    if fam is Family.MATMUL:
        if cfg.matmul is not None:
            _pop_attr(op, "matmul_program_config")
            op.properties["matmul_program_config"] = config_attr(cfg.matmul)
            if cfg.matmul.fused_activation:
                _pop_attr(op, "activation")  # tt-metal #35060: the program config carries it
        elif op.get_attr("matmul_program_config") is not None:
            _pop_attr(op, "matmul_program_config")  # it was for another layout
    elif fam is Family.CONV and cfg.conv2d is not None:
        _pop_attr(op, "conv2d_config")
        op.properties["conv2d_config"] = config_attr(cfg.conv2d)


def apply_decisions(module: Any, fn: FunctionContext, decisions: LayoutDecisions, aliaser: LayoutAliaser) -> RewriteResult:
    """Write `decisions` into the function (see module docstring); the result lists what was inserted."""
    analyses = fn.analyses
    model = analyses.model
    labels = fn.labels
    block = fn.block
    result = RewriteResult()
    if decisions.schedule is not None:
        apply_schedule(block, decisions.schedule)

    for op in fn.ops:
        info = analyses.legal.get(op)
        cfg = decisions.op_configs.get(op)
        if cfg is None and info is not None:
            cfg = info.default_config()
        if cfg is not None:
            apply_config(op, cfg, aliaser)
        if op.name == "ttnn.conv2d":
            _pop_attr(op, "conv2d_slice_config")
            op.properties["conv2d_slice_config"] = DialectAttr.of(Conv2dSliceConfigAttr(slice_type="l1_full", num_slices=0))
        model.invalidate(op)

    for op, dcfg in decisions.dispatch_configs.items():
        if dcfg.output_layout is not None and _set_result_layout(op, dcfg.output_layout, aliaser):
            _sync_dispatch(module, op, aliaser)
        elif op.results:
            _sync_dispatch(module, op, aliaser)
        model.invalidate(op)

    wg = analyses.device.worker_grid
    direct: list[tuple[Any, int, Any]] = []  # reshards to the layout the operand already has
    pending = _Insertions()
    for edge, entry in decisions.reshards.items():
        rec = _insert_reshard(edge, entry, labels, aliaser, block, wg, direct, pending)
        if rec is not None:
            result.reshards.append(rec)

    direct_by_value: dict[int, list[tuple[Any, int, Any]]] = {}
    for hit in direct:
        direct_by_value.setdefault(id(hit[2]), []).append(hit)
    for op, where in decisions.spills.items():
        rec = _spill(op, where, labels, aliaser, wg, direct_by_value, pending)
        if rec is not None:
            result.spills.append(rec)
    pending.apply(block)

    update_function_type(fn.func)
    return result


def _reshard_target(edge: Edge, entry: MemReconfigEntry, value: Any, wg: tuple[int, int]) -> TTNNLayoutAttr | None:
    """Reference §2.10: the first candidate for the selected consumer config with the producer's
    page layout (else the first); user edges without a map: the consumer's output layout."""
    cands = entry.selected_layouts()
    src = current_layout(value.type)
    if cands:
        tiled = src.is_tiled if src is not None else True
        return next((c for c in cands if c.is_tiled == tiled), cands[0])
    out = current_layout(edge.consumer.results[0].type) if edge.consumer.results else None
    t = value.type.resolve()
    if out is None or not isinstance(t, TensorType):
        return None
    if ranked_shape(t) == ranked_shape(edge.consumer.results[0].type.resolve()):
        return out
    dt = element_dtype(t)
    try:
        return make_layout(ranked_shape(t), dt, out.is_tiled, out.buffer_type, out.memory_layout,
                           tuple(out.grid) if out.is_sharded else None, wg)  # fmt: skip
    except (AttrError, ValueError, TypeError):
        return None


def _insert_reshard(edge: Edge, entry: MemReconfigEntry, labels: dict[Any, str], aliaser: LayoutAliaser, block: Any,
                    wg: tuple[int, int], direct: list[tuple[Any, int, Any]], pending: _Insertions) -> InsertedOp | None:  # fmt: skip
    consumer = edge.consumer
    if consumer.parent is not block or edge.operand_index >= len(consumer.operands):
        return None
    value = consumer.operands[edge.operand_index]
    target = _reshard_target(edge, entry, value, wg)
    t = value.type.resolve()
    if target is None or not isinstance(t, TensorType):
        return None
    if current_layout(t) == target:
        # Nothing to convert; the consumer must keep reading this (L1) value even if it is spilled.
        direct.append((consumer, edge.operand_index, value))
        return None
    src_label = labels.get(getattr(value, "op", None), "block argument")
    dst_label = labels.get(consumer, consumer.name)
    producer = getattr(value, "op", None)
    if producer is not None and producer.name in CONVERSION_OPS and len(value.uses) == 1 and producer.parent is block:
        # Reuse the existing conversion (reference §2.10): retyped when its kind expresses the new
        # change from its own input, else replaced by the ops that do.
        src = current_layout(producer.operands[0].type)
        if src is not None and expresses(producer.name, src, target):
            value.type = aliaser.tensor_type(t, target)
            return InsertedOp(producer, "reshard", src_label, dst_label, edge.operand_index, target, in_place=True)
        if src is not None:
            name = producer.location.name if producer.location is not None else None
            ops = conversion_ops(producer.operands[0], src, target, aliaser.tensor_type, name or f"{dst_label}_mem_reconfig",
                                 wg, location=producer.location)  # fmt: skip
            if ops:
                for op in ops:
                    pending.before(producer, op)
                value.replace_all_uses_with(ops[-1].results[0])
                pending.drop(producer)
                return InsertedOp(ops[-1], "reshard", src_label, dst_label, edge.operand_index, target, in_place=True)
    src = current_layout(t)
    if src is None:
        return None
    ops = conversion_ops(value, src, target, aliaser.tensor_type, f"{dst_label}_mem_reconfig", wg)
    for op in ops:
        pending.before(consumer, op)
    consumer.set_operand(edge.operand_index, ops[-1].results[0])
    return InsertedOp(ops[-1], "reshard", src_label, dst_label, edge.operand_index, target)


def spill_layout(value: Any, where: SpillLocation, worker_grid: tuple[int, int]) -> TTNNLayoutAttr | None:
    """DRAM (or L1) interleaved layout of `value`'s tensor, same dtype and page layout."""
    t = value.type.resolve()
    cur = current_layout(t)
    dt = element_dtype(t) if isinstance(t, TensorType) else None
    if cur is None or dt is None:
        return None
    buffer = DRAM if where is SpillLocation.DRAM else L1
    try:
        return make_layout(tuple(t.shape), cur.dtype, cur.is_tiled or buffer is L1, buffer, INTERLEAVED, None, worker_grid)
    except (AttrError, ValueError, TypeError):
        return None


def _spill(op: Any, where: SpillLocation, labels: dict[Any, str], aliaser: LayoutAliaser, wg: tuple[int, int],
           direct: dict[int, list[tuple[Any, int, Any]]], pending: _Insertions) -> InsertedOp | None:  # fmt: skip
    if where is SpillLocation.NONE or len(op.results) != 1:
        return None
    r = op.results[0]
    t = r.type.resolve()
    target = spill_layout(r, where, wg)
    if target is None or current_layout(t) == target or not r.uses:
        return None
    # Layout conversions convert the L1 result themselves: the reshards inserted on outgoing
    # branches read it (reference §2.10), and so do conversions already in the IR (a spill in front
    # of them would only add a DRAM round trip). So do consumers whose reshard target is the op's
    # own layout (no reshard was needed: upstream inserts one and erases it here).
    converters = [u for u in r.users if u.name in CONVERSION_OPS]
    if len(converters) == len(r.users):
        return None
    label = labels.get(op, op.name)
    src = current_layout(t)
    if src is None:
        return None
    ops = conversion_ops(r, src, target, aliaser.tensor_type, f"{label}_spill", wg)
    spill = ops[-1]
    r.replace_all_uses_with(spill.results[0], except_in=ops[0])
    for u in converters:
        for i, v in enumerate(u.operands):
            if v is spill.results[0]:
                u.set_operand(i, r)
    for consumer, i, value in direct.get(id(r), ()):
        if value is r and consumer.operands[i] is spill.results[0]:
            consumer.set_operand(i, r)
    if not spill.results[0].uses:
        for o in reversed(ops):
            o.drop_all_references()
        return None
    for o in ops:
        pending.after(op, o)
    return InsertedOp(spill, "spill", label, label, None, target)


def _sync_dispatch(module: Any, op: Any, aliaser: LayoutAliaser) -> None:
    """Dispatch output buffer and body types follow the dispatch's operands and result."""
    res_t = op.results[0].type.resolve() if op.results else None
    lay = current_layout(res_t) if res_t is not None else None
    seg = op.properties.get("operandSegmentSizes")
    n_in = seg.values[0] if seg is not None and len(getattr(seg, "values", ())) == 2 else len(op.operands) - 1
    for v in op.operands[n_in:]:
        p = getattr(v, "op", None)
        if p is not None and p.name == "ttnn.empty" and len(v.uses) == 1 and lay is not None and res_t is not None:
            vt = v.type.resolve()
            if isinstance(vt, TensorType) and ranked_shape(vt) == ranked_shape(res_t):
                _set_result_layout(p, lay, aliaser)
    if op.regions and op.regions[0].blocks:
        entry = op.regions[0].entry
        for a, v in zip(entry.args, op.operands):
            a.type = v.type
        return
    callee = op.properties.get("d2m_func")
    fn = module.lookup_symbol(callee.root) if callee is not None else None
    if fn is None or not fn.regions or not fn.regions[0].blocks:
        return
    entry = fn.regions[0].entry
    for a, v in zip(entry.args, op.operands):
        a.type = v.type
    ret = entry.ops[-1] if entry.ops else None
    if ret is not None and ret.name == "func.return":
        for rv, res in zip(ret.operands, op.results):
            p = getattr(rv, "op", None)
            if p is not None and p.parent is entry and rv.type != res.type:
                rv.type = res.type
    update_function_type(fn)


def update_function_type(func: Any) -> None:
    """Argument and result types of a function follow its block arguments and return operands."""
    if not func.regions or not func.regions[0].blocks:
        return
    entry = func.regions[0].entry
    ret = entry.ops[-1] if entry.ops else None
    old = func.properties["function_type"].type
    results = tuple(v.type for v in ret.operands) if ret is not None and ret.name == "func.return" else old.results
    ins = tuple(a.type for a in entry.args)
    if tuple(old.inputs) == ins and tuple(old.results) == results:
        return
    func.properties["function_type"] = TypeAttr(FunctionType(ins, results))


def apply_sink_reshards(fn: FunctionContext, plans: list[Any], aliaser: LayoutAliaser) -> list[InsertedOp]:
    """Write `sink_readers.plan_sink_reshards`'s plans: each producer gets its L1 config, and its
    value reaches the sink through one `ttnn.to_memory_config` per route step, right before the sink
    (`<sink>_mem_reconfig`, then `<sink>_mem_reconfig_spill` for a further step, as HEAD's spill
    manager names a spill of that reshard)."""
    wg = fn.analyses.device.worker_grid
    model = fn.analyses.model
    pending = _Insertions()
    done: list[InsertedOp] = []
    for plan in plans:
        producer, sink = plan.producer, plan.sink
        apply_config(producer, plan.config, aliaser)
        model.invalidate(producer)
        value = producer.results[0]
        src = plan.config.output
        name = f"{fn.labels.get(sink, sink.name)}_mem_reconfig"
        for step, target in enumerate(plan.route):
            ops = conversion_ops(value, src, target, aliaser.tensor_type, name if step == 0 else f"{name}_spill", wg)
            for o in ops:
                pending.before(sink, o)
            if ops:
                value = ops[-1].results[0]
                kind = "reshard" if step == 0 else "spill"
                done.append(InsertedOp(ops[-1], kind, fn.labels.get(producer, producer.name), fn.labels.get(sink, sink.name),
                                       plan.operand, target))  # fmt: skip
            src = target
        sink.set_operand(plan.operand, value)
        model.invalidate(sink)
    pending.apply(fn.block)
    update_function_type(fn.func)
    return done
