"""Generate the model-family corpus: real JAX programs of the common model families, as StableHLO.

Usage (from anywhere):

    python testdata/models/generate.py            # writes testdata/models/<name>.mlir, .debug.mlir, .npz
    python testdata/models/generate.py --check    # only checks the files are up to date
    python testdata/models/generate.py gpt2 moe   # only these families

Each family is a small but complete model written as a user would write it in JAX (parameters are
function arguments, as with `jax.jit(apply)(params, batch)`). For each, three files:

* `<name>.mlir`: `jax.jit(f).lower(*args).as_text()`;
* `<name>.debug.mlir`: the same with `debug_info=True` (this file's absolute path replaced by
  `testdata/models/generate.py`, so the output does not depend on the checkout);
* `<name>.npz`: random inputs (`arg0`, `arg1`, ... in the flattened argument order of the module)
  and JAX's own outputs on them (`out0`, ...), so tests can check a lowering keeps the numbers
  without running JAX.

The script sets XLA_FLAGS itself (8 fake CPU devices, for the 2x4-mesh families) before importing
jax. Output is deterministic for a given jax/jaxlib version (written with 0.10.2).
"""

from __future__ import annotations

import io
import os
import re
import sys
from typing import Any, Callable

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
THIS_FILE = os.path.abspath(__file__)
REL_THIS_FILE = "testdata/models/generate.py"

MESH = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))

Family = Callable[[], tuple[Callable[..., Any], tuple[Any, ...]]]
FAMILIES: dict[str, Family] = {}
# Arguments that must be positive to be meaningful (Adam's second moment, the step count, batch
# norm variances), as a regex over `jax.tree_util.keystr` of the argument's path: their random
# values are 1 + |normal|.
POSITIVE: dict[str, str] = {}


def family(name: str, positive: str = "$^") -> Callable[[Family], Family]:
    """Register a model family: a builder returning (jitted function, example args as ShapeDtypeStructs)."""

    def deco(builder: Family) -> Family:
        FAMILIES[name] = builder
        POSITIVE[name] = positive
        return builder

    return deco


def S(shape: tuple[int, ...], dtype: Any = jnp.float32) -> jax.ShapeDtypeStruct:
    return jax.ShapeDtypeStruct(shape, dtype)


def params(shapes: dict[str, tuple[int, ...]]) -> dict[str, jax.ShapeDtypeStruct]:
    return {k: S(v) for k, v in shapes.items()}


# -- building blocks --------------------------------------------------------------------------------


def layer_norm(x, g, b, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + eps) * g + b


def rms_norm(x, g, eps=1e-6):
    return x * lax.rsqrt(jnp.mean(jnp.square(x), axis=-1, keepdims=True) + eps) * g


