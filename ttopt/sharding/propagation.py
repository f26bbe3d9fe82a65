"""`aggressive-propagation` / `basic-propagation`: Shardy's sharding propagation (ref §3.4).

Every op with a rule becomes a node over its operand and result "slots" (one slot per SSA value,
plus one per function result, linked to the returned value by an identity node). A node projects
the slots' shardings onto its rule's factors, chooses the axes of each factor, writes them back
to every slot that is open for them, and the nodes of the slots that changed are queued again:
a worklist to a fixed point, so each op is revisited only when a neighbour changed (near-linear;
updates only ever extend shardings, so it terminates). A visit's outcome is a function of the
node's rule, direction and elementwise flag and of its slots' shardings, which are interned: it is
worked out once per such state (a model's layers repeat them) and replayed.

Per node, `factor_propagation.py` does what Shardy's factor propagation does (projection,
compatible major axes, truncation at conflicts, basic or aggressive strategy; conservatively no
sub-axes and no non-divisible axes). The aggressive strategy runs basic propagation to a fixed
point first, as Shardy does. Return edges are visited first, so a function's result sharding
reaches the returned value before the op computing it decides (as in Shardy). Rules whose every
dimension is one factor take `single_factor_propagation.py`'s equivalent on per-factor lists.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from functools import partial
from itertools import compress
from math import gcd
from operator import is_not, itemgetter
from typing import TYPE_CHECKING, Any, Callable

from ttopt.dialects.sdy_formats import enum_keyword
from ttopt.dialects.sdy_rule import OpShardingRule, factor_name
from ttopt.ir.types import TensorType
from ttopt.ir.values import BlockArgument, OpResult
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding import factor_propagation as fp
from ttopt.sharding import single_factor_propagation as sf
from ttopt.sharding.factors import (
    RESULT_SHARDINGS_ELSEWHERE,
    Axis,
    Sharding,
    axis_of,
    collect_meshes,
    func_of_arg,
    get_arg_attr,
    get_sharding_attr,
    per_value_attr,
    rank_of,
    set_arg_attrs_at,
    set_op_result_shardings,
    shared_sharding,
    to_attr,
    verify_sharding,
)
from ttopt.sharding.func_attrs import func_name, func_type
from ttopt.sharding.manual_edges import add_free_axes, erase_manual_axes

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.passes.context import PassContext

_IDENTITY_CACHE: dict[tuple[int, ...], OpShardingRule] = {}


class _Inert(tuple):
    """The empty outcome of a basic step with nothing extendable (no aggressive change either)."""


_INERT = _Inert()
# What a node's visit returns when no strategy would change anything while its tensors stay as they are.
_QUIET: list[int] = []
# `settled_plan` of a rule with a dimension of several factors (no shortcut).
SEVERAL_FACTORS: tuple = ((), ())
# `ShardingGraph._mesh_facts` of an empty mesh (`<[]>`), which takes any other mesh.
_ANY_MESH = ("any mesh",)


# Ops whose results may carry `sdy.data_flow_edge`s: the values of a position flow through them.
DATA_FLOW_EDGE_OPS = frozenset({"stablehlo.while", "stablehlo.case", "stablehlo.optimization_barrier"})
# Ops the graph builds otherwise than as a node of their sharding rule.
_BUILT_APART = frozenset({"func.return", "sdy.manual_computation", "sdy.propagation_barrier", "sdy.func_data_flow_edge"})


def _identity_rule(shape: tuple[int, ...], operands: int = 1) -> OpShardingRule:
    """`operands` tensors and one result of `shape`, each dim one factor shared by all."""
    r = _IDENTITY_CACHE.get((operands, *shape))
    if r is None:
        m = tuple((d,) for d in range(len(shape)))
        r = _IDENTITY_CACHE[(operands, *shape)] = OpShardingRule(tuple(shape), (m,) * operands, (m,))
    return r


@dataclass(slots=True)
class Node:
    """One op (or a return edge) with its rule and the slots of its operands then results."""

    op: Any
    rule: OpShardingRule
    slots: list[int]
    label: str
    direction: str = fp.BOTH  # along every factor not blocked (a propagation barrier's allowed one)
    elementwise: bool = False  # Shardy's isElementwise: the aggressive strategy's factor order
    # Per tensor index: how the node sees the stored sharding, and how it stores what it writes
    # (a manual computation's edges add or drop the manual axes).
    views: dict[int, tuple[Callable[[Sharding | None], Sharding | None], Callable[[Sharding], Sharding]]] | None = None
    rule_id: int = -1  # the rule's number among the graph's distinct rules (a key of `ShardingGraph.outcomes`)
    # The dimensions whose equal axes mean nothing can change (`settled_plan`; None: not derived yet).
    same_dims: tuple | None = None
    take: Callable[[list[Sharding | None]], Any] | None = None  # the slots' shardings from `ShardingGraph.sh`
    # (number of the mesh's axes, number of the rule's outcome class on that mesh): `ShardingGraph._outcome_class`.
    outcome_class: tuple[int, int] = (-1, -1)
    # What a visit's outcome depends on besides the slots' shardings, as a number (`ShardingGraph._visit_sig`):
    # -1 not derived yet, -2 none (views, sharding groups: such nodes are worked out at each visit).
    sig: int = -1


@dataclass
class PropagationResult:
    visits: int = 0
    updates: int = 0
    skipped: dict[str, int] = field(default_factory=dict)


# A module's functions, the calls of each function by callee name, and whether it has sharding groups.
ModuleScan = tuple[list[Any], dict[str, list[Any]], bool]


def scan_module(module: Module) -> ModuleScan:
    """What the graph needs from the module beyond the functions' bodies, in one walk."""
    funcs: list[Operation] = []
    calls: dict[str, list[Operation]] = {}
    groups = False
    for op in module.op.walk_list():  # (no edits while scanning: the list walk, without a generator step per op)
        name = op.name
        if name == "func.func":
            funcs.append(op)
        elif name == "func.call":
            callee = op.properties.get("callee")
            if callee is not None:
                calls.setdefault(getattr(callee, "root", ""), []).append(op)
        elif name == "sdy.sharding_group":
            groups = True
    return funcs, calls, groups


