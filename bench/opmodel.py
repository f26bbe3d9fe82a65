"""Benchmark: op-model validations per second and layout pools per second.

Run by hand (not by CI):  python bench/opmodel.py [--sizes 100,1000,10000] [--repeat 3] [--max-legal-layouts 8]

Module: a deterministic chain of transformer-like blocks (matmul, add, gelu, rms_norm, softmax,
reshape, reshape, multiply; hidden sizes cycling through 256/512/1024/768, sequence 128), every
tensor DRAM interleaved, so shapes repeat the way they do in real models. Parsing is excluded.

Per op the benchmark does what the legacy optimizer does (reference §2.3 + §2.6): it validates
every candidate config with the op's current inputs, and then every candidate config against each
legal sharded output of the op's producer (the ShardSolver's edge checks). "cold" is a fresh
OpModel (rules evaluated once per distinct signature/layouts/config, then memoised), "warm" repeats
the same questions. Layout pools: `layout_pool` over distinct shapes, cold (caches cleared) and warm.
Prints two tables; medians of --repeat runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from ttopt.device import OpModel, candidate_configs, layout_pool, preset  # noqa: E402
from ttopt.device.layout_info import make_layout  # noqa: E402
from ttopt.device.layout_pool import _pool  # noqa: E402
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402

SEQ = 128
HIDDEN = (256, 512, 1024, 768)
OPS_PER_BLOCK = 8


def _layout(shape: tuple[int, ...]) -> str:
    return TTNNLayoutAttr.build(shape, "bf16").print_body(alias_buffer=True)


def generate(n_ops: int) -> str:
    """A module of about `n_ops` ttnn ops (deterministic)."""
    blocks = max(1, n_ops // OPS_PER_BLOCK)
    aliases: dict[tuple[int, ...], str] = {}

    def t(shape: tuple[int, ...]) -> str:
        if shape not in aliases:
            aliases[shape] = f"#l{len(aliases)}"
        return f"tensor<{'x'.join(map(str, shape))}xbf16, {aliases[shape]}>"

    args = [f"%x: {t((SEQ, HIDDEN[0]))}"]
    weights = {}
    biases: set[int] = set()
    for i in range(blocks):
        h1, h2 = HIDDEN[i % len(HIDDEN)], HIDDEN[(i + 1) % len(HIDDEN)]
        if (h1, h2) not in weights:
            weights[(h1, h2)] = f"%w{h1}_{h2}"
            args.append(f"%w{h1}_{h2}: {t((h1, h2))}")
        if h2 not in biases:
            biases.add(h2)
            args.append(f"%b{h2}: {t((1, h2))}")
    body = []
    cur = "%x"
    n = 0
    for i in range(blocks):
        h1, h2 = HIDDEN[i % len(HIDDEN)], HIDDEN[(i + 1) % len(HIDDEN)]
        a, o = (SEQ, h1), (SEQ, h2)

        def op(text: str) -> str:
            nonlocal n
            body.append(f"    %{n} = {text}")
            n += 1
            return f"%{n - 1}"

        m = op(f'"ttnn.matmul"({cur}, {weights[(h1, h2)]}) : ({t(a)}, {t((h1, h2))}) -> {t(o)}')
        s = op(f'"ttnn.add"({m}, %b{h2}) : ({t(o)}, {t((1, h2))}) -> {t(o)}')
        g = op(f'"ttnn.gelu"({s}) : ({t(o)}) -> {t(o)}')
        r = op(f'"ttnn.rms_norm"({g}) : ({t(o)}) -> {t(o)}')
        sm = op(f'"ttnn.softmax"({r}) <{{dimension = -1 : si32}}> : ({t(o)}) -> {t(o)}')
        r3 = op(f'"ttnn.reshape"({sm}) <{{shape = [1 : i32, {SEQ} : i32, {h2} : i32]}}> : ({t(o)}) -> {t((1, SEQ, h2))}')
        r2 = op(f'"ttnn.reshape"({r3}) <{{shape = [{SEQ} : i32, {h2} : i32]}}> : ({t((1, SEQ, h2))}) -> {t(o)}')
        cur = op(f'"ttnn.multiply"({r2}, {s}) : ({t(o)}, {t(o)}) -> {t(o)}')
    head = ["#dram = #ttnn.buffer_type<dram>"]
    head += [f"{name} = #ttnn.ttnn_layout<{_layout(shape)}>" for shape, name in aliases.items()]
    out_t = t((SEQ, HIDDEN[blocks % len(HIDDEN)]))
    return "\n".join(
        head
        + [f"func.func @main({', '.join(args)}) -> {out_t} {{"]
        + body
        + [f"    return {cur} : {out_t}", "}"]
    ) + "\n"


def questions(module, model: OpModel, device, max_legal: int) -> list[tuple]:
    """(op, input layouts, config) triples: every config with current inputs, then producer edges."""
    qs = []
    ops = [op for op in module.functions()[0].regions[0].entry.ops if op.name.startswith("ttnn.")]
    cands = {id(op): candidate_configs(op, device, max_legal) for op in ops}
    for op in ops:
        ins = model.current_inputs(op)
        for cfg in cands[id(op)]:
            qs.append((op, ins, cfg))
        producer = op.operands[0].owner if hasattr(op.operands[0], "op") else None
        if producer is None or id(producer) not in cands:
            continue
        for pcfg in cands[id(producer)]:
            lay = pcfg.output
            if not isinstance(lay, TTNNLayoutAttr) or not lay.is_sharded:
                continue
            edge_ins = (lay,) + ins[1:]
            for cfg in cands[id(op)]:
                if isinstance(cfg.output, TTNNLayoutAttr) and cfg.output.is_sharded:
                    qs.append((op, edge_ins, cfg))
    return qs


def bench_validations(sizes: list[int], repeat: int, max_legal: int) -> Table:
    device = preset("wormhole_b0")
    table = Table(title=f"op model: validations/s (wormhole_b0, max-legal-layouts {max_legal}, median of {repeat})")
    for col in ("ops", "validations", "signatures", "rules evaluated", "cold s", "cold validations/s",
                "warm s", "warm validations/s", "uncached validations/s"):  # fmt: skip
        table.add_column(col, justify="right")
    for size in sizes:
        module = parse_module(generate(size), f"bench{size}.mlir")
        n_ops = sum(1 for op in module.functions()[0].regions[0].entry.ops if op.name.startswith("ttnn."))
        cold, warm = [], []
        for _ in range(repeat):
            model = OpModel(device)
            qs = questions(module, model, device, max_legal)
            t0 = time.perf_counter()
            for op, ins, cfg in qs:
                model.validate(op, ins, cfg)
            cold.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for op, ins, cfg in qs:
                model.validate(op, ins, cfg)
            warm.append(time.perf_counter() - t0)
        c, w = statistics.median(cold), statistics.median(warm)
        st = model.stats
        # No memo at all: evaluate the rules for a sample of the questions every time.
        from ttopt.device.layout_info import layout_info
        from ttopt.device.op_model import op_signature

        sample = qs[:3000]
        prepared = [(op, op_signature(op), tuple(layout_info(x) for x in ins), cfg) for op, ins, cfg in sample]
        t0 = time.perf_counter()
        for op, sig, infos, cfg in prepared:
            model._compute(op, sig, infos, cfg)
        uncached = len(sample) / (time.perf_counter() - t0)
        table.add_row(
            str(n_ops), str(len(qs)), str(st["signatures"]), str(st["computed"]), f"{c:.3f}",
            f"{len(qs) / c:,.0f}", f"{w:.3f}", f"{len(qs) / w:,.0f}", f"{uncached:,.0f}",
        )  # fmt: skip
    return table


def bench_pools(repeat: int) -> Table:
    shapes = [(s, h) for s in (32, 64, 128, 256, 1024, 4096) for h in (32, 64, 256, 768, 1024, 4096)]
    shapes += [(1, 1, s, h) for s in (49, 196, 3136, 12544) for h in (64, 128, 256)]
    shapes += [(b, s, h) for b in (1, 8, 12) for s in (32, 128) for h in (64, 128)]
    table = Table(title=f"layout pools/s (8x8 grid, {len(shapes)} distinct tensor types, median of {repeat})")
    for col in ("mode", "pools", "total candidates", "seconds", "pools/s"):
        table.add_column(col, justify="right")
    cold, warm = [], []
    total = 0
    for _ in range(repeat):
        _pool.cache_clear()
        make_layout.cache_clear()
        t0 = time.perf_counter()
        total = sum(len(layout_pool(s, "bf16").all_layouts) for s in shapes)
        cold.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for s in shapes:
            layout_pool(s, "bf16")
        warm.append(time.perf_counter() - t0)
    for mode, ts in (("cold (layouts built)", cold), ("warm (cached)", warm)):
        m = statistics.median(ts)
        table.add_row(mode, str(len(shapes)), str(total), f"{m:.4f}", f"{len(shapes) / m:,.0f}")
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000,10000", help="comma-separated op counts")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-legal-layouts", type=int, default=8)
    a = ap.parse_args()
    con = Console(width=160)
    con.print(bench_validations([int(s) for s in a.sizes.split(",")], a.repeat, a.max_legal_layouts))
    con.print(bench_pools(a.repeat))


if __name__ == "__main__":
    main()
