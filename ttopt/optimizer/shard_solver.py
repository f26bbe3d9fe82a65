"""ShardSolver: find compatible sharded configs for the ops of one L1 chain (seed 000, seed 002
§3.3, reference §2.6-2.7).

Per op a bitset (Python int) of still-valid config indices; per in-chain edge a PathSet of allowed
(producer config, consumer config) pairs. `resolve` = `preprocessFirstOp` (which configs accept the
chain's input), then for each op in chain order each incoming edge is evaluated, reshards are
inserted where no direct path exists, bitsets are narrowed and constraints propagated
(`update_solver`) in both directions. `set` locks one config and propagates; `finish` returns the
selection and the reshard map.

The solver is IR-agnostic: everything it asks about configs goes through a `ShardSolverBackend`
(the op model in production, a table in the seed-replay tests), so the inner loops see ints and
tuples only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol, Sequence

from ttopt.optimizer.chain import Edge, L1ChainConfig, L1ChainState, MemReconfigEntry, chain_edges, first_op_edge
from ttopt.optimizer.core_usage import ForkRule, accumulate_core_usage
from ttopt.optimizer.path_set import Path, PathSet, bits, is_subset, mask_of


class ShardSolverBackend(Protocol):
    """What the solver needs to know about configs (upstream: legalConfigs + OpModel validation)."""

    def config_count(self, op: Any) -> int:
        """Number of (sharded) configs of `op`."""

    def core_count(self, op: Any, index: int) -> int:
        """Grid volume of config `index`."""

    def is_block_sharded(self, op: Any, index: int) -> bool:
        """Config `index` outputs a block-sharded layout (tie rule, reference §2.7)."""

    def always_reshards_input(self, op: Any) -> bool:
        """Conv2d-like ops always get an input reshard when they start a chain (reference §2.6)."""

    def interleaved_input_configs(self, op: Any) -> int:
        """Bitset of configs valid when operand 0 is DRAM interleaved (interleaved in -> sharded out)."""

    def dispatch_input_combinations(self, op: Any) -> list[tuple[Any, int]]:
        """Valid (input layout of the dispatch operand, config index) pairs, in candidate order (seed 001)."""

    def edge_configs(self, edge: Edge, producer_config: int) -> Sequence[int]:
        """Consumer config indices valid when the producer uses `producer_config`."""

    def reshard_map(self, edge: Edge) -> dict[int, list[Any]]:
        """Consumer config index -> reshard layouts (of the edge's tensor) that make it valid."""


@dataclass(frozen=True, slots=True)
class SolverStep:
    """One traced step: what happened and the state right after it."""

    kind: str  # preprocess | edge | reshard | propagate | set | fail
    message: str
    bitsets: tuple[tuple[Any, int], ...]  # (op, bitset) for every op that has one
    edge: Edge | None = None
    paths: tuple[Path, ...] = ()
    changed: tuple[Any, ...] = ()  # ops whose bitset this step narrowed
    extra: Any = None


@dataclass(slots=True)
class ShardSolverSolution:
    """What `finish` returns: a config index per op and the reshards (seed 000 §8)."""

    selected_op_config: dict[Any, int]
    mem_reconfig_entry_map: dict[Edge, MemReconfigEntry] = field(default_factory=dict)


class ShardSolver:
    """The constraint solver of one chain (seed 000)."""

    def __init__(
        self,
        ops: Sequence[Any],
        edges: Iterable[Edge],
        backend: ShardSolverBackend,
        *,
        first_op_edge: Edge | None = None,
        override_reshard_edges: Iterable[Edge] = (),
        solve_for_optimal_first_op_input: bool = False,
        on_step: Callable[[SolverStep], None] | None = None,
        fork_rule: ForkRule = ForkRule.SUM,
    ) -> None:
        if not ops:
            raise ValueError("a ShardSolver needs at least one op")
        self.ops = list(ops)
        self.backend = backend
        self.first_op_edge = first_op_edge or Edge(None, self.ops[0], 0)
        self.mem_reconfig_edges: set[Edge] = set(override_reshard_edges)
        self.solve_for_optimal_first_op_input = solve_for_optimal_first_op_input
        self.on_step = on_step
        self.fork_rule = fork_rule
        members = set(self.ops)
        # Edge maps between ops of the chain (seed 000 §1, lines 85-98).
        self.operand_op_edges: dict[Any, list[Edge]] = {}
        self.user_op_edges: dict[Any, list[Edge]] = {}
        for e in edges:
            if e.producer in members and e.consumer in members:
                self.operand_op_edges.setdefault(e.consumer, []).append(e)
                self.user_op_edges.setdefault(e.producer, []).append(e)
        self._count = {op: backend.config_count(op) for op in self.ops}
        self.reset()
        self.selected_op_config: dict[Any, int] = {}
        self.mem_reconfig_map: dict[Edge, MemReconfigEntry] = {}
        self.resolved_first_op_input_layout: Any = None
        self.early_exit = False
        self.failure = ""

    # -- state -------------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget bitsets and path sets (seed 000 §4)."""
        self.bitsets: list[int] = []
        self.bitset_ids: dict[Any, int] = {}
        self.path_sets: list[PathSet] = []
        self.path_set_ids: dict[Edge, int] = {}

    def all_configs(self, op: Any) -> int:
        """kBitsetAll for `op`: every one of its configs."""
        return (1 << self._count[op]) - 1

    def get_or_insert_bitset(self, op: Any, init: int | None = None) -> int:
        """The bitset id of `op`, creating it (all configs valid unless `init`) on first use."""
        i = self.bitset_ids.get(op)
        if i is None:
            i = len(self.bitsets)
            self.bitset_ids[op] = i
            self.bitsets.append(self.all_configs(op) if init is None else init)
        return i

    def bitset(self, op: Any) -> int:
        """Current bitset of `op` (0 if it has none yet)."""
        i = self.bitset_ids.get(op)
        return self.bitsets[i] if i is not None else 0

    def path_set(self, edge: Edge) -> PathSet | None:
        i = self.path_set_ids.get(edge)
        return self.path_sets[i] if i is not None else None

    def operand_path_sets(self, op: Any) -> list[PathSet]:
        return [self.path_sets[i] for e in self.operand_op_edges.get(op, ()) if (i := self.path_set_ids.get(e)) is not None]

    def user_path_sets(self, op: Any) -> list[PathSet]:
        return [self.path_sets[i] for e in self.user_op_edges.get(op, ()) if (i := self.path_set_ids.get(e)) is not None]

    # -- resolve -----------------------------------------------------------------------------
    def resolve(self) -> bool:
        """Find, for every op, the configs that some compatible assignment can use (seed 000 §4)."""
        self.reset()
        self.mem_reconfig_map = {}
        self.selected_op_config = {}
        self.early_exit = False
        self.failure = ""
        ok = self._resolve_step()
        if not ok:
            self.early_exit = True
            self._step("fail", self.failure or "no solution")
        return ok

    def _resolve_step(self) -> bool:
        if not self.preprocess_first_op():
            return False
        for consumer in self.ops:
            c_id = self.get_or_insert_bitset(consumer)
            for edge in self.operand_op_edges.get(consumer, ()):
                producer = edge.producer
                p_id = self.get_or_insert_bitset(producer)
                reshard = edge in self.mem_reconfig_edges or edge in self.mem_reconfig_map
                if reshard and edge not in self.mem_reconfig_map and not self.insert_reshard(edge):
                    return False
                if not reshard:
                    paths, ep, ec = self._evaluate_edge(edge, p_id)
                    # No path, or the paths would empty a bitset: reshard (reference §2.6).
                    if not paths or not (self.bitsets[p_id] & ep) or not (self.bitsets[c_id] & ec):
                        self._step("edge", f"edge {self._edge_text(edge)}: no compatible path", edge=edge)
                        if not self.insert_reshard(edge):
                            return False
                        reshard = True
                if reshard:
                    paths, ep, ec = self._paths_from_reshard_map(edge, p_id)
                queue = [] if is_subset(self.bitsets[p_id], ep) else [producer]
                before = (self.bitsets[p_id], self.bitsets[c_id])
                self.bitsets[p_id] &= ep
                self.bitsets[c_id] &= ec
                if not self.bitsets[p_id] or not self.bitsets[c_id]:
                    self.failure = f"edge {self._edge_text(edge)} leaves no valid config"
                    return False
                self.path_set_ids[edge] = len(self.path_sets)
                self.path_sets.append(PathSet(p_id, c_id, producer, consumer, list(paths)))
                changed = tuple(o for o, b, i in ((producer, before[0], p_id), (consumer, before[1], c_id)) if self.bitsets[i] != b)
                self._step(
                    "edge",
                    f"edge {self._edge_text(edge)}: {len(paths)} path(s)" + (" via reshard" if reshard else ""),
                    edge=edge, paths=tuple(paths), changed=changed,
                )  # fmt: skip
                for op in queue:  # seed 000 §5 line 316: opProcessor.process
                    if not self.update_solver(op, expand_root=True):
                        return False
        for op in self.ops:  # seed 000 §5 phase 4
            if not self.update_solver(op, expand_root=False):
                return False
        return True

    def preprocess_first_op(self) -> bool:
        """Which configs of the first op accept the chain's input (seed 000 §5 phase 1, reference §2.6)."""
        first = self.ops[0]
        edge = self.first_op_edge
        if edge in self.mem_reconfig_edges:
            # A user reshard on the chain input (upstream skips it and reshards to the consumer's
            # output layout later; ttopt computes a real reshard map for it).
            return self.insert_reshard(edge)
        if self.backend.always_reshards_input(first):
            ok = self.insert_reshard(edge)
            if ok:
                self._step("preprocess", f"first op {self._name(first)} always reshards its input (conv)", edge=edge)
            return ok
        f_id = self.get_or_insert_bitset(first)
        if self.solve_for_optimal_first_op_input:
            combos = self.backend.dispatch_input_combinations(first)
            if combos:
                best_input, best_index = combos[0]  # seed 001: first valid combination (no scoring yet)
                self.resolved_first_op_input_layout = best_input
                self.bitsets[f_id] = 1 << best_index
                self._step(
                    "preprocess",
                    f"first op {self._name(first)} consumes a dispatch op: {len(combos)} valid (input, config) "
                    f"combination(s), picked config {best_index}",
                    extra=best_input,
                )  # fmt: skip
                return True
        valid = self.backend.interleaved_input_configs(first) & self.all_configs(first)
        if valid:
            self.bitsets[f_id] = valid
            self._step("preprocess", f"first op {self._name(first)}: {bin(valid).count('1')} config(s) take an interleaved input")
            return True
        self._step("preprocess", f"first op {self._name(first)}: no config takes an interleaved input, resharding it")
        return self.insert_reshard(edge)

    def _evaluate_edge(self, edge: Edge, p_id: int) -> tuple[list[Path], int, int]:
        """Paths of a direct edge: for each live producer config, the consumer configs it allows."""
        paths: list[Path] = []
        ep = ec = 0
        for p in bits(self.bitsets[p_id]):
            for c in self.backend.edge_configs(edge, p):
                paths.append((p, c))
                ep |= 1 << p
                ec |= 1 << c
        return paths, ep, ec

    def insert_reshard(self, edge: Edge) -> bool:
        """Put a reshard on `edge`: the consumer may use every config some reshard layout reaches
        (seed 002 §3.3.6). False (chain fails) when no sharded input layout works."""
        m = {k: list(v) for k, v in self.backend.reshard_map(edge).items() if v and k < self._count[edge.consumer]}
        if not m:
            self.failure = f"no reshard layout makes {self._name(edge.consumer)} valid on {self._edge_text(edge)}"
            return False
        entry = MemReconfigEntry(dict(sorted(m.items())), overridden=edge in self.mem_reconfig_edges)
        self.mem_reconfig_map[edge] = entry
        c_id = self.get_or_insert_bitset(edge.consumer)
        self.bitsets[c_id] &= mask_of(m)
        if not self.bitsets[c_id]:
            self.failure = f"the reshard on {self._edge_text(edge)} reaches no still-valid config"
            return False
        self._step(
            "reshard",
            f"reshard on {self._edge_text(edge)}: {len(m)} consumer config(s) reachable",
            edge=edge, changed=(edge.consumer,), extra=entry,
        )  # fmt: skip
        return True

    def _paths_from_reshard_map(self, edge: Edge, p_id: int) -> tuple[list[Path], int, int]:
        """Any live producer config with any reshard-reachable consumer config."""
        entry = self.mem_reconfig_map[edge]
        consumers = sorted(entry.reshard_output_config_map)
        producer = self.bitsets[p_id]
        paths = [(p, c) for p in bits(producer) for c in consumers]
        return paths, producer, mask_of(consumers)

    # -- propagation -------------------------------------------------------------------------
    def update_solver(self, root: Any, expand_root: bool = True, invoked_by_set: bool = False) -> bool:
        """Propagate bitset changes through the path sets until nothing changes (seed 000 §6)."""
        needs_update = [root]
        if expand_root:
            for ps in self.operand_path_sets(root) + self.user_path_sets(root):
                before = (self.bitsets[ps.producer_set_id], self.bitsets[ps.consumer_set_id])
                ps.update(self.bitsets)
                if ps.empty:
                    return self._no_paths_left(ps, invoked_by_set)
                self._trace_update(ps, before)
            self._add_operands_and_users(root, needs_update)
        while needs_update:
            op = needs_update[-1]
            operand_sets = self.operand_path_sets(op)
            user_sets = self.user_path_sets(op)
            changed = False
            grown: list[Any] = []
            for ps in operand_sets:
                before = (self.bitsets[ps.producer_set_id], self.bitsets[ps.consumer_set_id])
                if ps.update(self.bitsets):
                    grown.append(ps.producer_op)
                    changed = True
                    self._trace_update(ps, before)
                if ps.empty:
                    return self._no_paths_left(ps, invoked_by_set)
            for ps in user_sets:
                before = (self.bitsets[ps.producer_set_id], self.bitsets[ps.consumer_set_id])
                if ps.update(self.bitsets):
                    grown.append(ps.consumer_op)
                    changed = True
                    self._trace_update(ps, before)
                if ps.empty:
                    return self._no_paths_left(ps, invoked_by_set)
            for other in grown:
                needs_update.append(other)
                self._add_operands_and_users(other, needs_update, exclude=op)
            if not changed:
                needs_update.pop()
        return True

    def _add_operands_and_users(self, op: Any, out: list[Any], exclude: Any = None) -> None:
        for e in self.operand_op_edges.get(op, ()):
            if e.producer is not exclude:
                out.append(e.producer)
        for e in self.user_op_edges.get(op, ()):
            if e.consumer is not exclude:
                out.append(e.consumer)

    def _no_paths_left(self, ps: PathSet, invoked_by_set: bool) -> bool:
        # Upstream: llvm_unreachable. ttopt fails the chain instead (it falls back to DRAM).
        self.failure = (
            f"no path left between {self._name(ps.producer_op)} and {self._name(ps.consumer_op)}"
            + (" after set()" if invoked_by_set else "")
        )
        return False

    # -- picking -----------------------------------------------------------------------------
    def produce_max_core_usage(self) -> dict[Any, list[float]]:
        """accCoreUsage per op and config (seed 002 §3.3.8, reference §2.7)."""
        index = {op: i for i, op in enumerate(self.ops)}
        volumes = [[self.backend.core_count(op, i) for i in range(self._count[op])] for op in self.ops]
        live = [self.bitset(op) for op in self.ops]
        users = []
        for op in self.ops:
            row = []
            for e in self.user_op_edges.get(op, ()):
                ps = self.path_set(e)
                if ps is not None:
                    row.append((index[e.consumer], ps.paths))
            users.append(row)
        fan_in = [len(self.operand_op_edges.get(op, ())) for op in self.ops]
        acc = accumulate_core_usage(range(len(self.ops)), volumes, live, users, fan_in, self.fork_rule)
        return {op: acc[i] for i, op in enumerate(self.ops)}

    def set(self, op: Any, index: int) -> bool:
        """Lock `op` to config `index` and propagate (seed 000 §7); False if that empties an edge."""
        if op in self.selected_op_config:
            raise ValueError(f"{self._name(op)} already set")
        self.selected_op_config[op] = index
        b_id = self.get_or_insert_bitset(op)
        self.bitsets[b_id] = 1 << index
        for edge, entry in self.mem_reconfig_map.items():
            if edge.consumer is op:
                entry.set_selected_reshard_output_config_bit_index(index)
        self._step("set", f"set {self._name(op)} := config {index}", changed=(op,), extra=index)
        return self.update_solver(op, expand_root=True, invoked_by_set=True)

    def finish(self) -> ShardSolverSolution:
        """The selection (every op set) and the reshard map (seed 000 §8)."""
        missing = [op for op in self.ops if op not in self.selected_op_config]
        if missing:
            raise ValueError(f"finish() before every op was set ({len(missing)} missing)")
        return ShardSolverSolution(dict(self.selected_op_config), dict(self.mem_reconfig_map))

    # -- tracing -----------------------------------------------------------------------------
    def _step(self, kind: str, message: str, **kw: Any) -> None:
        if self.on_step is not None:
            snap = tuple((op, self.bitsets[i]) for op, i in self.bitset_ids.items())
            self.on_step(SolverStep(kind, message, snap, **kw))

    def _trace_update(self, ps: PathSet, before: tuple[int, int]) -> None:
        if self.on_step is None:
            return
        after = (self.bitsets[ps.producer_set_id], self.bitsets[ps.consumer_set_id])
        if after == before:
            return
        changed = tuple(o for o, b, a in ((ps.producer_op, before[0], after[0]), (ps.consumer_op, before[1], after[1])) if a != b)
        self._step(
            "propagate",
            f"propagate over {self._name(ps.producer_op)} -> {self._name(ps.consumer_op)}: {len(ps.paths)} path(s) left",
            paths=tuple(ps.paths), changed=changed,
        )  # fmt: skip

    def _name(self, op: Any) -> str:
        name = getattr(self.backend, "op_label", None)
        return name(op) if name is not None else str(op)

    def _edge_text(self, e: Edge) -> str:
        src = self._name(e.producer) if e.producer is not None else "block argument"
        return f"{src} -> {self._name(e.consumer)}#{e.operand_index}"


def resolve_chain(
    chain: L1ChainConfig,
    backend: ShardSolverBackend,
    override_reshard_edges: Iterable[Edge] = (),
    solve_for_optimal_first_op_input: bool = False,
    on_step: Any = None,
    fork_rule: ForkRule | None = None,
) -> ShardSolver:
    """Built -> Resolved (or Failed): run the ShardSolver on `chain` and return it."""
    chain._expect(L1ChainState.BUILT, "resolve")
    ops = chain.ops
    solver = ShardSolver(
        ops,
        chain_edges(ops),
        backend,
        first_op_edge=first_op_edge(ops[0]),
        override_reshard_edges=override_reshard_edges,
        solve_for_optimal_first_op_input=solve_for_optimal_first_op_input,
        on_step=on_step,
        fork_rule=fork_rule or ForkRule.SUM,
    )
    ok = solver.resolve()
    chain.resolved(ok, solver.failure, solve_for_optimal_first_op_input)
    return solver
