"""ShardSolver: seed 000's two-op chain replayed state by state, reshards, failures, properties."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttopt.optimizer.chain import Edge
from ttopt.optimizer.core_usage import pick_config
from ttopt.optimizer.path_set import bits, mask_of
from ttopt.optimizer.shard_solver import ShardSolver
from ttopt.testing.examples import examples

E45 = Edge("%4", "%5", 0)


def _seed000_solver(table_backend, steps=None) -> tuple[ShardSolver, object]:
    """Chain1 of seeds 000/001: %4 = matmul(%dispatch, %arg2), %5 = matmul(%4, %arg3), ten configs each.

    %4 consumes the dispatch op, so the first op solves for its optimal input: the first valid
    (input, config) combination is (#ttnn_layout4 = 2x2 block_sharded, config 0). %4 config 0 is
    compatible with %5 configs 2 and 5; config 2 has the higher core usage.
    """
    backend = table_backend(
        volumes={"%4": [4, 8, 8, 2, 2, 2, 1, 1, 1, 1], "%5": [1, 1, 2, 1, 1, 16 // 16, 1, 1, 1, 1]},
        compatible={("%5", 0): [2, 5]},
        dispatch={"%4": [("#ttnn_layout4", 0), ("#ttnn_layout5", 3)]},
    )
    solver = ShardSolver(["%4", "%5"], [E45], backend, solve_for_optimal_first_op_input=True, on_step=steps)
    return solver, backend


def test_seed000_after_constructor(table_backend) -> None:
    solver, _ = _seed000_solver(table_backend)
    assert solver.operand_op_edges == {"%5": [E45]}  # seed: {%4: [], %5: [Edge(%4, %5, 0)]}
    assert solver.operand_op_edges.get("%4", []) == []
    assert solver.user_op_edges == {"%4": [E45]}
    assert solver.bitsets == [] and solver.bitset_ids == {}
    assert solver.path_sets == [] and solver.path_set_ids == {}
    assert solver.selected_op_config == {} and solver.mem_reconfig_map == {}


def test_seed000_after_preprocess_first_op(table_backend) -> None:
    solver, _ = _seed000_solver(table_backend)
    solver.reset()
    assert solver.preprocess_first_op()
    assert solver.bitset_ids == {"%4": 0}
    assert solver.bitsets == [0b0000000001]  # only config 0
    assert solver.resolved_first_op_input_layout == "#ttnn_layout4"  # 2x2 block_sharded


def test_seed000_states_through_resolve_set_finish(table_backend) -> None:
    steps = []
    solver, _ = _seed000_solver(table_backend, steps.append)
    assert solver.resolve()
    # After processing %4 (no edges) and %5 (Edge(%4, %5, 0)), and after the updateSolver calls.
    kinds = [s.kind for s in steps]
    assert kinds == ["preprocess", "edge"]  # no propagation changed anything: the state is consistent
    pre, edge = steps
    assert dict(pre.bitsets) == {"%4": 0b1}
    assert edge.edge == E45 and edge.paths == ((0, 2), (0, 5))
    assert dict(edge.bitsets) == {"%4": 0b1, "%5": mask_of([2, 5])}  # seed: "%5: configs 2,5"
    assert solver.bitset_ids == {"%4": 0, "%5": 1}
    assert solver.bitsets == [0b1, (1 << 2) | (1 << 5)]
    assert len(solver.path_sets) == 1 and solver.path_set_ids == {E45: 0}
    ps = solver.path_sets[0]
    assert (ps.producer_set_id, ps.consumer_set_id, ps.paths) == (0, 1, [(0, 2), (0, 5)])

    # pickOpShardConfigs: set(%4, config0) changes nothing; set(%5, config2): "higher core usage".
    acc = solver.produce_max_core_usage()
    assert pick_config(bits(solver.bitset("%5")), acc["%5"], [False] * 10) == 2
    assert solver.set("%4", 0)
    assert solver.bitsets == [0b1, (1 << 2) | (1 << 5)]
    assert solver.set("%5", 2)
    assert solver.bitsets == [0b1, 1 << 2]
    assert solver.path_sets[0].paths == [(0, 2)]
    sol = solver.finish()
    assert sol.selected_op_config == {"%4": 0, "%5": 2}
    assert sol.mem_reconfig_entry_map == {}


def test_edge_without_path_inserts_a_reshard(table_backend) -> None:
    """No compatible pair: insert_reshard (seed 002 §3.3.6); every live producer config keeps a path."""
    backend = table_backend(
        volumes={"a": [8, 4], "b": [8, 4, 2]},
        compatible={},
        reshards={"b": {1: ["L1"], 2: ["L2", "L3"]}},
    )
    steps = []
    solver = ShardSolver(["a", "b"], [Edge("a", "b", 0)], backend, on_step=steps.append)
    assert solver.resolve()
    assert "reshard" in [s.kind for s in steps]
    entry = solver.mem_reconfig_map[Edge("a", "b", 0)]
    assert entry.reshard_output_config_map == {1: ["L1"], 2: ["L2", "L3"]}
    assert solver.bitset("a") == 0b11 and solver.bitset("b") == 0b110
    assert solver.set("a", 0) and solver.set("b", 2)
    assert entry.selected_reshard_output_config_bit_index == 2
    assert entry.selected_layouts() == ["L2", "L3"]


def test_chain_fails_when_no_reshard_exists(table_backend) -> None:
    backend = table_backend(volumes={"a": [8], "b": [8]}, compatible={})
    solver = ShardSolver(["a", "b"], [Edge("a", "b", 0)], backend)
    assert not solver.resolve()
    assert solver.early_exit and "no reshard layout" in solver.failure


def test_conv_first_op_always_reshards(table_backend) -> None:
    backend = table_backend(volumes={"conv": [8, 4]}, conv={"conv"}, reshards={"conv": {0: ["H8"]}})
    solver = ShardSolver(["conv"], [], backend)
    assert solver.resolve()
    assert solver.mem_reconfig_map[Edge(None, "conv", 0)].reshard_output_config_map == {0: ["H8"]}
    assert solver.bitset("conv") == 0b01


def test_first_op_without_interleaved_config_reshards(table_backend) -> None:
    backend = table_backend(volumes={"a": [8, 4]}, interleaved={"a": 0}, reshards={"a": {1: ["X"]}})
    solver = ShardSolver(["a"], [], backend)
    assert solver.resolve() and solver.bitset("a") == 0b10


def test_override_reshard_edge(table_backend) -> None:
    """insert-memreconfig on an in-chain edge: direct paths are not even evaluated."""
    backend = table_backend(volumes={"a": [8, 4], "b": [8, 4]}, reshards={"b": {0: ["R"]}})
    e = Edge("a", "b", 0)
    solver = ShardSolver(["a", "b"], [e], backend, override_reshard_edges=[e])
    assert solver.resolve()
    assert backend.edge_calls == 0
    assert solver.mem_reconfig_map[e].overridden


def test_propagation_narrows_backwards(table_backend) -> None:
    """a -> b -> c: c only accepts b config 1, which only a config 1 reaches; a narrows to {1}."""
    compat = {("b", 0): [0], ("b", 1): [1], ("c", 1): [0]}
    backend = table_backend(volumes={"a": [8, 4], "b": [8, 4], "c": [8]}, compatible=compat)
    steps = []
    solver = ShardSolver(["a", "b", "c"], [Edge("a", "b", 0), Edge("b", "c", 0)], backend, on_step=steps.append)
    assert solver.resolve()
    assert (solver.bitset("a"), solver.bitset("b"), solver.bitset("c")) == (0b10, 0b10, 0b1)
    assert any(s.kind == "propagate" and "a" in s.changed for s in steps)


# ---- properties ------------------------------------------------------------------------------


@st.composite
def chains(draw):
    """A random linear chain with random compatibility tables and reshard maps."""
    n = draw(st.integers(1, 5))
    counts = [draw(st.integers(1, 6)) for _ in range(n)]
    ops = [f"op{i}" for i in range(n)]
    compat = {}
    reshards = {}
    for i in range(1, n):
        for p in range(counts[i - 1]):
            compat[(ops[i], p)] = draw(st.lists(st.integers(0, counts[i] - 1), max_size=3, unique=True))
        if draw(st.booleans()):
            reshards[ops[i]] = {c: ["R"] for c in draw(st.lists(st.integers(0, counts[i] - 1), min_size=1, max_size=3, unique=True))}
    interleaved = {ops[0]: draw(st.integers(0, (1 << counts[0]) - 1))}
    if not interleaved[ops[0]]:
        reshards[ops[0]] = {0: ["R0"]}
    volumes = {o: [draw(st.integers(1, 64)) for _ in range(c)] for o, c in zip(ops, counts)}
    return ops, volumes, compat, reshards, interleaved


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chains())
def test_bitsets_only_shrink_and_choices_are_paths_or_reshards(table_backend, chain) -> None:
    ops, volumes, compat, reshards, interleaved = chain
    backend = table_backend(volumes=volumes, compatible=compat, reshards=reshards, interleaved=interleaved)
    edges = [Edge(ops[i - 1], ops[i], 0) for i in range(1, len(ops))]
    history: dict[str, int] = {}

    def watch(step) -> None:
        for op, b in step.bitsets:
            if op in history:
                assert b & ~history[op] == 0, f"{op} grew from {history[op]:b} to {b:b} at {step.kind}"
            history[op] = b

    solver = ShardSolver(ops, edges, backend, on_step=watch)
    if not solver.resolve():
        return
    acc = solver.produce_max_core_usage()
    for op in ops:
        live = bits(solver.bitset(op))
        assert live, "a resolved chain has a valid config for every op"
        choice = pick_config(live, acc[op], [False] * len(volumes[op]))
        if not solver.set(op, choice):
            return
    sol = solver.finish()
    for e in edges:
        p, c = sol.selected_op_config[e.producer], sol.selected_op_config[e.consumer]
        direct = c in backend.edge_configs(e, p)
        entry = sol.mem_reconfig_entry_map.get(e)
        assert direct or (entry is not None and c in entry.reshard_output_config_map)
