"""Generate real JAX StableHLO for the dot_general / gather / scatter / reduce_window / pad /
dynamic-slice lowerings (tests/lowering/test_indexing_lowering.py).

Usage (from anywhere):

    python testdata/lowering/generate_jax_indexing.py          # writes testdata/lowering/jax/<name>.mlir
    python testdata/lowering/generate_jax_indexing.py --check  # only checks the files are up to date

Each case is `name -> (function, example args)`, lowered with `jax.jit(f).lower(*args).as_text()`
(jax 0.10.2). Integer arguments are indices: every case is written so that any index in [0, 2) is
in range, which is what the tests feed them (TTIR, like tt-mlir, does not clamp start indices).
"""

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jax")
F32, I32 = jnp.float32, jnp.int32
CASES = {}


def S(shape, dtype=F32):
    return jax.ShapeDtypeStruct(shape, dtype)


def case(name):
    def deco(builder):
        CASES[name] = builder
        return builder

    return deco


# -- dot_general ---------------------------------------------------------------------------------------
@case("dot_attention_scores")
def _():
    return (lambda q, k: jnp.einsum("bqhd,bkhd->bhqk", q, k)), (S((2, 5, 3, 4)), S((2, 6, 3, 4)))


@case("dot_attention_values")
def _():
    return (lambda p, v: jnp.einsum("bhqk,bkhd->bqhd", p, v)), (S((2, 3, 5, 6)), S((2, 6, 3, 4)))


@case("dot_weight_grad")
def _():
    def f(x, w, y):
        return jax.grad(lambda w: jnp.sum((jnp.einsum("bsi,io->bso", x, w) - y) ** 2))(w)

    return f, (S((2, 5, 3)), S((3, 4)), S((2, 5, 4)))


@case("dot_outer")
def _():
    return (lambda a, b: jnp.einsum("i,j->ij", a, b)), (S((5,)), S((7,)))


@case("dot_contract_first")
def _():
    return (lambda a, b: jnp.einsum("ki,kj->ij", a, b)), (S((6, 3)), S((6, 4)))


@case("dot_batch_middle")
def _():
    return (lambda a, b: jnp.einsum("ibj,jbk->bik", a, b)), (S((3, 2, 4)), S((4, 2, 5)))


@case("dot_two_contracting")
def _():
    return (lambda a, b: jnp.tensordot(a, b, axes=([1, 2], [0, 1]))), (S((3, 4, 5)), S((4, 5, 6)))


@case("dot_batched_matmul")
def _():
    return (lambda a, b: a @ b), (S((2, 3, 4)), S((2, 4, 5)))


# -- gather -------------------------------------------------------------------------------------------
@case("gather_embedding")
def _():
    def f(tok, pos, ids):
        return tok[ids] + pos[jnp.arange(ids.shape[1])][None]

    return f, (S((10, 8)), S((6, 8)), S((2, 6), I32))


@case("gather_take_along_axis")
def _():
    return (lambda x, idx: jnp.take_along_axis(x, idx, axis=1)), (S((3, 5)), S((3, 4), I32))


@case("gather_take_columns")
def _():
    return (lambda x, idx: jnp.take(x, idx, axis=1)), (S((3, 5, 2)), S((4,), I32))


@case("gather_points")
def _():
    return (lambda x, i, j: x[i, j]), (S((4, 5, 3)), S((6,), I32), S((6,), I32))


@case("gather_int_table")
def _():
    return (lambda t, ids: t[ids]), (S((5, 3), I32), S((4,), I32))


@case("gather_batched_blocks")
def _():
    # BigBird's block-sparse attention: per (batch, head), blocks picked by a grid of indices, so the
    # output has dimensions the operand lacks (batching dimensions outside a batched index-select)
    return (lambda x, idx: jax.vmap(jax.vmap(lambda xb, ib: xb[ib]))(x, idx)), (S((2, 3, 6, 4)), S((2, 3, 5, 2), I32))


@case("gather_batched_int_blocks")
def _():
    return (lambda t, idx: jax.vmap(lambda tb, ib: tb[ib])(t, idx)), (S((2, 6, 2), I32), S((2, 4, 3), I32))


@case("gather_batched_unit_batch")
def _():
    return (lambda x, idx: jax.vmap(lambda xb, ib: xb[ib])(x, idx)), (S((1, 6, 4)), S((1, 5, 2), I32))