class ShardingGraph:
    """Slots (shardings of values and function results) and nodes (ops with rules)."""

    def __init__(self, module: Module, conservative: bool, trace: Any = None, scan: ModuleScan | None = None) -> None:
        self.module = module
        self.conservative = conservative
        self.trace = trace
        self.meshes = collect_meshes(module)
        self.sh: list[Sharding | None] = []
        self.shapes: list[tuple[int, ...]] = []
        self.owner: list[Any] = []  # Value, or (func, result index)
        self.slot_of: dict[int, int] = {}
        self.nodes: list[Node] = []
        self.users: list[list[int]] = []
        self.skipped: dict[str, int] = {}
        self.initial: list[Sharding | None] = []
        self.group_of: dict[int, list[int]] = {}  # slot -> the slots of its sharding group
        # Op-priority propagation narrows each node's direction per factor (None: no narrowing).
        self.direction_of: Callable[[Node, int], str] | None = None
        # For `sdy.func_data_flow_edge`s: functions by name and the calls of each (set below).
        self.funcs: dict[str, Operation] = {}
        self.calls: dict[str, list[Operation]] = {}
        # Factor propagation is a function of the rule, the tensors' shardings, the directions
        # and the mesh axes: ops of one kind on one shape with the same shardings (most of a
        # model's layers) compute it once. Outcome: per changed tensor, its dims and closed flags.
        self.outcomes: dict[tuple, tuple[tuple[int, tuple[tuple[Axis, ...], ...], tuple[bool, ...]], ...]] = {}
        self._class_ids: dict[tuple, int] = {}  # an outcome class's key (`_outcome_class`) -> its number
        self._classes: dict[tuple[int, int], int] = {}  # (rule number, mesh's axes number) -> outcome class number
        self._rule_facts_of: dict[OpShardingRule, tuple[int, tuple]] = {}  # rule -> (its number, its settled plan)
        self._by_rule_object: dict[int, tuple[OpShardingRule, int, tuple]] = {}  # id(rule) -> (rule, number, plan)
        self._mesh_axes: dict[int, tuple[Any, dict[str, int], int]] = {}  # id(mesh) -> (mesh, axis sizes, key number)
        self._token = object()  # marks the `_facts` a sharding holds as this graph's (`Sharding.memo`)
        # Projections of a sharding onto a rule's tensor: rule number -> per tensor, key part number -> projection.
        self._projections: dict[int, list[dict[int | None, fp.TensorFactors]]] = {}
        self._part_numbers: dict[tuple, int] = {}  # a sharding's part of an outcome key (or a mesh's axes) -> its number
        self._directions: dict[tuple[int, str], list[str]] = {}  # (rule number, node direction) -> per factor
        # (id(outcome entry), id(old sharding), id(mesh)) -> (those objects, the sharding written or None).
        self._written: dict[tuple[int, int, int], tuple[Any, Any, Any, Sharding | None]] = {}
        self.inert = False  # set by `_factor_propagation`: the basic outcome it computed was "nothing extendable"
        self._checked: dict[tuple[int, int], Any] = {}  # (id(attr), rank) -> attr, checked by `_read`
        self._type_shapes: dict[int, tuple[Any, tuple[int, ...]]] = {}  # id(type) -> (type, shape): `_shape`
        # Rule number -> (per tensor its factors by dimension, per tensor its size) when every
        # dimension is one factor, else (None, None); and such rules' projections as `_projections`.
        self._simple: dict[int, tuple] = {}
        self._simple_projections: dict[int, list[dict[int | None, tuple]]] = {}
        # Per strategy (basic, aggressive): (node signature, ids of its slots' shardings) -> (the
        # visit's outcome, those shardings); see `propagate`.
        self._visits: tuple[dict[tuple, Any], dict[tuple, Any]] = ({}, {})
        self._sigs: dict[tuple, int] = {}  # what `_visit_sig` numbers -> its number
        # (id(rule), direction, elementwise) -> (rule, its `_visit_sig` number, rule number, settled plan).
        self._sig_of_object: dict[tuple, tuple] = {}
        self._shardings: dict[tuple, Sharding] = {}  # the shardings written, by value (`_interned`)
        self._read_interned: dict[int, tuple[Sharding, Sharding]] = {}  # id(read) -> (read, interned): `_read`
        self._quiet: list[bool] = []  # per node: see `propagate`
        self._order: list[int] = []  # the nodes in the order each round queues them first
        self._node_sigs: tuple[list[int], list[Any]] = ([], [])  # per node its `sig` and `take`, once signed
        self._tracing_now = False  # whether the trace is on, read once per `propagate`
        funcs, self.calls, groups = scan if scan is not None else scan_module(module)
        self.funcs = {func_name(f): f for f in funcs}
        for func in funcs:
            if func.regions and func.regions[0].blocks:
                self._build_func(func)
        self.initial = list(self.sh)  # shardings in slots are replaced, never changed in place
        if groups:
            self._add_sharding_groups()

    # -- building ------------------------------------------------------------------------------
    def _new_slot(self, owner: Any, shape: tuple[int, ...], sh: Sharding | None) -> int:
        self.sh.append(sh)
        self.shapes.append(shape)
        self.owner.append(owner)
        self.users.append([])
        return len(self.sh) - 1

    def _read(self, attr: Any, op: Operation, rank: int, what: str) -> Sharding | None:
        if attr is None:
            return None
        # One check per attribute and rank (values share attributes); the entry keeps `attr` alive.
        seen = self._checked.get((id(attr), rank))
        if seen is not attr:
            verify_sharding(self.module, op, attr, self.meshes, rank, what)
            self._checked[(id(attr), rank)] = attr
        # Read only: slots' shardings are replaced, never changed; equal ones are one object
        # (`_interned`), found by the shared object first (the entry holds it).
        read = shared_sharding(attr, self.meshes)
        hit = self._read_interned.get(id(read))
        if hit is None or hit[0] is not read:
            hit = self._read_interned[id(read)] = (read, self._interned(read))
        return hit[1]

    def _shape(self, t: Any) -> tuple[int, ...]:
        """The shape of a value of type `t`, once per type object (the entry holds it, so its id stays its own)."""
        hit = self._type_shapes.get(id(t))
        if hit is None or hit[0] is not t:
            hit = self._type_shapes[id(t)] = (t, tuple(getattr(t.resolve(), "shape", ()) or ()))
        return hit[1]

    def slot(self, v: Any) -> int:
        s = self.slot_of.get(id(v))
        if s is None:
            shape = self._shape(v.type)
            attr = get_sharding_attr(v)
            sh = None
            if attr is not None:
                op = getattr(v, "op", None)
                anchor = op if op is not None else (func_of_arg(v) or self.module.op)
                what = f"result #{v.index}" if op is not None else f"argument #{v.index}"
                sh = self._read(attr, anchor, len(shape), what)
            s = self.slot_of[id(v)] = self._new_slot(v, shape, sh)
        return s

    def _results_propagate(self, func: Operation) -> bool:
        """Whether `func`'s result shardings take part (Shardy's propagateFuncResults: only the
        main function, i.e. `@main` or a module's only function). In a module without `@main`
        (where Shardy stops) every function's results do."""
        return len(self.funcs) == 1 or func_name(func) == "main" or "main" not in self.funcs

    def _build_func(self, func: Operation) -> None:
        for a in func.regions[0].blocks[0].args:
            self.slot(a)
        for block in func.regions[0].blocks:
            self._build_block(block, func)

    def _build_block(self, block: Any, func: Operation) -> None:
        from ttopt.sharding.rules import rule_for

        slot_of = self.slot_of
        slot = self.slot
        conservative = self.conservative
        shape_of = self._shape
        type_shapes = self._type_shapes
        read = self._read
        sh_list = self.sh
        shapes = self.shapes
        owner = self.owner
        nodes = self.nodes
        users = self.users
        both = fp.BOTH
        is_elementwise = fp.is_elementwise
        elementwise_of: dict[str, bool] = {}
        # `_sig_entry`'s entries of this block's nodes (direction BOTH): per elementwise flag, by id(rule).
        sig_by_flag: tuple[dict[int, tuple], dict[int, tuple]] = ({}, {})
        for op in block.ops:
            name = op.name
            operands = op.operands
            n = len(operands)  # (one or two operands, most ops: without a comprehension's frame)
            known = ([slot_of.get(id(operands[0]))] if n == 1 else
                     [slot_of.get(id(operands[0])), slot_of.get(id(operands[1]))] if n == 2 else
                     [slot_of.get(id(v)) for v in operands])  # fmt: skip
            slots: list[int] = [slot(v) for v in operands] if None in known else known  # type: ignore[assignment]
            if name in DATA_FLOW_EDGE_OPS and self._data_flow_edges(op, func):
                continue
            results = op.results
            if results:
                if name in RESULT_SHARDINGS_ELSEWHERE:
                    slots += [slot(r) for r in results]
                else:  # `slot` of each result, reading the op's per-value shardings once
                    per = op.attributes.get("sdy.sharding")
                    if per is not None:
                        per = per.resolve().typed
                    n_per = len(per) if per is not None else 0
                    for r in results:
                        s = slot_of.get(id(r))
                        if s is None:  # `_new_slot`, inline, with `_shape`'s table
                            t = r.type
                            known_shape = type_shapes.get(id(t))
                            shape = known_shape[1] if known_shape is not None and known_shape[0] is t else shape_of(t)
                            index = r.index
                            sh = read(per.shardings[index], op, len(shape), f"result #{index}") if index < n_per else None
                            s = slot_of[id(r)] = len(sh_list)
                            sh_list.append(sh)
                            shapes.append(shape)
                            owner.append(r)
                            users.append([])
                        slots.append(s)
            if name not in _BUILT_APART:
                try:
                    rule = rule_for(op, conservative)
                except Exception as e:  # a malformed op must not stop propagation
                    self._skip(op, f"no rule ({type(e).__name__}: {e})")
                    continue
                if rule is None:
                    self._skip(op, "no sharding rule")
                    continue
                elementwise = elementwise_of.get(name)
                if elementwise is None:
                    elementwise = is_elementwise(op)
                    if name != "stablehlo.bitcast_convert":  # the one op it is not a function of the name for
                        elementwise_of[name] = elementwise
                # `_add_node`, inline: the node's index goes once into each of its slots' users; its
                # `_visit_sig` is worked out here (sharding groups, added last, undo it for theirs).
                i = len(nodes)
                hit = sig_by_flag[elementwise].get(id(rule))
                if hit is None or hit[0] is not rule:
                    hit = sig_by_flag[elementwise][id(rule)] = self._sig_entry(rule, both, elementwise)
                take = itemgetter(*slots) if len(slots) > 1 else _taker(slots)  # (`_taker`, its common case inline)
                nodes.append(Node(op, rule, slots, name, both, elementwise, None, hit[2], hit[3], take, (-1, -1), hit[1]))
                for s in slots:
                    u = users[s]
                    if not u or u[-1] != i:
                        u.append(i)
                continue
            if op.name == "func.return":
                ft = func_type(func)
                for i, v in enumerate(op.operands):
                    shape = self.shapes[self.slot(v)]
                    attr = get_arg_attr(func, i, "res_attrs")
                    sh = self._read(attr, func, len(shape), f"function result #{i}")
                    rs = self._new_slot((func, i), shape, sh)
                    if i < len(ft.results) and self._results_propagate(func):
                        self._add_node(op, _identity_rule(shape), [self.slot(v), rs], "return")
                continue
            if op.name == "sdy.manual_computation":
                manual = op.properties.get("manual_axes")
                names = getattr(manual.resolve().typed, "names", ()) if manual is not None else ()
                edges = _edge_users(op)
                if not names or edges:
                    for b in op.regions[0].blocks:
                        for a in b.args:
                            self.slot(a)
                        self._build_block(b, func)
                if edges:
                    self._add_manual_edges(op, list(names))
                else:
                    self._skip(op, "data-flow op: operands and results keep their in/out shardings")
                continue
            if op.name == "sdy.propagation_barrier":
                self._add_barrier(op)
                continue
            if op.name == "sdy.func_data_flow_edge":
                self._add_func_edge(op, func)

    def _data_flow_edges(self, op: Operation, func: Operation) -> bool:
        """An op whose results carry `sdy.data_flow_edge`s (Shardy's import adds them): each edge
        holds one sharding for the op's result, the while's block arguments of that position and
        the values flowing in (operands, region returns), tied by an identity rule. False when no
        result has an edge (the op stays a barrier, as for modules without edges)."""
        edges = {r.index: u for r in op.results for u in r.uses if u.name == "sdy.data_flow_edge"}
        if not edges:
            return False
        blocks = [b for region in op.regions for b in region.blocks]
        for i, edge in edges.items():
            s = self.slot(edge.results[0])
            self.slot_of[id(op.results[i])] = s
            if op.name == "stablehlo.while":
                for b in blocks:
                    if i < len(b.args):
                        self.slot_of[id(b.args[i])] = s
        for r in op.results:
            self.slot(r)
        for b in blocks:
            for a in b.args:
                self.slot(a)
            self._build_block(b, func)
        returns = [b.ops[-1].operands for b in blocks if b.ops]
        for i, edge in sorted(edges.items()):
            if not isinstance(op.results[i].type.resolve(), TensorType):
                continue
            if op.name == "stablehlo.while":
                sources = [op.operands[i], *([returns[-1][i]] if returns else [])]
            elif op.name == "stablehlo.case":
                sources = [ret[i] for ret in returns]
            else:
                sources = [op.operands[i]]
            s = self.slot_of[id(edge.results[0])]
            m = tuple((d,) for d in range(len(self.shapes[s])))
            rule = OpShardingRule(tuple(self.shapes[s]), tuple(m for _ in sources), (m,))
            self._add_node(edge, rule, [*(self.slot(v) for v in sources), s], "data-flow edge")
        return True

    def _add_manual_edges(self, op: Operation, manual: list[str]) -> None:
        """`sdy.data_flow_edge`s on a manual computation's block arguments (sources: the operands)
        and results (sources: the body's returned values), each an identity over the edge's
        type whose target is seen through `manual_edges` (see there)."""
        ins = [self._read(a, op, rank_of(v), f"operand #{i}") for i, (a, v) in enumerate(zip(_per_value(op, "in_shardings"), op.operands))]
        outs = [self._read(a, op, rank_of(v), f"result #{i}") for i, (a, v) in enumerate(zip(_per_value(op, "out_shardings"), op.results))]
        body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        ret = body.ops[-1].operands if body is not None and body.ops else []
        for value, source, outer, is_arg in [*((a, op.operands[i], ins[i] if i < len(ins) else None, True)
                                                for i, a in enumerate(body.args if body is not None else ())
                                                if i < len(op.operands)),
                                              *((r, ret[i], outs[i] if i < len(outs) else None, False)
                                                for i, r in enumerate(op.results) if i < len(ret))]:  # fmt: skip
            edge = next((u for u in value.uses if u.name == "sdy.data_flow_edge"), None)
            if edge is None or not isinstance(edge.results[0].type.resolve(), TensorType):
                continue
            target = self.slot(edge.results[0])
            rank = len(self.shapes[target])
            see = partial(_see_arg if is_arg else _see_result, outer=outer, manual=manual, rank=rank)
            store = partial(_store_arg if is_arg else _store_result, outer=outer, manual=manual)
            self._add_node(edge, _identity_rule(self.shapes[target]), [self.slot(source), target], "data-flow edge")
            self.nodes[-1].views = {1: (see, store)}

    def _add_sharding_groups(self) -> None:
        """Sharding groups, as Shardy's ShardingGroupMap: when every member that has a sharding
        (fully open replicated ones aside) has the same one, all members get it; later, whenever
        propagation changes a member, every other member gets the same sharding."""
        from ttopt.sharding.sharding_groups import sharding_groups

        for members in sharding_groups(self.module):
            slots = list(dict.fromkeys(self.slot(v) for v in members))
            shape = self.shapes[slots[0]]
            if len(slots) < 2 or any(self.shapes[s] != shape for s in slots):
                continue
            # Fully open replicated members take the others' sharding too (Shardy's findCommonSharding).
            given = [g for g in (self.sh[s] for s in slots) if g is not None and not _open_replicated(g)]
            if given and all(g.mesh == given[0].mesh and g.dims == given[0].dims and g.closed == given[0].closed for g in given):
                for s in slots:
                    cur = self.sh[s]
                    if cur is None or _open_replicated(cur):
                        self.sh[s] = given[0].copy()
            for s in slots:
                self.group_of[s] = slots
                for j in self.users[s]:  # a group member's writes go to the other members too
                    self.nodes[j].sig = -2

    def _add_func_edge(self, op: Operation, func: Operation) -> None:
        """`sdy.func_data_flow_edge` (a call graph kept flat by Shardy's import): on a function
        argument it ties the operands of every call of the function to the argument's users; on
        a call result, the callee's returned value to the result's users. Identity rule; the edge
        holds the targets' sharding, the call and the block argument keep none."""
        x = op.operands[0]
        if not isinstance(x.type.resolve(), TensorType):
            self._skip(op, "non-tensor func data-flow edge")
            return
        sources: list[Any] = []
        if isinstance(x, BlockArgument):
            calls = self.calls.get(func_name(func), [])
            sources = [c.operands[x.index] for c in calls if x.index < len(c.operands)]
        elif isinstance(x, OpResult) and x.op.name == "func.call":
            callee = self.funcs.get(getattr(x.op.properties.get("callee"), "root", ""))
            blocks = callee.regions[0].blocks if callee is not None and callee.regions else []
            ret = blocks[0].ops[-1] if blocks and blocks[0].ops else None
            if ret is not None and ret.name == "func.return" and x.index < len(ret.operands):
                sources = [ret.operands[x.index]]
        if not sources:
            self._skip(op, "func data-flow edge without sources (never called)")
            return
        target = self.slot(op.results[0])
        self._add_node(op, _identity_rule(self.shapes[target], len(sources)), [*(self.slot(v) for v in sources), target],
                       "func data-flow edge")

    def _add_barrier(self, op: Operation) -> None:
        """`sdy.propagation_barrier`: an identity that only lets shardings through in its
        allowed direction (FORWARD: into the result, BACKWARD: into the operand, NONE, BOTH)."""
        prop = op.properties.get("allowed_direction")
        direction = (enum_keyword("propagation_direction", prop) if prop is not None else None) or "NONE"
        slots = [self.slot(op.operands[0]), self.slot(op.results[0])]
        i = len(self.nodes)
        self._add_node(op, _identity_rule(self.shapes[slots[0]]), slots, op.name)
        self.nodes[i].direction = direction if direction in (fp.FORWARD, fp.BACKWARD, fp.BOTH) else fp.NONE
        self.nodes[i].elementwise = True

    def _skip(self, op: Operation, why: str) -> None:
        self.skipped[op.name] = self.skipped.get(op.name, 0) + 1
        if self.trace is not None and self.trace.enabled and op.name not in ("func.return",):
            self.trace.print(f"[dim]skip {op.name}: {why}[/]")

    def _add_node(self, op: Any, rule: OpShardingRule, slots: list[int], label: str, elementwise: bool = False) -> None:
        i = len(self.nodes)
        self.nodes.append(Node(op, rule, slots, label, elementwise=elementwise))
        users = self.users
        for s in slots:  # once into each slot's users (a node's entries there are consecutive)
            u = users[s]
            if not u or u[-1] != i:
                u.append(i)

    # -- propagation -----------------------------------------------------------------------------
    def propagate(self, aggressive: bool = True, after_basic: bool = False) -> PropagationResult:
        """Run the worklist to a fixed point (every node queued once to start). `after_basic`: the
        basic round just ran on these shardings and directions, so a node whose last visit there
        showed that no strategy changes anything (and whose tensors did not change since) is
        passed over."""
        res = PropagationResult(skipped=dict(self.skipped))
        # Return edges first: a function result's sharding reaches the returned value before the
        # op that computes it picks axes from its operands (Shardy's order).
        order = self._order
        if len(order) != len(self.nodes):  # worked out once: the rounds start alike
            returns = [i for i, n in enumerate(self.nodes) if n.label == "return"]
            order = self._order = [*returns, *[i for i, n in enumerate(self.nodes) if n.label != "return"]]
        queue = deque(order)
        queued = [True] * len(self.nodes)
        if not after_basic or len(self._quiet) != len(self.nodes):
            self._quiet = [False] * len(self.nodes)
        quiet = self._quiet
        users = self.users
        nodes = self.nodes
        sh = self.sh
        visit = self._propagate_node
        self._tracing_now = self.trace is not None and self.trace.enabled
        # A visit's outcome is a function of the node's signature and its slots' sharding objects
        # (equal shardings written are one object, `_interned`): worked out once per such state.
        # The entry holds the shardings, so their ids stay theirs. Not with op-priority directions
        # (a function of the node itself) nor while tracing (which prints each visit).
        memo = None if self.direction_of is not None or self._tracing_now else self._visits[aggressive]
        if memo is None:
            sigs = [-2] * len(nodes)  # every node worked out at each visit
            takes: list[Any] = sigs
        elif len(self._node_sigs[0]) == len(nodes):  # a node's signature stays as its first round found it
            sigs, takes = self._node_sigs
        else:
            for node in nodes:
                if node.sig == -1:
                    node.sig = self._visit_sig(node)
            sigs = [node.sig for node in nodes]
            takes = [node.take for node in nodes]
            self._node_sigs = (sigs, takes)
        outcome = self._outcome
        visits = len(queue)  # and one per node queued again, below
        updates = 0  # counted in locals, the hottest loop of the pass
        while queue:
            i = queue.popleft()
            queued[i] = False
            if quiet[i]:
                continue
            sig = sigs[i]
            if sig < 0:
                changed = visit(nodes[i], aggressive)
                if changed is _QUIET:
                    quiet[i] = True
                    continue
            else:
                shs = takes[i](sh)
                key = ((sig, id(shs[0]), id(shs[1])) if len(shs) == 2 else  # (most nodes: no list, map or iterator)
                       (sig, id(shs[0]), id(shs[1]), id(shs[2])) if len(shs) == 3 else (sig, *map(id, shs)))  # fmt: skip
                hit = memo.get(key)  # type: ignore[union-attr]
                if hit is None:
                    hit = memo[key] = (outcome(nodes[i], shs, aggressive), shs)  # type: ignore[index]
                writes = hit[0]
                if writes is _QUIET:
                    quiet[i] = True
                    continue
                if not writes:
                    continue
                changed = []
                slots = nodes[i].slots
                for t, new in writes:
                    s = slots[t]
                    if s not in changed:
                        sh[s] = new
                        changed.append(s)
            updates += len(changed)
            for s in changed:
                for j in users[s]:
                    quiet[j] = False
                    if not queued[j]:
                        queued[j] = True
                        queue.append(j)
                        visits += 1
        res.visits += visits
        res.updates += updates
        return res

    def _visit_sig(self, node: Node) -> int:
        """The number of what a visit of `node` depends on besides its slots' shardings (its rule,
        direction and elementwise flag), or -2 when its outcome is not that alone (views on its
        tensors, slots in sharding groups)."""
        if node.views or (self.group_of and any(s in self.group_of for s in node.slots)):
            return -2
        node.take = _taker(node.slots)
        rule = node.rule
        hit = self._sig_of_object.get((id(rule), node.direction, node.elementwise))
        if hit is None or hit[0] is not rule:
            hit = self._sig_entry(rule, node.direction, node.elementwise)
        node.rule_id, node.same_dims = hit[2], hit[3]
        return hit[1]

    def _sig_entry(self, rule: OpShardingRule, direction: str, elementwise: bool) -> tuple:
        """(rule, the `_visit_sig` number of its nodes of that direction and flag, its number, its
        settled plan), kept by the rule object (nodes share rule objects; the entry keeps it alive)."""
        rule_id, plan = self._rule_facts(rule)
        number = self._sigs.setdefault((rule_id, direction, elementwise), len(self._sigs))
        entry = self._sig_of_object[(id(rule), direction, elementwise)] = (rule, number, rule_id, plan)
        return entry

    def _mesh(self, shardings: list[Sharding | None]) -> tuple[Any, Any] | None:
        """The mesh the node propagates on, as Shardy: shardings on an empty mesh (`<[]>`) take
        any other mesh; meshes of other names but the same axes and devices count as one (the
        first name is written); different meshes, or a maximal one, stop propagation."""
        ref = mesh = None
        for s in shardings:
            if s is None:
                continue
            m = s.mesh if not isinstance(s.mesh, str) else self.meshes.get(s.mesh)
            if m is None:
                return None
            if not m.axes and not m.device_ids:
                continue
            if mesh is None:
                ref, mesh = s.mesh, m
            elif m is not mesh and m != mesh:
                return None
        if mesh is None or not mesh.axes:
            return None
        return ref, mesh

    def _facts(self, s: Sharding) -> tuple:
        """(this graph's token, s's mesh resolved, its dims, closed flags and replicated axes as
        tuples, the number of that part of an outcome key when it has no unreduced axes, else
        None, what the mesh is to a node (`_mesh_facts`)): computed once per sharding object and
        kept on it (a slot's sharding is replaced, never changed in place)."""
        e = s.memo
        if e is None or e[0] is not self._token:
            m = s.mesh if not isinstance(s.mesh, str) else self.meshes.get(s.mesh)
            part = (tuple(map(tuple, s.dims)), tuple(s.closed), s.replicated)
            # Without unreduced axes the key part is the same on every mesh: numbered here once.
            e = s.memo = (self._token, m, part, None if s.unreduced else self._part_number((*part, ())), self._mesh_facts(m))
        return e

    def _mesh_facts(self, m: Any) -> Any:
        """What a sharding's resolved mesh `m` is to a node (`_mesh`'s rules): None when unknown or
        maximal (the node changes nothing), `_ANY_MESH` when empty (it takes the node's other
        mesh), else (m, its axis sizes by name, the number of that key part), one per mesh object."""
        if m is None or (not m.axes and m.device_ids):
            return None
        if not m.axes:
            return _ANY_MESH
        known = self._mesh_axes.get(id(m))
        if known is None:
            full = {a.name: a.size for a in m.axes}
            known = self._mesh_axes[id(m)] = (m, full, self._part_number(("mesh", *full.items())))
        return known

    def _part_number(self, part: tuple) -> int:
        """The number of a sharding's part of an outcome key: keys of small ints hash fast."""
        n = self._part_numbers.get(part)
        if n is None:
            n = self._part_numbers[part] = len(self._part_numbers)
        return n

    def _key_parts(self, shs: list[Sharding | None], mesh: Any) -> list[int | None]:
        """Per tensor the number of its key part (None: no sharding), unreduced axes sized by `mesh`."""
        parts: list[int | None] = []
        for s in shs:
            if s is None:
                parts.append(None)
                continue
            f = self._facts(s)
            parts.append(f[3] if f[3] is not None else
                         self._part_number((*f[2], tuple(axis_of(r, mesh) for r in s.unreduced))))  # fmt: skip
        return parts

    def _propagate_node(self, node: Node, aggressive: bool) -> list[int]:
        take = node.take
        if take is None:
            take = node.take = _taker(node.slots)
        shs = take(self.sh)
        if node.views:
            shs = list(shs)
            for t, (see, _) in node.views.items():
                shs[t] = see(shs[t])
        writes = self._outcome(node, shs, aggressive)
        if writes is _QUIET:
            return _QUIET
        return self._apply(node, shs, writes)

    def _outcome(self, node: Node, shs: Any, aggressive: bool) -> Any:
        """What a visit of `node` does with its tensors' shardings `shs` (as the node sees them):
        `_QUIET` when no strategy would change anything while they stay as they are, else per
        tensor that changes, (its index, its new sharding)."""
        plan = node.same_dims
        if plan is None:
            node.rule_id, plan = self._rule_facts(node.rule)
            node.same_dims = plan
        if plan is not SEVERAL_FACTORS and settled(plan, shs):
            return _QUIET
        token = self._token
        parts: list[Any] = []  # the shardings' parts of the outcome key (None: no sharding, or unreduced axes)
        unreduced = False
        # The node's mesh, as `_mesh` finds it (from the facts' resolved meshes).
        mesh_ref = mesh = None
        known: Any = None
        for s in shs:
            if s is None:
                parts.append(None)
                continue
            f = s.memo
            if f is None or f[0] is not token:
                f = self._facts(s)
            if f[3] is None:
                unreduced = True
            parts.append(f[3])
            k = f[4]
            if k is None:  # an unknown or maximal mesh: nothing to propagate
                return _QUIET
            if k is _ANY_MESH:
                continue
            if mesh is None:
                mesh_ref, mesh, known = s.mesh, k[0], k
            elif k[0] is not mesh and k[0] != mesh:
                return _QUIET
        if mesh is None:
            return _QUIET
        if unreduced:  # unreduced axes are part of the key as the mesh sizes them
            parts = self._key_parts(shs, mesh)
        if self._tracing_now:
            return self._writes(shs, mesh_ref, self._factor_propagation(node, shs, parts, mesh, known[1], aggressive, True))
        if self.direction_of is None:
            directions: Any = node.direction
        else:
            directions = tuple(self._direction(node, f) for f in range(len(node.rule.factor_sizes)))
        cls = node.outcome_class
        if cls[0] != known[2]:
            number = self._classes.get((node.rule_id, known[2]))
            if number is None:
                number = self._classes[(node.rule_id, known[2])] = self._outcome_class(node, plan, known[1])
            cls = node.outcome_class = (known[2], number)
        key = (cls[1], aggressive, node.elementwise, directions, known[2], *parts)
        outcome = self.outcomes.get(key)
        if outcome is None:
            self.inert = False
            outcome = self.outcomes[key] = self._factor_propagation(node, shs, parts, mesh, known[1], aggressive, False)
            if self.inert:
                # Nothing the basic strategy could extend: the aggressive one, on the same tensors, changes nothing.
                self.outcomes[(key[0], True, *key[2:])] = ()
        if not outcome:
            return _QUIET if outcome is _INERT else ()
        return self._writes(shs, mesh_ref, outcome)

    def _outcome_class(self, node: Node, plan: tuple, full: dict[str, int]) -> int:
        """The number of the class of rules whose factor propagation on this mesh is the node's
        rule's, for the same shardings: they share outcomes.

        A rule with a dimension of several factors is a class of its own. In the others (every
        dimension one factor) projection and write-back read no factor size; factor propagation
        reads a factor's size only where truncation asks whether axes of sizes `prev` then `r`
        still divide it, both products of axes of one valid sharding, so `prev * r` is at most the
        mesh's device count M (non-overlapping sub-axes of an axis multiply to at most its size),
        and a size capped at the powers of M's primes that M can hold answers alike (`_capped`);
        the aggressive strategy also orders tensors by size, kept as each tensor's size rank."""
        rule = node.rule
        if plan is SEVERAL_FACTORS:
            key: tuple = ("rule", node.rule_id)
        else:
            devices = 1
            for n in full.values():
                devices *= n
            sizes = rule.factor_sizes
            tensor_sizes = []
            for m in rule.tensors:
                n = 1
                for f in {fs[0] for fs in m}:
                    n *= sizes[f]
                tensor_sizes.append(n)
            order = sorted(set(tensor_sizes))
            key = (rule.operands, rule.results, tuple(_capped(n, devices) for n in sizes), rule.blocked_propagation,
                   tuple(order.index(n) for n in tensor_sizes))  # fmt: skip
        return self._class_ids.setdefault(key, len(self._class_ids))

    def _rule_facts(self, rule: OpShardingRule) -> tuple[int, tuple]:
        """The rule's number among the graph's distinct rules and its `settled_plan`, once per
        distinct rule; found by the rule object first (nodes share rule objects, and hashing a
        rule is a Python call), the entry keeping it alive."""
        hit = self._by_rule_object.get(id(rule))
        if hit is None or hit[0] is not rule:
            facts = self._rule_facts_of.get(rule)
            if facts is None:
                facts = self._rule_facts_of[rule] = (len(self._rule_facts_of), settled_plan(rule))
            hit = self._by_rule_object[id(rule)] = (rule, *facts)
        return hit[1], hit[2]

    def _direction(self, node: Node, f: int) -> str:
        if f in node.rule.blocked_propagation:
            return fp.NONE
        if self.direction_of is None:
            return node.direction
        return fp.intersect(node.direction, self.direction_of(node, f))

    def _factor_propagation(self, node: Node, shs: list[Sharding | None], parts: list[int | None], mesh: Any,
                            full: dict[str, int], aggressive: bool, tracing: bool) -> tuple:
        """Shardy's factor propagation at one node: per tensor that changed, its new dims and
        closed flags (tracing: the node's factor table is printed as well)."""
        rule = node.rule
        sizes = rule.factor_sizes
        rule_id = node.rule_id
        if not tracing:
            simple = self._simple.get(rule_id)
            if simple is None:
                factors = sf.simple_mapping(rule.tensors)
                simple = self._simple[rule_id] = (factors, sf.tensor_sizes(factors, sizes) if factors is not None else None)
            if simple[0] is not None:
                return self._single_factor_propagation(node, shs, parts, mesh, full, aggressive, simple)
        tensors = []
        projections = self._projections.get(rule_id)
        if projections is None:
            projections = self._projections[rule_id] = [{} for _ in rule.tensors]
        for t, (m, s) in enumerate(zip(rule.tensors, shs)):
            by_part = projections[t]
            projected = by_part.get(parts[t])
            if projected is None:
                if s is None:
                    projected = fp.build(m, sizes, None, None)
                else:
                    part = self._facts(s)[2]
                    unreduced = tuple(axis_of(r, mesh) for r in s.unreduced) if s.unreduced else ()
                    projected = fp.build(m, sizes, [list(d) for d in part[0]], part[1], part[2], unreduced)
                by_part[parts[t]] = projected
            tensors.append(projected)  # shared: factor propagation copies a tensor before changing it
        before = [{f: list(x.axes) for f, x in t.factors.items()} for t in tensors] if tracing else []
        n_ops = len(rule.operands)

        if self.direction_of is None:  # then the directions are the rule's and the node's
            dirs = self._directions.get((rule_id, node.direction))
            if dirs is None:
                dirs = self._directions[(rule_id, node.direction)] = [self._direction(node, f) for f in range(len(sizes))]
        else:
            dirs = [self._direction(node, f) for f in range(len(sizes))]
        direction = dirs.__getitem__

        extendable = [False]
        if aggressive:
            updated = fp.propagate_aggressive(tensors, n_ops, sizes, direction, full, self.conservative, node.elementwise)
        else:
            updated = fp.propagate_basic(tensors, n_ops, sizes, direction, full, self.conservative, extendable)
        changes = []
        for t, changed in enumerate(updated):
            if changed:
                dims, closed = fp.dim_shardings(tensors[t], rule.tensors[t], sizes)
                changes.append((t, tuple(map(tuple, dims)), tuple(closed)))
        if tracing:
            self._trace_rows = (before, tensors, full)
        if not aggressive and not changes and not extendable[0]:
            self.inert = True
            return _INERT
        return tuple(changes)

    def _single_factor_propagation(self, node: Node, shs: Any, parts: list[int | None], mesh: Any, full: dict[str, int],
                                   aggressive: bool, simple: tuple) -> tuple:  # fmt: skip
        """`_factor_propagation` of a rule whose every dimension is one factor (`single_factor_propagation`)."""
        rule = node.rule
        sizes = rule.factor_sizes
        factors, tensor_sizes = simple
        rule_id = node.rule_id
        projections = self._simple_projections.get(rule_id)
        if projections is None:
            projections = self._simple_projections[rule_id] = [{} for _ in factors]
        projected = []
        axes = []  # per tensor its projection's axes, shared: the strategies copy a tensor's before changing it
        n_factors = len(sizes)
        for t, s in enumerate(shs):
            by_part = projections[t]
            p = by_part.get(parts[t])
            if p is None:
                if s is None:
                    p = sf.project(factors[t], n_factors, None, None)
                else:
                    part = self._facts(s)[2]
                    unr = tuple(axis_of(r, mesh) for r in s.unreduced) if s.unreduced else ()
                    p = sf.project(factors[t], n_factors, part[0], part[1], part[2], unr)
                by_part[parts[t]] = p
            projected.append(p)
            axes.append(p[0])
        dirs = self._directions.get((rule_id, node.direction))
        if dirs is None:
            dirs = self._directions[(rule_id, node.direction)] = [self._direction(node, f) for f in range(n_factors)]
        if self.direction_of is not None:
            dirs = [self._direction(node, f) for f in range(n_factors)]
        extendable = [False]
        if aggressive:
            updated = sf.propagate_aggressive(axes, projected, factors, tensor_sizes, len(rule.operands), sizes,
                                              dirs.__getitem__, full, self.conservative, node.elementwise)  # fmt: skip
        else:
            updated = sf.propagate_basic(axes, projected, factors, len(rule.operands), sizes, dirs.__getitem__, full,
                                         self.conservative, extendable)  # fmt: skip
        changes = []
        for t, changed in enumerate(updated):
            if changed:
                changes.append((t, *sf.dim_shardings(axes[t], projected[t][1], factors[t])))
        if not aggressive and not changes and not extendable[0]:
            self.inert = True
            return _INERT
        return tuple(changes)

    def _writes(self, shs: Any, mesh_ref: Any, outcome: tuple) -> tuple:
        """Per entry of an outcome whose tensor's sharding changes, (tensor index, new sharding)."""
        out = []
        written = self._written
        for entry in outcome:
            old = shs[entry[0]]
            # Nodes of one outcome key share the outcome's entries: equal writes share one sharding.
            k = (id(entry), id(old), id(mesh_ref))
            hit = written.get(k)
            if hit is None or hit[0] is not entry or hit[1] is not old or hit[2] is not mesh_ref:
                hit = written[k] = (entry, old, mesh_ref, self._written_sharding(entry, old, mesh_ref))
            if hit[3] is not None:
                out.append((entry[0], hit[3]))
        return tuple(out)

    def _apply(self, node: Node, shs: Any, writes: tuple) -> list[int]:
        """Store a node's writes in its slots (and their sharding groups); the slots that changed."""
        out: list[int] = []
        trace_rows: list | None = [] if self._tracing_now else None
        for t, new_sh in writes:
            s = node.slots[t]
            if s in out:
                continue
            if node.views and t in node.views:
                new_sh = node.views[t][1](new_sh)
            self.sh[s] = new_sh
            out.append(s)
            if trace_rows is not None:
                trace_rows.append((t, shs[t], new_sh))
            for m in self.group_of.get(s, ()):
                if m != s:
                    self.sh[m] = new_sh.copy()
                    out.append(m)
        if out and trace_rows is not None:
            before, tensors, full = self._trace_rows
            self._trace(node, before, tensors, trace_rows, full)
        return out

    def _written_sharding(self, entry: tuple, old: Sharding | None, mesh_ref: Any) -> Sharding | None:
        """The sharding an outcome's entry (tensor, dims, closed flags) writes over `old` on the
        node's mesh `mesh_ref` (None: no change), as `_interned` keeps it (looked up before one is built)."""
        _, dims_t, closed_t = entry
        if old is None:
            if not any(dims_t):
                return None
            rest: tuple = ((None,) * len(dims_t), (), (), None)
        else:
            part = self._facts(old)[2]
            if part[0] == dims_t and part[1] == closed_t:
                return None
            rest = (tuple(old.priority), old.replicated, old.unreduced, old.unreduced_kind)
        try:
            hit = self._shardings.get((mesh_ref if isinstance(mesh_ref, str) else id(mesh_ref), dims_t, closed_t, *rest))
        except TypeError:  # an unhashable field: built afresh below
            hit = None
        if hit is not None:
            return hit
        # An empty mesh, or another name of the same mesh, becomes the node's.
        return self._interned(Sharding(mesh_ref, [list(d) for d in dims_t], list(closed_t), list(rest[0]), *rest[1:]))

    def _interned(self, sh: Sharding) -> Sharding:
        """One object per distinct sharding written (what `_visits` tells states apart by); the
        entry holds the first, so the ids in its key stay theirs."""
        mesh = sh.mesh
        try:
            key = (mesh if isinstance(mesh, str) else id(mesh), tuple(map(tuple, sh.dims)), tuple(sh.closed),
                   tuple(sh.priority), sh.replicated, sh.unreduced, sh.unreduced_kind)  # fmt: skip
            return self._shardings.setdefault(key, sh)
        except TypeError:  # an unhashable field: this one stays its own
            return sh

    def _tracing(self) -> bool:
        return self.trace is not None and self.trace.enabled

    def _trace(self, node: Node, before: list, tensors: list, rows: list, full: dict) -> None:
        from rich.markup import escape
        from rich.table import Table

        loc = _where(node.op)
        t = Table(title=escape(f"{node.label}{loc}  {node.rule.print_body()}"), title_justify="left", show_edge=False)
        t.add_column("factor")
        t.add_column("size", justify="right")
        n_ops = len(node.rule.operands)
        for k in range(len(tensors)):
            t.add_column(f"op{k}" if k < n_ops else f"res{k - n_ops}")
        for f, size in enumerate(node.rule.factor_sizes):
            if size == 1:
                continue
            cells = []
            for k, p in enumerate(tensors):
                fs = p.factors.get(f)
                if fs is None:
                    cells.append("-")
                    continue
                old = _axes_text(before[k][f], full)
                new = _axes_text(fs.axes, full)
                cells.append((old if old == new else f"{old} -> {new}") + (" closed" if fs.closed else ""))
            if node.rule.is_blocked(f):
                cells = [c + " (blocked)" for c in cells]
            t.add_row(factor_name(f), str(size), *(escape(c) for c in cells))
        self.trace.print(t)
        for k, old, new in rows:
            name = f"operand {k}" if k < n_ops else f"result {k - n_ops}"
            was = old.text(self.meshes) if old is not None else "none"
            self.trace.print(f"  {name}: {escape(was)} -> [green]{escape(new.text(self.meshes))}[/]")

    # -- writing back --------------------------------------------------------------------------------
    def write_back(self) -> int:
        """Store every changed slot's sharding in the IR; returns how many changed."""
        sh_list, initial, owners, meshes = self.sh, self.initial, self.owner, self.meshes
        changed_ops: dict[int, Any] = {}
        # Function argument/result shardings, gathered per (function, key) and written once each.
        changed_args: dict[tuple[int, str], tuple[Operation, dict[int, Any]]] = {}
        # A one-result op's `sdy.sharding` per sharding object (slots share them: equal writes share one).
        per_value: dict[int, Any] = {}
        count = 0
        for s in compress(range(len(sh_list)), map(is_not, sh_list, initial)):
            sh, init = sh_list[s], initial[s]
            if sh is None or (init is not None and init.dims == sh.dims and init.priority == sh.priority
                              and init.replicated == sh.replicated):  # fmt: skip
                continue
            count += 1
            owner = owners[s]
            if isinstance(owner, tuple):
                func, i = owner
                changed_args.setdefault((id(func), "res_attrs"), (func, {}))[1][i] = to_attr(sh, meshes)
                continue
            op = getattr(owner, "op", None)
            if op is None:
                func = func_of_arg(owner)
                if func is not None:
                    changed_args.setdefault((id(func), "arg_attrs"), (func, {}))[1][owner.index] = to_attr(sh, meshes)
                continue
            if len(op.results) == 1 and op.name not in RESULT_SHARDINGS_ELSEWHERE:  # most ops: written here
                attr = per_value.get(id(sh))
                if attr is None:
                    attr = per_value[id(sh)] = per_value_attr([to_attr(sh, meshes)])
                op.attributes["sdy.sharding"] = attr
                continue
            changed_ops[id(op)] = op
        for (_, key), (func, by_index) in changed_args.items():
            set_arg_attrs_at(func, by_index, key)
        for op in changed_ops.values():
            shs = [sh_list[self.slot_of[id(r)]] for r in op.results]
            mesh = next(sh.mesh for sh in shs if sh is not None)
            set_op_result_shardings(op, [to_attr(sh if sh is not None else Sharding.open(mesh, rank_of(r)), meshes)
                                         for r, sh in zip(op.results, shs)])  # fmt: skip
        return count


