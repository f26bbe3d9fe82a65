"""Generate a corpus of real StableHLO + Shardy MLIR text with JAX.

Usage (from anywhere):

    python testdata/jax/generate.py            # writes testdata/jax/<name>.mlir
    python testdata/jax/generate.py --check    # only checks the files are up to date

The script sets XLA_FLAGS itself (8 fake CPU devices) before importing jax, so
no environment is needed.  Output is deterministic for a given jax/jaxlib
version (written with 0.10.2): no random numbers, no host callbacks (they embed
pointers), and the absolute path of this file in debug locations is replaced
by the repo-relative path ``testdata/jax/generate.py``.

Each case is `name -> (jitted function, example args)`.  Files named
``<name>.debug.mlir`` are the same module printed with ``as_text(debug_info=True)``
(``loc(...)`` everywhere plus ``#locN`` aliases before and after the module).
"""

import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
THIS_FILE = os.path.abspath(__file__)
REL_THIS_FILE = "testdata/jax/generate.py"

assert len(jax.devices()) == 8, jax.devices()

DEVS = np.array(jax.devices())
MESH_XY = Mesh(DEVS.reshape(2, 4), ("x", "y"))
MESH_BM = Mesh(DEVS.reshape(2, 4), ("batch", "model"))
MESH_X8 = Mesh(DEVS.reshape(8), ("x",))
MESH_1x8 = Mesh(DEVS.reshape(1, 8), ("x", "batch"))
MESH_XY_EXPLICIT = Mesh(DEVS.reshape(2, 4), ("x", "y"),
                        axis_types=(jax.sharding.AxisType.Explicit,) * 2)


def S(shape, dtype=jnp.float32):
    return jax.ShapeDtypeStruct(shape, dtype)


def ns(mesh, *spec):
    return NamedSharding(mesh, P(*spec))


CASES = {}
DEBUG = set()


def case(name, debug=False):
    def deco(builder):
        CASES[name] = builder
        if debug:
            DEBUG.add(name)
        return builder

    return deco


# --------------------------------------------------------------------------
# jit with NamedSharding in/out shardings
# --------------------------------------------------------------------------


@case("mlp_sharded", debug=True)
def _():
    def mlp(x, w1, b1, w2, b2):
        h = jnp.maximum(x @ w1 + b1, 0.0)  # relu via max
        return jnp.tanh(h @ w2 + b2)

    f = jax.jit(
        mlp,
        in_shardings=(
            ns(MESH_BM, "batch", None),
            ns(MESH_BM, None, "model"),
            ns(MESH_BM, "model"),
            ns(MESH_BM, "model", None),
            ns(MESH_BM),
        ),
        out_shardings=ns(MESH_BM, "batch", None),
    )
    return f, (S((16, 32)), S((32, 128)), S((128,)), S((128, 64)), S((64,)))


@case("mlp_data_parallel_1d")
def _():
    def step(x, w):
        y = jnp.dot(x, w)
        return jax.nn.relu(y), jnp.sum(y * y)

    f = jax.jit(
        step,
        in_shardings=(ns(MESH_X8, "x", None), ns(MESH_X8)),
        out_shardings=(ns(MESH_X8, "x", None), ns(MESH_X8)),
    )
    return f, (S((64, 16)), S((16, 16)))


@case("mesh_device_ids")
def _():
    def f(x, y):
        return x * y + 1.0

    # A non-iota logical device order -> `sdy.mesh @mesh = <[...], device_ids=[...]>`.
    # (A Mesh built from permuted devices does NOT do this; _logical_device_ids does.)
    perm = NamedSharding(MESH_XY, P("x", "y"), _logical_device_ids=(0, 2, 4, 6, 1, 3, 5, 7))
    f = jax.jit(f, in_shardings=(perm, perm), out_shardings=perm)
    return f, (S((8, 8)), S((8, 8)))


@case("explicit_axes_reshard")
def _():
    def f(a, b):
        c = jnp.dot(a, b, out_sharding=P("x", None))
        return jax.sharding.reshard(c * 2.0, P(None, "x"))

    class Lowered:  # lower under jax.set_mesh so explicit-axis shardings apply
        def lower(self, *args):
            with jax.set_mesh(MESH_XY_EXPLICIT):
                return jax.jit(f).lower(*args)

    a = jax.ShapeDtypeStruct((8, 16), jnp.float32, sharding=ns(MESH_XY_EXPLICIT, "x", "y"))
    b = jax.ShapeDtypeStruct((16, 8), jnp.float32, sharding=ns(MESH_XY_EXPLICIT, "y", None))
    return Lowered(), (a, b)


