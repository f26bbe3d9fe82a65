"""Benchmark: ttopt's topology engines vs networkx VF2, per instance family and size.

Run by hand (not by CI):
  python bench/topology.py [--families cubic-ring,...] [--sizes 32,64,128,256] [--count 3]
                           [--engines search,sat,auto] [--timeout 5] [--repeat 1]
                           [--vf2-timeout 5] [--no-vf2] [--detail] [--only SUBSTR]

Families: `classic` (the hand-written fabric suite below: rings, lines and meshes on meshes and
tori, degraded, pinned, STRICT) and the generated hard families of ttopt/topology/generators.py
(planted cubic Hamiltonian rings and lines, degree-2 sprinkles, near-meshes, unsat variants),
`--count` seeded instances per size. Each instance is solved by every engine (fastest CPU time of
--repeat runs, engines interleaved, graph construction excluded; a run that times out, a wall-clock
limit, is not repeated) and by networkx's
`GraphMatcher(G, T).subgraph_monomorphisms_iter()` (first valid monomorphism, pins and STRICT
channels as node/edge matchers) in a child process killed at the VF2 timeout (wall time). CPU time,
not wall time, because the bench usually shares the machine: on a loaded machine the wall time of
a 30 ms run varies 3x between identical runs, which made `auto / best` ratios of the same code
path read 1.9.

The table has one row per family and size: instances, sat/unsat, median and max seconds per
engine, timeouts (status `limit`), VF2's median over the instances it finished, and the worst
`auto / best single engine` ratio (times below RATIO_FLOOR count as RATIO_FLOOR: timer noise).
A wrong answer (a status that contradicts the known answer) is flagged and counted.
"""

from __future__ import annotations

import argparse
import gc
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
from ttopt.topology.generators import FAMILIES, family  # noqa: E402

STRICT = ConnectionValidationMode.STRICT
RELAXED = ConnectionValidationMode.RELAXED
RATIO_FLOOR = 0.02  # seconds: auto/best ratios of faster runs are timer and load noise


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


# --- cases: one shape for the classic suite and the generated families -------------------------
@dataclass
class Case:
    family: str
    size: int  # global nodes
    name: str
    target: AdjacencyGraph
    global_: AdjacencyGraph
    expect: bool
    pins: list[tuple[int, int]] = field(default_factory=list)
    mode: ConnectionValidationMode = RELAXED

    def constraints(self) -> MappingConstraints:
        c = MappingConstraints()
        for t, g in self.pins:
            assert c.add_required_constraint(t, g)
        return c


def classic_cases() -> list[Case]:
    out = []
    for inst in suite():
        t, g = inst.graphs()
        out.append(Case("classic", len(g), inst.name, t, g, inst.expect, inst.pins, inst.mode))
    return out


def family_cases(names: list[str], sizes: list[int], count: int) -> list[Case]:
    out = []
    for name in names:
        if name == "classic":
            out += classic_cases()
            continue
        for n in sizes:
            for inst in family(name, n, count):
                out.append(Case(name, n, inst.name, inst.target, inst.global_, inst.expect))
    return out


# --- VF2 in a child process -------------------------------------------------------------------
def _vf2_child(case: Case, queue) -> None:
    import networkx as nx
    from networkx.algorithms.isomorphism import GraphMatcher

    t, g = case.target, case.global_
    pins = dict(case.pins)
    gt, gg = nx.Graph(), nx.Graph()
    for n in t.get_nodes():
        gt.add_node(n, pin=pins.get(n))
    for n in g.get_nodes():
        gg.add_node(n, name=n)
    gt.add_edges_from((u, v, {"ch": c}) for u, v, c in t.edges())
    gg.add_edges_from((u, v, {"ch": c}) for u, v, c in g.edges())
    node_match = (lambda ga, ta: ta["pin"] is None or ta["pin"] == ga["name"]) if pins else None
    edge_match = (lambda ge, te: ge["ch"] >= te["ch"]) if case.mode is STRICT else None
    start = time.process_time()
    matcher = GraphMatcher(gg, gt, node_match=node_match, edge_match=edge_match)
    found = next(matcher.subgraph_monomorphisms_iter(), None) is not None
    queue.put((found, time.process_time() - start))


