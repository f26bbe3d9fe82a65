"""`ttopt analyze INPUT`: per op, every candidate config with its verdict from the op model, the L1
peak, the estimated latency, and why each rejected candidate was rejected.

Exit codes: 0 ok, 1 an error in the input (parse error, broken system desc), 2 usage error.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ttopt.cli.layouts import DEVICE_HELP, check_device_flags, console, load_device_or_exit


def _config_text(cfg: Any) -> str:
    """Op-specific part of a config: the matmul program config or the conv2d knobs."""
    if cfg.matmul is not None:
        m = cfg.matmul
        kind = "2d mcast" if m.kind == "multi_cast" else ("1d mcast_in0" if m.mcast_in0 else "1d")
        return f"{kind} grid {m.grid[0]}x{m.grid[1]} per_core {m.per_core_m}x{m.per_core_n} in0_block_w {m.in0_block_w}"
    if cfg.conv2d is not None:
        c = cfg.conv2d
        return f"act_block_h {c.act_block_h_override}" + (" dealloc" if c.deallocate_activation else "")
    return ""


def _config_json(cfg: Any) -> dict[str, Any] | None:
    if cfg.matmul is not None:
        return {"matmul_program_config": cfg.matmul.to_attr().text}
    if cfg.conv2d is not None:
        return {"conv2d_config": cfg.conv2d.to_attr().text}
    return None


def _output_text(cfg: Any) -> str:
    from ttopt.device import PartialLayout, layout_info

    o = cfg.output
    if o is None:
        return "(op decides)"
    if isinstance(o, PartialLayout):
        return o.text()
    return layout_info(o).short()


def _l1_json(res: Any) -> dict[str, int]:
    l1 = res.l1
    return {"cb_peak": l1.cb_peak, "tensor_peak": l1.tensor_peak, "peak": l1.peak, "output_per_core": l1.output_per_core}


def _inputs_for(op: Any, device: Any) -> tuple[tuple, list[str]]:
    """The op's current input layouts; tensors without one are taken as DRAM interleaved (noted)."""
    from ttopt.device.layout_info import DRAM, INTERLEAVED, make_layout
    from ttopt.device.tensor import check_shape, element_dtype
    from ttopt.dialects.errors import AttrError
    from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
    from ttopt.ir.types import TensorType

    ins, notes = [], []
    for i, v in enumerate(op.operands):
        t = v.type.resolve()
        if not isinstance(t, TensorType):
            continue
        try:
            typed = getattr(t.encoding.resolve(), "typed", None) if t.encoding is not None else None
        except AttrError:
            typed = None
        if isinstance(typed, TTNNLayoutAttr):
            ins.append(typed)
            continue
        dt = element_dtype(t)
        try:
            lay = make_layout(check_shape(t.shape), dt, True, DRAM, INTERLEAVED, None, device.worker_grid)
        except (AttrError, TypeError, ValueError):
            return (), [f"operand {i} has no usable layout"]
        ins.append(lay)
        notes.append(f"operand {i} has no ttnn layout: assumed DRAM interleaved")
    return tuple(ins), notes