@case("mesh_size1_axis_bf16")
def _():
    def f(x, w):
        y = jnp.einsum("bsd,df->bsf", x, w, preferred_element_type=jnp.float32)
        return y.astype(jnp.bfloat16)

    f = jax.jit(f, in_shardings=(ns(MESH_1x8, "batch", None, None), ns(MESH_1x8, None, "x")))
    return f, (S((8, 4, 32), jnp.bfloat16), S((32, 64), jnp.bfloat16))


@case("sharding_constraint", debug=True)
def _():
    def f(x, w):
        y = x @ w
        y = jax.lax.with_sharding_constraint(y, ns(MESH_XY, None, "y"))
        z = jnp.exp(y)
        z = jax.lax.with_sharding_constraint(z, ns(MESH_XY, "x", P.UNCONSTRAINED))
        return jnp.log(z + 1.0)

    f = jax.jit(f, in_shardings=(ns(MESH_XY, "x", None), ns(MESH_XY)))
    return f, (S((16, 32)), S((32, 64)))


@case("sharding_constraint_multi_axis")
def _():
    def f(x):
        y = jax.lax.with_sharding_constraint(x, ns(MESH_XY, ("x", "y"), None))
        y = jnp.sin(y)
        return jax.lax.with_sharding_constraint(y, ns(MESH_XY, None, ("y", "x")))

    return jax.jit(f), (S((32, 32)),)


# --------------------------------------------------------------------------
# shard_map -> sdy.manual_computation
# --------------------------------------------------------------------------


@case("shard_map_psum")
def _():
    def body(a, b):
        return jax.lax.psum(a @ b, "y")

    g = jax.shard_map(body, mesh=MESH_XY, in_specs=(P("x", "y"), P("y", None)),
                      out_specs=P("x", None))
    return jax.jit(g), (S((16, 32)), S((32, 64)))


@case("shard_map_all_gather")
def _():
    def body(a):
        g0 = jax.lax.all_gather(a, "x", axis=0, tiled=True)
        g1 = jax.lax.all_gather(a, "y", axis=1, tiled=False)
        return g0, g1

    g = jax.shard_map(body, mesh=MESH_XY, in_specs=P("x", "y"),
                      out_specs=(P(None, "y"), P("x", None, "y")), check_vma=False)
    return jax.jit(g), (S((16, 32)),)


@case("shard_map_ppermute")
def _():
    n = 8

    def body(a):
        right = jax.lax.ppermute(a, "x", perm=[(i, (i + 1) % n) for i in range(n)])
        left = jax.lax.ppermute(a, "x", perm=[(i, (i - 1) % n) for i in range(n)])
        return right - left

    g = jax.shard_map(body, mesh=MESH_X8, in_specs=P("x"), out_specs=P("x"))
    return jax.jit(g), (S((64, 4)),)


@case("shard_map_psum_scatter")
def _():
    def body(a):
        return jax.lax.psum_scatter(a, "model", scatter_dimension=1, tiled=True)

    g = jax.shard_map(body, mesh=MESH_BM, in_specs=P("batch", None),
                      out_specs=P("batch", "model"))
    return jax.jit(g), (S((16, 32)),)


@case("shard_map_pmax_pmin")
def _():
    def body(a):
        return jax.lax.pmax(a, "y"), jax.lax.pmin(a, ("x", "y"))

    g = jax.shard_map(body, mesh=MESH_XY, in_specs=P("x", "y"),
                      out_specs=(P("x"), P()), check_vma=False)
    return jax.jit(g), (S((8, 16)),)


@case("shard_map_all_to_all")
def _():
    def body(a):
        return jax.lax.all_to_all(a, "y", split_axis=0, concat_axis=1, tiled=True)

    g = jax.shard_map(body, mesh=MESH_XY, in_specs=P(None, "y"),
                      out_specs=P("y", None))
    return jax.jit(g), (S((16, 32)),)