# -- scatter ------------------------------------------------------------------------------------------
@case("scatter_add_rows")
def _():
    return (lambda x, idx, v: x.at[idx].add(v)), (S((6, 4)), S((3,), I32), S((3, 4)))


@case("scatter_set_columns")
def _():
    return (lambda x, idx, v: x.at[:, idx].set(v)), (S((3, 5)), S((2,), I32), S((3, 2)))


@case("scatter_points_max")
def _():
    return (lambda x, i, j, v: x.at[i, j].max(v)), (S((4, 5)), S((3,), I32), S((3,), I32), S((3,)))


@case("scatter_embedding_grad")
def _():
    def f(table, ids, w):
        return jax.grad(lambda t: jnp.sum(jnp.tanh(t[ids]) * w))(table)

    return f, (S((10, 8)), S((2, 5), I32), S((2, 5, 8)))


@case("scatter_segment_sum")
def _():
    return (lambda x, seg: jax.ops.segment_sum(x, seg, num_segments=4)), (S((6, 3)), S((6,), I32))


# -- reduce_window ------------------------------------------------------------------------------------
@case("window_max_pool_nhwc")
def _():
    def f(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")

    return f, (S((2, 8, 8, 3)),)


@case("window_avg_pool_nhwc")
def _():
    def f(x):
        return lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0

    return f, (S((2, 8, 6, 3)),)


@case("window_sum_pool_nchw")
def _():
    def f(x):
        return lax.reduce_window(x, 0.0, lax.add, (1, 1, 3, 3), (1, 1, 1, 1), ((0, 0), (0, 0), (1, 1), (1, 1)))

    return f, (S((1, 3, 6, 6)),)


@case("window_max_pool_2d")
def _():
    return (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2, 2), (2, 2), "VALID")), (S((6, 8)),)


@case("window_max_pool_3d")
def _():
    def f(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 3, 3), (1, 1, 2, 2, 2), ((0, 0), (0, 0), (0, 0), (1, 1), (1, 1)))

    return f, (S((1, 2, 4, 6, 6)),)


@case("window_cumsum")
def _():
    return (lambda x: jnp.cumsum(x, axis=1)), (S((3, 7)),)


@case("window_cumprod")
def _():
    return (lambda x: jnp.cumprod(x, axis=0)), (S((5, 2)),)


@case("window_max_pool_grad")
def _():
    def pool(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    return (lambda x: jax.grad(lambda x: jnp.sum(jnp.sin(pool(x))))(x)), (S((2, 6, 6, 3)),)


# -- pad and slices -----------------------------------------------------------------------------------
@case("pad_edges")
def _():
    return (lambda x: jnp.pad(x, ((0, 0), (1, 2)), constant_values=3.0)), (S((3, 4)),)


@case("pad_interior")
def _():
    return (lambda x: lax.pad(x, 0.0, ((1, 0, 1), (0, 2, 2)))), (S((3, 4)),)


@case("pad_negative")
def _():
    return (lambda x: lax.pad(x, -1.0, ((-1, 2, 0), (1, -2, 0)))), (S((4, 5)),)


@case("dynamic_slice_rows")
def _():
    return (lambda x, i: lax.dynamic_slice(x, (i, 0), (3, 4))), (S((6, 4)), S((), I32))


@case("dynamic_update_slice_block")
def _():
    return (lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j))), (S((5, 6)), S((2, 3)), S((), I32), S((), I32))


def render(name):
    fn, args = CASES[name]()
    text = jax.jit(fn).lower(*args).as_text()
    return f"// Generated by testdata/lowering/generate_jax_indexing.py (jax {jax.__version__}); case '{name}'. Do not edit.\n" + text


def main(argv):
    check = "--check" in argv
    os.makedirs(HERE, exist_ok=True)
    stale = []
    for name in CASES:
        text = render(name)
        path = os.path.join(HERE, f"{name}.mlir")
        if check:
            if not os.path.exists(path) or open(path).read() != text:
                stale.append(name)
        else:
            with open(path, "w") as fh:
                fh.write(text)
            print(f"wrote {name}.mlir ({text.count(chr(10))} lines)")
    if check and stale:
        print("stale:", " ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