def _taker(slots: list[int]) -> Callable[[list[Sharding | None]], Any]:
    """The shardings of `slots` from a graph's list of them, as one call."""
    if len(slots) > 1:
        return itemgetter(*slots)
    one = slots[0] if slots else None

    def take(sh: list[Sharding | None]) -> list[Sharding | None]:
        return [sh[one]] if one is not None else []

    return take


def _capped(size: int, devices: int) -> int:
    """`size` keeping, of each prime p of `devices`, at most the largest power of p not above
    `devices`, and no other prime: for any a, b with a * b <= devices made of those primes,
    `size % a == 0` and `gcd(size // a, b)` are the same for it as for `size`."""
    out = 1
    p = 2
    rest = devices
    while rest > 1:
        if rest % p == 0:
            while rest % p == 0:
                rest //= p
            power = p
            while power * p <= devices:
                power *= p
            out *= gcd(size, power)
        p += 1
    return out


def settled_plan(rule: OpShardingRule) -> tuple:
    """What `settled` compares for a rule whose every dimension is one factor
    (`SEVERAL_FACTORS` for any other rule): the pairs of tensors of one mapping (all their
    dimensions), and per later occurrence of a factor in a tensor of another mapping the
    (tensor, dim) of that occurrence and of the factor's first one."""
    first: dict[int, tuple[int, int]] = {}
    by_mapping: dict[tuple, int] = {}
    whole: list[tuple[int, int]] = []
    dims: list[tuple[int, int, int, int]] = []
    for t, mapping in enumerate(rule.tensors):
        if any(len(fs) != 1 for fs in mapping):
            return SEVERAL_FACTORS
        same = by_mapping.setdefault(mapping, t)
        if same != t:
            whole.append((same, t))
            continue
        for d, fs in enumerate(mapping):
            at = first.setdefault(fs[0], (t, d))
            if at != (t, d):
                dims.append((*at, t, d))
    return (tuple(whole), tuple(dims))