@case("shard_map_combined", debug=True)
def _():
    def body(x, w):
        h = jnp.dot(x, w)
        h = jax.lax.psum(h, "model")
        m = jax.lax.pmax(jnp.max(h, axis=1, keepdims=True), "model")
        idx = jax.lax.axis_index("batch")
        h = h - m + idx.astype(h.dtype)
        return h

    g = jax.shard_map(body, mesh=MESH_BM, in_specs=(P("batch", "model"), P("model", None)),
                      out_specs=P("batch", None))

    def outer(x, w, b):
        return jax.nn.gelu(g(x, w) + b)

    f = jax.jit(outer, in_shardings=(ns(MESH_BM, "batch", "model"), ns(MESH_BM, "model", None),
                                     ns(MESH_BM)),
                out_shardings=ns(MESH_BM, "batch", None))
    return f, (S((16, 64)), S((64, 32)), S((32,)))


@case("shard_map_partial_axes")
def _():
    # shard_map over a subset of mesh axes: manual_axes={"x"} only.
    def body(a):
        return jax.lax.psum(jnp.sin(a), "x")

    g = jax.shard_map(body, mesh=MESH_XY, in_specs=P("x"), out_specs=P(),
                      axis_names={"x"})

    def f(a):
        return g(a) * 2.0

    return jax.jit(f, in_shardings=ns(MESH_XY, "x", "y")), (S((8, 16)),)


# --------------------------------------------------------------------------
# reductions / normalisations
# --------------------------------------------------------------------------


@case("reduce_sum_max")
def _():
    def f(x, b):
        return (jnp.sum(x, axis=1), jnp.max(x, axis=(0, 2)), jnp.min(x),
                jnp.prod(x, axis=0), jnp.any(b, axis=1), jnp.all(b))

    return jax.jit(f), (S((4, 8, 16)), S((4, 8), jnp.bool_))


@case("reduce_generic_body")
def _():
    def f(x):
        # a reduction whose body is not a single binary op -> region form
        return lax.reduce(x, np.float32(0), lambda a, b: jnp.maximum(a, b) + jnp.minimum(a, b) * 0.5, (1,))

    return jax.jit(f), (S((8, 16)),)


@case("argmax")
def _():
    def f(x):
        return jnp.argmax(x, axis=-1), jnp.argmin(x, axis=0)

    return jax.jit(f), (S((8, 32)),)


@case("softmax")
def _():
    return jax.jit(lambda x: jax.nn.softmax(x, axis=-1)), (S((4, 16, 16)),)


@case("layernorm", debug=True)
def _():
    def layernorm(x, g, b):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
        return (x - mu) * lax.rsqrt(var + 1e-5) * g + b

    f = jax.jit(layernorm, in_shardings=(ns(MESH_XY, "x", None), ns(MESH_XY), ns(MESH_XY)))
    return f, (S((16, 64)), S((64,)), S((64,)))


@case("cumsum_reduce_window")
def _():
    def f(x, img):
        c = jnp.cumsum(x, axis=0)
        cm = lax.cummax(x, axis=1)
        pool = lax.reduce_window(img, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
        avg = lax.reduce_window(img, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1),
                                ((0, 0), (1, 0), (0, 1), (0, 0)))
        return c, cm, pool, avg

    return jax.jit(f), (S((16, 8)), S((1, 8, 8, 4)))


# --------------------------------------------------------------------------
# data movement / shape ops
# --------------------------------------------------------------------------


