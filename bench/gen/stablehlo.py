"""Generate large StableHLO + Shardy modules in the style of `jax.jit(...).lower(...).as_text()`.

Modelled on testdata/jax/transformer_2layer.mlir, mlp_sharded.mlir and shard_map_combined.mlir:

    module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
      sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [...]}}
      func.func public @main(%arg0: tensor<4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}, ...)
          -> (tensor<4x16x64xf32> {jax.result_info = "result", sdy.sharding = ...}) {
        %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
        %0 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (...) -> ...
        %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (...) -> ...
        %2 = sdy.manual_computation(%1) in_shardings=[...] out_shardings=[...] manual_axes={"x", "y"} (%arg9: ...) {
          ... collectives ("stablehlo.all_reduce" with a region, all_gather, collective_permute, all_to_all)
          sdy.return %7 : ...
        } : (...) -> ...
        ...
        return %N : ...
      }
    }

The body is a transformer-flavoured DAG over a small set of shapes (batch 4, sequence 16, hidden
64/128, 4 heads): projections, attention-style reshape/transpose/batched dot_general, reductions in
both printed forms with broadcast_in_dim back, scalar constants broadcast into elementwise ops,
compare/select, convert to and from bf16, `sdy.sharding_constraint`, a `sdy.sharding_per_value`
attribute on a fraction of ops, and `sdy.manual_computation` blocks (shard_map) whose bodies use
all_reduce/all_gather/collective_permute/all_to_all over the mesh axes. Device ids on the
x=2, y=4 mesh are x * 4 + y, so replica groups over "y" are [[0, 1, 2, 3], [4, 5, 6, 7]].
"""

from __future__ import annotations

import random

from .pool import Value, ValuePool

AXES = {"x": 2, "y": 4}
BATCH, SEQ, HEADS = 4, 16, 4
HIDDEN = (64, 128)
GROUPS = {  # replica groups for a collective over one mesh axis
    "y": "dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>",
    "x": "dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>",
}
RING_Y = "dense<[[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]]> : tensor<8x2xi64>"
UNARY = ("tanh", "exponential", "rsqrt", "negate", "logistic", "abs", "sqrt", "log")
BINARY = ("add", "multiply", "subtract", "divide", "maximum")
FLOAT_CONSTS = ("0.000000e+00", "1.000000e+00", "5.000000e-01", "6.400000e+01", "9.99999974E-6",
                "4.471500e-02", "0.797884583", "0xFF800000", "-1.000000e+09", "2.000000e+00")

Shape = tuple[int, ...]
TType = tuple[Shape, str]  # (shape, element type)


def tensor(t: TType) -> str:
    """`tensor<4x16x64xf32>` (`tensor<f32>` for rank 0)."""
    shape, et = t
    return f"tensor<{''.join(f'{d}x' for d in shape)}{et}>"


def dims_list(dims) -> str:
    return f"[{', '.join(map(str, dims))}]"


