"""Whole-model check: one decode step (and one prefill) of public LLMs, estimated op by op with the
cost model, against the published tokens/s/user.

    python bench/whole_model.py [--recipe tt-transformers,tt-mlir] [--ops MODEL]

Two recipes, one per published source (bench/calibration/whole_model_*.csv):

* tt-transformers (tt-metal's hand-written TTNN models, models/tt_transformers/PERF.md): the
  decode layer as the LLMs tech report builds it — rms_norm, fused QKV matmul, create-heads,
  fused rotary, paged cache update, SDPA-decode over the KV cache, concat-heads, WO, residual
  add, rms_norm, FF1 and FF3, multiply (SiLU fused), FF2, residual add — with activations
  width-sharded in L1, every projection a DRAM-sharded matmul (bfp8 attention, bfp4 MLP as
  published), the LM head DRAM-sharded in bfp8, embedding and argmax on device. Traced decode.
  Prefill (TTFT, 128 tokens for the batch-32 table): 2-D DRAM-interleaved matmuls, untraced, so
  every op also costs the host its dispatch.
* tt-mlir (tt-xla benchmark, batch 32, 128 cached tokens): the op list tt-mlir compiles, taken
  from tt-mlir's own model file (test/ttmlir/models/single_blocks_and_layers/<model>_decode_block.mlir
  in the tt-mlir mirror) lowered with `ttopt opt --ttir-to-ttnn-backend-pipeline`: every op of the
  lowered block is costed at its layouts, except what depends only on weights (tt-mlir hoists it
  into const-eval) and with matmul weights in bfp8 (`experimental-bfp8-weights`). The block has no
  KV cache: per layer the cache update and the attention over 128 cached tokens are added; per
  step the embedding, final norm, LM head and argmax. If a block does not lower, the model is
  reported as such (it is not replaced by another recipe).

The step time is the sum of the ops' estimates (each one includes its launch and the op-to-op
gap: the programs run back to back under trace). tokens/s/user = 1 / step time for every batch
size (all users advance one token per step). The table prints estimate / published, and the ops
that dominate the step. Model shapes are the models' public configs; the layer counts are
written here, the per-layer shapes are checked against tt-mlir's model files where they exist.
"""

from __future__ import annotations

import argparse
import csv
import math
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from ttopt.device.cost_terms import (  # noqa: E402
    CostParams,
    Terms,
    combine,
    matmul_terms,
    params_for,
    rotary_terms,
    sdpa_decode_terms,
    stream_terms,
)  # fmt: skip
from ttopt.device.presets import COST_TABLE  # noqa: E402

CALIBRATION = ROOT / "bench" / "calibration"
TTMLIR_MIRROR = Path("/work/.mirror/tenstorrent+tt-mlir/repo")
BLOCK_DIR = "test/ttmlir/models/single_blocks_and_layers"
DEVICES = {"N150": "wormhole_b0", "P150": "blackhole"}