@case("conv")
def _():
    def f(x, k1, k2):
        y = lax.conv_general_dilated(x, k1, window_strides=(2, 2), padding=((1, 2), (0, 1)),
                                     lhs_dilation=(1, 1), rhs_dilation=(2, 1),
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
        z = lax.conv_general_dilated(jnp.transpose(y, (0, 3, 1, 2)), k2, (1, 1), "SAME",
                                     feature_group_count=2,
                                     dimension_numbers=("NCHW", "OIHW", "NCHW"))
        return z

    return jax.jit(f), (S((2, 16, 16, 4)), S((3, 3, 4, 8)), S((8, 4, 3, 3)))


@case("transpose_reshape_concat")
def _():
    def f(a, b):
        t = jnp.transpose(a, (2, 0, 1))
        r = t.reshape(8, -1)
        c = jnp.concatenate([r, b.reshape(8, -1)], axis=1)
        s = jnp.stack([c, c * 2], axis=0)
        return jnp.squeeze(s[:, None], 1), jnp.expand_dims(a, 0), jnp.flip(a, 2), jnp.pad(a, ((1, 0), (0, 2), (0, 0)))

    return jax.jit(f), (S((4, 6, 8)), S((8, 3)))


@case("slice_dynamic_slice")
def _():
    def f(x, i, u):
        a = x[1:5, ::2]
        b = lax.dynamic_slice(x, (i, 0), (4, 8))
        c = lax.dynamic_update_slice(x, u, (2, i))
        d = x[-1]
        return a, b, c, d

    return jax.jit(f), (S((16, 8)), S((), jnp.int32), S((2, 3)))


@case("gather_scatter")
def _():
    def f(table, idx, upd):
        rows = table[idx]  # gather
        t2 = table.at[idx].add(upd)  # scatter-add
        t3 = table.at[idx, 0].set(1.0)  # scatter
        taken = jnp.take_along_axis(table, jnp.argsort(table, axis=1), axis=1)
        return rows, t2, t3, taken

    return jax.jit(f), (S((10, 6)), S((4,), jnp.int32), S((4, 6)))


@case("iota_select_compare")
def _():
    def f(x, y):
        i = lax.broadcasted_iota(jnp.int32, x.shape, 0)
        j = lax.broadcasted_iota(jnp.int32, x.shape, 1)
        causal = i >= j
        m = jnp.where(causal, x, -jnp.inf)
        n = jnp.where(x > y, x, y)
        e = jnp.where(jnp.isnan(x) | (x != y), 0.0, jnp.clip(x, -1.0, 1.0))
        u = jnp.arange(8, dtype=jnp.uint32) < jnp.uint32(3)
        return m, n, e, u

    return jax.jit(f), (S((8, 8)), S((8, 8)))


@case("convert_types")
def _():
    def f(x, i, h):
        return (x.astype(jnp.bfloat16), x.astype(jnp.int32), i.astype(jnp.float32),
                i.astype(jnp.bool_), h.astype(jnp.float32), x.astype(jnp.float16),
                i.astype(jnp.uint8), i.astype(jnp.int8), lax.bitcast_convert_type(x, jnp.int32),
                (x > 0).astype(jnp.float32))

    return jax.jit(f), (S((4, 4)), S((4, 4), jnp.int32), S((4, 4), jnp.float16))


BIG_F32 = np.arange(300, dtype=np.float32).reshape(20, 15) / 7.0
SMALL_I32 = np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int32)
SMALL_F32 = np.array([0.5, -1.25, 3.0e10, 1e-7], dtype=np.float32)
BOOLS = np.array([True, False, False, True])
BIG_BOOL = (np.arange(256) % 3 == 0).reshape(16, 16)


@case("constants")
def _():
    def f(x, y, z):
        a = x + BIG_F32  # large -> hex "0x..." dense string
        b = y * SMALL_I32 + 7  # small int array + scalar splat
        c = jnp.where(BOOLS, z, jnp.float32(np.inf)) + SMALL_F32  # bool array, inf, float array
        d = jnp.where(BIG_BOOL, 1.0, -jnp.inf)  # large bool constant
        e = jnp.full((3, 3), jnp.nan) + jnp.zeros((3, 3), jnp.bfloat16).astype(jnp.float32)
        big_i = jnp.asarray(np.arange(200, dtype=np.int32)) * np.int32(-3)
        return a, b, c, d, e, big_i

    return jax.jit(f), (S((20, 15)), S((2, 3), jnp.int32), S((4,)))


@case("elementwise_misc")
def _():
    def f(x, y, i, k):
        return (jnp.abs(x) ** 2.5, jnp.sign(y), jnp.floor(x) + jnp.ceil(y) + jnp.round(x),
                jnp.remainder(x, y), jnp.arctan2(x, y), jax.nn.sigmoid(x), jnp.cbrt(y),
                jnp.expm1(x) + jnp.log1p(y), i >> 2, i << k, i & k, i | k, i ^ k, ~i,
                jax.lax.population_count(i), jax.lax.clz(k), jnp.logical_not(x > y),
                jax.lax.erf(x), jnp.isfinite(y), jax.lax.nextafter(x, y))

    return jax.jit(f), (S((4, 4)), S((4, 4)), S((4, 4), jnp.int32), S((4, 4), jnp.uint32))