class StableHLOGenerator:
    """Builds `func.func public @main` as a DAG, then wraps it with the module and mesh."""

    def __init__(self, n_ops: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.n_ops = n_ops
        self.pool: ValuePool[TType] = ValuePool(self.rng)
        self.body: list[str] = []
        self.op_count = 0
        self.next_value = 0
        self.const_count = -1  # JAX numbers %cst/%c names with one counter: %cst, %c_0, %cst_1, ...
        self.channel = 0
        self.args: list[tuple[str, TType, str]] = []  # (name, type, sharding dims)
        self.weights: dict[tuple[int, int], list[Value[TType]]] = {}
        self.biases: dict[int, list[Value[TType]]] = {}
        self.make_args()

    # ---- names, shardings, lines -----------------------------------------------------------------
    def value(self, t: TType) -> Value[TType]:
        v = Value(f"%{self.next_value}", t)
        self.next_value += 1
        return v

    def block_arg(self, t: TType) -> Value[TType]:
        """Block arguments continue the function's %argN numbering, as JAX prints them."""
        v = Value(f"%arg{self.next_arg}", t, is_arg=True)
        self.next_arg += 1
        return v

    def const_name(self, prefix: str) -> str:
        self.const_count += 1
        return f"%{prefix}" if self.const_count == 0 else f"%{prefix}_{self.const_count - 1}"

    def line(self, text: str, indent: int = 4, op: bool = True) -> None:
        self.body.append(" " * indent + text)
        self.op_count += op

    def sharding_dims(self, shape: Shape) -> str:
        """A random valid per-dimension sharding, e.g. `[{"x"}, {}, {"y"}]` (each axis used once)."""
        free = dict(AXES)
        out = []
        for i, d in enumerate(shape):
            want = []
            if i == 0 and self.rng.random() < 0.6:
                want = ["x"]
            elif i == len(shape) - 1 and self.rng.random() < 0.5:
                want = ["y"]
            elif self.rng.random() < 0.15:
                want = [self.rng.choice(("x", "y"))]
            axes = [a for a in want if a in free and d % free[a] == 0]
            for a in axes:
                del free[a]
            out.append("{" + ", ".join(f'"{a}"' for a in axes) + "}")
        return "[" + ", ".join(out) + "]"

    def maybe_sharding(self, t: TType, p: float = 0.15) -> str:
        """` {sdy.sharding = #sdy.sharding_per_value<[...]>}` on a fraction of ops, else ''."""
        if self.in_manual or not t[0] or self.rng.random() >= p:
            return ""
        return f" {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, {self.sharding_dims(t[0])}>]>}}"

    # ---- arguments -------------------------------------------------------------------------------
    def make_args(self) -> None:
        """Input activations, weights (column/row parallel) and biases, fixed before the body."""
        copies = max(1, min(6, self.n_ops // 400))
        arg = self._arg
        self.pool.add(arg(((BATCH, SEQ, 64), "f32"), '[{"x"}, {}, {}]'))
        self.pool.add(arg(((BATCH, SEQ, 128), "f32"), '[{"x"}, {}, {"y"}]'))
        for c in range(copies):
            for k in HIDDEN:
                for n in HIDDEN:
                    sh = '[{}, {"y"}]' if (c + k // 64) % 2 else '[{"y"}, {}]'
                    self.weights.setdefault((k, n), []).append(arg(((k, n), "f32"), sh))
            for n in HIDDEN:
                self.biases.setdefault(n, []).append(arg(((n,), "f32"), '[{"y"}]' if c % 2 else "[{}]"))
        self.next_arg = len(self.args)

    def _arg(self, t: TType, sharding: str) -> Value[TType]:
        v = Value(f"%arg{len(self.args)}", t, is_arg=True)
        self.args.append((v.name, t, sharding))
        return v

    # ---- building blocks -------------------------------------------------------------------------
    def constant(self, et: str = "f32", value: str | None = None, indent: int = 4) -> Value[TType]:
        """`%cst_N = stablehlo.constant dense<...> : tensor<f32>` (scalar)."""
        if value is None:  # hex literals are f32 bit patterns: decimal only for bf16
            consts = FLOAT_CONSTS if et == "f32" else [c for c in FLOAT_CONSTS if not c.startswith("0x")]
            value = self.rng.choice(consts)
        v = Value(self.const_name("cst" if et in ("f32", "bf16") else "c"), ((), et))
        self.line(f"{v.name} = stablehlo.constant dense<{value}> : {tensor(v.type)}", indent)
        return v

    def broadcast(self, x: Value[TType], shape: Shape, dims: Shape, indent: int = 4) -> Value[TType]:
        r = self.value((shape, x.type[1]))
        sh = self.maybe_sharding(r.type)
        self.line(f"{r.name} = stablehlo.broadcast_in_dim {x.name}, dims = {dims_list(dims)}{sh} : "
                  f"({tensor(x.type)}) -> {tensor(r.type)}", indent)
        return r

    def splat(self, t: TType, indent: int = 4) -> Value[TType]:
        """A scalar constant broadcast to type `t` (how JAX materialises `x * 0.5`)."""
        return self.broadcast(self.constant(t[1], indent=indent), t[0], (), indent)

    def binary(self, op: str, a: Value[TType], b: Value[TType], indent: int = 4) -> Value[TType]:
        r = self.value(a.type)
        self.line(f"{r.name} = stablehlo.{op} {a.name}, {b.name}{self.maybe_sharding(r.type)} : {tensor(r.type)}", indent)
        return r

    def unary(self, op: str, a: Value[TType], indent: int = 4) -> Value[TType]:
        r = self.value(a.type)
        self.line(f"{r.name} = stablehlo.{op} {a.name}{self.maybe_sharding(r.type)} : {tensor(r.type)}", indent)
        return r

    def dot(self, a: Value[TType], b: Value[TType], out: Shape, dims: str, indent: int = 4) -> Value[TType]:
        r = self.value((out, "f32"))
        self.line(f"{r.name} = stablehlo.dot_general {a.name}, {b.name}, {dims}, precision = [DEFAULT, DEFAULT]"
                  f"{self.maybe_sharding(r.type)} : ({tensor(a.type)}, {tensor(b.type)}) -> {tensor(r.type)}", indent)
        return r

    def reshape(self, a: Value[TType], shape: Shape, indent: int = 4) -> Value[TType]:
        r = self.value((shape, a.type[1]))
        self.line(f"{r.name} = stablehlo.reshape {a.name}{self.maybe_sharding(r.type)} : "
                  f"({tensor(a.type)}) -> {tensor(r.type)}", indent)
        return r

    def transpose(self, a: Value[TType], perm: Shape, indent: int = 4) -> Value[TType]:
        shape = tuple(a.type[0][p] for p in perm)
        r = self.value((shape, a.type[1]))
        self.line(f"{r.name} = stablehlo.transpose {a.name}, dims = {dims_list(perm)}{self.maybe_sharding(r.type)} : "
                  f"({tensor(a.type)}) -> {tensor(r.type)}", indent)
        return r

    def reduce(self, a: Value[TType], dim: int, kind: str, indent: int = 4, region: bool = False) -> Value[TType]:
        """Compact `applies stablehlo.add across dimensions = [d]`, or the `reducer(...) { }` form."""
        et = a.type[1]
        init = self.constant(et, "0xFF800000" if kind == "maximum" else "0.000000e+00", indent)
        shape = tuple(d for i, d in enumerate(a.type[0]) if i != dim)
        r = self.value((shape, et))
        sig = f"({tensor(a.type)}, {tensor(init.type)}) -> {tensor(r.type)}"
        if not region:
            self.line(f"{r.name} = stablehlo.reduce({a.name} init: {init.name}) applies stablehlo.{kind} across "
                      f"dimensions = [{dim}]{self.maybe_sharding(r.type)} : {sig}", indent)
            self.op_count += 2  # the compact form still holds a region: the applied op + stablehlo.return
            return r
        self.line(f"{r.name} = stablehlo.reduce({a.name} init: {init.name}) across dimensions = [{dim}] : {sig}", indent)
        s = ((), et)
        p, q = self.block_arg(s), self.block_arg(s)
        self.line(f" reducer({p.name}: {tensor(s)}, {q.name}: {tensor(s)})  {{", indent, op=False)
        if kind == "maximum":  # a soft-max style body, as in reduce_generic_body.mlir
            hi = self.binary("maximum", p, q, indent + 2)
            lo = self.binary("minimum", p, q, indent + 2)
            half = self.constant(et, "5.000000e-01", indent + 2)
            res = self.binary("add", hi, self.binary("multiply", lo, half, indent + 2), indent + 2)
        else:
            res = self.binary(kind, p, q, indent + 2)
        self.line(f"stablehlo.return {res.name} : {tensor(s)}", indent + 2)
        self.line("}", indent, op=False)
        return r

    def all_reduce(self, a: Value[TType], axis: str, kind: str, indent: int) -> Value[TType]:
        """`"stablehlo.all_reduce"(...) <{...}> ({ ^bb0(...): ... stablehlo.return ... })` over one axis."""
        self.channel += 1
        r = self.value(a.type)
        s = ((), a.type[1])
        self.line(f'{r.name} = "stablehlo.all_reduce"({a.name}) <{{channel_handle = #stablehlo.channel_handle<'
                  f"handle = {self.channel}, type = 1>, replica_groups = {GROUPS[axis]}, use_global_device_ids}}> ({{",
                  indent)
        p, q = self.block_arg(s), self.block_arg(s)
        self.line(f"^bb0({p.name}: {tensor(s)}, {q.name}: {tensor(s)}):", indent, op=False)
        res = self.binary(kind, p, q, indent + 2)
        self.line(f"stablehlo.return {res.name} : {tensor(s)}", indent + 2)
        self.line(f"}}) : ({tensor(a.type)}) -> {tensor(r.type)}", indent, op=False)
        return r

    # ---- top-level op emitters (False = operands not available) ----------------------------------
    def f32_of_rank(self, *ranks: int):
        return lambda v: v.type[1] == "f32" and len(v.type[0]) in ranks

    def op_projection(self) -> bool:
        """x @ W (+ bias broadcast): 3-D [4,16,K] x [K,N] or 2-D [64,K] x [K,N]."""
        x = self.pool.pick(lambda v: v.type[1] == "f32" and (
            v.type[0][:2] == (BATCH, SEQ) and len(v.type[0]) == 3 or len(v.type[0]) == 2 and v.type[0][0] == BATCH * SEQ)
            and v.type[0][-1] in HIDDEN)
        if x is None:
            return False
        k, n = x.type[0][-1], self.rng.choice(HIDDEN)
        w = self.rng.choice(self.weights[(k, n)])
        rank = len(x.type[0])
        y = self.dot(x, w, x.type[0][:-1] + (n,), f"contracting_dims = [{rank - 1}] x [0]")
        if self.rng.random() < 0.5:
            b = self.rng.choice(self.biases[n])
            b1 = self.broadcast(b, (1,) * (rank - 1) + (n,), (rank - 1,))
            y = self.binary("add", y, self.broadcast(b1, y.type[0], tuple(range(rank))))
        self.pool.add(y)
        return True

    def op_elementwise(self) -> bool:
        a = self.pool.pick(lambda v: v.type[1] in ("f32", "bf16") and v.type[0] != ())
        if a is None:
            return False
        b = self.pool.of_type(a.type, exclude=a)
        if b is None or self.rng.random() < 0.3:
            b = self.splat(a.type)
        ops = [self.binary(self.rng.choice(BINARY), a, b)]
        if self.rng.random() < 0.4:
            ops.append(self.unary(self.rng.choice(UNARY), ops[-1]))
        self.pool.add(ops[-1])
        return True

    def op_unary(self) -> bool:
        a = self.pool.pick(lambda v: v.type[1] in ("f32", "bf16") and v.type[0] != ())
        if a is None:
            return False
        self.pool.add(self.unary(self.rng.choice(UNARY), a))
        return True

    def op_heads(self) -> bool:
        """[4,16,K] -> reshape [4,16,4,h] -> transpose [4,4,16,h] (split heads), or the inverse."""
        x = self.pool.pick(lambda v: v.type[1] == "f32" and (
            v.type[0] in ((BATCH, SEQ, k) for k in HIDDEN) or v.type[0] in ((BATCH, HEADS, SEQ, k // HEADS) for k in HIDDEN)))
        if x is None:
            return False
        if len(x.type[0]) == 3:
            h = x.type[0][2] // HEADS
            y = self.transpose(self.reshape(x, (BATCH, SEQ, HEADS, h)), (0, 2, 1, 3))
        else:
            h = x.type[0][3]
            y = self.reshape(self.transpose(x, (0, 2, 1, 3)), (BATCH, SEQ, HEADS * h))
        self.pool.add(y)
        return True

    def op_attention(self) -> bool:
        """Batched dot_generals: q.k^T -> [4,4,16,16], or probs.v -> [4,4,16,h]."""
        q = self.pool.pick(lambda v: v.type[1] == "f32" and len(v.type[0]) == 4 and v.type[0][:3] == (BATCH, HEADS, SEQ))
        if q is None:
            return False
        h = q.type[0][3]
        if h == SEQ and self.rng.random() < 0.5:  # probs [.., 16, 16] x v [.., 16, h]
            vs = [v for v in self.pool.values[-48:] if len(v.type[0]) == 4 and v.type[1] == "f32"]
            v = self.rng.choice(vs)
            out = self.dot(q, v, (BATCH, HEADS, SEQ, v.type[0][3]),
                           "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]")
        else:
            k = self.pool.of_type(q.type, exclude=q) or q
            out = self.dot(q, k, (BATCH, HEADS, SEQ, SEQ), "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]")
        self.pool.add(out)
        return True

    def op_reduce_bcast(self) -> bool:
        """Reduce the last dim (compact or region form), then broadcast back (softmax/layernorm)."""
        x = self.pool.pick(lambda v: v.type[1] == "f32" and len(v.type[0]) in (3, 4) and v.type[0][-1] > 1)
        if x is None:
            return False
        shape = x.type[0]
        last = len(shape) - 1
        kind = self.rng.choice(("add", "maximum"))
        r = self.reduce(x, last, kind, region=self.rng.random() < 0.25)
        keep = self.broadcast(r, shape[:-1] + (1,), tuple(range(last)))
        back = self.broadcast(keep, shape, tuple(range(len(shape))))
        self.pool.add(self.binary("subtract" if kind == "maximum" else "divide", x, back))
        return True

    def op_flatten(self) -> bool:
        """[4,16,K] <-> [64,K] reshapes (2-D matmul operands)."""
        x = self.pool.pick(lambda v: v.type[1] == "f32" and (
            len(v.type[0]) == 3 and v.type[0][:2] == (BATCH, SEQ) or len(v.type[0]) == 2 and v.type[0][0] == BATCH * SEQ))
        if x is None:
            return False
        shape = x.type[0]
        new = (BATCH * SEQ, shape[-1]) if len(shape) == 3 else (BATCH, SEQ, shape[-1])
        self.pool.add(self.reshape(x, new))
        return True

    def op_transpose2d(self) -> bool:
        x = self.pool.pick(lambda v: v.type[1] == "f32" and len(v.type[0]) == 2 and v.type[0][0] == v.type[0][1])
        if x is None:
            return False
        self.pool.add(self.transpose(x, (1, 0)))
        return True

    def op_select(self) -> bool:
        """`compare GT, a, b, FLOAT` then `select pred, a, b` (relu-like masking)."""
        a = self.pool.pick(lambda v: v.type[1] == "f32" and v.type[0] != ())
        if a is None:
            return False
        b = self.pool.of_type(a.type, exclude=a) or self.splat(a.type)
        p = self.value((a.type[0], "i1"))
        direction = self.rng.choice(("GT", "LT", "GE", "EQ", "NE"))
        self.line(f"{p.name} = stablehlo.compare {direction}, {a.name}, {b.name}, FLOAT : "
                  f"({tensor(a.type)}, {tensor(b.type)}) -> {tensor(p.type)}")
        r = self.value(a.type)
        self.line(f"{r.name} = stablehlo.select {p.name}, {a.name}, {b.name}{self.maybe_sharding(r.type)} : "
                  f"{tensor(p.type)}, {tensor(r.type)}")
        self.pool.add(r)
        return True

    def op_convert(self) -> bool:
        """f32 -> bf16 (bf16 values then flow through elementwise ops) or bf16 -> f32."""
        a = self.pool.pick(lambda v: v.type[1] in ("f32", "bf16") and len(v.type[0]) >= 2)
        if a is None:
            return False
        r = self.value((a.type[0], "bf16" if a.type[1] == "f32" else "f32"))
        self.line(f"{r.name} = stablehlo.convert {a.name}{self.maybe_sharding(r.type)} : "
                  f"({tensor(a.type)}) -> {tensor(r.type)}")
        self.pool.add(r)
        return True

    def op_constraint(self) -> bool:
        a = self.pool.pick(lambda v: v.type[1] == "f32" and len(v.type[0]) >= 2)
        if a is None:
            return False
        r = self.value(a.type)
        self.line(f"{r.name} = sdy.sharding_constraint {a.name} <@mesh, {self.sharding_dims(a.type[0])}> : {tensor(a.type)}")
        self.pool.add(r)
        return True

    def op_manual(self) -> bool:
        """A shard_map: `sdy.manual_computation` over both axes with collectives inside."""
        x = self.pool.pick(lambda v: v.type[1] == "f32" and len(v.type[0]) in (2, 3)
                           and v.type[0][0] % 2 == 0 and v.type[0][-1] % 4 == 0 and v.type[0][-1] in HIDDEN)
        if x is None:
            return False
        shape = x.type[0]
        mid = "{}, " * (len(shape) - 2)
        in_sh = [f'<@mesh, [{{"x"}}, {mid}{{"y"}}]>']
        local = (shape[0] // 2, *shape[1:-1], shape[-1] // 4)
        operands, args = [x], [self.block_arg((local, "f32"))]
        style = self.rng.choice(("row_parallel", "psum", "gather", "permute", "all_to_all"))
        if style == "all_to_all" and (len(shape) != 2 or local[0] % 4):
            style = "psum"
        if style == "row_parallel":  # the weight comes in sharded on its contracted rows
            n = self.rng.choice(HIDDEN)
            operands.append(self.rng.choice(self.weights[(shape[-1], n)]))
            args.append(self.block_arg(((shape[-1] // 4, n), "f32")))
            in_sh.append('<@mesh, [{"y"}, {}]>')
        self.in_manual = True
        head_index = len(self.body)
        self.line("", 4)  # placeholder for the header, filled in once the result type is known
        ind = 6
        a = args[0]
        out_dims = f'[{{"x"}}, {mid}{{"y"}}]'
        if style == "row_parallel":  # partial sums over the contracted "y" shards, then psum
            y = self.dot(a, args[1], local[:-1] + (n,), f"contracting_dims = [{len(local) - 1}] x [0]", ind)
            r = self.all_reduce(y, "y", "add", ind)
            out_dims = f'[{{"x"}}, {mid}{{}}]'
        elif style == "psum":
            r = self.all_reduce(self.unary(self.rng.choice(("tanh", "exponential", "negate")), a, ind), "y", "add", ind)
            if self.rng.random() < 0.5:
                r = self.all_reduce(r, "x", "maximum", ind)
        elif style == "gather":  # all_gather the "y"-sharded last dim
            self.channel += 1
            g = self.value((local[:-1] + (local[-1] * 4,), "f32"))
            self.line(f'{g.name} = "stablehlo.all_gather"({a.name}) <{{all_gather_dim = {len(local) - 1} : i64, '
                      f"channel_handle = #stablehlo.channel_handle<handle = {self.channel}, type = 1>, replica_groups = "
                      f"{GROUPS['y']}, use_global_device_ids}}> : ({tensor(a.type)}) -> {tensor(g.type)}", ind)
            r = self.binary("multiply", g, self.splat(g.type, ind), ind)
            out_dims = f'[{{"x"}}, {mid}{{}}]'
        elif style == "permute":
            self.channel += 1
            r = self.value(a.type)
            self.line(f'{r.name} = "stablehlo.collective_permute"({a.name}) <{{channel_handle = '
                      f"#stablehlo.channel_handle<handle = {self.channel}, type = 1>, source_target_pairs = {RING_Y}}}> : "
                      f"({tensor(a.type)}) -> {tensor(r.type)}", ind)
            r = self.binary("add", r, a, ind)
        else:  # all_to_all: split rows over "y", concatenate columns
            self.channel += 1
            r = self.value(((local[0] // 4, local[1] * 4), "f32"))
            self.line(f'{r.name} = "stablehlo.all_to_all"({a.name}) <{{channel_handle = #stablehlo.channel_handle<'
                      f"handle = {self.channel}, type = 1>, concat_dimension = 1 : i64, replica_groups = {GROUPS['y']}, "
                      f"split_count = 4 : i64, split_dimension = 0 : i64}}> : ({tensor(a.type)}) -> {tensor(r.type)}", ind)
            out_dims = '[{"x", "y"}, {}]'
        if self.rng.random() < 0.4:
            r = self.reduce_keepdims(r, ind)
        self.line(f"sdy.return {r.name} : {tensor(r.type)}", ind)
        # global result shape: multiply each dim by the sizes of the axes it is sharded on
        gshape = list(r.type[0])
        gshape[0] *= 8 if '"x", "y"' in out_dims else 2
        if out_dims.endswith('{"y"}]'):
            gshape[-1] *= 4
        res = self.value((tuple(gshape), "f32"))
        self.in_manual = False
        ins = ", ".join(tensor(v.type) for v in operands)
        self.body[head_index] = (
            f"    {res.name} = sdy.manual_computation({', '.join(v.name for v in operands)}) in_shardings=[{', '.join(in_sh)}] "
            f'out_shardings=[<@mesh, {out_dims}>] manual_axes={{"x", "y"}} '
            f"({', '.join(f'{v.name}: {tensor(v.type)}' for v in args)}) {{")
        self.line(f"}} : ({ins}) -> {tensor(res.type)}", 4, op=False)
        self.pool.add(res)
        return True

    def reduce_keepdims(self, x: Value[TType], indent: int) -> Value[TType]:
        """Inside a shard_map: max over the last dim, broadcast back, subtract (stable softmax)."""
        shape = x.type[0]
        m = self.reduce(x, len(shape) - 1, "maximum", indent)
        back = self.broadcast(m, shape, tuple(range(len(shape) - 1)), indent)
        return self.binary("subtract", x, back, indent)

    # ---- driver ----------------------------------------------------------------------------------
    OPS = (
        ("projection", 12), ("elementwise", 26), ("unary", 8), ("heads", 7), ("attention", 6),
        ("reduce_bcast", 9), ("flatten", 4), ("transpose2d", 2), ("select", 5), ("convert", 4),
        ("constraint", 3), ("manual", 3),
    )

    def build_body(self) -> None:
        self.in_manual = False
        names = [n for n, _ in self.OPS]
        weights = [w for _, w in self.OPS]
        target = max(self.n_ops - 4, 1)  # module + mesh + func + return
        while self.op_count < target:
            if target - self.op_count < 16:  # finish with single ops to land on n_ops exactly
                self.op_unary()
            else:
                getattr(self, f"op_{self.rng.choices(names, weights)[0]}")()
            self.pool.trim()

    def text(self) -> str:
        """The full module text."""
        self.build_body()
        results = [v for v in reversed(self.pool.values) if not v.is_arg and v.type[1] == "f32"][:2]
        results = results or self.pool.values[-1:]
        if len(results) == 1:
            infos = ['jax.result_info = "result"']
        else:
            infos = [f'jax.result_info = "result[{i}]"' for i in range(len(results))]
        outs = ", ".join(
            f"{tensor(v.type)} {{{info}, sdy.sharding = #sdy.sharding<@mesh, {self.sharding_dims(v.type[0])}>}}"
            for v, info in zip(results, infos)
        )
        args = ", ".join(f"{n}: {tensor(t)} {{sdy.sharding = #sdy.sharding<@mesh, {sh}>}}" for n, t, sh in self.args)
        head = [
            "module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {",
            '  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, '
            '{name = "y", size = 4 : i64}]}}',
            f"  func.func public @main({args}) -> ({outs}) {{",
        ]
        ret = f"    return {', '.join(v.name for v in results)} : {', '.join(tensor(v.type) for v in results)}"
        return "\n".join([*head, *self.body, ret, "  }", "}"]) + "\n"


def generate_stablehlo(n_ops: int, seed: int = 0) -> str:
    """A StableHLO + Shardy module with about `n_ops` operations (deterministic in `seed`)."""
    return StableHLOGenerator(n_ops, seed).text()
