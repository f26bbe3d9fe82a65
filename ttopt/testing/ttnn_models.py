"""Generated TTNN modules for the optimizer's benchmark and tests: every tensor DRAM interleaved as
a frontend emits them, weights as block arguments, one forward function in generic form.

Large models (`MODELS`, sized by op count): mlp, resnet, transformer, attention, conv. Small graphs
(`small_graph(seed)`, at most 10 ops) for optimality studies: chains, forks, diamonds, attention
blocks and conv blocks, with shapes drawn from a seeded generator.
"""

from __future__ import annotations

import random

from ttopt.dialects.ttnn_layout import TTNNLayoutAttr


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


def attention(n_ops: int) -> str:
    """Multi-head self-attention blocks on 256 tokens x 768 hidden, 12 heads: separate q/k/v
    projections, scores, scale, softmax, context, output projection, residual add, layer norm."""
    b = Builder()
    s, d, heads = 256, 768, 12
    hd = d // heads
    x = b.arg((s, d))
    wq, wk, wv, wo = b.arg((d, d)), b.arg((d, d)), b.arg((d, d)), b.arg((d, d))
    norm_w = b.arg((1, d))
    scale = b.arg((1, 1, 1, 1))

    def heads_of(t: tuple) -> tuple:
        r = b.op("ttnn.reshape", [t], (1, s, heads, hd), f"shape = [1 : i32, {s} : i32, {heads} : i32, {hd} : i32]")
        return b.op("ttnn.permute", [r], (1, heads, s, hd), "permutation = array<i64: 0, 2, 1, 3>")

    while b.ops < n_ops:
        q = heads_of(b.op("ttnn.matmul", [x, wq], (s, d), MM))
        k = heads_of(b.op("ttnn.matmul", [x, wk], (s, d), MM))
        v = heads_of(b.op("ttnn.matmul", [x, wv], (s, d), MM))
        kt = b.op("ttnn.permute", [k], (1, heads, hd, s), "permutation = array<i64: 0, 1, 3, 2>")
        sc = b.op("ttnn.matmul", [q, kt], (1, heads, s, s), MM)
        sc = b.op("ttnn.multiply", [sc, scale], (1, heads, s, s))
        p = b.op("ttnn.softmax", [sc], (1, heads, s, s), "dimension = -1 : si32")
        ctx = b.op("ttnn.matmul", [p, v], (1, heads, s, hd), MM)
        ctx = b.op("ttnn.permute", [ctx], (1, s, heads, hd), "permutation = array<i64: 0, 2, 1, 3>")
        ctx = b.op("ttnn.reshape", [ctx], (s, d), f"shape = [{s} : i32, {d} : i32]")
        o = b.op("ttnn.matmul", [ctx, wo], (s, d), MM)
        x = b.op("ttnn.add", [o, x], (s, d))
        x = b.op("ttnn.rms_norm", [x, norm_w], (s, d), "epsilon = 1.000000e-05 : f32")
    return b.text(x)


def conv(n_ops: int) -> str:
    """A plain convolution stack at 28x28x128: conv2d 3x3 -> relu, with a residual add every
    second conv."""
    b = Builder()
    hw, c = 28, 128
    x = b.arg((1, 1, hw * hw, c))
    skip = x
    i = 0
    while b.ops < n_ops:
        y = _conv(b, x, c, c, hw)
        y = b.op("ttnn.relu", [y], y[1])
        i += 1
        if i % 2 == 0:
            y = b.op("ttnn.add", [y, skip], y[1])
            skip = y
        x = y
    return b.text(x)


MODELS = {"mlp": mlp, "resnet": resnet, "transformer": transformer, "attention": attention, "conv": conv}

SMALL_FAMILIES = ("chain", "fork", "diamond", "attention", "conv")


def small_graph(seed: int) -> tuple[str, str]:
    """(family, module text) of a small graph (at most 10 ops) drawn from `seed`."""
    rng = random.Random(seed)
    family = SMALL_FAMILIES[seed % len(SMALL_FAMILIES)]
    b = Builder()
    t = rng.choice((64, 128, 256))
    h = rng.choice((128, 256, 512))
    f = rng.choice((256, 512, 1024))
    unary = ("ttnn.relu", "ttnn.gelu", "ttnn.silu", "ttnn.exp")
    if family == "chain":
        x = b.arg((t, h))
        for _ in range(rng.randint(3, 8)):
            r = rng.random()
            if r < 0.4:
                n = rng.choice((128, 256, 512))
                x = b.op("ttnn.matmul", [x, b.arg((x[1][1], n))], (t, n), MM)
            elif r < 0.7:
                x = b.op(rng.choice(unary), [x], x[1])
            else:
                x = b.op("ttnn.add", [x, b.arg((1, x[1][1]))], x[1])
        return family, b.text(x)
    if family == "fork":  # one producer, two or three branches, joined
        x = b.op("ttnn.matmul", [b.arg((t, h)), b.arg((h, f))], (t, f), MM)
        branches = [b.op(rng.choice(unary), [x], x[1]) for _ in range(rng.randint(2, 3))]
        y = branches[0]
        for z in branches[1:]:
            y = b.op("ttnn.add", [y, z], y[1])
        y = b.op("ttnn.matmul", [y, b.arg((f, h))], (t, h), MM)
        return family, b.text(y)
    if family == "diamond":  # residual: x -> matmul -> act -> matmul -> add(x)
        x = b.op(rng.choice(unary), [b.arg((t, h))], (t, h))
        y = b.op("ttnn.matmul", [x, b.arg((h, f))], (t, f), MM)
        y = b.op(rng.choice(unary), [y], y[1])
        y = b.op("ttnn.matmul", [y, b.arg((f, h))], (t, h), MM)
        y = b.op("ttnn.add", [y, x], y[1])
        if rng.random() < 0.5:
            y = b.op(rng.choice(unary), [y], y[1])
        return family, b.text(y)
    if family == "attention":  # one head: scores, softmax, context
        d = rng.choice((64, 128))
        x = b.arg((t, h))
        q = b.op("ttnn.matmul", [x, b.arg((h, d))], (t, d), MM)
        k = b.op("ttnn.matmul", [x, b.arg((h, d))], (t, d), MM)
        k = b.op("ttnn.permute", [k], (d, t), "permutation = array<i64: 1, 0>")
        sc = b.op("ttnn.matmul", [q, k], (t, t), MM)
        p = b.op("ttnn.softmax", [sc], (t, t), "dimension = -1 : si32")
        v = b.op("ttnn.matmul", [x, b.arg((h, d))], (t, d), MM)
        o = b.op("ttnn.matmul", [p, v], (t, d), MM)
        return family, b.text(o)
    hw = rng.choice((14, 28))
    c = rng.choice((32, 64))
    x = b.arg((1, 1, hw * hw, c))
    y = _conv(b, x, c, c, hw)
    y = b.op("ttnn.relu", [y], y[1])
    if rng.random() < 0.5:
        y = _conv(b, y, c, c, hw)
        y = b.op("ttnn.add", [y, x], y[1])
    y = b.op("ttnn.relu", [y], y[1])
    return family, b.text(y)