@case("complex_fft")
def _():
    def f(x):
        c = jnp.fft.rfft(x, axis=-1)
        return jnp.fft.irfft(c * jnp.conj(c), axis=-1), jnp.abs(c), c.real, c.imag

    return jax.jit(f), (S((4, 16)),)


# --------------------------------------------------------------------------
# control flow
# --------------------------------------------------------------------------


@case("while_fori_loop")
def _():
    def f(x, n):
        def body(i, c):
            a, s = c
            return a @ x + jnp.float32(i), s + jnp.sum(a)

        a, s = lax.fori_loop(0, 5, body, (x, jnp.float32(0)))
        b = lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 0.5), (jnp.int32(0), x))[1]
        return a, s, b

    return jax.jit(f), (S((4, 4)), S((), jnp.int32))


@case("scan")
def _():
    def f(h0, xs, w):
        def step(h, x):
            h = jnp.tanh(h @ w + x)
            return h, h.sum()

        return lax.scan(step, h0, xs)

    return jax.jit(f), (S((2, 8)), S((5, 2, 8)), S((8, 8)))


@case("cond_switch")
def _():
    def f(p, k, x):
        a = lax.cond(p, lambda v: jnp.sin(v), lambda v: jnp.cos(v), x)
        b = lax.switch(k, [lambda v: v + 1.0, lambda v: v * 2.0, lambda v: -v], x)
        return a, b

    return jax.jit(f), (S((), jnp.bool_), S((), jnp.int32), S((8,)))


# --------------------------------------------------------------------------
# misc ops
# --------------------------------------------------------------------------


@case("sort")
def _():
    def f(x, k, v):
        return jnp.sort(x, axis=-1), jnp.argsort(x, axis=0), lax.sort((k, v), num_keys=1), lax.top_k(x, 3)

    return jax.jit(f), (S((4, 10)), S((12,), jnp.int32), S((12,)))


@case("custom_call_cholesky")
def _():
    return jax.jit(lambda a: jnp.linalg.cholesky(a @ a.T + 4.0 * jnp.eye(4))), (S((4, 4)),)


@case("rng_bit_generator")
def _():
    def f(key):
        new_key, bits = lax.rng_bit_generator(key, (4, 8), dtype=jnp.uint32)
        return new_key, bits, lax.optimization_barrier(bits.astype(jnp.float32))

    return jax.jit(f), (S((4,), jnp.uint32),)


@case("call_private_helper", debug=True)
def _():
    @jax.jit
    def act(x):
        return jax.nn.gelu(x, approximate=True)

    @jax.jit
    def dense(x, w, b):
        return act(x @ w + b)

    def model(x, w1, b1, w2, b2):
        return dense(dense(x, w1, b1), w2, b2)

    f = jax.jit(model, in_shardings=(ns(MESH_XY, "x", None), ns(MESH_XY, None, "y"), ns(MESH_XY, "y"),
                                     ns(MESH_XY, "y", None), ns(MESH_XY)))
    return f, (S((16, 32)), S((32, 64)), S((64,)), S((64, 32)), S((32,)))


@case("dot_general_batched")
def _():
    def f(q, k, a, b):
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k, precision=lax.Precision.HIGHEST)
        t = lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))),
                            preferred_element_type=jnp.float32)
        return s, t

    return jax.jit(f), (S((2, 4, 8, 16)), S((2, 4, 8, 16)), S((3, 4, 5), jnp.bfloat16),
                        S((3, 5, 6), jnp.bfloat16))


@case("dynamic_shape")
def _():
    b, = jax.export.symbolic_shape("b")

    def f(x, w):
        return jnp.sum(jnp.tanh(x @ w), axis=0), x.shape[0] * jnp.ones((), jnp.int32)

    return jax.jit(f), (S((b, 8)), S((8, 4)))


# --------------------------------------------------------------------------
# attention and a 2-layer transformer
# --------------------------------------------------------------------------

D_MODEL, N_HEADS, D_FF, SEQ, BATCH = 64, 4, 128, 16, 4