def settled(plan: tuple, shs: list[Sharding | None]) -> bool:
    """Whether every factor already has the same axes in every tensor of the node (a tensor
    without sharding has none), by `settled_plan`'s plan. Then factor propagation,
    basic or aggressive, changes nothing: it only extends a tensor's axes of a factor that are a
    strict prefix of the factor's compatible axes, and the compatible axes of equal lists are that
    list (or none). (A sharding of another rank, on a maximal mesh, is never a change either.)"""
    whole, dims = plan
    for t1, t2 in whole:
        a, b = shs[t1], shs[t2]
        if a is None:
            if b is not None and any(b.dims):
                return False
        elif b is None:
            if any(a.dims):
                return False
        elif a.dims != b.dims:
            return False
    try:
        for t1, d1, t2, d2 in dims:
            a, b = shs[t1], shs[t2]
            if (a.dims[d1] if a is not None else []) != (b.dims[d2] if b is not None else []):
                return False
    except IndexError:  # a sharding without the tensor's rank: on a maximal mesh, which stops the node
        return False
    return True


def _see_arg(sh: Sharding | None, outer: Sharding | None, manual: list[str], rank: int) -> Sharding | None:
    if outer is None:
        return sh
    return add_free_axes(outer, sh if sh is not None else Sharding.open(outer.mesh, rank), manual)


