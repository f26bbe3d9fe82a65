"""AdjacencyGraph: channels, self-loops, symmetrisation, order."""

from ttopt.topology import AdjacencyGraph


def test_multi_edges_are_channels_and_self_loops_dropped() -> None:
    g = AdjacencyGraph({1: [2, 2, 1], 2: [1, 3], 3: [2]})
    assert g.get_nodes() == [1, 2, 3]
    assert g.channels(1, 2) == 2 and g.channels(2, 1) == 2  # max of both directions
    assert g.channels(1, 1) == 0
    assert g.degree(1) == 1 and g.degree(2) == 2
    assert g.get_neighbors(2) == [1, 3]
    assert g.edges() == [(1, 2, 2), (2, 3, 1)]


def test_symmetrised_and_implicit_nodes() -> None:
    g = AdjacencyGraph({"a": ["b"], "c": []})
    assert g.get_nodes() == ["a", "b", "c"]
    assert g.get_neighbors("b") == ["a"]
    assert g.num_edges() == 1
    assert g.get_neighbors("zzz") == []


def test_mixed_ids_sorted_ints_first() -> None:
    g = AdjacencyGraph({"x": [2], 10: [2]})
    assert g.get_nodes() == [2, 10, "x"]
    assert g.find_node("10") == 10 and g.find_node("x") == "x" and g.find_node("q") is None


def test_adjacency_map_round_trip_and_remove_links() -> None:
    g = AdjacencyGraph({0: [1, 1, 2], 1: [2]})
    assert g.get_adjacency_map() == {0: [1, 1, 2], 1: [0, 0, 2], 2: [0, 1]}
    h = g.without_links([(1, 0)])
    assert h.channels(0, 1) == 0 and h.channels(0, 2) == 1 and len(h) == 3
    assert AdjacencyGraph(g.get_adjacency_map()).edges() == g.edges()


def test_traits() -> None:
    g = AdjacencyGraph({0: [1]}, {0: {"host": 3}})
    assert g.traits(0) == {"host": 3} and g.traits(1) == {}
    assert g.trait_map("host") == {0: 3}
