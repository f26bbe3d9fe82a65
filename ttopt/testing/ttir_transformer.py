"""The optimizer bench's transformer (ttnn_models.transformer) in TTIR, as a frontend emits it:
rms_norm, silu and the numerically stable softmax written out in elementwise ops and reductions, the
attention scale a constant; for `ttir-fusing` and its bench.

Per decoder layer on 128 tokens x 512 hidden (24 heads of 64 read from the fused qkv projection, as
the TTNN model does): rms_norm -> matmul(qkv) -> reshape -> permute -> permute(K^T) -> matmul(scores)
-> multiply(scale) -> softmax -> matmul(context) -> permute -> reshape -> slice -> matmul(out) ->
add(residual) -> rms_norm -> matmul(up) -> silu -> matmul(gate) -> multiply -> matmul(down) ->
add(residual).
"""

from __future__ import annotations

S, D, HEADS, FF = 128, 512, 8, 1536
HD = D // HEADS
EPS = 1.0e-05
SCALE = 0.125


class _Emitter:
    def __init__(self, dtype: str) -> None:
        self.dtype = dtype
        self.lines: list[str] = []
        self.n = 0

    def ty(self, shape: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{self.dtype}>"

    def op(
        self, name: str, operands: list[tuple[str, tuple[int, ...]]], shape: tuple[int, ...], props: str = ""
    ) -> tuple[str, tuple[int, ...]]:
        res = f"%{self.n}"
        self.n += 1
        p = f" <{{{props}}}>" if props else ""
        ins = ", ".join(o[0] for o in operands)
        types = ", ".join(self.ty(o[1]) for o in operands)
        self.lines.append(f'    {res} = "ttir.{name}"({ins}){p} : ({types}) -> {self.ty(shape)}')
        return res, shape

    def full(self, shape: tuple[int, ...], value: float) -> tuple[str, tuple[int, ...]]:
        return self.op("full", [], shape, f"fill_value = {value:e} : f32, shape = array<i32: {', '.join(map(str, shape))}>")

    def bcast(self, v: tuple[str, tuple[int, ...]], shape: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
        factors = [t if s == 1 else 1 for s, t in zip(v[1], shape)]
        if all(f == 1 for f in factors):
            return v
        return self.op("broadcast", [v], shape, f"broadcast_dimensions = array<i64: {', '.join(map(str, factors))}>")


def _rms_norm(e: _Emitter, x: tuple, w: tuple) -> tuple:
    sq = e.op("multiply", [x, x], x[1])
    m = e.op("mean", [sq], (S, 1), "dim_arg = [-1 : i32], keep_dim = true")
    r = e.op("rsqrt", [e.op("add", [m, e.full((S, 1), EPS)], (S, 1))], (S, 1))
    n = e.op("multiply", [x, e.bcast(r, (S, D))], (S, D))
    return e.op("multiply", [n, e.bcast(w, (S, D))], (S, D))


def _softmax(e: _Emitter, x: tuple) -> tuple:
    shape = x[1]
    red = (*shape[:-1], 1)
    mx = e.op("max", [x], red, "dim_arg = [3 : i32], keep_dim = true")
    ex = e.op("exp", [e.op("subtract", [x, e.bcast(mx, shape)], shape)], shape)
    sm = e.op("sum", [ex], red, "dim_arg = [3 : i32], keep_dim = true")
    return e.op("div", [ex, e.bcast(sm, shape)], shape)


def transformer(layers: int, dtype: str = "bf16") -> str:
    """`layers` decoder layers as one `@forward` function (weights as arguments)."""
    e = _Emitter(dtype)
    args: dict[str, tuple[int, ...]] = {"x": (S, D), "norm_w": (1, D), "wqkv": (D, 3 * D), "wo": (D, D), "wup": (D, FF), "wgate": (D, FF), "wdown": (FF, D)}
    a: dict[str, tuple[str, tuple[int, ...]]] = {k: (f"%{k}", s) for k, s in args.items()}
    x = a["x"]
    h3 = 3 * HEADS
    for _ in range(layers):
        h = _rms_norm(e, x, a["norm_w"])
        qkv = e.op("matmul", [h, a["wqkv"]], (S, 3 * D))
        q = e.op("reshape", [qkv], (1, S, h3, HD), f"shape = [1 : i32, {S} : i32, {h3} : i32, {HD} : i32]")
        q = e.op("permute", [q], (1, h3, S, HD), "permutation = array<i64: 0, 2, 1, 3>")
        kt = e.op("permute", [q], (1, h3, HD, S), "permutation = array<i64: 0, 1, 3, 2>")
        sc = e.op("matmul", [q, kt], (1, h3, S, S))
        sc = e.op("multiply", [sc, e.bcast(e.full((1, 1, 1, 1), SCALE), (1, h3, S, S))], (1, h3, S, S))
        p = _softmax(e, sc)
        ctx = e.op("matmul", [p, q], (1, h3, S, HD))
        ctx = e.op("permute", [ctx], (1, S, h3, HD), "permutation = array<i64: 0, 2, 1, 3>")
        ctx = e.op("reshape", [ctx], (S, 3 * D), f"shape = [{S} : i32, {3 * D} : i32]")
        ctx = e.op("slice_static", [ctx], (S, D), f"begins = [0 : i32, 0 : i32], ends = [{S} : i32, {D} : i32], step = [1 : i32, 1 : i32]")
        o = e.op("matmul", [ctx, a["wo"]], (S, D))
        x = e.op("add", [o, x], (S, D))
        h = _rms_norm(e, x, a["norm_w"])
        up = e.op("matmul", [h, a["wup"]], (S, FF))
        up = e.op("multiply", [up, e.op("sigmoid", [up], (S, FF))], (S, FF))
        gate = e.op("matmul", [h, a["wgate"]], (S, FF))
        up = e.op("multiply", [up, gate], (S, FF))
        dn = e.op("matmul", [up, a["wdown"]], (S, D))
        x = e.op("add", [dn, x], (S, D))
    sig = ", ".join(f"{n}: {e.ty(s)}" for n, s in a.values())
    body = "\n".join(e.lines)
    return f"module {{\n  func.func @forward({sig}) -> {e.ty((S, D))} {{\n{body}\n    return {x[0]} : {e.ty((S, D))}\n  }}\n}}\n"