def _store_arg(sh: Sharding, outer: Sharding | None, manual: list[str]) -> Sharding:
    return erase_manual_axes(sh, manual)


def _see_result(sh: Sharding | None, outer: Sharding | None, manual: list[str], rank: int) -> Sharding | None:
    return erase_manual_axes(sh, manual) if sh is not None else None


def _store_result(sh: Sharding, outer: Sharding | None, manual: list[str]) -> Sharding:
    return add_free_axes(outer, sh, manual) if outer is not None else sh


def _edge_users(op: Operation) -> bool:
    """Some block argument or result of `op` is read by an `sdy.data_flow_edge`."""
    values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
    return any(u.name == "sdy.data_flow_edge" for v in values for u in v.uses)


def _per_value(op: Operation, key: str) -> list[Any]:
    prop = op.properties.get(key)
    return list(prop.resolve().typed.shardings) if prop is not None else []


def _open_replicated(sh: Sharding) -> bool:
    return not any(sh.dims) and not any(sh.closed) and not sh.replicated and not sh.unreduced


def _axes_text(axes: list[Axis], full: dict[str, int]) -> str:
    def one(a: Axis) -> str:
        return f'"{a[0]}"' if a[1] == 1 and a[2] == full.get(a[0]) else f'"{a[0]}":({a[1]}){a[2]}'

    return "{" + ", ".join(one(a) for a in axes) + "}"


