"""Domain propagation: degree, channels, support, all-different, pigeonhole."""

from ttopt.topology import AdjacencyGraph, ConnectionValidationMode, MappingConstraints, generate
from ttopt.topology.index import GraphIndex, bits_list, index_constraints
from ttopt.topology.propagate import Propagator, initial_domains

RELAXED = ConnectionValidationMode.RELAXED
STRICT = ConnectionValidationMode.STRICT


def domains(t, g, c=None, mode=RELAXED):
    ti, gi = GraphIndex(t), GraphIndex(g)
    return initial_domains(ti, gi, index_constraints(ti, gi, c), mode)


def test_degree_filter() -> None:
    star = AdjacencyGraph({0: [1, 2, 3]})
    dom, _, fail = domains(star, generate("mesh:3x3"))
    assert fail is None
    # the hub (degree 3) cannot use the corners 0, 2, 6, 8 of the 3x3 mesh
    assert bits_list(dom[0]) == [1, 3, 4, 5, 7]


def test_support_and_all_different_from_a_pin() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint(0, 0)
    dom, fixed, fail = domains(generate("line:3"), generate("mesh:2x2"), c)
    assert fail is None
    assert dom[0] == 1 and fixed & 1
    assert bits_list(dom[1]) == [1, 2]  # neighbours of global 0, global 0 removed
    assert bits_list(dom[2]) == [3]  # must neighbour node 1's image and is not 0 -> 3


def test_strict_channel_profile() -> None:
    t = AdjacencyGraph({0: [1, 1], 1: [2]})
    g = AdjacencyGraph({"a": ["b", "b"], "b": ["c"], "c": ["d", "d"]})
    dom, _, fail = domains(t, g, mode=STRICT)
    assert fail is None
    gi = GraphIndex(g)
    # target 1 needs a 2-channel link and a 1-channel link: only b or c
    assert sorted(gi.nodes[j] for j in bits_list(dom[1])) == ["b", "c"]


def test_wipe_out_reasons() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint(0, "x")
    _, _, fail = domains(generate("line:2"), AdjacencyGraph({"x": [], "y": ["z"]}), c)
    assert fail[0] == "degree"
    c = MappingConstraints()
    assert c.add_required_constraint(0, "a") and c.add_required_constraint(2, "b")
    _, _, fail = domains(generate("line:3"), AdjacencyGraph({"a": ["x"], "x": ["y"], "y": ["b"]}),
                         c)
    assert fail[0] == "propagation" and "has no candidate left" in fail[1]
    c = MappingConstraints(required=[(0, "nope")])
    ti, gi = GraphIndex(generate("line:2")), GraphIndex(AdjacencyGraph({"x": ["y"]}))
    ci = index_constraints(ti, gi, c)
    assert ci.errors == ["constraint refers to global node nope which is not in the global graph"]


def test_pigeonhole() -> None:
    t, g = generate("line:3"), generate("line:4")
    ti, gi = GraphIndex(t), GraphIndex(g)
    prop = Propagator(ti, gi, RELAXED)
    dom = [0b0011, 0b0011, 0b0011]
    assert prop.run(dom, [0, 1, 2], 0, 100) == -1 and prop.failed_target in (-2, 0, 1, 2)


def test_domains_only_shrink() -> None:
    t, g = generate("mesh:2x3"), generate("torus:4x4")
    ti, gi = GraphIndex(t), GraphIndex(g)
    start = [gi.all] * ti.n
    dom, _, fail = domains(t, g)
    assert fail is None
    assert all(d & ~s == 0 for d, s in zip(dom, start))
    prop = Propagator(ti, gi, RELAXED)
    before = list(dom)
    dom[0] = 1 << bits_list(dom[0])[0]
    assert prop.run(dom, [0], 0, 16) >= 0
    assert all(d & ~b == 0 for d, b in zip(dom, before))