def analyze_module(module: Any, device: Any, max_legal_layouts: int, row_major_enabled: bool) -> dict[str, Any]:
    """The analysis as plain data (what --json prints; the table view renders the same data)."""
    from ttopt.device import CostModel, OpConfig, OpModel, candidate_configs, family_of
    from ttopt.device.cost_model import PRICED_UNPLACED, op_name
    from ttopt.ir.types import TensorType

    model, costs = OpModel(device), CostModel(device)
    funcs = []
    for fn in module.functions():
        if not fn.regions or not fn.regions[0].blocks:
            continue
        ops = []
        total_ns = 0.0
        for op in fn.regions[0].entry.ops:
            if not op.name.startswith("ttnn.") or len(op.results) != 1:
                continue
            rt = op.results[0].type.resolve()
            if not isinstance(rt, TensorType) or not rt.is_ranked:
                continue
            entry: dict[str, Any] = {
                "op": op.name, "name": op_name(op), "result": rt.text,
                "family": fam.value if (fam := family_of(op.name)) is not None else None,
            }  # fmt: skip
            ins, notes = _inputs_for(op, device)
            entry["inputs"] = [_short(x) for x in ins]
            entry["notes"] = notes
            enc = None
            try:
                enc = getattr(rt.encoding.resolve(), "typed", None) if rt.encoding is not None else None
            except Exception:
                enc = None
            cur = model.validate(op, ins, OpConfig(output=enc if hasattr(enc, "grid") else None))
            cur_ns = None
            terms = None
            if cur.output_layout is not None and cur.status in ("success", "out_of_memory"):
                c = costs.op_cost(op, ins, cur.output_layout)
                cur_ns, terms = c.ns, _terms_json(c)
                total_ns += cur_ns
            layout = cur.output_layout
            if op.name in PRICED_UNPLACED and cur_ns is None and hasattr(enc, "grid"):
                # Not placed, but priced with the layouts it has, as module estimates do.
                c = _current_cost(costs, op)
                if c is not None:
                    cur_ns, terms, layout = c.ns, _terms_json(c), enc
                    total_ns += cur_ns
            entry["current"] = {
                "status": cur.status.value, "reason": cur.reason, "l1": _l1_json(cur), "ns": cur_ns, "terms": terms,
                "layout": _short(layout) if layout is not None else None,
            }  # fmt: skip
            cands = []
            # Ops without an op-model rule keep their layout: there is nothing to choose.
            configs = candidate_configs(op, device, max_legal_layouts, row_major_enabled) if entry["family"] else []
            for i, cfg in enumerate(configs):
                r = model.validate(op, ins, cfg)
                ns = None
                if r.output_layout is not None and r.status in ("success", "out_of_memory"):
                    ns = costs.op_cost(op, ins, r.output_layout).ns
                cands.append({
                    "index": i, "output": _output_text(cfg), "config": _config_json(cfg), "config_text": _config_text(cfg),
                    "status": r.status.value, "reason": r.reason, "l1": _l1_json(r), "ns": ns,
                    "output_layout": r.output_layout.text if r.output_layout is not None else None,
                })  # fmt: skip
            entry["candidates"] = cands
            ops.append(entry)
        name = getattr(fn.properties.get("sym_name"), "value", "?")
        funcs.append({"name": name, "estimated_ns": total_ns, "ops": ops})
    return {
        "device": {
            "name": device.name, "arch": device.arch, "worker_grid": list(device.worker_grid),
            "l1_usage_cap": device.l1_usage_cap, "usable_l1": device.usable_l1, "source": device.source,
        },
        "model_note": "estimates from ttopt's analytic device model, not measurements",
        "functions": funcs,
    }  # fmt: skip


def _current_cost(costs: Any, op: Any) -> Any:
    """The cost model's estimate of `op` with its current layouts (None: it cannot be costed)."""
    from ttopt.dialects.errors import AttrError

    try:
        return costs.current_op_cost(op)
    except (AttrError, TypeError, ValueError, ArithmeticError):
        return None


def _terms_json(c: Any) -> dict[str, Any]:
    """The parts of an estimate (ns = dispatch + floor + compute + max(dram, noc) + sync - overlap)."""
    return {
        "compute": c.compute_ns, "dram": c.dram_ns, "noc": c.noc_ns, "floor": c.floor_ns, "dispatch": c.dispatch_ns,
        "sync": c.sync_ns,
        "overlap": c.overlap_ns, "fidelity": c.fidelity or None, "dram_bytes": c.dram_bytes, "noc_bytes": c.noc_bytes,
    }  # fmt: skip


def _short(layout: Any) -> str:
    from ttopt.device import layout_info

    return layout_info(layout).short()


