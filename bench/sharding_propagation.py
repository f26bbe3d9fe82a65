"""Propagation alone on generated modules of 1k / 10k ops (a worklist: near-linear).

    python bench/sharding_propagation.py

Each module is a chain of MLP-like blocks (dot_general, broadcast bias, add, tanh) on a 2x4 mesh
with sharded arguments; the table shows parse time, propagation time, worklist visits per op.
"""

from __future__ import annotations

import time

from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.sharding.propagation import AggressivePropagation


def module(n_ops: int) -> str:
    lines = [
        'sdy.mesh @mesh = <["batch"=2, "model"=4]>',
        'func.func @main(%x: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>},'
        ' %w: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},'
        ' %b: tensor<64xf32>) -> tensor<32x64xf32> {',
    ]
    cur, k = "%x", 0
    while k < n_ops:
        lines += [
            f"  %d{k} = stablehlo.dot_general {cur}, %w, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>",
            f"  %b{k} = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>",
            f"  %a{k} = stablehlo.add %d{k}, %b{k} : tensor<32x64xf32>",
            f"  %t{k} = stablehlo.tanh %a{k} : tensor<32x64xf32>",
        ]
        cur = f"%t{k}"
        k += 4
    lines += [f"  return {cur} : tensor<32x64xf32>", "}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    print("| ops | parse (s) | propagate conservative (s) | propagate aggressive non-cons (s) | visits/op |")
    print("|---:|---:|---:|---:|---:|")
    for n in (1_000, 10_000):
        text = module(n)
        t0 = time.perf_counter()
        m = parse_module(text)
        t1 = time.perf_counter()
        ctx = PassContext()
        AggressivePropagation().run(m, ctx)
        t2 = time.perf_counter()
        m2 = parse_module(text)
        t3 = time.perf_counter()
        AggressivePropagation(conservative=False).run(m2, PassContext())
        t4 = time.perf_counter()
        visits = ctx.stats["aggressive-propagation"]["visits"] / n
        print(f"| {n} | {t1 - t0:.2f} | {t2 - t1:.2f} | {t4 - t3:.2f} | {visits:.1f} |")


if __name__ == "__main__":
    main()