def _where(op: Any) -> str:
    loc = getattr(op, "location", None)
    text = getattr(loc, "text", None) if loc is not None else None
    return f" {text}" if text and "unknown" not in text else ""


def settle_rules(graph: ShardingGraph, keep: bool | None) -> None:
    """Shardy's propagation ends by dropping every `sdy.sharding_rule` but custom ones, or (keep-sharding-rules)
    by writing the rule it used onto each op; not given, ttopt leaves the rules as they are, so a
    rule the user wrote keeps directing the passes after propagation."""
    from ttopt.ir.attributes import DialectAttr

    if keep is None:
        return
    if not keep:
        # As Shardy's removeShardingRules: a custom rule (`..., custom>`, written by the user or
        # JAX) stays, it is the op's only rule.
        for op in graph.module.walk():
            attr = op.attributes.get("sdy.sharding_rule")
            body = getattr(attr.resolve(), "body", None) if attr is not None else None
            if attr is not None and not (body is not None and re.search(r",\s*custom\s*$", body)):
                del op.attributes["sdy.sharding_rule"]
        return
    for node in graph.nodes:
        if node.label != "return" and "sdy.sharding_rule" not in node.op.attributes:
            body = node.rule.print_body()
            node.op.attributes["sdy.sharding_rule"] = DialectAttr("sdy.op_sharding_rule", body, f"#sdy.op_sharding_rule<{body}>")


