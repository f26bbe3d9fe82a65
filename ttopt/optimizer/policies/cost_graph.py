"""The cost-based policy's view of one function: per op its candidate configs, what each choice reads
from its producers (directly, or through a reshard the rewrite inserts), and its estimated ns and L1.

Nodes are the schedulable ops in IR order (the schedule is kept). An op's candidates are its legal
configs from the analyses, the default (DRAM interleaved) first, pruned to the `max_candidates`
cheapest by their own estimate. An op keeps its default config alone when changing its output could
break a reader the model does not see: its result is returned, or a user is not a top-level op the
op model knows (nested regions, dispatch ops, unknown ops) or is a `ttnn.to_layout` (which may not
change the memory config it reads). Fixed ops
(conversions, dispatch, ops without a rule) keep their current layout and are still costed.

Reads: a consumer with config `c` reads its producers' layouts directly when the op model accepts
them; otherwise operands are converted one at a time, in operand order, to the layout `c` was found
legal with (`ref`: the effective DRAM inputs, or for sharded outputs operand 0 in the output's spec)
until it does. Each conversion is one `ttnn.to_layout` in front of the consumer, costed by
`CostModel.conversion_cost`, exactly what `rewrite.apply_decisions` inserts for a reshard edge.

L1 follows `l1_budget_check`: at a node's position the op's own peak (circular buffers + its L1
operands + output) plus every other L1 tensor live across it; a producer converted for this
consumer but read again later stays live (and counts) here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ttopt.device import OpConfig, layout_info
from ttopt.device.layout_info import DRAM, INTERLEAVED, make_layout
from ttopt.device.op_families import family_of, fixed_dispatch
from ttopt.device.rules.argmax import reduces_last_dim
from ttopt.device.rules.transformer import SHARED_CONFIG_OPS, has_one_config, result_layouts
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape
from ttopt.optimizer.policies import FunctionContext


@dataclass(frozen=True, slots=True)
class Choice:
    """One node with one candidate and given producer layouts: what it costs and reads."""

    ns: float  # the op's estimate with these reads + its conversions
    op_ns: float
    reads: tuple[TTNNLayoutAttr, ...]  # per tensor operand
    conversions: tuple[tuple[int, TTNNLayoutAttr], ...]  # (tensor operand index, target layout)
    peak: int  # the op's own L1 peak per core
    conversion_l1: int  # largest L1 per core a conversion in front of the op holds (source + target)


@dataclass(slots=True)
class Node:
    """One schedulable op."""

    op: Any
    pos: int
    sig: int
    cands: list[OpConfig | None]  # None: a fixed op keeping its current layout
    outs: list[TTNNLayoutAttr | None]
    l1: list[int]  # per-core L1 bytes of each candidate's output
    refs: list[tuple[TTNNLayoutAttr, ...]]
    producers: list[int | None]  # per tensor operand: node index, or None (fixed layout)
    fixed_in: list[TTNNLayoutAttr | None]  # per tensor operand without a producer node: its layout
    operand_index: list[int]  # per tensor operand: index in op.operands
    shapes: list[tuple[int, ...]]
    last_use: int  # schedule position of the last reader (len(ops): returned / read outside)
    costed: bool
    note: str = ""
    out_uids: list[int] = field(default_factory=list)  # interned ids of `outs` (memo keys)
    forced: list[tuple[int, ...]] = field(default_factory=list)  # per candidate: operands always converted to `refs`
    ref_uids: list[tuple[int, ...]] = field(default_factory=list)
    fixed_uids: list[int] = field(default_factory=list)
    distinct: list[int] = field(default_factory=list)  # producer nodes, each once
    result_of: list[int] = field(default_factory=list)  # per tensor operand: the producer's result index
    # Ops whose results share one memory config: per candidate, every result's layout and its id.
    result_outs: list[tuple[TTNNLayoutAttr | None, ...]] = field(default_factory=list)
    result_uids: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def free(self) -> bool:
        """More than one candidate: the node is a decision."""
        return len(self.cands) > 1


# Users that accept any layout of their operand (they only free it).
READ_ANY = frozenset({"ttnn.deallocate"})
# Users that keep their operand's memory config (HEAD's to_layout verifier: only the page layout
# and data type change), so a producer read by one keeps its default config.
KEEPS_MEMORY = frozenset({"ttnn.to_layout"})


def _uid(lay: TTNNLayoutAttr | None) -> int:
    return layout_info(lay).uid if lay is not None else 0


def _is_dram_interleaved(lay: Any) -> bool:
    return isinstance(lay, TTNNLayoutAttr) and lay.is_dram and not lay.is_sharded


class CostGraph:
    """Nodes, candidates and the memoised `choice` evaluation shared by the beam and exact solvers."""

    def __init__(self, fn: FunctionContext, cost: Any, max_candidates: int = 6) -> None:
        self.fn = fn
        self.cost = cost
        self.model = fn.analyses.model
        self.budget = self.model.usable_l1
        self.nodes: list[Node] = []
        self._memo: dict[tuple, Choice | None] = {}
        self._cfg_ids: dict[int, int] = {}
        self._cfgs: list[Any] = []  # keeps every interned config alive, so ids stay unique
        self._cands: dict[tuple, tuple] = {}  # equal ops (signature, configs, inputs) share candidates
        self._sigs: dict[tuple, int] = {}
        index = {op: i for i, op in enumerate(fn.ops)}
        self.index = index
        n = len(fn.ops)
        for i, op in enumerate(fn.ops):
            self.nodes.append(self._node(op, i, index, n, max_candidates))

    # -- construction ---------------------------------------------------------------------------
    def _last_use(self, op: Any, index: dict[Any, int], n: int) -> tuple[int, bool]:
        """(position of the last top-level reader, every reader is a modelled top-level op)."""
        last, known = -1, True
        # `uses` lists a user once per operand slot; repeats change neither the max nor the flags.
        for r in op.results:
            for u in r.uses:
                p = index.get(u)
                if p is None or u.name == "func.return":  # read inside a region, outside the block, or returned
                    last, known = n, False
                    continue
                if p > last:
                    last = p
                if u.name not in READ_ANY and (family_of(u.name) is None or fixed_dispatch(u.name) or u.name in KEEPS_MEMORY):
                    known = False
        return last, known

    def _node(self, op: Any, pos: int, index: dict[Any, int], n: int, max_candidates: int) -> Node:
        analyses = self.fn.analyses
        producers: list[int | None] = []
        result_of: list[int] = []
        fixed_in: list[TTNNLayoutAttr | None] = []
        operand_index: list[int] = []
        shapes: list[tuple[int, ...]] = []
        types: list[TensorType] = []
        for j, v in enumerate(op.operands):
            t = v.type.resolve()
            if not isinstance(t, TensorType):
                continue
            types.append(t)
            p = getattr(v, "op", None)
            pi = index.get(p) if p is not None and has_one_config(p) else None
            producers.append(pi)
            result_of.append(v.index if pi is not None else 0)
            fixed_in.append(None if pi is not None else analyses.effective_layout(v))
            operand_index.append(j)
            shapes.append(ranked_shape(t) if t.shape is not None else ())
        last, users_known = self._last_use(op, index, n)
        fam = family_of(op.name)
        shared = op.name in SHARED_CONFIG_OPS
        single = len(op.results) == 1 or shared
        costed = fam is not None and single and bool(op.results) and isinstance(op.results[0].type.resolve(), TensorType)
        info = analyses.legal.get(op)
        sig = self._signature(op, info, types)
        node = Node(op, pos, sig, [None], [None], [0], [()], producers, fixed_in, operand_index, shapes, last, costed)
        node.result_of = result_of
        node.fixed_uids = [_uid(x) for x in fixed_in]
        node.distinct = list(dict.fromkeys(p for p in producers if p is not None))
        if info is None or info.fixed:
            cur = current_layout(op.results[0].type) if single else None
            node.outs = [cur]
            node.out_uids = [_uid(cur)]
            node.l1 = [self._l1(cur)]
            node.ref_uids = [()]
            if shared:
                lays = tuple(current_layout(r.type) for r in op.results)
                node.result_outs, node.result_uids = [lays], [tuple(_uid(x) for x in lays)]
                node.l1 = [sum(self._l1(x) for x in lays)]
            node.note = info.note if info is not None else "not analysed"
            return node
        default = info.default_config()
        assert default is not None  # not fixed: it has configs
        allow = single and users_known and last >= 0 and _is_dram_interleaved(default.output)
        if not users_known:
            node.note = "keeps its default config: a reader the op model does not see"
        eff = analyses.effective_inputs(op)
        eff_t = tuple(eff) if eff is not None else None
        key = (sig, id(info.configs), tuple(_uid(x) for x in eff_t) if eff_t is not None else None, allow, max_candidates)
        hit = self._cands.get(key)
        if hit is None:
            hit = self._cands[key] = self._candidates(node, info.configs if allow else [default], default, eff_t, max_candidates)
        node.cands, node.refs, node.outs, node.out_uids, node.ref_uids, node.l1, node.forced = hit
        if shared:
            self._result_layouts(node)
        return node

    def _result_layouts(self, node: Node) -> None:
        """Every result's layout per candidate (the candidates' outputs are result 0's), and the
        candidates' L1 as all the results'; a candidate whose results cannot be laid out is dropped."""
        keep: list[int] = []
        lays_all: list[tuple[TTNNLayoutAttr | None, ...]] = []
        for k, out in enumerate(node.outs):
            lays: tuple[TTNNLayoutAttr | None, ...]
            try:
                lays = tuple(result_layouts(node.op, out, self.fn.analyses.device.worker_grid)) if out is not None else (None,) * len(node.op.results)
            except ValueError:
                if k == 0:
                    lays = (out,) + (None,) * (len(node.op.results) - 1)
                else:
                    continue
            keep.append(k)
            lays_all.append(lays)
        node.cands = [node.cands[k] for k in keep]
        node.refs = [node.refs[k] for k in keep]
        node.outs = [node.outs[k] for k in keep]
        node.out_uids = [node.out_uids[k] for k in keep]
        node.ref_uids = [node.ref_uids[k] for k in keep]
        if node.forced:
            node.forced = [node.forced[k] for k in keep]
        node.result_outs = lays_all
        node.result_uids = [tuple(_uid(x) for x in lays) for lays in lays_all]
        node.l1 = [sum(self._l1(x) for x in lays) for lays in lays_all]

    def _signature(self, op: Any, info: Any, types: list[TensorType]) -> int:
        """A small int shared by ops the op and cost models answer alike (the memo key's op part).

        An analysed op's legal configs are shared by every op with its name, attributes, operand
        shapes, effective inputs and result type (`AnalysisPipeline`'s cache); with its operand types
        and which operands are the same value, that is all of its op-model signature, and costs less
        than `OpModel.signature_uid` (which rebuilds the signature of every op)."""
        if info is None or info.fixed:
            key: tuple = (self.model.signature_uid(op),)
        else:
            values = [v for v in op.operands if isinstance(v.type.resolve(), TensorType)]
            aliases = tuple(values.index(v) for v in values)
            key = (id(info.configs), tuple(t.canonical() for t in types), aliases)
        uid = self._sigs.get(key)
        if uid is None:
            uid = self._sigs[key] = len(self._sigs)
        return uid

    def _candidates(self, node: Node, configs: list[OpConfig], default: OpConfig, eff: tuple | None,
                    max_candidates: int) -> tuple[list, list, list, list, list, list, list]:  # fmt: skip
        """The default config plus the cheapest others (each with the inputs it was found legal with)."""
        scored = []
        for c in [default] + [c for c in configs if c is not default]:
            ref = self._ref(node.op, c, eff)
            if ref is None:
                continue
            ruids = tuple(_uid(x) for x in ref)
            ch = self._memoised(node, c, ref, ruids, ref, ruids)
            if ch is not None:
                scored.append((ch.ns, c, ref))
        if not scored or scored[0][1] is not default:
            scored.insert(0, (0.0, default, self._ref(node.op, default, eff) or (eff or ())))
        head, rest = scored[0], sorted(scored[1:], key=lambda e: e[0])
        # The cheapest L1-interleaved config stays whatever its own estimate: any producer layout
        # reaches it without a reshard, which a sharded config's own estimate does not show.
        interleaved = next((e for e in rest if isinstance(e[1].output, TTNNLayoutAttr) and e[1].output.is_l1
                            and not e[1].output.is_sharded), None)  # fmt: skip
        keep = [head] + rest[: max(0, max_candidates - 1)]
        if interleaved is not None and interleaved not in keep and max_candidates > 1:
            keep[-1] = interleaved
        cands = [c for _, c, _ in keep]
        refs = [r for _, _, r in keep]
        forced: list[tuple[int, ...]] = [()] * len(cands)
        for c, r in list(zip(cands, refs)):
            sibling = self._row_major_sibling(node.op, c, r)
            if sibling is not None:
                cands.append(sibling[0])
                refs.append(sibling[1])
                forced.append((0,))
        outs = [c.output if isinstance(c.output, TTNNLayoutAttr) else None for c in cands]
        return (cands, refs, outs, [_uid(o) for o in outs], [tuple(_uid(x) for x in r) for r in refs],
                [self._l1(o) for o in outs], forced)  # fmt: skip

    def _row_major_sibling(self, op: Any, cfg: OpConfig, ref: tuple) -> tuple[OpConfig, tuple] | None:
        """`cfg` and `ref` with operand 0 retiled to DRAM-interleaved row-major, when that unlocks a
        faster program of the op (argmax: tt-metal's multicore program reads row-major input only)
        and the op model accepts it; None otherwise. The retile is a to_layout in front of the op that
        leaves nothing in L1; the op's output follows its input's page layout (tt-metal's argmax
        writes row-major from a row-major input), so a consumer that needs tiles pays a retile too."""
        if op.name != "ttnn.argmax" or not ref or not isinstance(ref[0], TTNNLayoutAttr) or not ref[0].is_tiled:
            return None
        out = cfg.output
        if not (isinstance(out, TTNNLayoutAttr) and out.is_dram):
            return None  # row-major L1-interleaved does not exist
        shape = self._first_shape(op)
        out_shape = ranked_shape(op.results[0].type.resolve()) if op.results else None
        if shape is None or out_shape is None or not reduces_last_dim(op, len(shape)) or ref[0].dtype.builtin is None:
            return None
        wg = self.model.device.worker_grid
        try:
            rm = make_layout(shape, ref[0].dtype, False, DRAM, INTERLEAVED, None, wg)
            rm_out = make_layout(out_shape, out.dtype, False, DRAM, INTERLEAVED, None, wg)
        except (AttrError, ValueError):
            return None
        sibling = (rm, *ref[1:])
        rm_cfg = replace(cfg, output=rm_out)
        return (rm_cfg, sibling) if self.model.validate(op, list(sibling), rm_cfg).ok else None

    @staticmethod
    def _first_shape(op: Any) -> tuple[int, ...] | None:
        """The static shape of the op's first tensor operand, or None."""
        for v in op.operands:
            t = v.type.resolve()
            if isinstance(t, TensorType) and t.shape is not None:
                dims = [d for d in t.shape if isinstance(d, int)]
                return tuple(dims) if len(dims) == len(t.shape) else None
        return None

    def _ref(self, op: Any, cfg: OpConfig, eff: tuple | None) -> tuple[TTNNLayoutAttr, ...] | None:
        """The input layouts `cfg` was found legal with, given the op's effective inputs `eff`."""
        if eff is None:
            return None
        ref = self.fn.analyses.accepted_inputs(op, list(eff), cfg)
        return tuple(ref) if ref is not None else None

    @staticmethod
    def _l1(lay: TTNNLayoutAttr | None) -> int:
        if lay is None:
            return 0
        return layout_info(lay).per_core_bytes  # 0 unless in L1

    # -- evaluation -----------------------------------------------------------------------------
    def producer_layouts(self, node: Node, chosen: Any) -> tuple[tuple[TTNNLayoutAttr | None, ...], tuple[int, ...]]:
        """Per tensor operand: the layout it has under `chosen` (node index -> candidate index), and
        the layouts' interned ids."""
        lays, uids = [], []
        nodes = self.nodes
        for p, f, fu, ri in zip(node.producers, node.fixed_in, node.fixed_uids, node.result_of):
            if p is None:
                lays.append(f)
                uids.append(fu)
            else:
                pn = nodes[p]
                k = chosen(p) if pn.free else 0
                if pn.result_outs:
                    lays.append(pn.result_outs[k][ri])
                    uids.append(pn.result_uids[k][ri])
                else:
                    lays.append(pn.outs[k])
                    uids.append(pn.out_uids[k])
        return tuple(lays), tuple(uids)

    def choice(self, node: Node, k: int, ins: tuple[tuple[TTNNLayoutAttr | None, ...], tuple[int, ...]]) -> Choice | None:
        """Candidate `k` of `node` with producer layouts `ins` (from `producer_layouts`; None: illegal)."""
        forced = node.forced[k] if node.forced else ()
        return self._memoised(node, node.cands[k], node.refs[k], node.ref_uids[k], ins[0], ins[1], k, forced)

    def _memoised(self, node: Node, cfg: Any, ref: tuple, ref_uids: tuple, ins: tuple, in_uids: tuple,
                  k: int = 0, forced: tuple[int, ...] = ()) -> Choice | None:  # fmt: skip
        key = (node.sig, self._cfg_id(cfg), ref_uids, in_uids, forced) if node.costed else (node.pos, k, in_uids)
        try:
            return self._memo[key]
        except KeyError:
            ch = self._memo[key] = self._evaluate(node, cfg, ref, ins, forced)
            return ch

    def _cfg_id(self, cfg: Any) -> int:
        i = self._cfg_ids.get(id(cfg))
        if i is None:
            i = self._cfg_ids[id(cfg)] = len(self._cfg_ids)
            self._cfgs.append(cfg)
        return i

    def _evaluate(self, node: Node, cfg: OpConfig | None, ref: tuple, ins: tuple, forced: tuple[int, ...] = ()) -> Choice | None:
        op = node.op
        if any(x is None for x in ins):
            return Choice(0.0, 0.0, tuple(ins), (), 0, 0) if cfg is None or not node.costed else None
        if cfg is None:  # fixed: reads what it is given, keeps its output
            out = node.outs[0]
            if not node.costed or out is None:
                return Choice(0.0, 0.0, tuple(ins), (), sum(self._l1(x) for x in ins) + self._l1(out), 0)
            r = self.model.validate(op, list(ins), OpConfig(output=out))
            peak = r.l1.peak if r.ok else sum(self._l1(x) for x in ins) + self._l1(out)
            ns = self._ns(op, ins, out)
            return Choice(ns or 0.0, ns or 0.0, tuple(ins), (), peak, 0)  # uncostable: constant, as in input_cost
        reads = list(ins)
        conversions: list[tuple[int, TTNNLayoutAttr]] = []
        for j in forced:
            if reads[j] != ref[j]:
                reads[j] = ref[j]
                conversions.append((j, ref[j]))
        r = self.model.validate(op, reads, cfg)
        i = 0
        while not r.ok and i < len(reads):
            if reads[i] != ref[i]:
                reads[i] = ref[i]
                conversions.append((i, ref[i]))
                r = self.model.validate(op, reads, cfg)
            i += 1
        if not r.ok or not isinstance(cfg.output, TTNNLayoutAttr):
            return None
        op_ns = self._ns(op, tuple(reads), cfg.output)
        if op_ns is None:
            return None
        ns = op_ns
        conv_l1 = 0
        for j, dst in conversions:
            try:
                ns += self.cost.conversion_cost(node.shapes[j], ins[j], dst).ns
            except (TypeError, ValueError, ArithmeticError):
                return None
            conv_l1 = max(conv_l1, self._l1(ins[j]) + self._l1(dst))
        return Choice(ns, op_ns, tuple(reads), tuple(conversions), r.l1.peak, conv_l1)

    def _ns(self, op: Any, ins: tuple, out: TTNNLayoutAttr) -> float | None:
        """The cost model's estimate, or None when it cannot cost the op (a shape it rejects)."""
        try:
            return float(self.cost.op_cost(op, ins, out).ns)
        except (TypeError, ValueError, ArithmeticError):
            return None

    def read_context(self, node: Node) -> tuple:
        """Everything `choice`, `others_excluded` and the freed L1 of `node` depend on besides its free
        producers' candidates: nodes with equal contexts given equal producer candidates have equal
        options (repeated blocks of a model share them)."""
        nodes = self.nodes
        ops: list[Any] = []  # per tensor operand: its fixed layout id, or the producer's side
        for p, fu, ri in zip(node.producers, node.fixed_uids, node.result_of):
            if p is None:
                ops.append(fu)
                continue
            pn = nodes[p]
            outs = tuple(u[ri] for u in pn.result_uids) if pn.result_outs else tuple(pn.out_uids)
            ops.append((node.distinct.index(p), pn.free, outs, tuple(pn.l1), pn.last_use == node.pos))
        if not node.costed:
            who: tuple = (-1, node.pos)  # its memo entries are its own
        elif node.cands[0] is None:
            who = (node.sig, -1, node.out_uids[0])  # fixed: costed with its current output
        else:
            who = (node.sig, id(node.cands))  # equal ops share one candidate list
        return (*who, node.last_use > node.pos, tuple(node.l1), tuple(ops))

    def others_excluded(self, node: Node, ch: Choice, chosen: Any) -> int:
        """L1 of the node's producers that are *not* live across it as other tensors (they are its
        operands, or their last reader is this node)."""
        if not ch.conversions:  # every producer is read directly: all of them are operands
            total = 0
            for d in node.distinct:
                pn = self.nodes[d]
                total += pn.l1[chosen(d) if pn.free else 0]
            return total
        seen: set[int] = set()
        total = 0
        converted = {j for j, _ in ch.conversions}
        for j, p in enumerate(node.producers):
            if p is None or p in seen:
                continue
            pn = self.nodes[p]
            if pn.last_use == node.pos or j not in converted:
                seen.add(p)
                total += pn.l1[chosen(p) if pn.free else 0]
        return total