def _render(doc: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    con = console()
    d = doc["device"]
    con.print(
        f"device: {d['name']} ({d['worker_grid'][0]}x{d['worker_grid'][1]} cores), usable L1 {d['usable_l1']} B/core "
        f"(cap {d['l1_usage_cap']}); {doc['model_note']}"
    )
    for fn in doc["functions"]:
        con.print()
        con.print(Text(f"func @{fn['name']}: {len(fn['ops'])} ttnn ops, estimated {fn['estimated_ns'] / 1000:.2f} us with the current layouts", style="bold"))
        for op in fn["ops"]:
            con.print()
            con.print(Text(f"{op['op']} \"{op['name']}\" -> {op['result']}", style="bold"))
            if op["inputs"]:
                con.print(f"  inputs: {'; '.join(op['inputs'])}")
            for note in op["notes"]:
                con.print(f"  note: {note}")
            c = op["current"]
            ns = f", {c['ns']:.0f} ns" if c["ns"] is not None else ""
            peak = f", L1 peak {c['l1']['peak']} B" if c["status"] in ("success", "out_of_memory") else ""
            con.print(f"  current: {c['layout'] or '-'}: {c['status']}{peak}{ns}" + (f" ({c['reason']})" if c["status"] != "success" else ""))
            t = c.get("terms")
            if t is not None:
                fid = f", {t['fidelity']}" if t["fidelity"] else ""
                sync = f" + sync {t['sync']:.0f}" if t["sync"] else ""
                con.print(
                    f"  estimate: compute {t['compute']:.0f} + dram {t['dram']:.0f} + noc {t['noc']:.0f} + floor {t['floor']:.0f}"
                    f" + dispatch {t['dispatch']:.0f}{sync} - overlap {t['overlap']:.0f} ns{fid}"
                )
            if not op["candidates"]:
                continue
            legal = sum(1 for x in op["candidates"] if x["status"] == "success")
            con.print(f"  candidates: {legal} legal of {len(op['candidates'])}")
            table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 1))
            right = ("#", "L1 peak", "est. ns")
            for col in ("#", "output layout", "config", "status", "L1 peak", "est. ns", "reason"):
                table.add_column(col, justify="right" if col in right else "left", overflow="fold")
            for x in op["candidates"]:
                ok = x["status"] == "success"
                table.add_row(
                    str(x["index"]), x["output"], x["config_text"], x["status"],
                    str(x["l1"]["peak"]) if x["status"] in ("success", "out_of_memory") else "-",
                    f"{x['ns']:.0f}" if x["ns"] is not None else "-",
                    "" if ok else x["reason"],
                )  # fmt: skip
            con.print(table)


@click.command("analyze")
@click.argument("input", default="-", required=False, type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--device", "device_spec", default=None, metavar="D", help=DEVICE_HELP + " Used when the module has no ttcore.system_desc.")
@click.option("--max-legal-layouts", type=int, default=8, show_default=True,
              help="Sharded candidate layouts per op, >= 0.")
@click.option("--row-major-enabled", is_flag=True, help="Also try row-major layouts.")
@click.option("--tensor-l1-usage-cap", "cap", type=float, default=None,
              help="Fraction of L1 usable by tensors, in (0, 1] (default: module attribute, else 1.0).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def analyze(input: str, device_spec: str | None, max_legal_layouts: int, row_major_enabled: bool,
            cap: float | None, as_json: bool) -> None:  # fmt: skip
    """For every ttnn op of INPUT (default stdin): its candidate configs, which are legal, their L1
    peak and estimated latency, and why each rejected one was rejected."""
    from ttopt.cli.output import read_input
    from ttopt.ir.diagnostics import Diagnostic
    from ttopt.ir.verifier import verify
    from ttopt.parse.parser import parse_module

    check_device_flags(device_spec, cap, max_legal_layouts)
    try:
        text = read_input(input)
    except OSError as e:
        raise click.UsageError(f"cannot read input '{input}': {e.strerror}") from None
    name = "<stdin>" if input == "-" else input
    try:
        module = parse_module(text, name)
        verify(module)
    except Diagnostic as d:
        sys.stderr.write(d.render(name) + "\n")
        sys.exit(1)
    device = load_device_or_exit(device_spec, module=module, cap=cap, input_name=name)
    doc = analyze_module(module, device, max_legal_layouts, row_major_enabled)
    if as_json:
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    else:
        _render(doc)