def run_vf2(cases: list[Case], timeout: float, workers: int) -> dict[str, tuple]:
    """name -> (found | None on timeout, seconds)."""
    ctx = mp.get_context("fork")
    pending = list(cases)
    running: list[tuple[Case, mp.Process, object, float]] = []
    results: dict[str, tuple] = {}
    while pending or running:
        while pending and len(running) < workers:
            case = pending.pop(0)
            q = ctx.Queue()
            p = ctx.Process(target=_vf2_child, args=(case, q), daemon=True)
            p.start()
            running.append((case, p, q, time.perf_counter()))
        time.sleep(0.01)
        for item in list(running):
            case, p, q, t0 = item
            if not q.empty():
                results[case.name] = q.get()
                p.join()
                running.remove(item)
            elif time.perf_counter() - t0 > timeout:
                p.terminate()
                p.join()
                results[case.name] = (None, timeout)
                running.remove(item)
            elif not p.is_alive() and q.empty():
                p.join()
                results[case.name] = ("error", time.perf_counter() - t0)
                running.remove(item)
    return results


@dataclass
class Run:
    status: str
    how: str
    nodes: int
    secs: float
    wrong: bool


def run_engines(case: Case, engines: list[str], repeat: int, timeout: float) -> dict[str, Run]:
    """Each engine `repeat` times, interleaved (search, sat, auto, search, ...) so slow phases of a
    shared machine hit every engine alike; CPU seconds of this process (the engines, SAT solvers
    included, run in it), the fastest run per engine."""
    times: dict[str, list[float]] = {e: [] for e in engines}
    last: dict[str, object] = {}
    for _ in range(repeat):
        for e in engines:
            if e in last and last[e].status.value == "limit":
                continue  # a timeout is a timeout: do not wait for it again
            c = case.constraints()
            # As timeit does: a collection triggered by an earlier run's garbage (a SAT encoding
            # is ~10^6 objects) must not be charged to whichever engine runs next.
            gc.collect()
            gc.disable()
            try:
                start = time.process_time()
                last[e] = solve_topology_mapping(case.target, case.global_, c, case.mode, engine=e,
                                                 timeout=timeout)
                times[e].append(time.process_time() - start)
            finally:
                gc.enable()
    out = {}
    for e in engines:
        res = last[e]
        st = res.status.value
        # `invalid` would be an engine bug caught by validation; `limit` is a timeout, not wrong.
        wrong = st == "invalid" or (st in ("mapped", "unsat") and res.success != case.expect)
        out[e] = Run(st, res.proof or res.stats.engine, res.stats.nodes_explored, min(times[e]), wrong)
    return out