def run_propagation(module: Module, ctx: PassContext, conservative: bool, aggressive: bool, name: str,
                    keep_rules: bool | None = None,
                    strategy: Callable[[ShardingGraph], PropagationResult] | None = None) -> ShardingGraph:
    """Build the graph, propagate (`strategy`, else basic or basic-then-aggressive), write back."""
    from ttopt.sharding.sharding_groups import split_conflicting_groups

    # Splitting only adds sharding constraints: the functions and calls found stay as they are.
    scan = scan_module(module)
    if scan[2]:
        split_conflicting_groups(module)
    graph = ShardingGraph(module, conservative, ctx.trace, scan)
    if not graph.meshes:
        settle_rules(graph, keep_rules)
        return graph
    if strategy is not None:
        res = strategy(graph)
    else:
        res = propagate_rounds(graph, "basic-then-aggressive" if aggressive else "basic")
    written = graph.write_back()
    settle_rules(graph, keep_rules)
    ctx.stats.setdefault(name, {}).update(
        {"nodes": len(graph.nodes), "visits": res.visits, "updates": res.updates, "shardings_written": written,
         "skipped_ops": sum(graph.skipped.values())}  # fmt: skip
    )
    return graph


STRATEGIES = ("basic", "aggressive", "basic-then-aggressive")


