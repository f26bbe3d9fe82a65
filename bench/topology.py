"""Benchmark: ttopt's topology solver vs networkx VF2 on fabric-shaped instances.

Run by hand (not by CI):  python bench/topology.py [--repeat 3] [--vf2-timeout 20] [--no-vf2]
                                                   [--engine auto|search|sat] [--only SUBSTR]

Each instance is solved by `solve_topology_mapping` (median wall time of --repeat runs, graph
construction excluded) and by networkx's `GraphMatcher(G, T).subgraph_monomorphisms_iter()`
(first valid monomorphism, pins and STRICT channels as node/edge matchers) in a separate process
that is killed at the VF2 timeout. Prints a rich table and a summary: total ttopt time, the
slowest instance, and the geometric-mean speed-up over VF2 on the instances VF2 finishes.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ttopt.topology import (  # noqa: E402
    AdjacencyGraph,
    ConnectionValidationMode,
    MappingConstraints,
    load_graph,
    solve_topology_mapping,
)

STRICT = ConnectionValidationMode.STRICT
RELAXED = ConnectionValidationMode.RELAXED


@dataclass
class Instance:
    name: str
    target: str
    global_: str
    expect: bool  # True = a mapping exists
    remove: list[str] = field(default_factory=list)
    pins: list[tuple[int, int]] = field(default_factory=list)
    mode: ConnectionValidationMode = RELAXED
    group: str = ""

    def graphs(self) -> tuple[AdjacencyGraph, AdjacencyGraph]:
        return build(self.target), build(self.global_, self.remove)

    def constraints(self) -> MappingConstraints:
        c = MappingConstraints()
        for t, g in self.pins:
            assert c.add_required_constraint(t, g)
        return c


def perimeter_mesh(rows: int, cols: int) -> AdjacencyGraph:
    """A rows x cols mesh whose perimeter links have 2 channels and interior links 1."""
    edges = []
    for r in range(rows):
        for c in range(cols):
            u = r * cols + c
            if c + 1 < cols:
                edges.append((u, u + 1, 2 if r in (0, rows - 1) else 1))
            if r + 1 < rows:
                edges.append((u, u + cols, 2 if c in (0, cols - 1) else 1))
    return AdjacencyGraph.from_edges(edges, range(rows * cols), shape=(rows, cols))


def build(spec: str, remove: list[str] = ()) -> AdjacencyGraph:
    if spec.startswith("perimeter:"):
        r, c = spec.split(":")[1].split("x")
        return perimeter_mesh(int(r), int(c))
    return load_graph(spec, remove)


def suite() -> list[Instance]:
    out: list[Instance] = []
    for g, n in [("mesh:2x4", 8), ("mesh:8x4", 32), ("torus:8x4", 32), ("mesh:32x4", 128),
                 ("torus:32x4", 128), ("mesh:16x8", 128), ("torus:16x8", 128)]:
        for kind in ("line", "ring"):
            out.append(Instance(f"{kind} {n} on {g}", f"{kind}:{n}", g, True, group="full"))
        if n > 8:
            out.append(Instance(f"ring {n // 2} on {g}", f"ring:{n // 2}", g, True,
                                group="partial"))
            out.append(Instance(f"line {n - 2} on {g}", f"line:{n - 2}", g, True,
                                group="partial"))
    out += [
        Instance("ring 30 on mesh:8x4", "ring:30", "mesh:8x4", True, group="partial"),
        Instance("ring 126 on mesh:32x4", "ring:126", "mesh:32x4", True, group="partial"),
        Instance("ring 31 on mesh:8x4", "ring:31", "mesh:8x4", False, group="unsat"),
        Instance("ring 31 on torus:8x4", "ring:31", "torus:8x4", False, group="unsat"),
        Instance("ring 127 on mesh:32x4", "ring:127", "mesh:32x4", False, group="unsat"),
        Instance("torus 4x4 on torus:8x4", "torus:4x4", "torus:8x4", False, group="unsat"),
        Instance("mesh 5x5 on mesh:8x4", "mesh:5x5", "mesh:8x4", False, group="unsat"),
        Instance("mesh 8x4 on mesh:8x4", "mesh:8x4", "mesh:8x4", True, group="mesh"),
        Instance("mesh 8x4 on torus:8x4", "mesh:8x4", "torus:8x4", True, group="mesh"),
        Instance("mesh 4x8 on torus:8x4", "mesh:4x8", "torus:8x4", True, group="mesh"),
        Instance("mesh 16x8 on torus:16x8", "mesh:16x8", "torus:16x8", True, group="mesh"),
        Instance("mesh 7x3 on mesh:8x4", "mesh:7x3", "mesh:8x4", True, group="mesh"),
        Instance("mesh 8x4 on mesh:8x4 -9-10", "mesh:8x4", "mesh:8x4", False, ["9-10"],
                 group="degraded"),
        Instance("mesh 8x4 on mesh:8x4 -0-1", "mesh:8x4", "mesh:8x4", False, ["0-1"],
                 group="degraded"),
        Instance("mesh 32x4 on mesh:32x4 -50-54", "mesh:32x4", "mesh:32x4", False, ["50-54"],
                 group="degraded"),
        Instance("mesh 16x8 on mesh:16x8 -60-61", "mesh:16x8", "mesh:16x8", False, ["60-61"],
                 group="degraded"),
        Instance("torus 8x4 on torus:8x4 -9-10", "torus:8x4", "torus:8x4", False, ["9-10"],
                 group="degraded"),
        Instance("ring 32 on torus:8x4 -9-10", "ring:32", "torus:8x4", True, ["9-10"],
                 group="degraded"),
        Instance("ring 32 on mesh:8x4 -13-17", "ring:32", "mesh:8x4", True, ["13-17"],
                 group="degraded"),
        Instance("mesh 8x4 on torus:8x4 -9-13", "mesh:8x4", "torus:8x4", True, ["9-13"],
                 group="degraded"),
        Instance("mesh 32x4 on torus:32x4 -9-13", "mesh:32x4", "torus:32x4", True, ["9-13"],
                 group="degraded"),
        Instance("ring 128 on torus:32x4 -2 links", "ring:128", "torus:32x4", True,
                 ["9-10", "70-74"], group="degraded"),
        Instance("ring 32 on mesh:8x4 pin 0=5", "ring:32", "mesh:8x4", True, pins=[(0, 5)],
                 group="pinned"),
        Instance("line 128 on mesh:32x4 pins 0=0,127=3", "line:128", "mesh:32x4", True,
                 pins=[(0, 0), (127, 3)], group="pinned"),
        Instance("line 128 on mesh:32x4 pins 0=0,127=127", "line:128", "mesh:32x4", False,
                 pins=[(0, 0), (127, 127)], group="pinned"),
        Instance("ring 128 on mesh:32x4 pins 0=0,64=61", "ring:128", "mesh:32x4", True,
                 pins=[(0, 0), (64, 61)], group="pinned"),
        Instance("mesh 8x4 on torus:8x4 pins 0=5,31=0", "mesh:8x4", "torus:8x4", True,
                 pins=[(0, 5), (31, 0)], group="pinned"),
        Instance("ring 8@2 on mesh:2x4@2 strict", "ring:8@2", "mesh:2x4@2", True, mode=STRICT,
                 group="strict"),
        Instance("ring 8@4 on mesh:2x4@2 strict", "ring:8@4", "mesh:2x4@2", False, mode=STRICT,
                 group="strict"),
        Instance("ring 20@2 on perimeter:8x4 strict", "ring:20@2", "perimeter:8x4", True,
                 mode=STRICT, group="strict"),
        Instance("ring 22@2 on perimeter:8x4 strict", "ring:22@2", "perimeter:8x4", False,
                 mode=STRICT, group="strict"),
        Instance("mesh 8x4@2 on torus:8x4@2 strict", "mesh:8x4@2", "torus:8x4@2", True,
                 mode=STRICT, group="strict"),
    ]
    return out


# --- VF2 in a child process -------------------------------------------------------------------
def _vf2_child(inst: Instance, queue) -> None:
    import networkx as nx
    from networkx.algorithms.isomorphism import GraphMatcher

    t, g = inst.graphs()
    pins = dict(inst.pins)
    gt, gg = nx.Graph(), nx.Graph()
    for n in t.get_nodes():
        gt.add_node(n, pin=pins.get(n))
    for n in g.get_nodes():
        gg.add_node(n, name=n)
    gt.add_edges_from((u, v, {"ch": c}) for u, v, c in t.edges())
    gg.add_edges_from((u, v, {"ch": c}) for u, v, c in g.edges())
    node_match = (lambda ga, ta: ta["pin"] is None or ta["pin"] == ga["name"]) if pins else None
    edge_match = (lambda ge, te: ge["ch"] >= te["ch"]) if inst.mode is STRICT else None
    start = time.perf_counter()
    matcher = GraphMatcher(gg, gt, node_match=node_match, edge_match=edge_match)
    found = next(matcher.subgraph_monomorphisms_iter(), None) is not None
    queue.put((found, time.perf_counter() - start))


def run_vf2(insts: list[Instance], timeout: float, workers: int) -> dict[str, tuple]:
    """name -> (found | None on timeout, seconds)."""
    ctx = mp.get_context("fork")
    pending = list(insts)
    running: list[tuple[Instance, mp.Process, object, float]] = []
    results: dict[str, tuple] = {}
    while pending or running:
        while pending and len(running) < workers:
            inst = pending.pop(0)
            q = ctx.Queue()
            p = ctx.Process(target=_vf2_child, args=(inst, q), daemon=True)
            p.start()
            running.append((inst, p, q, time.perf_counter()))
        time.sleep(0.01)
        for item in list(running):
            inst, p, q, t0 = item
            if not q.empty():
                results[inst.name] = q.get()
                p.join()
                running.remove(item)
            elif time.perf_counter() - t0 > timeout:
                p.terminate()
                p.join()
                results[inst.name] = (None, timeout)
                running.remove(item)
            elif not p.is_alive() and q.empty():
                p.join()
                results[inst.name] = ("error", time.perf_counter() - t0)
                running.remove(item)
    return results


def run_ttopt(inst: Instance, repeat: int, engine: str):
    t, g = inst.graphs()
    times = []
    result = None
    for _ in range(repeat):
        c = inst.constraints()
        start = time.perf_counter()
        result = solve_topology_mapping(t, g, c, inst.mode, engine=engine, timeout=10.0)
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--vf2-timeout", type=float, default=20.0)
    ap.add_argument("--no-vf2", action="store_true")
    ap.add_argument("--workers", type=int, default=2, help="parallel VF2 processes")
    ap.add_argument("--engine", default="auto", choices=["auto", "search", "sat"])
    ap.add_argument("--only", default="", help="run instances whose name contains this")
    args = ap.parse_args()

    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 150)
    insts = [i for i in suite() if args.only in i.name]
    rows = []
    for inst in insts:
        res, secs = run_ttopt(inst, args.repeat, args.engine)
        rows.append((inst, res, secs))
        console.print(f"[dim]{inst.name}: {res.status.value} {secs * 1000:.1f} ms[/]")
    vf2 = {} if args.no_vf2 else run_vf2(insts, args.vf2_timeout, args.workers)

    table = Table(title=f"ttopt topology vs networkx VF2 (engine={args.engine}, "
                        f"VF2 timeout {args.vf2_timeout:g} s)")
    for col, just in [("instance", "left"), ("expect", "left"), ("ttopt", "left"),
                      ("how", "left"), ("nodes", "right"), ("ttopt ms", "right"),
                      ("VF2", "left"), ("VF2 ms", "right"), ("speed-up", "right")]:
        table.add_column(col, justify=just)
    speedups = []
    wrong = 0
    for inst, res, secs in rows:
        ok = res.success == inst.expect and res.status.value in ("mapped", "unsat")
        wrong += not ok
        how = res.proof or res.stats.engine
        found, vsecs = vf2.get(inst.name, ("-", None))
        if found is None:
            vtxt, vms, sp = "timeout", f">{vsecs * 1000:.0f}", f">{vsecs / secs:.0f}x"
        elif found == "-" or vsecs is None:
            vtxt, vms, sp = "-", "-", "-"
        elif found == "error":
            vtxt, vms, sp = "error", "-", "-"
        else:
            vtxt = "mapped" if found else "unsat"
            if found != inst.expect:
                vtxt += " (!)"
            vms = f"{vsecs * 1000:.1f}"
            speedups.append(vsecs / secs)
            sp = f"{vsecs / secs:.1f}x"
        table.add_row(inst.name, "sat" if inst.expect else "unsat",
                      res.status.value + ("" if ok else " (!)"), how,
                      str(res.stats.nodes_explored), f"{secs * 1000:.1f}", vtxt, vms, sp)
    console.print(table)
    total = sum(s for _, _, s in rows)
    worst = max(rows, key=lambda r: r[2])
    console.print(f"instances: {len(rows)}, wrong answers: {wrong}, within 1 s: "
                  f"{sum(1 for _, _, s in rows if s <= 1.0)}/{len(rows)}")
    console.print(f"ttopt total: {total * 1000:.1f} ms (median of {args.repeat} runs each); "
                  f"slowest: {worst[0].name} {worst[2] * 1000:.1f} ms")
    if vf2:
        timeouts = sum(1 for f, _ in vf2.values() if f is None)
        if speedups:
            gm = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
            console.print(f"VF2 finished {len(speedups)}/{len(rows)} (timeouts: {timeouts}); "
                          f"geometric-mean speed-up on those: {gm:.1f}x")


if __name__ == "__main__":
    main()
