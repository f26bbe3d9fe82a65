"""Generators and YAML/JSON adjacency files."""

import json

import pytest

from ttopt.topology import GraphSpecError, generate, load_graph
from ttopt.topology.sources import GraphFileError, from_data, load_file


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
    g = from_data({1: [2], "x": [1]})
    assert g.get_nodes() == [1, 2, "x"]


@pytest.mark.parametrize(
    "data,message",
    [
        ({1: [2], None: []}, "node null is not a node id"),
        ({1: [2], 2.5: []}, "node 2.5 is not a node id"),
        ({"a": [None]}, "node a: neighbour null is not a node id"),
        ({"a": [True]}, "node a: neighbour true is not a node id"),
    ],
)
def test_null_bool_and_float_node_ids_are_errors(data: dict, message: str) -> None:
    # They used to become nodes "None" / "True" / "2.5" silently.
    with pytest.raises(GraphFileError, match=message):
        from_data(data)


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("deep.json", b"[" * 5000 + b"]" * 5000, "deep.json: nests too deeply"),
        ("deep.yaml", b"a: " + b"[" * 5000 + b"]" * 5000 + b"\n", "deep.yaml: nests too deeply"),
        ("bin.yaml", b"a: [b]\nb: \xff\xfe\n", "bin.yaml:2:4: not valid UTF-8 text (byte 0xff)"),
        ("sur.yaml", b'"\\ud800": [a]\na: []\n', "is not valid Unicode (a lone surrogate)"),
        ("dup.yaml", b"a: [b]\na: [c]\nb: []\nc: []\n", "dup.yaml:2:1: duplicate key 'a'"),
        ("dup.json", b'{"a": ["b"], "a": [], "b": []}', "dup.json: duplicate key 'a'"),
    ],
)
def test_malformed_files_are_positioned_input_errors(tmp_path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(GraphFileError) as e:
        load_file(path)
    assert message in str(e.value)


@pytest.mark.parametrize(
    "spec,message",
    [
        ("ring:10000000", "at most 100,000 nodes"),
        ("ring:99999999999999999999", "at most 100,000 nodes"),
        ("mesh:1000x1000", "1,000,000 nodes, at most 100,000"),
        ("ring:4@99999999999999999999", "at most 1,024 channels per link"),
        ("line:\u0663", "sizes must be positive integers"),
    ],
)
def test_generator_sizes_are_limited_up_front(spec: str, message: str) -> None:
    with pytest.raises(GraphSpecError, match=message):
        generate(spec)