def _ratio(auto: Run, best: Run | None) -> float | None:
    if best is None or auto.status == "limit":
        return None
    return max(auto.secs, RATIO_FLOOR) / max(best.secs, RATIO_FLOOR)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--families", default=",".join(("classic",) + FAMILIES))
    ap.add_argument("--sizes", default="32,64,128,256")
    ap.add_argument("--count", type=int, default=3, help="generated instances per family/size")
    ap.add_argument("--engines", default="search,sat,auto")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per engine run")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--vf2-timeout", type=float, default=5.0)
    ap.add_argument("--no-vf2", action="store_true")
    ap.add_argument("--workers", type=int, default=1, help="parallel VF2 processes")
    ap.add_argument("--detail", action="store_true", help="also print one row per instance")
    ap.add_argument("--only", default="", help="run instances whose name contains this")
    args = ap.parse_args()

    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 200)
    engines = args.engines.split(",")
    cases = [c for c in family_cases(args.families.split(","),
                                     [int(x) for x in args.sizes.split(",")], args.count)
             if args.only in c.name]
    runs: dict[str, dict[str, Run]] = {}
    for case in cases:
        runs[case.name] = run_engines(case, engines, args.repeat, args.timeout)
        console.print(f"[dim]{case.name}: " + ", ".join(
            f"{e} {r.status} {r.secs * 1000:.0f} ms" for e, r in runs[case.name].items()) + "[/]")
    vf2 = {} if args.no_vf2 else run_vf2(cases, args.vf2_timeout, args.workers)

    def best_single(name: str) -> Run | None:
        done = [r for e, r in runs[name].items() if e != "auto" and r.status != "limit"]
        return min(done, key=lambda r: r.secs, default=None)

    if args.detail:
        table = Table(title="per instance (seconds)")
        table.add_column("instance")
        table.add_column("expect")
        for e in engines:
            table.add_column(e, justify="right")
        table.add_column("auto: how", justify="left")
        table.add_column("VF2", justify="right")
        table.add_column("auto/best", justify="right")
        for case in cases:
            rs = runs[case.name]
            found, vsecs = vf2.get(case.name, ("-", None))
            vtxt = "-" if vsecs is None or found == "-" else (
                f">{vsecs:.1f}" if found is None else f"{vsecs:.3f}")
            ratio = _ratio(rs["auto"], best_single(case.name)) if "auto" in rs else None
            table.add_row(case.name, "sat" if case.expect else "unsat",
                          *[("LIMIT" if r.status == "limit" else f"{r.secs:.3f}")
                            + (" WRONG" if r.wrong else "") for r in rs.values()],
                          rs["auto"].how if "auto" in rs else "-", vtxt,
                          "-" if ratio is None else f"{ratio:.2f}")
        console.print(table)

    table = Table(title=f"topology engines per family (timeout {args.timeout:g} s per run, "
                        f"VF2 timeout {args.vf2_timeout:g} s; times in seconds, median/max)")
    for col in ["family", "nodes", "inst", "sat/unsat"]:
        table.add_column(col, justify="left" if col == "family" else "right")
    for e in engines:
        table.add_column(f"{e} med/max", justify="right")
        table.add_column(f"{e} t/o", justify="right")
    table.add_column("VF2 med (done)", justify="right")
    table.add_column("auto/best max", justify="right")
    groups: dict[tuple[str, int], list[Case]] = {}
    for case in cases:
        groups.setdefault((case.family, case.size), []).append(case)
    wrong = 0
    worst_ratio = (0.0, "")
    for (fam, size), group in sorted(groups.items(), key=lambda kv: (cases.index(kv[1][0]),)):
        cells = []
        for e in engines:
            rs = [runs[c.name][e] for c in group]
            wrong += sum(r.wrong for r in rs)
            secs = [r.secs for r in rs if r.status != "limit"]
            flag = " WRONG" if any(r.wrong for r in rs) else ""
            cells.append(f"{statistics.median(secs):.3f}/{max(secs):.3f}{flag}" if secs
                         else f"-{flag}")
            cells.append(str(sum(r.status == "limit" for r in rs)))
        vdone = [vf2[c.name][1] for c in group
                 if c.name in vf2 and vf2[c.name][0] in (True, False)]
        vtxt = "-" if args.no_vf2 else (
            f"{statistics.median(vdone):.3f} ({len(vdone)}/{len(group)})" if vdone
            else f"t/o ({len(group)})")
        ratios = []
        if "auto" in engines:
            for c in group:
                r = _ratio(runs[c.name]["auto"], best_single(c.name))
                if r is not None:
                    ratios.append(r)
                    worst_ratio = max(worst_ratio, (r, c.name))
        nsat = sum(c.expect for c in group)
        table.add_row(fam, str(size), str(len(group)), f"{nsat}/{len(group) - nsat}", *cells,
                      vtxt, f"{max(ratios):.2f}" if ratios else "-")
    console.print(table)
    console.print(f"instances: {len(cases)}, wrong answers: {wrong}")
    if "auto" in engines:
        small = [c for c in cases if c.size <= 128]
        ok = sum(1 for c in small if runs[c.name]["auto"].status != "limit"
                 and runs[c.name]["auto"].secs <= 1.0)
        slow = max(cases, key=lambda c: runs[c.name]["auto"].secs)
        console.print(f"auto: {ok}/{len(small)} instances of <= 128 nodes answered within 1 s; "
                      f"slowest {slow.name} {runs[slow.name]['auto'].secs:.3f} s "
                      f"({runs[slow.name]['auto'].status}); worst auto/best "
                      f"{worst_ratio[0]:.2f} ({worst_ratio[1]})")


if __name__ == "__main__":
    main()
