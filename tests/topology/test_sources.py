"""Generators and YAML/JSON adjacency files."""

import json

import pytest

from ttopt.topology import GraphSpecError, generate, load_graph
from ttopt.topology.sources import from_data


@pytest.mark.parametrize("spec,nodes,edges,degrees", [
    ("line:5", 5, 4, {1: 2, 2: 3}),
    ("ring:5", 5, 5, {2: 5}),
    ("mesh:8x4", 32, 52, {2: 4, 3: 16, 4: 12}),
    ("torus:8x4", 32, 64, {4: 32}),
    ("torus-x:8x4", 32, 60, {3: 8, 4: 24}),
    ("torus-y:8x4", 32, 56, {3: 16, 4: 16}),
    ("torus:2x4", 8, 12, {3: 8}),  # no wrap on a dimension of 2
    ("mesh:1x1", 1, 0, {0: 1}),
])
def test_generators(spec, nodes, edges, degrees) -> None:
    g = generate(spec)
    assert len(g) == nodes and g.num_edges() == edges
    hist: dict[int, int] = {}
    for n in g.get_nodes():
        hist[g.degree(n)] = hist.get(g.degree(n), 0) + 1
    assert hist == degrees


def test_grid_layout_and_channels() -> None:
    g = generate("torus-x:2x4@3")
    assert g.shape == (2, 4) and g.wrap == (False, True)
    assert g.channels(0, 3) == 3 and g.channels(0, 4) == 3 and g.channels(0, 5) == 0


@pytest.mark.parametrize("spec", ["mesh:0x4", "mesh:4", "mesh:ax4", "ring:2", "line:0",
                                  "star:4", "mesh:2x2@0", "torus:3x3x3", "ring:"])
def test_bad_specs(spec) -> None:
    with pytest.raises(GraphSpecError):
        load_graph(spec)


def test_remove_link() -> None:
    g = load_graph("mesh:2x2", ["0-1"])
    assert g.num_edges() == 3 and g.channels(0, 1) == 0
    with pytest.raises(GraphSpecError, match="not adjacent"):
        load_graph("mesh:2x2", ["0-3"])
    with pytest.raises(GraphSpecError, match="invalid link"):
        load_graph("mesh:2x2", ["0-9"])


def test_yaml_and_json_files(tmp_path) -> None:
    y = tmp_path / "g.yaml"
    y.write_text("adjacency:\n  a: [b, b]\n  b: [c]\ntraits:\n  a: {host: 1}\n")
    g = load_graph(str(y))
    assert g.get_nodes() == ["a", "b", "c"] and g.channels("a", "b") == 2
    assert g.traits("a") == {"host": 1}
    j = tmp_path / "g.json"
    j.write_text(json.dumps({"0": ["1"], "1": []}))
    assert load_graph(str(j)).get_nodes() == ["0", "1"]
    n = tmp_path / "n.yml"
    n.write_text("0: {neighbors: [1, 2], traits: {rack: r0}}\n1: [2]\n2:\n")
    g = load_graph(str(n))
    assert g.get_nodes() == [0, 1, 2] and g.degree(0) == 2 and g.traits(0) == {"rack": "r0"}


@pytest.mark.parametrize("text,match", [
    ("a: [b, c\n", "invalid YAML"),
    ("- a\n- b\n", "expected a non-empty mapping"),
    ("", "expected a non-empty mapping"),
    ("a: 3\n", "must be a list"),
    ("a: [[b]]\n", "is not a node id"),
    ("adjacency: {a: [b]}\ntraits: {z: {h: 1}}\n", "unknown node"),
    ("adjacency: {a: [b]}\ntraits: [1]\n", "'traits' must map"),
])
def test_malformed_files(tmp_path, text, match) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(GraphSpecError, match=match):
        load_graph(str(p))


def test_bad_json_and_missing_file(tmp_path) -> None:
    p = tmp_path / "bad.json"
    p.write_text("{")
    with pytest.raises(GraphSpecError, match="invalid JSON"):
        load_graph(str(p))
    with pytest.raises(GraphSpecError, match="no such file"):
        load_graph(str(tmp_path / "missing.yaml"))


def test_from_data_keys() -> None:
    g = from_data({1: [2], "x": [1], None: [], 2.5: [False]})
    assert g.get_nodes() == [1, 2, "2.5", "False", "None", "x"]