def _attention(x, wq, wk, wv, wo, causal=True):
    B, T, D = x.shape
    H = N_HEADS
    hd = D // H
    q = (x @ wq).reshape(B, T, H, hd).transpose(0, 2, 1, 3)
    k = (x @ wk).reshape(B, T, H, hd).transpose(0, 2, 1, 3)
    v = (x @ wv).reshape(B, T, H, hd).transpose(0, 2, 1, 3)
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(hd).astype(np.float32)
    if causal:
        mask = jnp.tril(jnp.ones((T, T), jnp.bool_))
        s = jnp.where(mask, s, -1e9)
    p = jax.nn.softmax(s, axis=-1)
    o = jnp.einsum("bhqk,bhkd->bhqd", p, v).transpose(0, 2, 1, 3).reshape(B, T, D)
    return o @ wo


@case("attention")
def _():
    w = ns(MESH_BM, None, "model")
    f = jax.jit(_attention, in_shardings=(ns(MESH_BM, "batch", None, None), w, w, w,
                                          ns(MESH_BM, "model", None)),
                out_shardings=ns(MESH_BM, "batch", None, None))
    return f, (S((BATCH, SEQ, D_MODEL)),) + (S((D_MODEL, D_MODEL)),) * 4


def _layernorm(x, g, b):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + 1e-5) * g + b


def _block(x, p):
    h = _layernorm(x, p["ln1_g"], p["ln1_b"])
    x = x + _attention(h, p["wq"], p["wk"], p["wv"], p["wo"])
    h = _layernorm(x, p["ln2_g"], p["ln2_b"])
    h = jax.nn.gelu(h @ p["w1"] + p["b1"])
    h = jax.lax.with_sharding_constraint(h, ns(MESH_BM, "batch", None, "model"))
    return x + h @ p["w2"] + p["b2"]


def _param_shapes():
    D, F = D_MODEL, D_FF
    return {"ln1_g": (D,), "ln1_b": (D,), "wq": (D, D), "wk": (D, D), "wv": (D, D),
            "wo": (D, D), "ln2_g": (D,), "ln2_b": (D,), "w1": (D, F), "b1": (F,),
            "w2": (F, D), "b2": (D,)}


def _param_sharding(name, shape):
    if name in ("wq", "wk", "wv", "w1"):
        return ns(MESH_BM, None, "model")
    if name in ("wo", "w2"):
        return ns(MESH_BM, "model", None)
    if name == "b1":
        return ns(MESH_BM, "model")
    return ns(MESH_BM)


@case("transformer_2layer", debug=True)
def _():
    def model(tokens, emb, layers):
        x = emb[tokens]
        for p in layers:
            x = _block(x, p)
        logits = x @ emb.T
        return jax.nn.log_softmax(logits, axis=-1)

    shapes = _param_shapes()
    layers = [{k: S(v) for k, v in shapes.items()} for _ in range(2)]
    layer_sh = [{k: _param_sharding(k, v) for k, v in shapes.items()} for _ in range(2)]
    vocab = 128
    f = jax.jit(model, in_shardings=(ns(MESH_BM, "batch", None), ns(MESH_BM, None, "model"), layer_sh),
                out_shardings=ns(MESH_BM, "batch", None, None))
    return f, (S((BATCH, SEQ), jnp.int32), S((vocab, D_MODEL)), layers)


# --------------------------------------------------------------------------


def render(name, debug):
    f, args = CASES[name]()
    text = f.lower(*args).as_text(debug_info=debug)
    if debug:
        text = text.replace(THIS_FILE, REL_THIS_FILE)
    header = (f"// Generated by testdata/jax/generate.py (jax {jax.__version__}); case '{name}'"
              f"{' with debug_info=True' if debug else ''}. Do not edit.\n")
    return header + text


def main(argv):
    check = "--check" in argv
    only = [a for a in argv if not a.startswith("--")]
    stale = []
    for name in CASES:
        if only and name not in only:
            continue
        variants = [(f"{name}.mlir", False)]
        if name in DEBUG:
            variants.append((f"{name}.debug.mlir", True))
        for fname, debug in variants:
            text = render(name, debug)
            path = os.path.join(HERE, fname)
            if check:
                old = open(path).read() if os.path.exists(path) else None
                if old != text:
                    stale.append(fname)
            else:
                with open(path, "w") as fh:
                    fh.write(text)
                print(f"wrote {fname} ({text.count(chr(10))} lines)")
    if check:
        if stale:
            print("stale:", " ".join(stale))
            return 1
        print("all files up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
