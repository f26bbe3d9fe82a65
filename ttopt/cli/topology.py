"""`ttopt topology`: map a logical device graph onto a physical one, or show a graph.

Exit codes: 0 mapped, 1 no mapping (the reason: which proof, constraint or limit), 2 usage error
(bad spec, malformed file, unknown node in a pin). rich is imported inside functions so the
command group loads fast.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

MODES = ("strict", "relaxed", "none")


def _load(spec: str, remove: tuple[str, ...], param: str):
    """The graph of a spec or file; a bad file is an input error (exit 1), a bad spec a usage one (2)."""
    from ttopt.topology.sources import GraphFileError, GraphSpecError, load_graph

    try:
        return load_graph(spec, remove)
    except GraphFileError as exc:
        click.echo(f"{exc.where}: error: {exc.detail}", err=True)
        raise SystemExit(1) from None
    except GraphSpecError as exc:
        raise click.BadParameter(str(exc), param_hint=param) from None


def _pairs(values: tuple[str, ...], option: str, target, global_) -> list[tuple[Any, list]]:
    """Parse T=G[,G...] into (target node, [global nodes]), rejecting unknown nodes."""
    out = []
    for text in values:
        if "=" not in text:
            raise click.BadParameter(f"expected TARGET=GLOBAL, got {text!r}", param_hint=option)
        left, right = text.split("=", 1)
        t = target.find_node(left.strip())
        if t is None:
            raise click.BadParameter(f"unknown target node {left.strip()!r} in {text!r}",
                                     param_hint=option)
        gs = []
        for part in right.split(","):
            g = global_.find_node(part.strip())
            if g is None:
                raise click.BadParameter(f"unknown global node {part.strip()!r} in {text!r}",
                                         param_hint=option)
            gs.append(g)
        out.append((t, gs))
    return out


@click.group()
def topology() -> None:
    """Fabric topology mapping (logical device graph -> physical device graph)."""


@topology.command("map")
@click.option("--target", "target_spec", required=True, metavar="SPEC",
              help="Logical graph: YAML/JSON file or line:N, ring:N, mesh:RxC, torus[-x|-y]:RxC "
                   "(optional @CHANNELS).")
@click.option("--global", "global_spec", required=True, metavar="SPEC",
              help="Physical graph, same forms as --target.")
@click.option("--remove-link", "remove_links", multiple=True, metavar="A-B",
              help="Remove a link from the global graph (degraded hardware). Repeatable.")
@click.option("--mode", type=click.Choice(MODES), default="relaxed", show_default=True,
              help="Channel-count validation: strict fails on too few channels, relaxed warns, "
                   "none ignores them.")
@click.option("--pin", "pins", multiple=True, metavar="T=G[,G..]",
              help="Required: target T must land on G (or one of the listed globals).")
@click.option("--forbid", "forbids", multiple=True, metavar="T=G[,G..]",
              help="Forbidden: target T must not land on G.")
@click.option("--prefer", "prefers", multiple=True, metavar="T=G[,G..]",
              help="Preferred (soft): try G first for T.")
@click.option("--match-trait", "match_traits", multiple=True, metavar="NAME",
              help="Required: targets with trait NAME land on globals with the same value.")
@click.option("--prefer-trait", "prefer_traits", multiple=True, metavar="NAME",
              help="Preferred: targets with trait NAME prefer globals with the same value.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, help="Wall-clock limit in seconds.")
@click.option("--node-limit", type=click.IntRange(min=1), default=None,
              help="Stop after this many search nodes.")
@click.option("--engine", type=click.Choice(("auto", "search", "sat")), default="auto",
              show_default=True,
              help="auto: native search, then SAT (if python-sat is installed) when the search "
                   "budget runs out.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--trace", is_flag=True, help="Show the search (selections, prunings) on stderr.")
def map_cmd(target_spec: str, global_spec: str, remove_links: tuple[str, ...], mode: str,
            pins: tuple[str, ...], forbids: tuple[str, ...], prefers: tuple[str, ...],
            match_traits: tuple[str, ...], prefer_traits: tuple[str, ...], timeout: float,
            node_limit: int | None, engine: str, as_json: bool, trace: bool) -> None:
    """Map the --target graph into the --global graph."""
    from ttopt.topology import (
        ConnectionValidationMode,
        MappingConstraints,
        Status,
        TraceRecorder,
        solve_topology_mapping,
    )

    target = _load(target_spec, (), "--target")
    global_ = _load(global_spec, remove_links, "--global")
    constraints = MappingConstraints()
    for option, values, add in (
        ("--pin", pins, constraints.add_required_constraint),
        ("--forbid", forbids, constraints.add_forbidden_constraint),
        ("--prefer", prefers, constraints.add_preferred_constraint),
    ):
        for t, gs in _pairs(values, option, target, global_):
            if not add(t, gs[0] if len(gs) == 1 else gs):
                _fail(f"{option} {t}={','.join(map(str, gs))} contradicts earlier constraints: "
                      f"target node {t} would have no allowed global node", as_json)
    for name in match_traits:
        if not constraints.add_required_trait_constraint(target.trait_map(name),
                                                         global_.trait_map(name)):
            _fail(f"--match-trait {name}: some target node has no global node with the same "
                  f"{name!r} value", as_json)
    for name in prefer_traits:
        constraints.add_preferred_trait_constraint(target.trait_map(name),
                                                   global_.trait_map(name))
    recorder = TraceRecorder() if trace else None
    result = solve_topology_mapping(
        target, global_, constraints, ConnectionValidationMode(mode), timeout=timeout,
        node_limit=node_limit, engine=engine, trace=recorder)
    if recorder is not None:
        _print_trace(recorder)
    if result.status is Status.INVALID:
        raise click.UsageError(result.error_message)
    if as_json:
        data = {"target": target_spec, "global": global_spec, "mode": mode, **result.as_dict()}
        click.echo(json.dumps(data, indent=2, default=str))
    else:
        _print_result(result, target, global_)
    sys.exit(0 if result.success else 1)


def _fail(message: str, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({"success": False, "status": "unsat", "proof": "constraint",
                               "error": message}, indent=2))
    else:
        click.echo(f"error: no mapping: {message}", err=True)
    sys.exit(1)


def _print_result(result, target, global_) -> None:
    from rich.console import Console
    from rich.table import Table

    out = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    st = result.stats
    if not result.success:
        from rich.markup import escape

        proof = f" [proof: {result.proof}]" if result.proof else ""
        err.print(f"[bold red]error:[/] no mapping ({result.status.value}){escape(proof)}: "
                  f"{escape(result.error_message)}", soft_wrap=True)
        err.print(f"engine {st.engine}, {st.nodes_explored} nodes, {st.backtracks} backtracks, "
                  f"{st.prunings} prunings, {st.elapsed_ms:.1f} ms")
        return
    table = Table(title=f"{len(target)} target nodes -> {len(global_)} global nodes")
    table.add_column("target", justify="right")
    table.add_column("global", justify="right")
    table.add_column("links (channels need/have)")
    m = result.target_to_global
    for t, g in m.items():
        links = ", ".join(
            f"{n}:{target.channels(t, n)}/{global_.channels(g, m[n])}"
            for n in target.get_neighbors(t))
        table.add_row(str(t), str(g), links)
    out.print(table)
    picture = grid_picture(result, target, global_)
    if picture:
        out.print(picture)
    for w in result.warnings:
        err.print(f"warning: {w}", soft_wrap=True)
    out.print(f"mapped: engine {st.engine}, {st.nodes_explored} nodes, {st.backtracks} "
              f"backtracks, {st.prunings} prunings, {st.elapsed_ms:.1f} ms")


def grid_picture(result, target, global_) -> str | None:
    """A small text picture of a mesh-shaped global graph with the mapping drawn on it."""
    if global_.shape is None:
        return None
    rows, cols = global_.shape
    if rows * cols != len(global_) or rows * cols > 512 or cols > 16:
        return None
    inv = result.global_to_target
    width = max([len(str(t)) for t in inv] + [1])

    def used(a: int, b: int) -> bool:
        ta, tb = inv.get(a), inv.get(b)
        return ta is not None and tb is not None and target.channels(ta, tb) > 0

    lines = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            u = r * cols + c
            cells.append(str(inv.get(u, ".")).rjust(width))
            if c + 1 < cols:
                cells.append("─" if used(u, u + 1) else " ")
        lines.append("".join(cells).rstrip())
        if r + 1 < rows:
            under = []
            for c in range(cols):
                u = r * cols + c
                under.append(("│" if used(u, u + cols) else " ").rjust(width))
                if c + 1 < cols:
                    under.append(" ")
            lines.append("".join(under).rstrip())
    wraps = sum(1 for r in range(rows) if cols >= 3 and used(r * cols, r * cols + cols - 1)) + \
        sum(1 for c in range(cols) if rows >= 3 and used(c, (rows - 1) * cols + c))
    if wraps:
        lines.append(f"(+{wraps} wrap-around link{'s' if wraps > 1 else ''} used)")
    return "\n".join(lines)


def _print_trace(recorder) -> None:
    from rich.console import Console

    err = Console(stderr=True, highlight=False)
    for e in recorder.events:
        pad = "  " * min(e["depth"], 40)
        kind = e["kind"]
        if kind == "select":
            cands = e["candidates"]
            shown = ", ".join(map(str, cands[:12])) + (" ..." if len(cands) > 12 else "")
            err.print(f"{pad}[cyan]select[/] {e['target']} ({len(cands)} candidates: {shown})")
        elif kind == "assign":
            err.print(f"{pad}[green]assign[/] {e['target']} -> {e['glob']}")
        elif kind == "prune":
            err.print(f"{pad}[yellow]prune[/] {e['target']} -> {e['glob']}: {e['reason']}")
        elif kind == "backtrack":
            err.print(f"{pad}[red]backtrack[/] {e['target']} -> {e['glob']}")
        else:
            rest = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("kind", "depth"))
            err.print(f"{pad}[magenta]{kind}[/] {rest}")
    if recorder.dropped:
        err.print(f"... {recorder.dropped} more trace events not shown")


@topology.command("show")
@click.argument("spec")
@click.option("--remove-link", "remove_links", multiple=True, metavar="A-B",
              help="Remove a link (degraded hardware). Repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print the adjacency as JSON.")
def show_cmd(spec: str, remove_links: tuple[str, ...], as_json: bool) -> None:
    """Print a graph spec's size, degrees and adjacency (with channel counts)."""
    graph = _load(spec, remove_links, "SPEC")
    if as_json:
        click.echo(json.dumps({str(k): v for k, v in graph.get_adjacency_map().items()},
                              indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    out = Console(highlight=False)
    degrees: dict[int, int] = {}
    for n in graph.get_nodes():
        degrees[graph.degree(n)] = degrees.get(graph.degree(n), 0) + 1
    hist = ", ".join(f"{d}: {c}" for d, c in sorted(degrees.items()))
    out.print(f"{spec}: {len(graph)} nodes, {graph.num_edges()} links, degrees {{{hist}}}")
    table = Table()
    table.add_column("node", justify="right")
    table.add_column("neighbours (channels)")
    for n in graph.get_nodes():
        table.add_row(str(n), ", ".join(
            f"{v}" + (f"x{graph.channels(n, v)}" if graph.channels(n, v) > 1 else "")
            for v in graph.get_neighbors(n)))
    out.print(table)