def attention(q, k, v, mask=None):
    """q: [B, T, H, D], k/v: [B, S, H, D] (the layout most JAX code keeps)."""
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.float32(np.sqrt(q.shape[-1]))
    if mask is not None:
        s = jnp.where(mask, s, jnp.float32(-1e9))
    p = jax.nn.softmax(s, axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", p, v)


# -- GPT-2 ------------------------------------------------------------------------------------------

GPT = dict(vocab=96, ctx=32, d=64, heads=4, ff=256, layers=2, batch=2, seq=16)


def gpt2_block_shapes(d: int, ff: int) -> dict[str, tuple[int, ...]]:
    return {"ln1_g": (d,), "ln1_b": (d,), "w_qkv": (d, 3 * d), "b_qkv": (3 * d,), "w_o": (d, d), "b_o": (d,),
            "ln2_g": (d,), "ln2_b": (d,), "w_fc": (d, ff), "b_fc": (ff,), "w_proj": (ff, d), "b_proj": (d,)}  # fmt: skip


def gpt2_block(x, p, heads):
    B, T, D = x.shape
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    qkv = h @ p["w_qkv"] + p["b_qkv"]
    q, k, v = jnp.split(qkv, 3, axis=-1)
    q, k, v = (t.reshape(B, T, heads, D // heads) for t in (q, k, v))
    causal = jnp.tril(jnp.ones((T, T), jnp.bool_))[None, None]
    o = attention(q, k, v, causal).reshape(B, T, D)
    x = x + o @ p["w_o"] + p["b_o"]
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = jax.nn.gelu(h @ p["w_fc"] + p["b_fc"], approximate=True)
    return x + h @ p["w_proj"] + p["b_proj"]


def gpt2_apply(ids, wte, wpe, blocks, lnf_g, lnf_b):
    T = ids.shape[1]
    x = wte[ids] + wpe[jnp.arange(T)][None]
    for p in blocks:
        x = gpt2_block(x, p, GPT["heads"])
    x = layer_norm(x, lnf_g, lnf_b)
    return x @ wte.T


def gpt2_args() -> tuple[Any, ...]:
    c = GPT
    blocks = [params(gpt2_block_shapes(c["d"], c["ff"])) for _ in range(c["layers"])]
    return (S((c["batch"], c["seq"]), jnp.int32), S((c["vocab"], c["d"])), S((c["ctx"], c["d"])), blocks,
            S((c["d"],)), S((c["d"],)))  # fmt: skip


@family("gpt2")
def _gpt2():
    return jax.jit(gpt2_apply), gpt2_args()


# -- GPT-2 with data and tensor parallelism on a 2x4 mesh -------------------------------------------


def _tp_spec(name: str) -> P:
    if name in ("w_qkv", "w_fc"):
        return P(None, "model")
    if name in ("b_qkv", "b_fc"):
        return P("model")
    if name in ("w_o", "w_proj"):
        return P("model", None)
    return P()


@family("gpt2_dp_tp")
def _gpt2_dp_tp():
    c = GPT
    shard = lambda spec: NamedSharding(MESH, spec)  # noqa: E731
    blocks = [{k: shard(_tp_spec(k)) for k in gpt2_block_shapes(c["d"], c["ff"])} for _ in range(c["layers"])]
    in_sh = (shard(P("data", None)), shard(P()), shard(P()), blocks, shard(P()), shard(P()))
    return jax.jit(gpt2_apply, in_shardings=in_sh, out_shardings=shard(P("data", None, None))), gpt2_args()


def gpt2_block_tp_local(x, p, heads):
    """One GPT-2 block on one device's shard: heads and MLP columns split over 'model', then psum."""
    B, T, D = x.shape
    local_heads = heads // 4
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    q, k, v = (h @ p[w] for w in ("w_q", "w_k", "w_v"))  # each [B, T, D/4]
    q, k, v = (t.reshape(B, T, local_heads, D // heads) for t in (q, k, v))
    causal = jnp.tril(jnp.ones((T, T), jnp.bool_))[None, None]
    o = attention(q, k, v, causal).reshape(B, T, -1)
    x = x + lax.psum(o @ p["w_o"], "model") + p["b_o"]
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = jax.nn.gelu(h @ p["w_fc"] + p["b_fc"], approximate=True)
    return x + lax.psum(h @ p["w_proj"], "model") + p["b_proj"]


def _tp_local_spec(name: str) -> P:
    if name in ("w_q", "w_k", "w_v", "w_fc"):
        return P(None, "model")
    if name == "b_fc":
        return P("model")
    if name in ("w_o", "w_proj"):
        return P("model", None)
    return P()


@family("gpt2_dp_tp_shard_map")
def _gpt2_shard_map():
    c = GPT
    d, ff = c["d"], c["ff"]
    shapes = {"ln1_g": (d,), "ln1_b": (d,), "w_q": (d, d), "w_k": (d, d), "w_v": (d, d), "w_o": (d, d), "b_o": (d,),
              "ln2_g": (d,), "ln2_b": (d,), "w_fc": (d, ff), "b_fc": (ff,), "w_proj": (ff, d), "b_proj": (d,)}  # fmt: skip
    blocks = [params(shapes) for _ in range(c["layers"])]
    specs = [{k: _tp_local_spec(k) for k in shapes} for _ in range(c["layers"])]

    def body(x, blocks):
        for p in blocks:
            x = gpt2_block_tp_local(x, p, c["heads"])
        return x

    mapped = jax.shard_map(body, mesh=MESH, in_specs=(P("data", None, None), specs), out_specs=P("data", None, None))

    def apply(ids, wte, wpe, blocks, lnf_g, lnf_b):
        x = wte[ids] + wpe[jnp.arange(ids.shape[1])][None]
        x = mapped(x, blocks)
        return layer_norm(x, lnf_g, lnf_b) @ wte.T

    args = (S((c["batch"], c["seq"]), jnp.int32), S((c["vocab"], d)), S((c["ctx"], d)), blocks, S((d,)), S((d,)))
    return jax.jit(apply), args


# -- LLaMA ------------------------------------------------------------------------------------------

LLAMA = dict(vocab=128, d=64, heads=4, kv_heads=2, ff=160, layers=2, batch=2, seq=16)


def rope(x, positions):
    """Rotary embedding on [B, T, H, D] with the rotate-half convention."""
    d = x.shape[-1]
    inv = 1.0 / (10000.0 ** (jnp.arange(0, d, 2, dtype=jnp.float32) / d))
    ang = positions[:, None].astype(jnp.float32) * inv[None]  # [T, D/2]
    cos, sin = jnp.cos(ang)[None, :, None], jnp.sin(ang)[None, :, None]
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


def llama_block(x, p, c):
    B, T, D = x.shape
    hd = D // c["heads"]
    pos = jnp.arange(T)
    h = rms_norm(x, p["attn_norm"])
    q = rope((h @ p["wq"]).reshape(B, T, c["heads"], hd), pos)
    k = rope((h @ p["wk"]).reshape(B, T, c["kv_heads"], hd), pos)
    v = (h @ p["wv"]).reshape(B, T, c["kv_heads"], hd)
    rep = c["heads"] // c["kv_heads"]
    k, v = jnp.repeat(k, rep, axis=2), jnp.repeat(v, rep, axis=2)
    causal = jnp.tril(jnp.ones((T, T), jnp.bool_))[None, None]
    x = x + attention(q, k, v, causal).reshape(B, T, D) @ p["wo"]
    h = rms_norm(x, p["ffn_norm"])
    return x + (jax.nn.silu(h @ p["w_gate"]) * (h @ p["w_up"])) @ p["w_down"]


@family("llama")
def _llama():
    c = LLAMA
    d, kv = c["d"], c["d"] // c["heads"] * c["kv_heads"]
    shapes = {"attn_norm": (d,), "wq": (d, d), "wk": (d, kv), "wv": (d, kv), "wo": (d, d), "ffn_norm": (d,),
              "w_gate": (d, c["ff"]), "w_up": (d, c["ff"]), "w_down": (c["ff"], d)}  # fmt: skip

    def apply(ids, emb, blocks, norm, head):
        x = emb[ids]
        for p in blocks:
            x = llama_block(x, p, c)
        return rms_norm(x, norm) @ head

    args = (S((c["batch"], c["seq"]), jnp.int32), S((c["vocab"], d)), [params(shapes) for _ in range(c["layers"])],
            S((d,)), S((d, c["vocab"])))  # fmt: skip
    return jax.jit(apply), args


LLAMA_DECODE = dict(vocab=128, d=64, heads=4, kv_heads=2, ff=160, layers=2, batch=2, max_len=32)


def llama_decode_block(x, p, kc, vc, pos, c):
    """One token per sequence at position `pos`: its K/V written into the [B, KV heads, max_len, D]
    caches (`lax.dynamic_update_slice`), attention over the cache up to `pos`."""
    B, _, D = x.shape
    hd = D // c["heads"]
    at = jnp.reshape(pos, (1,))
    h = rms_norm(x, p["attn_norm"])
    q = rope((h @ p["wq"]).reshape(B, 1, c["heads"], hd), at)
    k = rope((h @ p["wk"]).reshape(B, 1, c["kv_heads"], hd), at)
    v = (h @ p["wv"]).reshape(B, 1, c["kv_heads"], hd)
    kc = lax.dynamic_update_slice(kc, k.transpose(0, 2, 1, 3), (0, 0, pos, 0))
    vc = lax.dynamic_update_slice(vc, v.transpose(0, 2, 1, 3), (0, 0, pos, 0))
    rep = c["heads"] // c["kv_heads"]
    keys, values = jnp.repeat(kc, rep, axis=1), jnp.repeat(vc, rep, axis=1)  # [B, H, max_len, hd]
    s = jnp.einsum("bqhd,bhkd->bhqk", q, keys) / np.float32(np.sqrt(hd))
    s = jnp.where((jnp.arange(c["max_len"]) <= pos)[None, None, None], s, jnp.float32(-1e9))
    o = jnp.einsum("bhqk,bhkd->bqhd", jax.nn.softmax(s, axis=-1), values)
    x = x + o.reshape(B, 1, D) @ p["wo"]
    h = rms_norm(x, p["ffn_norm"])
    return x + (jax.nn.silu(h @ p["w_gate"]) * (h @ p["w_up"])) @ p["w_down"], kc, vc


@family("llama_decode")
def _llama_decode():
    c = LLAMA_DECODE
    d, kv = c["d"], c["d"] // c["heads"] * c["kv_heads"]
    hd = d // c["heads"]
    shapes = {"attn_norm": (d,), "wq": (d, d), "wk": (d, kv), "wv": (d, kv), "wo": (d, d), "ffn_norm": (d,),
              "w_gate": (d, c["ff"]), "w_up": (d, c["ff"]), "w_down": (c["ff"], d)}  # fmt: skip

    def apply(ids, pos, caches, emb, blocks, norm, head):
        x = emb[ids]
        new = []
        for p, (kc, vc) in zip(blocks, caches):
            x, kc, vc = llama_decode_block(x, p, kc, vc, pos, c)
            new.append((kc, vc))
        return rms_norm(x, norm) @ head, new

    cache = S((c["batch"], c["kv_heads"], c["max_len"], hd))
    args = (S((c["batch"], 1), jnp.int32), S((), jnp.int32), [(cache, cache) for _ in range(c["layers"])], S((c["vocab"], d)),
            [params(shapes) for _ in range(c["layers"])], S((d,)), S((d, c["vocab"])))  # fmt: skip
    return jax.jit(apply), args


# -- BERT -------------------------------------------------------------------------------------------

BERT = dict(vocab=100, d=64, heads=4, ff=128, layers=2, batch=2, seq=16, types=2, classes=3)


@family("bert")
def _bert():
    c = BERT
    d = c["d"]
    shapes = {"wq": (d, d), "bq": (d,), "wk": (d, d), "bk": (d,), "wv": (d, d), "bv": (d,), "wo": (d, d), "bo": (d,),
              "ln1_g": (d,), "ln1_b": (d,), "w1": (d, c["ff"]), "b1": (c["ff"],), "w2": (c["ff"], d), "b2": (d,),
              "ln2_g": (d,), "ln2_b": (d,)}  # fmt: skip

    def block(x, mask, p):
        B, T, D = x.shape
        q, k, v = ((x @ p[f"w{n}"] + p[f"b{n}"]).reshape(B, T, c["heads"], D // c["heads"]) for n in "qkv")
        o = attention(q, k, v, mask[:, None, None, :] > 0).reshape(B, T, D)
        x = layer_norm(x + o @ p["wo"] + p["bo"], p["ln1_g"], p["ln1_b"])
        h = jax.nn.gelu(x @ p["w1"] + p["b1"], approximate=False)
        return layer_norm(x + h @ p["w2"] + p["b2"], p["ln2_g"], p["ln2_b"])

    def apply(ids, types, mask, word, pos, typ, emb_g, emb_b, blocks, pool_w, pool_b, cls_w):
        x = word[ids] + pos[jnp.arange(ids.shape[1])][None] + typ[types]
        x = layer_norm(x, emb_g, emb_b)
        for p in blocks:
            x = block(x, mask, p)
        pooled = jnp.tanh(x[:, 0] @ pool_w + pool_b)
        return pooled @ cls_w

    i32 = jnp.int32
    args = (S((c["batch"], c["seq"]), i32), S((c["batch"], c["seq"]), i32), S((c["batch"], c["seq"]), i32),
            S((c["vocab"], d)), S((c["seq"], d)), S((c["types"], d)), S((d,)), S((d,)),
            [params(shapes) for _ in range(c["layers"])], S((d, d)), S((d,)), S((d, c["classes"])))  # fmt: skip
    return jax.jit(apply), args


# -- ResNet -----------------------------------------------------------------------------------------


def conv(x, w, stride=1, pad="SAME"):
    return lax.conv_general_dilated(x, w, (stride, stride), pad, dimension_numbers=("NHWC", "HWIO", "NHWC"))


def batch_norm(x, p, name):
    """Inference-mode batch norm with folded statistics."""
    return (x - p[f"{name}_mean"]) * lax.rsqrt(p[f"{name}_var"] + 1e-5) * p[f"{name}_g"] + p[f"{name}_b"]


def bn_shapes(name: str, c: int) -> dict[str, tuple[int, ...]]:
    return {f"{name}_{k}": (c,) for k in ("mean", "var", "g", "b")}


@family("resnet", positive=r"_var'\]$")
def _resnet():
    def max_pool(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")

    def basic_block(x, p, name, stride):
        h = jax.nn.relu(batch_norm(conv(x, p[f"{name}_w1"], stride), p, f"{name}_bn1"))
        h = batch_norm(conv(h, p[f"{name}_w2"]), p, f"{name}_bn2")
        if stride != 1 or x.shape[-1] != h.shape[-1]:
            x = batch_norm(conv(x, p[f"{name}_wd"], stride), p, f"{name}_bnd")
        return jax.nn.relu(x + h)

    def apply(images, p):
        x = jax.nn.relu(batch_norm(conv(images, p["stem_w"], 2), p, "stem_bn"))
        x = max_pool(x)
        x = basic_block(x, p, "b1", 1)
        x = basic_block(x, p, "b2", 2)
        x = jnp.mean(x, axis=(1, 2))
        return x @ p["fc_w"] + p["fc_b"]

    shapes: dict[str, tuple[int, ...]] = {"stem_w": (7, 7, 3, 16), **bn_shapes("stem_bn", 16)}
    shapes |= {"b1_w1": (3, 3, 16, 16), "b1_w2": (3, 3, 16, 16), **bn_shapes("b1_bn1", 16), **bn_shapes("b1_bn2", 16)}
    shapes |= {"b2_w1": (3, 3, 16, 32), "b2_w2": (3, 3, 32, 32), "b2_wd": (1, 1, 16, 32), **bn_shapes("b2_bn1", 32),
               **bn_shapes("b2_bn2", 32), **bn_shapes("b2_bnd", 32)}  # fmt: skip
    shapes |= {"fc_w": (32, 10), "fc_b": (10,)}
    return jax.jit(apply), (S((2, 32, 32, 3)), params(shapes))


# -- ViT --------------------------------------------------------------------------------------------

VIT = dict(image=32, patch=8, channels=3, d=64, heads=4, ff=128, layers=2, batch=2, classes=10)


@family("vit")
def _vit():
    c = VIT
    d, n = c["d"], (c["image"] // c["patch"]) ** 2
    shapes = {"ln1_g": (d,), "ln1_b": (d,), "w_qkv": (d, 3 * d), "w_o": (d, d), "ln2_g": (d,), "ln2_b": (d,),
              "w1": (d, c["ff"]), "b1": (c["ff"],), "w2": (c["ff"], d), "b2": (d,)}  # fmt: skip

    def block(x, p):
        B, T, D = x.shape
        h = layer_norm(x, p["ln1_g"], p["ln1_b"])
        q, k, v = (t.reshape(B, T, c["heads"], D // c["heads"]) for t in jnp.split(h @ p["w_qkv"], 3, axis=-1))
        x = x + attention(q, k, v).reshape(B, T, D) @ p["w_o"]
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        return x + jax.nn.gelu(h @ p["w1"] + p["b1"], approximate=False) @ p["w2"] + p["b2"]

    def apply(images, patch_w, patch_b, cls, pos, blocks, ln_g, ln_b, head_w):
        x = conv(images, patch_w, c["patch"], "VALID") + patch_b  # [B, 4, 4, d]
        B = x.shape[0]
        x = x.reshape(B, -1, d)
        x = jnp.concatenate([jnp.broadcast_to(cls, (B, 1, d)), x], axis=1) + pos
        for p in blocks:
            x = block(x, p)
        return layer_norm(x[:, 0], ln_g, ln_b) @ head_w

    args = (S((c["batch"], c["image"], c["image"], c["channels"])), S((c["patch"], c["patch"], c["channels"], d)),
            S((d,)), S((1, 1, d)), S((1, n + 1, d)), [params(shapes) for _ in range(c["layers"])], S((d,)), S((d,)),
            S((d, c["classes"])))  # fmt: skip
    return jax.jit(apply), args


# -- MLP-Mixer --------------------------------------------------------------------------------------


@family("mlp_mixer")
def _mixer():
    tokens, d, tok_ff, ch_ff = 16, 32, 32, 64

    def mlp(x, w1, b1, w2, b2):
        return jax.nn.gelu(x @ w1 + b1) @ w2 + b2

    def block(x, p):
        y = layer_norm(x, p["ln1_g"], p["ln1_b"])
        y = jnp.swapaxes(mlp(jnp.swapaxes(y, 1, 2), p["t_w1"], p["t_b1"], p["t_w2"], p["t_b2"]), 1, 2)
        x = x + y
        y = layer_norm(x, p["ln2_g"], p["ln2_b"])
        return x + mlp(y, p["c_w1"], p["c_b1"], p["c_w2"], p["c_b2"])

    def apply(images, stem_w, blocks, ln_g, ln_b, head_w):
        x = conv(images, stem_w, 4, "VALID").reshape(images.shape[0], tokens, d)
        for p in blocks:
            x = block(x, p)
        return jnp.mean(layer_norm(x, ln_g, ln_b), axis=1) @ head_w

    shapes = {"ln1_g": (d,), "ln1_b": (d,), "t_w1": (tokens, tok_ff), "t_b1": (tok_ff,), "t_w2": (tok_ff, tokens),
              "t_b2": (tokens,), "ln2_g": (d,), "ln2_b": (d,), "c_w1": (d, ch_ff), "c_b1": (ch_ff,),
              "c_w2": (ch_ff, d), "c_b2": (d,)}  # fmt: skip
    args = (S((2, 16, 16, 3)), S((4, 4, 3, d)), [params(shapes) for _ in range(2)], S((d,)), S((d,)), S((d, 10)))
    return jax.jit(apply), args


# -- Mixture of experts with top-k routing ----------------------------------------------------------


@family("moe")
def _moe():
    tokens, d, ff, experts, k = 32, 32, 64, 4, 2

    def apply(x, router, w_in, w_out):
        logits = x @ router  # [N, E]
        top_vals, top_idx = lax.top_k(logits, k)  # [N, k]
        gates = jax.nn.softmax(top_vals, axis=-1)
        h = jax.nn.relu(jnp.einsum("nd,edf->nef", x, w_in))  # every expert on every token
        y = jnp.einsum("nef,efd->ned", h, w_out)  # [N, E, d]
        chosen = jnp.take_along_axis(y, top_idx[:, :, None], axis=1)  # [N, k, d]
        return jnp.sum(chosen * gates[:, :, None], axis=1)

    return jax.jit(apply), (S((tokens, d)), S((d, experts)), S((experts, d, ff)), S((experts, ff, d)))


# -- Training steps: jax.grad + Adam ----------------------------------------------------------------


def adam(p, g, m, v, step, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * jnp.square(g)
    mhat = m / (1 - b1**step)
    vhat = v / (1 - b2**step)
    return p - lr * mhat / (jnp.sqrt(vhat) + eps), m, v


@family("train_mlp_adam", positive=r"^\[(2|5)\]")
def _train_mlp():
    def loss(p, x, labels):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        logp = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(labels, logits.shape[-1]), axis=-1))

    def step(p, m, v, x, labels, t):
        value, g = jax.value_and_grad(loss)(p, x, labels)
        out = {k: adam(p[k], g[k], m[k], v[k], t) for k in p}
        return value, {k: o[0] for k, o in out.items()}, {k: o[1] for k, o in out.items()}, {k: o[2] for k, o in out.items()}

    shapes = {"w1": (32, 64), "b1": (64,), "w2": (64, 10), "b2": (10,)}
    return jax.jit(step), (params(shapes), params(shapes), params(shapes), S((16, 32)), S((16,), jnp.int32), S(()))


@family("train_transformer_adam", positive=r"^\[2\]")
def _train_transformer():
    c = dict(GPT, layers=1, seq=8)

    def loss(p, ids, targets):
        T = ids.shape[1]
        x = p["wte"][ids] + p["wpe"][jnp.arange(T)][None]
        x = gpt2_block(x, p["block"], c["heads"])
        logits = layer_norm(x, p["lnf_g"], p["lnf_b"]) @ p["wte"].T
        logp = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(logp, targets[..., None], axis=-1))

    def step(p, m, v, ids, targets):
        value, g = jax.value_and_grad(loss)(p, ids, targets)
        new = jax.tree.map(lambda a, b, cc, dd: adam(a, b, cc, dd, 1.0), p, g, m, v)
        pick = lambda i: jax.tree.map(lambda t: t[i], new, is_leaf=lambda t: isinstance(t, tuple))  # noqa: E731
        return value, pick(0), pick(1), pick(2)

    shapes = {"wte": S((c["vocab"], c["d"])), "wpe": S((c["ctx"], c["d"])), "block": params(gpt2_block_shapes(c["d"], c["ff"])),
              "lnf_g": S((c["d"],)), "lnf_b": S((c["d"],))}  # fmt: skip
    ids = S((c["batch"], c["seq"]), jnp.int32)
    return jax.jit(step), (shapes, shapes, shapes, ids, ids)


# -- UNet block -------------------------------------------------------------------------------------


@family("unet_block")
def _unet():
    groups = 4

    def group_norm(x, g, b, eps=1e-5):
        B, H, W, C = x.shape
        y = x.reshape(B, H, W, groups, C // groups)
        mu = jnp.mean(y, axis=(1, 2, 4), keepdims=True)
        var = jnp.mean(jnp.square(y - mu), axis=(1, 2, 4), keepdims=True)
        return ((y - mu) * lax.rsqrt(var + eps)).reshape(B, H, W, C) * g + b

    def apply(x, temb, p):
        h = jax.nn.silu(group_norm(x, p["gn1_g"], p["gn1_b"]))
        h = conv(h, p["conv1_w"]) + p["conv1_b"]
        h = h + (jax.nn.silu(temb) @ p["temb_w"])[:, None, None, :]
        h = jax.nn.silu(group_norm(h, p["gn2_g"], p["gn2_b"]))
        h = conv(h, p["conv2_w"]) + p["conv2_b"]
        h = h + conv(x, p["skip_w"])
        return conv(h, p["down_w"], 2) + p["down_b"]  # stride-2 downsample

    shapes = {"gn1_g": (16,), "gn1_b": (16,), "conv1_w": (3, 3, 16, 32), "conv1_b": (32,), "temb_w": (64, 32),
              "gn2_g": (32,), "gn2_b": (32,), "conv2_w": (3, 3, 32, 32), "conv2_b": (32,), "skip_w": (1, 1, 16, 32),
              "down_w": (3, 3, 32, 32), "down_b": (32,)}  # fmt: skip
    return jax.jit(apply), (S((2, 16, 16, 16)), S((2, 64)), params(shapes))


# -- rendering --------------------------------------------------------------------------------------


def random_inputs(args: tuple[Any, ...], seed: int, positive: str) -> list[np.ndarray]:
    """Deterministic random values for the flattened arguments: ids in range, normals elsewhere."""
    rng = np.random.default_rng(seed)
    out = []
    for path, leaf in jax.tree_util.tree_flatten_with_path(args)[0]:
        if np.issubdtype(leaf.dtype, np.integer):
            out.append(rng.integers(0, 2, leaf.shape).astype(leaf.dtype))  # valid for every id/label/mask
        elif re.search(positive, jax.tree_util.keystr(path)):
            out.append((1 + np.abs(rng.standard_normal(leaf.shape))).astype(leaf.dtype))
        else:
            out.append((rng.standard_normal(leaf.shape) * 0.5).astype(leaf.dtype))
    return out


def render(name: str) -> tuple[str, str, bytes]:
    """The plain text, the debug text and the .npz bytes of one family."""
    f, args = FAMILIES[name]()
    lowered = f.lower(*args)
    header = f"// Generated by testdata/models/generate.py (jax {jax.__version__}); family '{name}'{{}}. Do not edit.\n"
    plain = header.format("") + lowered.as_text()
    debug = header.format(" with debug_info=True") + lowered.as_text(debug_info=True).replace(THIS_FILE, REL_THIS_FILE)
    inputs = random_inputs(args, sum(map(ord, name)), POSITIVE[name])
    treedef = jax.tree.structure(args)
    outputs = jax.tree.leaves(f(*jax.tree.unflatten(treedef, inputs)))
    buf = io.BytesIO()
    arrays = {f"arg{i}": a for i, a in enumerate(inputs)} | {f"out{i}": np.asarray(o) for i, o in enumerate(outputs)}
    np.savez_compressed(buf, **arrays)
    return plain, debug, buf.getvalue()


def main(argv: list[str]) -> int:
    check = "--check" in argv
    only = [a for a in argv if not a.startswith("--")]
    stale = []
    for name in FAMILIES:
        if only and name not in only:
            continue
        plain, debug, npz = render(name)
        for fname, data in ((f"{name}.mlir", plain.encode()), (f"{name}.debug.mlir", debug.encode()), (f"{name}.npz", npz)):
            path = os.path.join(HERE, fname)
            if check:
                if fname.endswith(".mlir") and (not os.path.exists(path) or open(path, "rb").read() != data):
                    stale.append(fname)
            else:
                with open(path, "wb") as fh:
                    fh.write(data)
                print(f"wrote {fname} ({len(data)} bytes)")
    if check:
        if stale:
            print("stale:", " ".join(stale))
            return 1
        print("all files up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
