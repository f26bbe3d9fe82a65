"""`--trace` renderers of the ttnn-optimizer (rich, on stderr; DECISIONS.md "every decision is
traceable"): the legal configs per op, the schedule and chains, dispatch links and solving order,
each chain's solver run step by step (every op's bitset as a row of config bits after each edge,
reshard, propagation and `set` step; paths per edge; reshard maps), the accumulated core usage
behind each pick, and the reshards, spills and final layouts written into the IR."""

from __future__ import annotations

from typing import Any, Callable

from rich import box
from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from ttopt.device import layout_info
from ttopt.optimizer.chain import L1ChainConfig, L1ChainState
from ttopt.optimizer.shard_solver import SolverStep

SET, GONE, CLEARED = "[green]●[/green]", "[red]✗[/red]", "[dim]·[/dim]"


def _cfg_text(cfg: Any) -> str:
    out = layout_info(cfg.output).short() if cfg.output is not None else "(op decides)"
    if getattr(cfg, "matmul", None) is not None:
        m = cfg.matmul
        out += f", {m.kind} per_core {m.per_core_m}x{m.per_core_n}"
    if getattr(cfg, "conv2d", None) is not None:
        out += f", act_block_h {cfg.conv2d.act_block_h_override}"
    return out


class OptimizerTrace:
    """Writes the optimizer's decisions to the run's Trace (stderr)."""

    def __init__(self, trace: Any, options: Any, device: Any) -> None:
        self.trace = trace
        self.options = options
        self.device = device
        self.labels: dict[Any, str] = {}

    def print(self, *r: Any) -> None:
        self.trace.print(*r)

    def note(self, message: str) -> None:
        self.print(f"[yellow]note[/yellow]: {escape(message)}")

    def name(self, op: Any) -> str:
        return self.labels.get(op, getattr(op, "name", str(op))) if op is not None else "block argument"

    # -- analyses ----------------------------------------------------------------------------------
    def function_begin(self, fname: str, fn: Any) -> None:
        self.labels = fn.labels
        p = self.options
        self.trace.rule(f"ttnn-optimizer @{fname}")
        self.print(
            f"device {self.device.describe()}; policy "
            + (p.memory_layout_analysis_policy if p.memory_layout_analysis_enabled else "none (memory-layout-analysis disabled)")
            + f"; max-legal-layouts {p.max_legal_layouts}"
        )
        t = Table(title="legal configs (LegalOpLayout + LegalOpConfig analyses)", title_justify="left", box=box.SIMPLE)
        for c in ("op", "kind", "legal", "sharded", "first sharded config / note"):
            t.add_column(c)
        for op in fn.ops:
            info = fn.analyses.legal.get(op)
            if info is None:
                continue
            first = _cfg_text(info.sharded[0]) if info.sharded else ""
            t.add_row(escape(self.name(op)), op.name, str(len(info.configs)), str(len(info.sharded)), escape(info.note or first))
        self.print(t)

    # -- chains --------------------------------------------------------------------------------------
    def chains(self, chains: list[L1ChainConfig], schedule: list[Any], relationships: list[Any], order: list[int]) -> None:
        self.print("[bold]schedule[/bold]: " + escape(", ".join(self.name(o) for o in schedule)))
        tree = Tree(f"[bold]L1 chains[/bold] ({len(chains)})")
        for i, c in enumerate(chains):
            kind = " (concat)" if c.is_concat_chain else ""
            tree.add(escape(f"chain {i}{kind}: [" + ", ".join(self.name(o) for o in c.ops) + "]"))
        self.print(tree)
        for r in relationships:
            self.print(escape(
                f"dispatch {self.name(r.dispatch_op)}: producer chain {r.producer_chain_idx}, "
                f"consumer chain {r.consumer_chain_idx}"
            ))
        if relationships:
            self.print(f"chain solving order: {order}")

    def solver_begin(self, idx: int, chain: L1ChainConfig, backend: Any, consumes: bool) -> Callable[[SolverStep], None]:
        """Print the chain's config legend; return the per-step renderer."""
        how = " (consumes a dispatch op: solving for its optimal input)" if consumes else ""
        self.print(f"\n[bold cyan]ShardSolver: chain {idx}[/bold cyan]{how}")
        for op in chain.ops:
            self.print(escape(f"  {self.name(op)} ({op.name}): {backend.config_count(op)} sharded config(s)"))
            for i, cfg in enumerate(backend.configs(op)):
                self.print(escape(f"    {i:>2}: {_cfg_text(cfg)}; {backend.core_count(op, i)} cores"))
        counts = {op: backend.config_count(op) for op in chain.ops}
        prev: dict[Any, int] = {}

        def on_step(step: SolverStep) -> None:
            self.print(f"[bold]{step.kind}[/bold]: {escape(step.message)}")
            if step.paths:
                shown = " ".join(f"({p},{c})" for p, c in step.paths[:48])
                more = f" ... ({len(step.paths)} paths)" if len(step.paths) > 48 else ""
                self.print(f"  paths: {shown}{more}")
            entry = step.extra if step.kind == "reshard" else None
            if entry is not None:
                for ci, lays in entry.reshard_output_config_map.items():
                    self.print(escape(f"  reshard -> config {ci}: " + "; ".join(layout_info(x).short() for x in lays[:4])
                                      + (f" (+{len(lays) - 4})" if len(lays) > 4 else "")))  # fmt: skip
            if step.kind == "preprocess" and step.extra is not None:
                self.print(escape(f"  resolved first-op input layout: {layout_info(step.extra).short()}"))
            if step.bitsets:
                self.print(self._bitsets(step, counts, prev))

        return on_step

    def _bitsets(self, step: SolverStep, counts: dict[Any, int], prev: dict[Any, int]) -> Table:
        width = max((counts.get(op, 0) for op, _ in step.bitsets), default=0)
        t = Table(box=box.MINIMAL, show_header=True, pad_edge=False)
        t.add_column("bitset")
        for i in range(width):
            t.add_column(str(i), justify="center")
        t.add_column("valid", justify="right")
        for op, b in step.bitsets:
            n = counts.get(op, 0)
            before = prev.get(op, (1 << n) - 1)
            cells = []
            for i in range(width):
                if i >= n:
                    cells.append("")
                elif (b >> i) & 1:
                    cells.append(SET)
                elif (before >> i) & 1:
                    cells.append(GONE)
                else:
                    cells.append(CLEARED)
            t.add_row(escape(self.name(op)), *cells, str(bin(b).count("1")))
            prev[op] = b
        return t

    def core_usage(self, chain: L1ChainConfig, solver: Any, acc: dict[Any, list[float]], backend: Any) -> None:
        width = max((backend.config_count(op) for op in chain.ops), default=0)
        t = Table(title="accumulated core usage (live configs)", title_justify="left", box=box.MINIMAL)
        t.add_column("op")
        for i in range(width):
            t.add_column(str(i), justify="right")
        for op in chain.ops:
            b = solver.bitset(op)
            row = [f"{acc[op][i]:g}" if i < len(acc[op]) and (b >> i) & 1 else "" for i in range(width)]
            t.add_row(escape(self.name(op)), *row)
        self.print(t)

    def pick(self, op: Any, choice: int, usage: float) -> None:
        self.print(f"[bold]pick[/bold] {escape(self.name(op))}: config {choice} (accumulated core usage {usage:g})")

    def chain_result(self, idx: int, chain: L1ChainConfig) -> None:
        if chain.state is L1ChainState.COMPLETED:
            self.print(f"[green]chain {idx} completed[/green], spill location {chain.spill_location.value}")
        else:
            self.print(f"[red]chain {idx} {chain.state.value.lower()}[/red]: {escape(chain.failure_reason)}; its ops fall back to DRAM")

    # -- rewrite -------------------------------------------------------------------------------------
    def function_end(self, fn: Any, decisions: Any, result: Any) -> None:
        for op, d in decisions.dispatch_configs.items():
            self.print(escape(
                f"dispatch config {self.name(op)}: input {layout_info(d.input_layout).short() if d.input_layout else '-'}, "
                f"output {layout_info(d.output_layout).short() if d.output_layout else '-'}, L1 budget {d.l1_budget} B/core"
            ))
        for r in result.reshards:
            how = "retyped in place" if r.in_place else f"inserted {r.target}_mem_reconfig"
            self.print("[bold]reshard[/bold] " + escape(f"{r.source} -> {r.target}#{r.operand}: {layout_info(r.layout).short()} ({how})"))
        for r in result.spills:
            self.print("[bold]spill[/bold] " + escape(f"{r.source} -> {layout_info(r.layout).short()} (inserted {r.source}_spill)"))
        t = Table(title="final layouts", title_justify="left", box=box.SIMPLE)
        t.add_column("op")
        t.add_column("layout")
        from ttopt.optimizer.analyses import current_layout

        for op in fn.block.ops:
            if len(op.results) != 1:
                continue
            lay = current_layout(op.results[0].type)
            if lay is not None:
                name = self.name(op) if op in self.labels else f"{op.name} ({op.location.name if op.location else ''})"
                t.add_row(escape(name), escape(layout_info(lay).short()))
        self.print(t)

    def summary(self, stats: dict[str, Any]) -> None:
        tot = stats["totals"]
        self.print(
            f"[bold]ttnn-optimizer[/bold]: {tot['chains_completed']}/{tot['chains']} chains completed, "
            f"{tot['reshards']} reshard(s), {tot['spills']} spill(s), estimated {tot['estimated_ns_before'] / 1e3:.1f} us -> "
            f"{tot['estimated_ns'] / 1e3:.1f} us, L1 residency {tot['l1_residency']:.0%}, {tot['validations']} validations"
        )