def propagate_rounds(graph: ShardingGraph, strategy: str) -> PropagationResult:
    """Shardy's propagation strategies: basic or aggressive factor propagation to a fixed point,
    or basic first, then aggressive (shardings every op agrees on settle before conflicts are
    resolved)."""
    total = PropagationResult(skipped=dict(graph.skipped))
    for aggressive in {"basic": (False,), "aggressive": (True,)}.get(strategy, (False, True)):
        res = graph.propagate(aggressive, after_basic=aggressive and strategy == "basic-then-aggressive")
        total.visits += res.visits
        total.updates += res.updates
    return total


@dataclass
class PropagationPass(Pass):
    """The options every propagation pass has (Shardy's spellings accepted)."""

    conservative: bool = option(True, "No sub-axes, no non-divisible shardings, conservative rule variants")
    conservative_propagation: bool | None = option(None, "Upstream spelling of 'conservative'; overrides it when given")
    keep_sharding_rules: bool | None = option(None, "true: write the rules used onto the ops; false: drop every "
                                                    "sdy.sharding_rule (Shardy's default); not given: leave them")

    def is_conservative(self) -> bool:
        """`conservative`, or its upstream spelling `conservative-propagation` when given."""
        return self.conservative if self.conservative_propagation is None else self.conservative_propagation


@register_pass
@dataclass
class AggressivePropagation(PropagationPass):
    """Shardy's aggressive propagation (conservative by default: never creates sub-axes or
    non-divisible shardings; DECISIONS.md)."""

    name = "aggressive-propagation"
    summary = "Propagate sdy shardings through op sharding rules (Shardy aggressive strategy)"
    aliases = ("sdy-aggressive-propagate",)

    propagation_strategy: str = option("basic-then-aggressive", "Factor propagation: basic, aggressive (Shardy's "
                                       "default for this pass) or basic-then-aggressive", choices=STRATEGIES)

    def run(self, module: Module, ctx: PassContext) -> None:
        run_propagation(module, ctx, self.is_conservative(), True, self.name,
                        self.keep_sharding_rules, strategy=lambda g: propagate_rounds(g, self.propagation_strategy))


@register_pass
@dataclass
class BasicPropagation(PropagationPass):
    """Shardy's basic propagation: the common prefix only, nothing where factors conflict."""

    name = "basic-propagation"
    summary = "Propagate sdy shardings, basic strategy (no conflict resolution)"
    aliases = ("sdy-basic-propagate",)

    def run(self, module: Module, ctx: PassContext) -> None:
        run_propagation(module, ctx, self.is_conservative(), False, self.name, self.keep_sharding_rules)
