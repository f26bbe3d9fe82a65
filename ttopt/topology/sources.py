"""Graph sources: generator specs and YAML/JSON adjacency files.

Generators (node ids are ints; grids are row-major, node = row * C + col):
  line:N        path 0-1-...-(N-1)
  ring:N        cycle of N (N >= 3)
  mesh:RxC      R rows by C columns, 4-neighbour grid
  torus:RxC     mesh with wrap-around links in both dimensions
  torus-x:RxC   wrap along X (each row closes: col C-1 to col 0)
  torus-y:RxC   wrap along Y (each column closes: row R-1 to row 0)
  SPEC@K        every link has K channels (e.g. mesh:8x4@4)
A wrap is only added for a dimension of at least 3 nodes (with 2 it would duplicate a link).
Limits, checked before anything is built: at most MAX_NODES nodes and MAX_CHANNELS channels per
link (a generator spec or a file beyond them is an error, not a long wait or a memory blow-up).

Files (.yaml/.yml/.json): a mapping node -> list of neighbours (a repeated neighbour is one more
channel), or {adjacency: {...}, traits: {node: {name: value}}}; a node entry may also be
{neighbors: [...], traits: {...}}. Node ids are integers or strings (null, booleans, floats are
errors); files are strict UTF-8, and duplicate keys or absurd nesting are errors (ttopt/datafiles.py).

Errors are GraphSpecError with a message fit for a CLI usage error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ttopt.datafiles import DataFileError, load_json, load_yaml, read_text
from ttopt.topology.graph import AdjacencyGraph

GENERATORS = ("line", "ring", "mesh", "torus", "torus-x", "torus-y")
MAX_NODES = 100_000  # the search is built for 10^4-10^5 node graphs
MAX_CHANNELS = 1024
_SPEC = re.compile(r"^(?P<kind>[a-z-]+):(?P<dims>[^@]+?)(?:@(?P<ch>\d+))?$")


class GraphSpecError(ValueError):
    """A graph spec or file that cannot be turned into a graph."""


class GraphFileError(GraphSpecError):
    """A graph file whose contents are wrong (bad input, not a bad flag): `where` is
    `path[:line:col]`, shown MLIR-style as `where: error: detail`."""

    def __init__(self, where: str, detail: str) -> None:
        super().__init__(f"{where}: {detail}")
        self.where = where
        self.detail = detail


def line(n: int, channels: int = 1) -> AdjacencyGraph:
    """Path graph 0-1-...-(n-1)."""
    return AdjacencyGraph.from_edges([(i, i + 1, channels) for i in range(n - 1)], range(n),
                                     shape=(1, n))


def ring(n: int, channels: int = 1) -> AdjacencyGraph:
    """Cycle graph of n >= 3 nodes."""
    return AdjacencyGraph.from_edges([(i, (i + 1) % n, channels) for i in range(n)], range(n),
                                     shape=(1, n), wrap=(False, True))


def grid(rows: int, cols: int, wrap_y: bool = False, wrap_x: bool = False,
         channels: int = 1) -> AdjacencyGraph:
    """rows x cols grid, node r*cols+c; optional wrap-around per dimension (size >= 3 only)."""
    edges = []
    for r in range(rows):
        for c in range(cols):
            u = r * cols + c
            if c + 1 < cols:
                edges.append((u, u + 1, channels))
            elif wrap_x and cols >= 3:
                edges.append((u, r * cols, channels))
            if r + 1 < rows:
                edges.append((u, u + cols, channels))
            elif wrap_y and rows >= 3:
                edges.append((u, c, channels))
    return AdjacencyGraph.from_edges(edges, range(rows * cols), shape=(rows, cols),
                                     wrap=(wrap_y and rows >= 3, wrap_x and cols >= 3))


def _positive(text: str, spec: str, limit: int = MAX_NODES, what: str = "nodes") -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise GraphSpecError(f"invalid graph spec {spec!r}: sizes must be positive integers")
    if len(text) > 12 or int(text) > limit:
        raise GraphSpecError(f"invalid graph spec {spec!r}: at most {limit:,} {what} (ttopt's limit)")
    return int(text)


def generate(spec: str) -> AdjacencyGraph:
    """Build a graph from a generator spec such as `mesh:8x4` or `ring:32@2`."""
    m = _SPEC.match(spec.strip())
    if not m or m["kind"] not in GENERATORS:
        raise GraphSpecError(
            f"invalid graph spec {spec!r}: expected a file or one of line:N, ring:N, mesh:RxC, "
            f"torus:RxC, torus-x:RxC, torus-y:RxC (optionally @CHANNELS)")
    kind, dims = m["kind"], m["dims"]
    channels = _positive(m["ch"], spec, MAX_CHANNELS, "channels per link") if m["ch"] else 1
    if kind in ("line", "ring"):
        n = _positive(dims, spec)
        if kind == "ring" and n < 3:
            raise GraphSpecError(f"invalid graph spec {spec!r}: a ring needs at least 3 nodes")
        return line(n, channels) if kind == "line" else ring(n, channels)
    parts = dims.lower().split("x")
    if len(parts) != 2:
        raise GraphSpecError(f"invalid graph spec {spec!r}: expected {kind}:RxC, e.g. {kind}:8x4")
    rows, cols = (_positive(p, spec) for p in parts)
    if rows * cols > MAX_NODES:
        raise GraphSpecError(f"invalid graph spec {spec!r}: {rows * cols:,} nodes, at most {MAX_NODES:,} (ttopt's limit)")
    wrap_y = kind in ("torus", "torus-y")
    wrap_x = kind in ("torus", "torus-x")
    return grid(rows, cols, wrap_y=wrap_y, wrap_x=wrap_x, channels=channels)


def _key(node: Any, origin: str, role: str) -> Any:
    """A node id as written: an int or a string (null, booleans, floats are not node ids)."""
    if isinstance(node, bool) or not isinstance(node, (int, str)):
        shown = "null" if node is None else str(node).lower() if isinstance(node, bool) else repr(node)
        raise GraphFileError(origin, f"{role}{shown} is not a node id (an integer or a string)")
    return node


def from_data(data: Any, origin: str = "<data>") -> AdjacencyGraph:
    """Build a graph from parsed YAML/JSON data (format in the module docstring)."""
    if not isinstance(data, dict) or not data:
        raise GraphFileError(origin, "expected a non-empty mapping of node -> neighbours")
    traits: dict[Any, dict[str, Any]] = {}
    adjacency_data = data
    if "adjacency" in data and isinstance(data["adjacency"], dict):
        adjacency_data = data["adjacency"]
        raw_traits = data.get("traits") or {}
        if not isinstance(raw_traits, dict):
            raise GraphFileError(origin, "'traits' must map node -> {name: value}")
        for n, t in raw_traits.items():
            if not isinstance(t, dict):
                raise GraphFileError(origin, f"traits of node {n} must be a mapping")
            traits[_key(n, origin, 'trait node ')] = dict(t)
    adjacency: dict[Any, list[Any]] = {}
    for n, entry in adjacency_data.items():
        if isinstance(entry, dict):
            if "traits" in entry:
                if not isinstance(entry["traits"], dict):
                    raise GraphFileError(origin, f"traits of node {n} must be a mapping")
                traits[_key(n, origin, 'node ')] = dict(entry["traits"])
            entry = entry.get("neighbors", entry.get("neighbours", []))
        if entry is None:
            entry = []
        if not isinstance(entry, list):
            raise GraphFileError(origin, f"neighbours of node {n} must be a list, got {type(entry).__name__}")
        for v in entry:
            if isinstance(v, (list, dict)):
                raise GraphFileError(origin, f"neighbour {v!r} of node {n} is not a node id")
        adjacency[_key(n, origin, 'node ')] = [_key(v, origin, f'node {n}: neighbour ') for v in entry]
    if len(adjacency) > MAX_NODES:
        raise GraphFileError(origin, f"{len(adjacency):,} nodes, at most {MAX_NODES:,} (ttopt's limit)")
    try:
        return AdjacencyGraph(adjacency, traits)
    except ValueError as exc:
        raise GraphFileError(origin, str(exc)) from None


def load_file(path: str | Path) -> AdjacencyGraph:
    """Load a YAML or JSON adjacency file."""
    p = Path(path)
    try:
        text = read_text(str(p))
        data = load_json(text, str(p)) if p.suffix.lower() == ".json" else load_yaml(text, str(p))
    except DataFileError as exc:
        raise GraphFileError(exc.where, exc.detail) from None
    return from_data(data, str(path))


def parse_link(text: str, graph: AdjacencyGraph) -> tuple[Any, Any]:
    """Resolve `A-B` to two nodes of `graph` (node names may themselves contain '-')."""
    for i, ch in enumerate(text):
        if ch == "-":
            a, b = graph.find_node(text[:i]), graph.find_node(text[i + 1:])
            if a is not None and b is not None:
                return a, b
    raise GraphSpecError(f"invalid link {text!r}: expected A-B with A and B nodes of the graph")


def load_graph(spec: str, remove_links: Iterable[str] = ()) -> AdjacencyGraph:
    """A graph from a generator spec or a file path, minus the given `A-B` links."""
    kind = spec.split(":", 1)[0]
    if kind in GENERATORS and ":" in spec:
        graph = generate(spec)
    elif Path(spec).exists():
        graph = load_file(spec)
    elif ":" in spec:
        graph = generate(spec)  # raises a helpful GraphSpecError
    else:
        raise GraphSpecError(f"no such file {spec!r} and not a generator spec (e.g. mesh:8x4)")
    links = [parse_link(s, graph) for s in remove_links]
    for a, b in links:
        if not graph.channels(a, b):
            raise GraphSpecError(f"cannot remove link {a}-{b}: the nodes are not adjacent")
    return graph.without_links(links) if links else graph
