"""Benchmark: the ttnn-optimizer (DFSharding + ShardSolver) on generated models.

Run by hand (not by CI):
    python bench/optimizer.py [--sizes 100,1000,10000] [--models mlp,resnet,transformer]
                              [--repeat 3] [--max-legal-layouts 8] [--emit DIR]
                              [--policy DFSharding,GreedyL1Interleaved,BFInterleaved[,NAME+fallback][,DFSharding+nomerge]]

Models (deterministic, every tensor DRAM interleaved as a frontend emits them, weights as arguments):
* mlp: blocks of matmul -> add(bias, broadcast) -> gelu -> matmul -> add(bias) -> add(residual),
  hidden sizes cycling 256/512/1024, 256 tokens;
* resnet: basic blocks on flattened NHWC activations 1x1x(H*W)xC: conv2d 3x3 -> relu -> conv2d 3x3
  -> add(residual) -> relu, stages of 56x56x64, 28x28x128, 14x14x256 (downsampling by a strided 1x1
  conv2d between stages);
* transformer: decoder layers on 128 tokens x 512 hidden: rms_norm -> matmul(qkv) -> reshape ->
  permute -> matmul(scores) -> multiply(scale) -> softmax -> matmul(context) -> permute -> reshape
  -> matmul(out) -> add(residual) -> rms_norm -> matmul(up) -> silu -> multiply(gate) -> matmul(down)
  -> add(residual).

Per row (one per model, size and policy; every policy runs on the same generated graph; NAME+fallback
also enables the L1-interleaved fallback analysis, DFSharding+nomerge turns chain merging off): ops, optimizer wall time (the pass only, median of --repeat runs; parsing excluded),
validations asked of the op model, chains (completed), reshards, spills, estimated latency before
and after (analytic model, not a measurement) and L1 residency after.
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

from ttopt.dialects.ttnn_layout import TTNNLayoutAttr  # noqa: E402
from ttopt.optimizer.pass_ import TTNNOptimizer  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext  # noqa: E402


class Builder:
    """Emits one forward function in generic form with `#ttnn_layoutN` aliases per tensor type."""

    def __init__(self) -> None:
        self.aliases: dict[tuple, str] = {}
        self.alias_lines: list[str] = []
        self.args: list[str] = []
        self.body: list[str] = []
        self.n = 0
        self.ops = 0
        self.device: str | None = None

    def ty(self, shape: tuple[int, ...], where: str = "dram") -> str:
        key = (shape, where)
        name = self.aliases.get(key)
        if name is None:
            if where == "host":
                lay = TTNNLayoutAttr.build(shape, "bf16", tiled=False, buffer_type="system_memory")
            else:
                lay = TTNNLayoutAttr.build(shape, "bf16", buffer_type="dram", memory_layout="interleaved")
            name = f"#ttnn_layout{len(self.aliases) or ''}"
            self.aliases[key] = name
            self.alias_lines.append(f"{name} = #ttnn.ttnn_layout<{lay.print_body(alias_buffer=True)}>")
        return f"tensor<{'x'.join(map(str, shape))}xbf16, {name}>"

    def arg(self, shape: tuple[int, ...], where: str = "dram") -> tuple[str, tuple[int, ...]]:
        name = f"%a{len(self.args)}"
        self.args.append(f"{name}: {self.ty(shape, where)}")
        return name, shape

    def op(self, name: str, operands: list, shape: tuple[int, ...], props: str = "", extra: str = "") -> tuple[str, tuple[int, ...]]:
        res = f"%v{self.n}"
        self.n += 1
        self.ops += 1
        names = ", ".join(o[0] for o in operands) + (f", {extra}" if extra else "")
        types = ", ".join(o[2] if len(o) > 2 else self.ty(o[1]) for o in operands) + (", !ttnn.device" if extra else "")
        p = f" <{{{props}}}>" if props else ""
        self.body.append(f'    {res} = "{name}"({names}){p} : ({types}) -> {self.ty(shape)} loc("{name[5:]}_{self.ops}")')
        return res, shape

    def get_device(self) -> str:
        if self.device is None:
            self.device = "%dev"
            self.body.append('    %dev = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device')
        return self.device

    def text(self, result: tuple[str, tuple[int, ...]]) -> str:
        head = ["#dram = #ttnn.buffer_type<dram>", "#system_memory = #ttnn.buffer_type<system_memory>", *self.alias_lines]
        rt = self.ty(result[1])
        return "\n".join([
            *head, "module {",
            f"  func.func @forward({', '.join(self.args)}) -> {rt} attributes {{tt.function_type = \"forward_device\"}} {{",
            *self.body, f"    return {result[0]} : {rt}", "  }", "}",
        ]) + "\n"  # fmt: skip


MM = "transpose_a = false, transpose_b = false"


def mlp(n_ops: int) -> str:
    b = Builder()
    tokens, hidden = 256, (256, 512, 1024)
    x = b.arg((tokens, hidden[0]))
    weights: dict[tuple, tuple] = {}

    def w(shape: tuple[int, ...]) -> tuple:
        if shape not in weights:
            weights[shape] = b.arg(shape)
        return weights[shape]

    i = 0
    while b.ops < n_ops:
        h, f = x[1][1], hidden[(i + 1) % len(hidden)]
        y = b.op("ttnn.matmul", [x, w((h, f))], (tokens, f), MM)
        y = b.op("ttnn.add", [y, w((1, f))], (tokens, f))
        y = b.op("ttnn.gelu", [y], (tokens, f))
        y = b.op("ttnn.matmul", [y, w((f, h))], (tokens, h), MM)
        y = b.op("ttnn.add", [y, w((1, h))], (tokens, h))
        x = b.op("ttnn.add", [y, x], (tokens, h))
        i += 1
    return b.text(x)


def _conv(b: Builder, x: tuple, cin: int, cout: int, hw: int, stride: int = 1, k: int = 3) -> tuple:
    dev = b.get_device()
    wt = b.arg((cout, cin, k, k), "host")
    bias = b.arg((1, 1, 1, cout), "host")
    out_hw = hw // stride
    pad = k // 2
    props = (
        f"batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true, "
        f"act_block_h_override = 0>, dilation = array<i32: 1, 1>, dtype = #ttcore.supportedDataTypes<bf16>, "
        f"groups = 1 : i32, in_channels = {cin} : i32, input_height = {hw} : i32, input_width = {hw} : i32, "
        f"kernel_size = array<i32: {k}, {k}>, out_channels = {cout} : i32, padding = array<i32: {pad}, {pad}, {pad}, {pad}>, "
        f"stride = array<i32: {stride}, {stride}>"
    )
    ops = [x, (wt[0], wt[1], b.ty(wt[1], "host")), (bias[0], bias[1], b.ty(bias[1], "host"))]
    return b.op("ttnn.conv2d", ops, (1, 1, out_hw * out_hw, cout), props, extra=dev)


def resnet(n_ops: int) -> str:
    b = Builder()
    stages = ((56, 64), (28, 128), (14, 256))
    hw, c = stages[0]
    x = b.arg((1, 1, hw * hw, c))
    s = 0
    blocks = 0
    while b.ops < n_ops:
        y = _conv(b, x, c, c, hw)
        y = b.op("ttnn.relu", [y], y[1])
        y = _conv(b, y, c, c, hw)
        y = b.op("ttnn.add", [y, x], y[1])
        x = b.op("ttnn.relu", [y], y[1])
        blocks += 1
        if blocks % 2 == 0:
            s = (s + 1) % len(stages)
            nhw, nc = stages[s]
            stride = hw // nhw if hw >= nhw else 1
            if stride > 1:
                x = _conv(b, x, c, nc, hw, stride=stride, k=1)
            else:  # wrap around to the first stage: a 1x1 conv back to its channels
                x = b.op("ttnn.reshape", [x], (1, 1, nhw * nhw, c), f"shape = [1 : i32, 1 : i32, {nhw * nhw} : i32, {c} : i32]") if nhw * nhw == hw * hw else x
                x = _conv(b, x, c, nc, hw, stride=1, k=1) if hw == nhw else _upsample(b, x, c, nc, hw, nhw)
            hw, c = nhw, nc
    return b.text(x)


def _upsample(b: Builder, x: tuple, c: int, nc: int, hw: int, nhw: int) -> tuple:
    y = b.op("ttnn.reshape", [x], (1, hw, hw, c), f"shape = [1 : i32, {hw} : i32, {hw} : i32, {c} : i32]")
    f = nhw // hw
    y = b.op("ttnn.upsample", [y], (1, nhw, nhw, c), f"scale_factor = {f} : si32")
    y = b.op("ttnn.reshape", [y], (1, 1, nhw * nhw, c), f"shape = [1 : i32, 1 : i32, {nhw * nhw} : i32, {c} : i32]")
    return _conv(b, y, c, nc, nhw, stride=1, k=1)


def transformer(n_ops: int) -> str:
    b = Builder()
    s, d, heads, ff = 128, 512, 8, 1536
    hd = d // heads
    x = b.arg((s, d))
    norm_w = b.arg((1, d))
    wqkv, wo = b.arg((d, 3 * d)), b.arg((d, d))
    wup, wgate, wdown = b.arg((d, ff)), b.arg((d, ff)), b.arg((ff, d))
    scale = b.arg((1, 1, 1, 1))
    while b.ops < n_ops:
        h = b.op("ttnn.rms_norm", [x, norm_w], (s, d), "epsilon = 1.000000e-05 : f32")
        qkv = b.op("ttnn.matmul", [h, wqkv], (s, 3 * d), MM)
        q = b.op("ttnn.reshape", [qkv], (1, s, 3 * heads, hd), f"shape = [1 : i32, {s} : i32, {3 * heads} : i32, {hd} : i32]")
        q = b.op("ttnn.permute", [q], (1, 3 * heads, s, hd), "permutation = array<i64: 0, 2, 1, 3>")
        kt = b.op("ttnn.permute", [q], (1, 3 * heads, hd, s), "permutation = array<i64: 0, 1, 3, 2>")
        sc = b.op("ttnn.matmul", [q, kt], (1, 3 * heads, s, s), MM)
        sc = b.op("ttnn.multiply", [sc, scale], (1, 3 * heads, s, s))
        p = b.op("ttnn.softmax", [sc], (1, 3 * heads, s, s), "dimension = -1 : si32")
        ctx = b.op("ttnn.matmul", [p, q], (1, 3 * heads, s, hd), MM)
        ctx = b.op("ttnn.permute", [ctx], (1, s, 3 * heads, hd), "permutation = array<i64: 0, 2, 1, 3>")
        ctx = b.op("ttnn.reshape", [ctx], (s, 3 * d), f"shape = [{s} : i32, {3 * d} : i32]")
        ctx = b.op("ttnn.slice_static", [ctx], (s, d), f"begins = [0 : i32, 0 : i32], ends = [{s} : i32, {d} : i32], step = [1 : i32, 1 : i32]")
        o = b.op("ttnn.matmul", [ctx, wo], (s, d), MM)
        x = b.op("ttnn.add", [o, x], (s, d))
        h = b.op("ttnn.rms_norm", [x, norm_w], (s, d), "epsilon = 1.000000e-05 : f32")
        up = b.op("ttnn.matmul", [h, wup], (s, ff), MM)
        up = b.op("ttnn.silu", [up], (s, ff))
        gate = b.op("ttnn.matmul", [h, wgate], (s, ff), MM)
        up = b.op("ttnn.multiply", [up, gate], (s, ff))
        dn = b.op("ttnn.matmul", [up, wdown], (s, d), MM)
        x = b.op("ttnn.add", [dn, x], (s, d))
    return b.text(x)


MODELS = {"mlp": mlp, "resnet": resnet, "transformer": transformer}


def run(text: str, max_legal_layouts: int, policy: str = "DFSharding") -> tuple[float, dict, int]:
    """One optimizer run; `policy` is a policy name with optional `+fallback` (issue 5) and
    `+nomerge` (DFSharding 1.0: chain merging off, issue 9) suffixes."""
    module = parse_module(text, "bench.mlir")
    n = sum(1 for op in module.walk() if op.name.startswith("ttnn.") and op.name != "ttnn.get_device")
    ctx = PassContext()
    name, *extras = policy.split("+")
    p = TTNNOptimizer(memory_layout_analysis_enabled=True, max_legal_layouts=max_legal_layouts,
                      memory_layout_analysis_policy=name, l1_interleaved_fallback_analysis_enabled="fallback" in extras,
                      chain_merging="nomerge" not in extras)  # fmt: skip
    t0 = time.perf_counter()
    p.run(module, ctx)
    return time.perf_counter() - t0, ctx.stats["ttnn-optimizer"]["totals"], n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-legal-layouts", type=int, default=8)
    ap.add_argument("--emit", default=None, help="also write each generated module to DIR")
    ap.add_argument("--policy", default="DFSharding,GreedyL1Interleaved,BFInterleaved",
                    help="policies to compare on the same graphs (NAME or NAME+fallback, comma-separated)")  # fmt: skip
    a = ap.parse_args()
    table = Table(title=f"ttnn-optimizer (max-legal-layouts {a.max_legal_layouts}); "
                        "latency = ttopt's analytic model, not a measurement", title_justify="left")  # fmt: skip
    for c in ("model", "policy", "ops", "wall s", "us/op", "validations", "chains (ok)", "reshards", "spills",
              "est. before us", "est. after us", "L1 residency"):  # fmt: skip
        table.add_column(c, justify="left" if c in ("model", "policy") else "right")
    for model in a.models.split(","):
        for size in (int(s) for s in a.sizes.split(",")):
            text = MODELS[model](size)
            if a.emit:
                Path(a.emit).mkdir(parents=True, exist_ok=True)
                (Path(a.emit) / f"{model}_{size}.mlir").write_text(text)
            for policy in a.policy.split(","):
                times = []
                tot: dict = {}
                n = 0
                for _ in range(a.repeat):
                    t, tot, n = run(text, a.max_legal_layouts, policy)
                    times.append(t)
                wall = statistics.median(times)
                table.add_row(
                    model, policy, f"{n}", f"{wall:.2f}", f"{wall / n * 1e6:.0f}", f"{tot['validations']}",
                    f"{tot['chains']} ({tot['chains_completed']})", f"{tot['reshards']}", f"{tot['spills']}",
                    f"{tot['estimated_ns_before'] / 1e3:,.0f}", f"{tot['estimated_ns'] / 1e3:,.0f}", f"{tot['l1_residency']:.0%}",
                )  # fmt: skip
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