@dataclass(frozen=True)
class LLM:
    """The shapes of a decoder-only LLM (its public config)."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int
    vocab: int
    gated: bool = True  # SwiGLU/GeGLU (gate and up projections) vs a plain 2-matmul MLP
    block: str = ""  # tt-mlir model file stem (<block>_decode_block.mlir)


MODELS = {
    "Llama-3.2-1B": LLM(16, 2048, 32, 8, 64, 8192, 128256, block="llama_3_2_1b"),
    "Llama-3.2-3B": LLM(28, 3072, 24, 8, 128, 8192, 128256, block="llama_3_2_3b"),
    "Llama-3.1-8B": LLM(32, 4096, 32, 8, 128, 14336, 128256, block="llama_3_1_8b"),
    "Mistral-7B": LLM(32, 4096, 32, 8, 128, 14336, 32768, block="mistral_7b"),
    "Phi3.5-mini": LLM(32, 3072, 32, 32, 96, 8192, 32064),
    "qwen_2_5_0_5b": LLM(24, 896, 14, 2, 64, 4864, 151936, block="qwen_2_5_0_5b"),
    "qwen_2_5_1_5b": LLM(28, 1536, 12, 2, 128, 8960, 151936, block="qwen_2_5_1_5b"),
    "qwen_2_5_3b": LLM(36, 2048, 16, 2, 128, 11008, 151936, block="qwen_2_5_3b"),
    "qwen_2_5_7b": LLM(28, 3584, 28, 4, 128, 18944, 152064, block="qwen_2_5_7b"),
    "qwen_3_0_6b": LLM(28, 1024, 16, 8, 128, 3072, 151936, block="qwen_3_0_6b"),
    "qwen_3_1_7b": LLM(28, 2048, 16, 8, 128, 6144, 151936, block="qwen_3_1_7b"),
    "qwen_3_4b": LLM(36, 2560, 32, 8, 128, 9728, 151936, block="qwen_3_4b"),
    "gemma_1_1_2b": LLM(18, 2048, 8, 1, 256, 16384, 256000, block="gemma_1_1_2b"),
    "falcon3_1b": LLM(18, 2048, 8, 4, 256, 8192, 131072, block="falcon_3_1b"),
    "falcon3_3b": LLM(22, 3072, 12, 4, 256, 9216, 131072, block="falcon_3_3b"),
    "phi1": LLM(24, 2048, 32, 32, 64, 8192, 51200, gated=False, block="phi_1"),
    "phi1_5": LLM(24, 2048, 32, 32, 64, 8192, 51200, gated=False, block="phi_1_5"),
    "phi2": LLM(32, 2560, 32, 32, 80, 10240, 51200, gated=False, block="phi_2"),
    "mistral_7b": LLM(32, 4096, 32, 8, 128, 14336, 32768, block="mistral_7b"),
    "llama_3_2_1b": LLM(16, 2048, 32, 8, 64, 8192, 128256, block="llama_3_2_1b"),
    "llama_3_2_3b": LLM(28, 3072, 24, 8, 128, 8192, 128256, block="llama_3_2_3b"),
}


def tiles(rows: int, cols: int) -> int:
    return math.ceil(rows / 32) * math.ceil(cols / 32)


# ---------------------------------------------------------------------------------------------
# Op builders: each returns (name, Terms).

Op = tuple[str, Terms]


def sdpa_decode(p: CostParams, batch: int, m: LLM, kv_len: int, kv_fmt: str, cores: int) -> Terms:
    """Attention of one new token per user over `kv_len` cached tokens (cost_terms.sdpa_decode_terms)."""
    return sdpa_decode_terms(p, batch, m.heads, m.kv_heads, m.head_dim, kv_len, kv_fmt, cores=cores)


def small(p: CostParams, kind: str, rows: int, cols: int, cores: int = 64, dram_bytes: float = 0.0) -> Terms:
    """A streaming op on an L1-sharded (rows x cols) activation (plus `dram_bytes` it reads/writes)."""
    n = tiles(rows, cols)
    return stream_terms(p, kind, n, min(cores, n), dram_bytes, math.ceil(dram_bytes / 2048))


def ds_in0_cores(kt: int, nt: int) -> int:
    """The activation grid of a tt-transformers DRAM-sharded matmul: the most cores, at most 8x8,
    that divide both K and N in tiles (model_config.py dram_shard_core_grid_for_k_and_n). Its
    shard width sets in0_block_w and so the length of the activation multicast chain."""
    for c in range(64, 0, -1):
        if kt % c == 0 and nt % c == 0 and any(c % r == 0 and c // r <= 8 for r in range(1, 9)):
            return c
    return 1


def ttmlir_in0_block_w(k: int, n: int) -> int:
    """in0_block_w of the 1-D program config tt-mlir's optimizer gives a decode matmul (the runs
    PR 9252 publishes compile at optimization level 2, where each decode matmul gets a sharded
    output and this config; ttopt's matmul_config.derive_program_config holds the same rule):
    2 (1 for odd Kt) when Nt > 128, else the largest of 8, 4, 2, 1 dividing Kt."""
    kt, nt = math.ceil(k / 32), math.ceil(n / 32)
    if nt > 128:
        return 2 if kt % 2 == 0 else 1
    return next(w for w in (8, 4, 2, 1) if kt % w == 0)


def host_step_ns(rows: list[dict], batch: int) -> tuple[float, str]:
    """The demo's per-step host time at `batch` users, from PERF.md alone: the published figures
    come from simple_text_demo's token-matching run (teacher forcing), so every decode step waits
    for its token on the host before the next one starts. For each model published on N150 and
    N300 at that batch, 2 t(N300) - t(N150) is the step time with no device time left if N300 (two
    chips) halved it; those intercepts still hold N300's per-layer all-reduces, so they are
    regressed on the layer count and the zero-layer value is the host time (the slope is the
    all-reduce cost per layer). Batch sizes between the published ones interpolate linearly."""
    by: dict[tuple[str, int], dict[str, float]] = defaultdict(dict)
    for r in rows:
        if r["metric"] == "tokens_per_s_per_user":
            by[(r["model"], int(r["batch"]))][r["device"]] = 1e9 / float(r["value"])
    fits = {}
    for b in sorted({k[1] for k in by}):
        pts = [(MODELS[mod].layers, 2 * t["N300"] - t["N150"]) for (mod, bb), t in by.items() if bb == b and {"N150", "N300"} <= t.keys()]
        if len(pts) < 2:
            continue
        n = len(pts)
        mx, my = sum(x for x, _ in pts) / n, sum(y for _, y in pts) / n
        slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
        fits[b] = (my - slope * mx, slope, n)
    bs = sorted(fits)
    lo = max([b for b in bs if b <= batch], default=bs[0])
    hi = min([b for b in bs if b >= batch], default=bs[-1])
    h = fits[lo][0] if hi == lo else fits[lo][0] + (fits[hi][0] - fits[lo][0]) * (batch - lo) / (hi - lo)
    why = "; ".join(f"batch {b}: {fits[b][0] / 1e6:.2f} ms host + {fits[b][1] / 1e3:.0f} us/layer all-reduce ({fits[b][2]} models)" for b in bs)
    return h, why


def tt_transformers_decode(p: CostParams, arch: str, m: LLM, batch: int, kv_len: int, ff2_bfp8: bool) -> list[Op]:
    """One decode step of a tt-transformers model (see the module doc)."""
    rows = max(32, batch)
    qkv = (m.heads + 2 * m.kv_heads) * m.head_dim

    def ds(k: int, n: int, fmt: str, fid: str) -> Terms:
        cores = ds_in0_cores(math.ceil(k / 32), math.ceil(n / 32))
        return matmul_terms(p, rows, k, n, "bf16", fmt, "bf16", fid, "l1_s", "dram_s", "l1_s", cores)

    layer: list[Op] = [
        ("rms_norm", small(p, "norm", rows, m.hidden)),
        ("qkv_matmul", ds(m.hidden, qkv, "bfp_bf8", "HiFi2")),
        ("create_heads", small(p, "data_movement", rows, qkv)),
        ("rotary_qk", small(p, "norm", rows * (m.heads + m.kv_heads), m.head_dim)),
        (
            "update_cache",
            small(p, "data_movement", rows * 2 * m.kv_heads, m.head_dim, dram_bytes=2 * batch * m.kv_heads * m.head_dim * 1.0625),
        ),
        ("sdpa_decode", sdpa_decode(p, batch, m, kv_len, "bfp_bf8", 64)),
        ("concat_heads", small(p, "data_movement", rows, m.heads * m.head_dim)),
        ("wo_matmul", ds(m.heads * m.head_dim, m.hidden, "bfp_bf8", "HiFi2")),
        ("residual_add", small(p, "eltwise_binary", rows, m.hidden)),
        ("rms_norm", small(p, "norm", rows, m.hidden)),
        ("ff1_matmul", ds(m.hidden, m.ffn, "bfp_bf4", "LoFi")),
        ("ff3_matmul", ds(m.hidden, m.ffn, "bfp_bf4", "LoFi")),
        ("mul_silu", small(p, "eltwise_binary", rows, m.ffn)),
        ("ff2_matmul", ds(m.ffn, m.hidden, "bfp_bf8" if ff2_bfp8 else "bfp_bf4", "HiFi2" if ff2_bfp8 else "LoFi")),
        ("residual_add", small(p, "eltwise_binary", rows, m.hidden)),
    ]
    ops = [(name, t) for _ in range(m.layers) for name, t in layer]
    chunks = 4 if m.vocab > 100_000 else 1  # the LM head is split to fit L1 (tt-metal PR 13340)
    ops += [
        ("embedding", small(p, "data_movement", rows, m.hidden, dram_bytes=batch * m.hidden * 2)),
        ("final_norm", small(p, "norm", rows, m.hidden)),
    ]
    ops += [("lm_head", ds(m.hidden, math.ceil(m.vocab / chunks), "bfp_bf8", "HiFi2"))] * chunks
    if chunks > 1:
        ops.append(("lm_head_concat", small(p, "data_movement", rows, m.vocab)))
    ops.append(("argmax", small(p, "reduction", rows, m.vocab)))
    return ops


def tt_transformers_prefill(p: CostParams, m: LLM, seq: int) -> list[Op]:
    """One user's prefill of `seq` tokens: DRAM-interleaved matmuls, untraced (host dispatch)."""
    qkv = (m.heads + 2 * m.kv_heads) * m.head_dim

    def mm(k: int, n: int, fmt: str, fid: str) -> Terms:
        # The LLMs tech report: 2-D multicast matmuls for every prefill matmul, DRAM interleaved.
        return matmul_terms(p, seq, k, n, "bf16", fmt, "bf16", fid, "dram_i", "dram_i", "dram_i", p.grid_cores, program="2d")

    def dram_op(kind: str, cols: int, inputs: int = 1) -> Terms:
        n = tiles(seq, cols)
        return stream_terms(p, kind, n, p.grid_cores, (inputs + 1) * n * 2048, (inputs + 1) * n)

    attn_blocks = m.heads * math.ceil(seq / 32) ** 2 * math.ceil(m.head_dim / 32) * 2 // 2  # causal
    attn = combine(
        p,
        "matmul",
        math.ceil(attn_blocks / p.grid_cores) * p.matmul_cycles_lofi * 4 / p.clock_ghz,
        3 * tiles(seq, qkv) * 2048 / p.dram_stream_gbps,
        0.0,
    )
    layer = [
        ("rms_norm", dram_op("norm", m.hidden)), ("qkv_matmul", mm(m.hidden, qkv, "bfp_bf8", "HiFi2")),
        ("create_heads", dram_op("data_movement", qkv)), ("rotary", dram_op("norm", (m.heads + m.kv_heads) * m.head_dim)),
        ("fill_cache", dram_op("data_movement", 2 * m.kv_heads * m.head_dim)), ("sdpa", attn),
        ("concat_heads", dram_op("data_movement", m.heads * m.head_dim)), ("wo_matmul", mm(m.heads * m.head_dim, m.hidden, "bfp_bf8", "HiFi2")),
        ("residual_add", dram_op("eltwise_binary", m.hidden, 2)), ("rms_norm", dram_op("norm", m.hidden)),
        ("ff1_matmul", mm(m.hidden, m.ffn, "bfp_bf4", "LoFi")), ("ff3_matmul", mm(m.hidden, m.ffn, "bfp_bf4", "LoFi")),
        ("mul_silu", dram_op("eltwise_binary", m.ffn, 2)), ("ff2_matmul", mm(m.ffn, m.hidden, "bfp_bf8", "HiFi2")),
        ("residual_add", dram_op("eltwise_binary", m.hidden, 2)),
    ]  # fmt: skip
    ops = [(name, t) for _ in range(m.layers) for name, t in layer]
    ops += [
        ("lm_head", matmul_terms(p, 32, m.hidden, m.vocab, "bf16", "bfp_bf8", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", p.grid_cores))
    ]
    return ops


def untraced_ns(p: CostParams, ops: list[Op], host_ns: float) -> float:
    """Untraced: the host dispatches op i+1 while the device runs op i, so the run takes the longer
    of the device's total and the host's dispatch of every op."""
    return max(sum(t.ns for _, t in ops), len(ops) * host_ns)


# ---------------------------------------------------------------------------------------------
# tt-mlir recipe: cost the lowered decode block.


def lower_block(block: str, workdir: Path) -> tuple[Path | None, str]:
    """Lower tt-mlir's <block>_decode_block.mlir to TTNN with ttopt; (file, '') or (None, why).
    Const-eval is off: block_ops leaves out what depends on weights alone itself, in one function."""
    src = workdir / f"{block}_decode_block.mlir"
    out = workdir / f"{block}_decode_block.ttnn.mlir"
    text = subprocess.run(["git", f"--git-dir={TTMLIR_MIRROR}", "show", f"HEAD:{BLOCK_DIR}/{block}_decode_block.mlir"],
                          capture_output=True, text=True)  # fmt: skip
    if text.returncode:
        return None, "no tt-mlir model file"
    src.write_text(text.stdout)
    run = subprocess.run([sys.executable, "-m", "ttopt", "opt", str(src), "--ttir-to-ttnn-backend-pipeline=optimization-level=0 enable-const-eval=false", "-o", str(out)],
                         capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})  # fmt: skip
    if run.returncode:
        return None, (run.stderr.strip().splitlines() or ["lowering failed"])[0][:120]
    return out, ""


def block_ops(path: Path, arch: str) -> tuple[list[Op], dict[str, Any]]:
    """The per-layer ops of a lowered decode block, costed: ops computed from weights alone are
    left out (tt-mlir hoists them into const-eval); weight matmuls read bfp8 weights, DRAM
    interleaved, at the lowered activation layouts; the block's own attention (one token over
    itself: batched matmuls of activations) is left out, the KV-cache attention replaces it; every
    rotary embedding is tt-metal's rotary program over the dense rows (cost_terms.rotary_terms); every
    other op is costed as a streaming op of its kind over its tensors' elements, DRAM
    interleaved, dense: tt-mlir's graph keeps a batch-32 decode activation as 32 rows (one tile
    row), where ttopt's lowering keeps [32, 1, H] and pads each user's row to a whole tile."""
    from ttopt.device import CostModel, preset
    from ttopt.device.cost_model import ROW_SPLIT_NORMS, mem_of, op_fidelity, tile_rows
    from ttopt.device.layout_info import layout_info
    from ttopt.ir.types import TensorType
    from ttopt.parse.parser import parse_module

    module = parse_module(path.read_text(), str(path))
    cm = CostModel(preset("blackhole" if arch == "blackhole" else "wormhole_b0"))
    p = cm.params
    fn = module.functions()[0]
    body = fn.regions[0].entry
    # Weights (argument_type parameter/constant) and whatever is computed from them alone are
    # const-eval in tt-mlir: hoisted out of the per-step program.
    arg_attrs = fn.properties.get("arg_attrs")
    kinds = [a.canonical() for a in arg_attrs.items] if arg_attrs is not None else []
    constant = {a for a, k in zip(body.args, kinds) if "argument_type<input>" not in k}
    ops: list[Op] = []
    info = {"ops": 0, "const_eval": 0, "attention": 0}
    for op in body.ops:
        tensor_operands = [v for v in op.operands if isinstance(v.type.resolve(), TensorType)]
        if op.results and tensor_operands and all(v in constant for v in tensor_operands):
            constant.update(op.results)
            info["const_eval"] += 1
            continue
        if not op.name.startswith("ttnn.") or not op.results or op.name in ("ttnn.deallocate", "ttnn.get_device"):
            continue
        if not isinstance(op.results[0].type.resolve(), TensorType):
            continue
        if op.name == "ttnn.constant":
            constant.update(op.results)
            info["const_eval"] += 1
            continue
        short = op.name.split(".")[1]
        if op.name in ("ttnn.matmul", "ttnn.linear") and len(tensor_operands) >= 2:
            if tensor_operands[1] not in constant:
                info["attention"] += 1
                continue
            a = tensor_operands[0].type.resolve()
            out = op.results[0].type.resolve()
            la, lo = layout_info(a.encoding.typed), layout_info(out.encoding.typed)
            rows = math.prod(out.shape[:-1])
            t = matmul_terms(p, rows, a.shape[-1], out.shape[-1], la.dtype.value, "bfp_bf8", lo.dtype.value,
                             op_fidelity(op, "bfp_bf8"), mem_of(la), "dram_i", mem_of(lo), p.grid_cores,
                             in0_block_w=ttmlir_in0_block_w(a.shape[-1], out.shape[-1]))  # fmt: skip
        elif op.name == "ttnn.rotary_embedding" and len(tensor_operands) >= 3:
            # tt-metal's rotary program (cost_terms.rotary_terms) over the dense rows
            x, cache = tensor_operands[0].type.resolve(), tensor_operands[1].type.resolve()
            rows = math.ceil(math.prod(x.shape[:-1]) / 32) * 32
            fmt, cache_fmt = layout_info(x.encoding.typed).dtype.value, layout_info(cache.encoding.typed).dtype.value
            decode = op.properties.get("token_index") is not None
            t = rotary_terms(p, (rows, x.shape[-1]), fmt, cache_fmt, decode, True, True, True, cores=p.grid_cores)
        else:
            tensors = [v.type.resolve() for v in tensor_operands if v not in constant] + [op.results[0].type.resolve()]
            dense = [math.ceil(math.prod(t.shape) / 1024) for t in tensors]
            nbytes = sum(n * layout_info(t.encoding.typed).element_bytes for n, t in zip(dense, tensors))
            kind = cm.op_kind(op)
            # as CostModel: a reduction's cores each take whole output tiles (argmax aside)
            parallel = dense[-1] if kind == "reduction" and short != "argmax" else 0
            if op.name in ROW_SPLIT_NORMS:
                # as CostModel: an interleaved norm's cores each take whole tile rows
                parallel = tile_rows(tensors[0].shape)
            t = stream_terms(p, kind, max(dense), p.grid_cores, nbytes, sum(dense), parallel=parallel)
        info["ops"] += 1
        ops.append((short, t))
    return ops, info


def ttmlir_decode(p: CostParams, arch: str, m: LLM, batch: int, kv_len: int, layer_ops: list[Op]) -> list[Op]:
    """One tt-mlir decode step: the lowered block per layer plus the KV cache and the per-step ops."""
    rows = max(32, batch)
    cache_bytes = batch * m.kv_heads * kv_len * m.head_dim * 2  # bf16 cache, DRAM interleaved
    per_layer = list(layer_ops) + [
        ("update_cache_k", small(p, "data_movement", rows * m.kv_heads, m.head_dim, dram_bytes=cache_bytes / kv_len)),
        ("update_cache_v", small(p, "data_movement", rows * m.kv_heads, m.head_dim, dram_bytes=cache_bytes / kv_len)),
        ("attention_over_cache", sdpa_decode(p, batch, m, kv_len, "bf16", 64)),
    ]
    ops = [op for _ in range(m.layers) for op in per_layer]
    ops += [
        (
            "embedding",
            stream_terms(p, "data_movement", tiles(rows, m.hidden), 64, 2 * tiles(rows, m.hidden) * 2048, 2 * tiles(rows, m.hidden)),
        ),
        ("final_norm", stream_terms(p, "norm", tiles(rows, m.hidden), 64, 2 * tiles(rows, m.hidden) * 2048, 2 * tiles(rows, m.hidden))),
        (
            "lm_head",
            matmul_terms(
                p, rows, m.hidden, m.vocab, "bf16", "bfp_bf8", "bf16", "HiFi2", "dram_i", "dram_i", "dram_i", p.grid_cores,
                in0_block_w=ttmlir_in0_block_w(m.hidden, m.vocab),
            ),
        ),
        ("argmax", stream_terms(p, "reduction", tiles(rows, m.vocab), 64, tiles(rows, m.vocab) * 2048, tiles(rows, m.vocab))),
    ]
    return ops


# ---------------------------------------------------------------------------------------------


def published(name: str) -> list[dict]:
    return list(csv.DictReader((CALIBRATION / name).open()))


def breakdown(ops: list[Op]) -> list[tuple[str, float, int]]:
    """(op name, total ns, count), largest first."""
    acc: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for n, t in ops:
        acc[n][0] += t.ns
        acc[n][1] += 1
    return sorted(((n, v[0], int(v[1])) for n, v in acc.items()), key=lambda x: -x[1])


def floor_share(ops: list[Op]) -> float:
    total = sum(t.ns for _, t in ops)
    return sum(t.floor_ns for _, t in ops) / total if total else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recipe", default="tt-transformers,tt-mlir")
    ap.add_argument("--ops", default="", help="also print the per-op breakdown of this model")
    args = ap.parse_args(argv)
    recipes = set(args.recipe.split(","))
    console = Console(width=170)
    results: list[dict] = []
    detail: dict[str, list[Op]] = {}

    if "tt-transformers" in recipes:
        table = Table(title="tt-transformers (tt-metal models/tt_transformers/PERF.md): estimate vs published")
        for col in ("model", "device", "batch", "metric", "published", "estimate", "est/pub", "ops/step", "floor share", "top ops"):
            table.add_column(
                col, justify="right" if col in ("batch", "published", "estimate", "est/pub", "ops/step", "floor share") else "left"
            )
        ttt_rows = published("whole_model_tt_transformers.csv")
        console.print(f"tt-transformers per-step host time (PERF.md N150/N300 scaling): {host_step_ns(ttt_rows, 1)[1]}")
        for r in ttt_rows:
            if r["device"] not in DEVICES:
                continue  # N300 rows only feed host_step_ns
            m = MODELS[r["model"]]
            arch = DEVICES[r["device"]]
            p = params_for(arch)
            batch = int(r["batch"])
            if r["metric"] == "tokens_per_s_per_user":
                # Batch 1: generation of up to 200 tokens after a short prompt (~256 cached tokens on
                # average); batch 32: 128-token prompts, the same. Each step also waits for the host.
                ops = tt_transformers_decode(p, arch, m, batch, 256, ff2_bfp8=batch == 32)
                est = 1e9 / (sum(t.ns for _, t in ops) + host_step_ns(ttt_rows, batch)[0])
                detail[f"{r['model']} {r['device']} b{batch}"] = ops
                top = ", ".join(f"{n} {ns / 1e6:.2f} ms" for n, ns, _ in breakdown(ops)[:3])
                share = f"{floor_share(ops):.0%}"
                count = str(len(ops))
            else:
                seq = int(r["seq"]) or 128
                ops = tt_transformers_prefill(p, m, seq)
                host = getattr(COST_TABLE["host_dispatch_ns"], arch)
                est = untraced_ns(p, ops, host) / 1e6
                top, share, count = (
                    f"{len(ops)} ops x {host / 1000:.0f} us host dispatch vs {sum(t.ns for _, t in ops) / 1e6:.1f} ms device",
                    "",
                    str(len(ops)),
                )
            pub = float(r["value"])
            ratio = est / pub if r["metric"] == "ttft_ms" else pub / est  # est/pub in time
            results.append(
                {
                    "source": "tt-transformers",
                    "model": r["model"],
                    "device": r["device"],
                    "batch": batch,
                    "metric": r["metric"],
                    "ratio": ratio,
                }
            )
            table.add_row(
                r["model"],
                r["device"],
                str(batch),
                "t/s/u" if r["metric"] != "ttft_ms" else "TTFT ms",
                f"{pub:.1f}",
                f"{est:.1f}",
                f"{ratio:.2f}",
                count,
                share,
                top,
            )
        console.print(table)

    if "tt-mlir" in recipes:
        table = Table(
            title="tt-mlir compiled (tt-xla benchmark, n150, batch 32, 128 cached tokens, DRAM-sharded matmuls off): estimate vs published"
        )
        for col in (
            "model",
            "published it/s",
            "estimate it/s",
            "est/pub (time)",
            "ops/layer",
            "const-eval",
            "floor share",
            "top ops",
            "note",
        ):
            table.add_column(col, justify="left" if col in ("model", "top ops", "note") else "right")
        with tempfile.TemporaryDirectory() as tmp:
            for r in published("whole_model_ttmlir.csv"):
                if not r["id"].endswith("ds_off"):
                    continue
                m = MODELS.get(r["model"])
                pub = float(r["value"])
                if m is None or not m.block:
                    table.add_row(r["model"], f"{pub:.2f}", "-", "-", "-", "-", "-", "", "no tt-mlir decode block")
                    continue
                path, why = lower_block(m.block, Path(tmp))
                if path is None:
                    table.add_row(r["model"], f"{pub:.2f}", "-", "-", "-", "-", "-", "", f"does not lower: {why}")
                    continue
                p = params_for("wormhole_b0")
                layer_ops, info = block_ops(path, "wormhole_b0")
                ops = ttmlir_decode(p, "wormhole_b0", m, 32, 128, layer_ops)
                est = 1e9 / sum(t.ns for _, t in ops)
                detail[f"{r['model']} tt-mlir"] = ops
                ratio = pub / est
                results.append(
                    {"source": "tt-mlir", "model": r["model"], "device": "N150", "batch": 32, "metric": r["metric"], "ratio": ratio}
                )
                top = ", ".join(f"{n} {ns / 1e6:.2f} ms" for n, ns, _ in breakdown(ops)[:3])
                table.add_row(
                    r["model"],
                    f"{pub:.2f}",
                    f"{est:.2f}",
                    f"{ratio:.2f}",
                    str(info["ops"]),
                    str(info["const_eval"]),
                    f"{floor_share(ops):.0%}",
                    top,
                    "",
                )
        console.print(table)

    decode = [x for x in results if x["metric"] != "ttft_ms"]
    within = [x for x in decode if 1 / 1.5 <= x["ratio"] <= 1.5]
    console.print(f"decode: {len(within)}/{len(decode)} estimates within 1.5x of the published tokens/s/user")
    for src in ("tt-transformers", "tt-mlir"):
        sel = [x for x in decode if x["source"] == src]
        if sel:
            g = math.exp(sum(math.log(x["ratio"]) for x in sel) / len(sel))
            console.print(
                f"  {src}: {sum(1 / 1.5 <= x['ratio'] <= 1.5 for x in sel)}/{len(sel)} within 1.5x, geomean est/pub (time) {g:.2f}"
            )
    if args.ops:
        for key, ops in detail.items():
            if key.startswith(args.ops):
                bt = Table(title=f"{key}: per-op totals over one decode step")
                for col in ("op", "count", "total ms", "share", "floor ms"):
                    bt.add_column(col, justify="left" if col == "op" else "right")
                total = sum(t.ns for _, t in ops)
                floors: dict[str, float] = defaultdict(float)
                for n, t in ops:
                    floors[n] += t.floor_ns
                for n, ns, c in breakdown(ops):
                    bt.add_row(n, str(c), f"{ns / 1e6:.3f}", f"{ns / total:.0%}", f"{floors[n] / 1e6:.3f}")
                console.print(bt)
    return 0


if __name__ == "__main__":
    sys.exit(main())
