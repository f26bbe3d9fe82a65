"""Fit the cost model to published Tenstorrent measurements and validate it suite by suite.

    python bench/calibrate.py [--write] [--calibration DIR]
    python bench/calibrate.py --row ID [--row ID ...]

A suite is one source's measurements: one CSV under bench/calibration/ (README there). The fit is
per architecture, least squares on log(estimate / measured) with each suite weighted 1/sqrt(n)
(so GEMM_FLOPS' 117 rows per device do not drown a 2-row suite) over a per-point scatter of
ln 1.25, each point under a Cauchy loss (`robust`), plus a soft prior on every fitted
parameter (its documented prior value, log-sd from cost_params.json): a parameter no fitted suite
informs stays at its prior. Suites in HELD_OUT are never fitted; they only evaluate.

Prints:
* the fitted parameters;
* per suite: role (fit / held out), n, in-sample geomean estimate/measured, leave-one-suite-out
  (LOSO) geomean, geometric SD and share within 1.5x (a fitted suite is scored by a fit that did
  not see it; a held-out suite by the full fit), and the pooled totals;
* every decode-shaped matmul (M <= 64): estimate, measured, ratio;
* pairwise rank agreement over same-shape pairs in different memory configs (matmul, eltwise L1 vs
  DRAM, reduction), in-sample and LOSO.

`--write` stores the fitted values and the fit's quality in ttopt/device/cost_params.json.
`--row ID` fits nothing: it prints the named rows' estimates under the stored parameters, term by
term (compute, DRAM, NoC, launch, op-to-op gap, overlap, serial hand-offs), to see which term
binds a row.
Blackhole fits its GEMM parameters on GEMM_FLOPS and its streaming, DRAM-sharded, hand-off,
launch and norm parameters on its decode layers (FREE), each with a prior from Wormhole's fit x a
hardware ratio (BH_PRIOR) or from cost_params.json; its other parameters are Wormhole's fitted
values x the ratio written next to them (BH_SCALE). The norm's cycles per tile, a kernel's and not
a chip's, are fitted on Blackhole and stored for Wormhole too (SHARED_CYCLES). Deterministic.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import sys
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table
from scipy.optimize import least_squares

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttopt.device.cost_model import NORM_EXCHANGES, REDUCTION_PASSES, activation_cycles, head_program_rows  # noqa: E402
from ttopt.device.cost_terms import (  # noqa: E402
    CALIBRATION_FILE,
    ConvShape,
    CostParams,
    Terms,
    accumulation_of,
    conv_k_tiles,
    conv_program_terms,
    matmul_terms,
    mem_code,
    params_from,
    reshape_tiled_terms,
    rotary_terms,
    runs_unfused_1d,
    sdpa_decode_terms,
    stream_terms,
    tile_bytes,
    tile_row_reader_terms,
    tilize_terms,
    transpose_hc_terms,
    untilize_terms,
)  # fmt: skip
from ttopt.device.matmul_config import MCAST_IN1, interleaved_factor, interleaved_program  # noqa: E402
from ttopt.device.presets import CHIP_PRESETS  # noqa: E402

CALIBRATION_DIR = ROOT / "bench" / "calibration"
NOT_SUITES = ("parameter_sources", "whole_model_")
# Evaluation only: the decode-regime matmul sources (their bandwidths come from the tech-report
# priors, 190 GB/s interleaved, 240 GB/s DRAM-sharded, so these check them rather than fit them),
# the DeepSeek-V3 norms, which check the assumed norm parameters, the DeepSeek-V3 linears (bf16
# decode matmuls and batched-head matmuls at ttnn's own program configs), a Blackhole prefill
# layer's ops (Blackhole's streaming, hand-off and launch parameters are fitted on the Blackhole
# decode layers: the prefill layer checks them at M = 128), tt-metal's sdpa_decode on a p100a (the
# decode attention term, priced from parameters fitted elsewhere), and Wormhole DRAM-sharded matmuls
# timed in tt-metal's DeepSeek matmul test (the DRAM-sharded program on 2026 kernels), and a
# Blackhole capture's tilize calls (tt-metal's two tilize programs), rotary embeddings and head
# split / concat programs, priced from parameters fitted on other ops, and a third Blackhole
# capture's layer (Phi-3.5-mini: weight tilizes, head programs, prefill and decode matmuls, norms,
# a slice, an add, a negation), every op priced by parameters fitted on the other captures, and
# tiled reshapes that are not views (DeepSeek-V3's targets and a Gemma capture's) and a Gemma
# capture's HC transpose, priced from the permute targets' per-write cost, and the same capture's
# interleaved RMS norms, three with a row-major weight, and three more Blackhole captures'
# element-wise ops (SiLU and sigmoid at their measured kernels' cycles, a multiply, typecasts
# between bf16, bfp8 and f32, the MoE routers' softmaxes), and an OFT capture's convolutions on a
# 20-core Blackhole grid, priced by the conv parameters a DeepLabV3 capture fits, and that DeepLabV3
# capture's matmuls (the weight-multicast program and tt-metal's auto-picker, no parameter of their own)
# and element-wise ops (relu, adds, bf16 -> bfp8 typecasts on its 110 cores). Its layout conversions
# are fitted: they are the only write-only DRAM measurements (`dram_write_share`). The OFT capture's
# conversions (a 20-core grid) check the share; their wide DRAM -> shard reads, which the model
# prices too fast, would pull the read stream down if fitted.
HELD_OUT = (
    "decode_matmul_ttmlir8038", "lm_head_ttmetal13340", "ds_matmul_ttmetal11063", "norm_rms_deepseek_tg",
    "linear_deepseek_tg", "prefill_layer_bh_autoports", "sdpa_decode_bh_ttmetal57161", "ds_matmul_deepseek_wh", "tilize_bh_autoports",
    "rotary_bh_autoports", "heads_bh_autoports", "layer_bh_phi", "reshape_deepseek_tg", "data_movement_bh_gemma",
    "norm_bh_gemma", "eltwise_bh_autoports", "conv_bh_oft", "matmul_bh_deeplabv3", "eltwise_bh_deeplabv3", "layout_bh_oft",
)  # fmt: skip
DEVICE_ARCH = {
    "N150": "wormhole_b0", "N300": "wormhole_b0", "TG": "wormhole_b0", "P150": "blackhole", "P300C": "blackhole",
    "P100A": "blackhole", "Blackhole": "blackhole", "BH110": "blackhole", "BH20": "blackhole",
}  # fmt: skip
# A board smaller than its architecture's parameters assume: a p100a has seven of Blackhole's eight
# DRAM channels, so its chip-wide DRAM streaming rates are 7/8 of the fit's and each page's share of
# the request stream 8/7 (the 2-D matmul's rate is its sender cores' and stays), and 120 worker cores;
# BH110 and BH20 are chips whose captures report 110 (11 x 10) and 20 worker cores, their DRAM taken as
# the full chip's.
BOARDS = {"P100A": (7, 8, 120), "BH110": (8, 8, 110), "BH20": (8, 8, 20)}
# Free parameters per architecture (the rest keep their cost_params.json value).
FREE = {
    "wormhole_b0": (
        "matmul_cycles_lofi", "dram_2d_gbps", "launch_ns.matmul", "overlap", "fallback_gbps", "dram_stream_gbps",
        "l1_interleaved_gbps", "dram_page_ns", "page_latency_ns.reduction", "cycles_per_tile.reduction",
        "sem_hop_ns", "launch_ns.layout", "dram_block_ns", "write_issue_cycles",
    ),
    "blackhole": (
        "matmul_cycles_lofi", "dram_2d_gbps", "launch_ns.matmul", "overlap", "dram_stream_gbps", "dram_sharded_gbps",
        "sem_hop_ns", "dram_block_ns", "launch_ns.layout", "compute_init_ns", "launch_ns.norm", "cycles_per_tile.norm",
        "conv_tilize_cycles", "conv_stick_cycles", "dram_write_share", "reload_cycles_per_kb",
    ),
}  # fmt: skip
# Cycles of a kernel rather than of a chip: fitted on Blackhole, where the data are, and Wormhole's
# value too (as the tt-llk figures measured on Blackhole stand for Wormhole's, cost_params.json).
SHARED_CYCLES = ("cycles_per_tile.norm", "conv_tilize_cycles", "conv_stick_cycles", "reload_cycles_per_kb")
BOUNDS = {"overlap": (0.01, 0.99), "dram_write_share": (0.2, 1.0)}
# Typical log scatter of one published point about the model (run-to-run noise, '~' values,
# unmodelled kernel details): a suite of n points weighs as much as one point of this precision
# per parameter prior of sd_log 1 — the data dominate wherever a suite informs a parameter.
SIGMA_DATA = math.log(1.25)


def robust(z: float) -> float:
    """A data residual (in units of SIGMA_DATA) under a Cauchy loss: quadratic within one scatter,
    logarithmic beyond, so one point the model cannot explain (the DeepSeek-V3 flash-MLA reshard,
    0.3x in sample) does not set a rate other suites measure. Priors keep their quadratic pull."""
    return math.copysign(math.sqrt(math.log1p(z * z)), z)
# A program with a compute kernel launches in the reader/writer-only launch (`launch_ns.layout`,
# fitted) plus the compute kernel's start-up and drain (`compute_init_ns`: measured on Wormhole,
# fitted on Blackhole); an arch may fit a kind's launch on its own (FREE: Blackhole's norms); data
# movement is reader/writer only.
TIED_LAUNCH = ("eltwise_binary", "eltwise_unary", "eltwise_unary_transcendental", "norm", "reduction", "dispatch")
TIED_LAYOUT_LAUNCH = ("data_movement",)
# Interleaved eltwise readers wait on a barrier per page as a reduction's does: the same NoC round
# trip (`page_latency_ns.reduction`, fitted) prices their pages.
TIED_LATENCY = ("eltwise_unary", "eltwise_unary_transcendental", "eltwise_binary")
# Blackhole's parameters without Blackhole data: Wormhole's fit x a hardware ratio.
NOC_RATIO = (64 * 1.35) / (32 * 1.0)  # NoC bytes/cycle x clock
DRAM_RATIO = 512.0 / 288.0  # peak DRAM bandwidth
BH_SCALE = {
    "fallback_gbps": NOC_RATIO, "l1_interleaved_gbps": NOC_RATIO, "dram_page_ns": 1 / 1.35,
    "page_latency_ns.reduction": 1 / NOC_RATIO, "cycles_per_tile.reduction": 1.0, "write_issue_cycles": 1.0,
}  # fmt: skip
# Blackhole's GEMM parameters are a priori Wormhole's (same Tensix matrix engine) x these ratios,
# log-sd ln 1.5: the per-block cycles and overlap alike; the 2-D DRAM rate by the sender cores
# (gx + gy: 13 + 10 vs 8 + 8, each reading through its own NoC link) x the NoC width x clock
# ratio. (A first attempt scaled it by the DRAM peak ratio, 1.78; the Blackhole GEMM fit came
# out 3.0x Wormhole's, and the sender count is why: 2-D multicast reads DRAM only in the senders.)
# The launch alike (faster clock, twice the cores to start).
SENDER_RATIO = (13 + 10) / (8 + 8)
# The streaming rate, the semaphore hand-off and the reader/writer launch are a priori Wormhole's x
# the DRAM peak ratio, the clock ratio and 1 (log-sd ln 1.5, ln 2 for the launch); fitted on the
# Blackhole decode layers, they fall back to these when those suites are left out. The DRAM round
# trip has a Blackhole figure of its own (cost_params.json's prior, tenstorrent/polaris PR 506),
# which the decode layers barely move: their hand-offs overlap it with the semaphore round trip.
BH_PRIOR = {
    "matmul_cycles_lofi": (1.0, math.log(1.5)), "dram_2d_gbps": (SENDER_RATIO * NOC_RATIO, math.log(1.5)),
    "launch_ns.matmul": (1.0, math.log(1.5)), "overlap": (1.0, math.log(1.5)),
    "dram_stream_gbps": (DRAM_RATIO, math.log(1.5)), "sem_hop_ns": (1 / 1.35, math.log(1.5)),
    "launch_ns.layout": (1.0, math.log(2.0)),
}  # fmt: skip
OP_KIND = {
    "slice": "data_movement", "relu": "eltwise_unary", "typecast": "eltwise_unary", "silu": "eltwise_unary_transcendental",
    "multiply": "eltwise_binary", "add": "eltwise_binary", "sum": "reduction", "mean": "reduction", "min": "reduction",
    "max": "reduction", "neg": "eltwise_unary", "to_memory_config": "layout", "rms_norm": "norm", "softmax": "norm",
    "sigmoid": "eltwise_unary_transcendental",
}  # fmt: skip


def load_suites(folder: Path) -> dict[str, list[dict]]:
    """suite name -> rows, numbers parsed (every CSV but the parameter sources and whole-model files)."""
    suites = {}
    for path in sorted(folder.glob("*.csv")):
        if path.stem.startswith(NOT_SUITES):
            continue
        rows = []
        for r in csv.DictReader(path.open()):
            gy, gx = (int(x) for x in r["grid"].split("x"))
            parsed = {**r, "suite": path.stem, "cores": gy * gx, "value": float(r["value"]), "arch": DEVICE_ARCH[r["device"]]}
            for f in ("m", "k", "n"):
                parsed[f] = int(r[f]) if r.get(f) else 0
            parsed["batch"] = int(r["batch"]) if r.get("batch") else 1
            # Activations sharing one B (`a_batch`, each of m rows), where the source's shape has them.
            parsed["a_batch"] = int(r["a_batch"]) if r.get("a_batch") else 1
            # The activation's shard grid where it differs from the op's grid (`in0_grid`).
            parsed["in0_cores"] = math.prod(int(x) for x in r["in0_grid"].split("x")) if r.get("in0_grid") else 0
            # Columns of the grid a 1-D program runs on: the activation's shard grid where given, else the op's.
            parsed["grid_cols"] = int((r.get("in0_grid") or r["grid"]).split("x")[1])
            # A 1-D program config's in0_block_w where the source's config sets it (0: ttnn's default).
            parsed["in0_block_w"] = int(r["in0_block_w"]) if r.get("in0_block_w") else 0
            # The compute config a capture records (None: the op's ttnn default).
            for flag in ("fp32_dest_acc", "packer_l1_acc"):
                parsed[flag] = bool(int(r[flag])) if r.get(flag) else None
            rows.append(parsed)
        suites[path.stem] = rows
    return suites


def _shape(r: dict) -> list[int]:
    return [int(x) for x in r["shape"].split("x")]


def _tiles(shape: list[int]) -> int:
    lead = math.prod(shape[:-2]) if len(shape) > 2 else 1
    rows = shape[-2] if len(shape) > 1 else 1
    return lead * math.ceil(rows / 32) * math.ceil(shape[-1] / 32)


def _shards(shape: list[int], mem: str, grid: str) -> int:
    """Shards holding data of a tensor sharded `mem` on the `grid` ("rows x cols" cores): a shard
    is whole tiles, so when they cover the tensor with cores to spare the last cores hold nothing."""
    rows = (math.prod(shape[:-2]) if len(shape) > 2 else 1) * math.ceil((shape[-2] if len(shape) > 1 else 1) / 32)
    cols = math.ceil(shape[-1] / 32)
    gy, gx = (int(x) for x in grid.split("x"))
    if mem == "l1_h":
        return math.ceil(rows / math.ceil(rows / (gy * gx)))
    if mem == "l1_w":
        return math.ceil(cols / math.ceil(cols / (gy * gx)))
    if gx == 1:  # a block grid recorded by its core count alone
        return gy
    return math.ceil(rows / math.ceil(rows / gy)) * math.ceil(cols / math.ceil(cols / gx))


def board_params(p: CostParams, device: str) -> CostParams:
    """`p` for a board smaller than its architecture's parameters assume (BOARDS)."""
    if device not in BOARDS:
        return p
    have, full, cores = BOARDS[device]
    f = have / full
    return replace(
        p, dram_banks=have, dram_stream_gbps=p.dram_stream_gbps * f, dram_sharded_gbps=p.dram_sharded_gbps * f,
        dram_page_ns=p.dram_page_ns / f, grid_cores=cores,
    )  # fmt: skip


def terms_for(p: CostParams, r: dict) -> Terms:
    """The model's terms for one measurement row."""
    p = board_params(p, r["device"])
    if r["op"] == "sdpa_decode":
        # `shape`: the query [B, Hq, 1, D]; `kv_shape`: K and V each [B, Hkv, S, D].
        b, heads, _, d = _shape(r)
        _, kv_heads, kv_len, _ = (int(x) for x in r["kv_shape"].split("x"))
        return sdpa_decode_terms(p, b, heads, kv_heads, d, kv_len, r["dtype_b"], r["dtype_a"], r["fidelity"], r["cores"])
    if r["op"] == "rotary_embedding":
        # `shape` the input; cos and sin in `b_mem` / `dtype_b`; a `token_index` selects decode mode.
        dram = mem_code(r["a_mem"]) == "dram_i"
        return rotary_terms(
            p, _shape(r), r["dtype_a"], r["dtype_b"], bool(r.get("token_index")), dram, mem_code(r["b_mem"]) == "dram_i",
            mem_code(r["out_mem"]) == "dram_i", mem_code(r["a_mem"]) == "l1_s", r["cores"],
        )  # fmt: skip
    if r["op"] in ("nlp_create_qkv_heads", "nlp_concat_heads"):
        # Whole tile rows of the sequence per core, a row's tiles read one by one: `shape` the input.
        name = "ttnn.concatenate_heads" if r["op"] == "nlp_concat_heads" else "ttnn.split_query_key_value_and_split_heads"
        rows, per_row = head_program_rows(name, [_shape(r)])
        dram = mem_code(r["a_mem"]) == "dram_i"
        return tile_row_reader_terms(p, rows, per_row, r["dtype_a"], dram, mem_code(r["out_mem"]) == "dram_i", r["cores"])
    if r["op"] == "tilize":
        # A row-major interleaved `shape` made tiles; tt-metal picks the program and its cores from the grid.
        elem = tile_bytes(r["dtype_a"]) / 1024
        return tilize_terms(p, _shape(r), elem, r["dtype_out"], mem_code(r["a_mem"]) == "dram_i", mem_code(r["out_mem"]) == "dram_i", r["cores"])
    if r["op"] == "transpose_hc":
        # A tiled interleaved `shape` with its C and H dimensions swapped.
        return transpose_hc_terms(p, _shape(r), r["dtype_a"], mem_code(r["a_mem"]) == "dram_i", mem_code(r["out_mem"]) == "dram_i", r["cores"])
    if r["op"] == "reshape":
        # A tiled interleaved reshape of `shape` to `out_shape` that is not a view.
        out = [int(x) for x in r["out_shape"].split("x")]
        return reshape_tiled_terms(p, _shape(r), out, r["dtype_a"], mem_code(r["a_mem"]) == "dram_i", mem_code(r["out_mem"]) == "dram_i", r["cores"])
    if r["op"] == "untilize":
        # Interleaved tiles of `shape` (its logical shape: a padded one runs untilize_with_unpadding)
        # made row-major, with the L1 its architecture's chip leaves a core's buffers.
        elem = tile_bytes(r["dtype_out"]) / 1024
        chip = CHIP_PRESETS[r["arch"]]
        return untilize_terms(
            p, _shape(r), r["dtype_a"], elem, mem_code(r["a_mem"]) == "dram_i", mem_code(r["out_mem"]) == "dram_i", r["cores"],
            chip.l1_size - chip.l1_unreserved_base,
        )  # fmt: skip
    if r["op"] == "conv2d":
        # An NHWC `shape` convolved to `n` channels (`window`, `stride`, `padding` top,bottom,left,right,
        # `dilation`), its im2col matmul's blocks split over the op's cores; the weights in `b_mem`.
        return conv_row_terms(p, r)
    if r["op"] == "matmul":
        program = matmul_row_program(p, r)
        acc = accumulation_of("matmul", r["dtype_out"], r.get("fp32_dest_acc"), r.get("packer_l1_acc"))
        if program == MCAST_IN1:
            # The weight-multicast 1-D program: a height-sharded activation's config (its in0_block_w
            # given), or the auto-picker's for a tall interleaved shape (the activation batch unfused).
            return matmul_terms(
                p, r["m"], r["k"], r["n"], r["dtype_a"], r["dtype_b"], r["dtype_out"], r["fidelity"],
                r["a_mem"], r["b_mem"], r["out_mem"], r["cores"], max(r["a_batch"], r["batch"]), MCAST_IN1,
                in0_block_w=r["in0_block_w"], shared_b=r["a_batch"] > 1 and r["a_mem"] != "l1_h", accumulation=acc,
            )  # fmt: skip
        if r["a_batch"] > 1 and runs_unfused_1d(r["m"], r["n"]):
            # ttnn's 1-D program with the batch unfused: a loop of batches, each K in hops of ttnn's
            # default in0_block_w, B read again per batch (cost_terms.runs_unfused_1d).
            return matmul_terms(
                p, r["m"], r["k"], r["n"], r["dtype_a"], r["dtype_b"], r["dtype_out"], r["fidelity"],
                r["a_mem"], r["b_mem"], r["out_mem"], r["cores"], r["a_batch"], "1d",
                in0_block_w=r["in0_block_w"], shared_b=True, accumulation=acc,
            )  # fmt: skip
        m = r["a_batch"] * math.ceil(r["m"] / 32) * 32 if r["a_batch"] > 1 else r["m"]
        return matmul_terms(
            p, m, r["k"], r["n"], r["dtype_a"], r["dtype_b"], r["dtype_out"], r["fidelity"],
            r["a_mem"], r["b_mem"], r["out_mem"], r["cores"], r["batch"],
            in0_cores=r["in0_cores"], in0_block_w=r["in0_block_w"], grid_cols=r["grid_cols"], accumulation=acc,
        )  # fmt: skip
    kind = OP_KIND[r["op"]]
    shape = _shape(r)
    in_tiles = _tiles(shape)
    if r.get("out_shape"):
        out_shape = [int(x) for x in r["out_shape"].split("x")]
    else:
        out_shape = shape[:-2] + [1, shape[-1]] if kind == "reduction" else shape
    out_tiles = _tiles(out_shape)
    if r["op"] == "slice":
        in_tiles = out_tiles  # a slice reads only the pages it keeps
    tensors = [(in_tiles, r["dtype_a"], r["a_mem"])]
    if kind == "eltwise_binary":
        tensors.append((in_tiles, r["dtype_a"], r["b_mem"] or r["a_mem"]))
    if r.get("gamma_mem"):
        tensors.append((math.ceil(shape[-1] / 32), r["dtype_a"], r["gamma_mem"]))  # a tiled gamma row the norm reads
    tensors.append((out_tiles, r["dtype_out"], r["out_mem"]))
    dram = pages = l1i = 0
    write_dram = write_l1i = 0.0
    for i, (tiles, fmt, mem) in enumerate(tensors):
        code = mem_code(mem)
        nbytes = tiles * tile_bytes(fmt)
        written = nbytes if i == len(tensors) - 1 else 0
        if code.startswith("dram"):
            dram += nbytes
            pages += tiles
            write_dram += written
        elif code == "l1_i":
            l1i += nbytes
            write_l1i += written
    work = max(in_tiles, out_tiles)
    # A reduction (over H here) parallelises over its output tiles, each core reading a run of
    # whole columns in step with the others; other kinds over their tiles.
    parallel = out_tiles if kind == "reduction" else work
    if kind == "layout":
        # A sharded <-> interleaved conversion runs on the shard grid's cores, one shard each: a
        # grid larger than the shards leaves the extra cores idle.
        sharded = r["a_mem"] if mem_code(r["a_mem"]) == "l1_s" else r["out_mem"]
        if mem_code(sharded) == "l1_s":
            parallel = min(parallel, _shards(shape, sharded, r["grid"]))
    stride = math.ceil(out_tiles / max(1, min(r["cores"], out_tiles))) if kind == "reduction" else 0
    exchanges = NORM_EXCHANGES.get(r["op"], 0) if mem_code(r["a_mem"]) in ("l1_s", "dram_s") else 0
    return stream_terms(
        p, kind, work, r["cores"], dram, pages, l1i, parallel=parallel, stride=stride, exchanges=exchanges, exchange_fmt=r["dtype_a"],
        passes=REDUCTION_PASSES.get(r["op"], 1) if kind == "reduction" else 1, write_dram_bytes=write_dram,
        write_l1i_bytes=write_l1i, op=r["op"],
        # A row-major gamma (`gamma_layout` rm) is read a stick per tile of the row, each waited for.
        stick_reads=math.ceil(shape[-1] / 32) if r.get("gamma_layout") == "rm" else 0,
    )


def matmul_row_program(p: CostParams, r: dict) -> str:
    """The program a matmul row ran: the weight-multicast 1-D program for a height-sharded
    activation, tt-metal's auto-picker (`matmul_config.interleaved_program`) for an all-interleaved
    row without a given config on the board's grid, else "auto" (the size rule)."""
    if r["a_mem"] == "l1_h":
        return MCAST_IN1 if mem_code(r["b_mem"]) != "dram_s" and r["batch"] == 1 else "auto"
    mems = [mem_code(r[f]) for f in ("a_mem", "b_mem", "out_mem")]
    if r["in0_block_w"] or any(m not in ("dram_i", "l1_i") for m in mems) or r["batch"] > 1:
        return "auto"
    chip = CHIP_PRESETS[r["arch"]]
    sizes = [tile_bytes(r[f]) for f in ("dtype_a", "dtype_b", "dtype_out")]
    factor = interleaved_factor(*sizes, chip.l1_size - chip.l1_unreserved_base)
    grid = (p.grid_rows, p.grid_columns)
    a_shape = [r["a_batch"], r["m"], r["k"]]
    return interleaved_program(a_shape, [r["k"], r["n"]], all(m == "dram_i" for m in mems), factor, grid)


def conv_row_terms(p: CostParams, r: dict) -> Terms:
    """`conv_program_terms` of a conv2d row: its output's tile rows over the `grid` rows (the conv's
    cores along N x H x W), its channels over the grid columns, its input channels over `in0_grid`'s
    columns (block sharding's C cores)."""
    n, h, w, cin = _shape(r)
    kh, kw = (int(x) for x in r["window"].split("x"))
    sh, sw = (int(x) for x in r["stride"].split("x"))
    dh, dw = (int(x) for x in r["dilation"].split("x"))
    top, bottom, left, right = (int(x) for x in r["padding"].split(","))
    pixels = n * ((h + top + bottom - dh * (kh - 1) - 1) // sh + 1) * ((w + left + right - dw * (kw - 1) - 1) // sw + 1)
    conv = ConvShape(pixels, cin, r["n"], int(r.get("groups") or 1), kh, kw)
    rows, cols = (int(x) for x in r["grid"].split("x"))
    c_in = int(r["in0_grid"].split("x")[1]) if r.get("in0_grid") else 0
    in_dram = mem_code(r["b_mem"]) == "dram_i"
    weights = conv_k_tiles(conv, c_in or cols) * math.ceil(r["n"] / 32) * tile_bytes(r["dtype_b"]) if in_dram else 0.0
    return conv_program_terms(
        p, conv, rows, cols, r["fidelity"], r["dtype_b"], in_dram, weights, 0.0,
        activation_cycles(p, r.get("activation") or None), mem_code(r["out_mem"]) == "l1_w", c_in,
        accumulation_of("conv", r["dtype_out"], r.get("fp32_dest_acc"), r.get("packer_l1_acc")),
    )  # fmt: skip


def weight_bytes(r: dict) -> float:
    return r["batch"] * math.ceil(r["k"] / 32) * math.ceil(r["n"] / 32) * tile_bytes(r["dtype_b"])


def ratio(p: CostParams, r: dict) -> float:
    """Estimated / measured time of one row (a bandwidth row: measured GB/s / estimated GB/s)."""
    return terms_ratio(terms_for(p, r), r)


def terms_ratio(t: Terms, r: dict) -> float:
    """`ratio` of a row whose terms `t` are worked out."""
    metric = r["metric"]
    if metric == "host_ns_traced":
        return t.ns / r["value"]
    if metric in ("device_kernel_ns", "device_fw_ns"):
        return t.device_ns / r["value"]
    if metric == "weight_gbps":
        return r["value"] / (weight_bytes(r) / t.device_ns)
    raise ValueError(f"{r['id']}: unknown metric {metric}")


@dataclass
class Table_:
    rows: dict  # name -> row of cost_params.json

    def params(self, arch: str, values: dict[str, float] | None = None) -> CostParams:
        rows = {k: dict(v) for k, v in self.rows.items()}
        values = values or {}
        for name, v in values.items():
            rows[name][arch] = v
        if "launch_ns.layout" in values or "compute_init_ns" in values:
            tie_launches(rows, arch, rows["launch_ns.layout"][arch], FREE[arch])
        if "page_latency_ns.reduction" in values:
            tie_latencies(rows, arch, values["page_latency_ns.reduction"])
        if "launch_ns.matmul" in values:
            rows["launch_ns.conv"][arch] = values["launch_ns.matmul"]  # a conv2d program launches as a matmul's does
        return params_from(rows, arch)

    def prior(self, name: str, arch: str) -> tuple[float, float]:
        pr = self.rows[name]["prior"]
        return float(pr[arch]), float(pr["sd_log"])


def tie_latencies(rows: dict, arch: str, latency_ns: float) -> None:
    """Set the page round trip of every one-page-per-barrier reader to the reductions' `latency_ns`."""
    for k in TIED_LATENCY:
        rows[f"page_latency_ns.{k}"][arch] = latency_ns


def tie_launches(rows: dict, arch: str, layout_ns: float, own: Collection[str] = ()) -> None:
    """Set every launch derived from the reader/writer-only launch `layout_ns` in `rows`, but the
    ones in `own` (launches the arch fits on their own)."""
    for k in TIED_LAYOUT_LAUNCH:
        rows[f"launch_ns.{k}"][arch] = layout_ns
    for k in TIED_LAUNCH:
        if f"launch_ns.{k}" not in own:
            rows[f"launch_ns.{k}"][arch] = layout_ns + float(rows["compute_init_ns"][arch])


def fit(
    table: Table_, arch: str, suites: dict[str, list[dict]], include: set[str], priors_from: dict[str, float] | None = None
) -> dict[str, float]:
    """MAP fit of FREE[arch] on the suites in `include` (the rows of `arch`); `priors_from`: a
    Wormhole fit whose values x BH_PRIOR the Blackhole priors are (so Blackhole is predicted from
    Wormhole when its own data are left out). The caller copies SHARED_CYCLES from the Blackhole fit
    to Wormhole."""
    names = FREE[arch]
    rows = [(r, len(s) ** -0.25) for name, s in suites.items() if name in include for r in s if r["arch"] == arch]
    priors = [(priors_from[n] * BH_PRIOR[n][0], BH_PRIOR[n][1]) if priors_from and n in BH_PRIOR else table.prior(n, arch) for n in names]
    x0 = np.array([math.log(p0) for p0, _ in priors])
    lo = np.array([math.log(BOUNDS.get(n, (1e-6, 1e9))[0]) for n in names])
    hi = np.array([math.log(BOUNDS.get(n, (1e-6, 1e9))[1]) for n in names])

    scaled = bh_scaled(priors_from) if priors_from else {}

    def residuals(x: np.ndarray) -> np.ndarray:
        p = table.params(arch, {**scaled, **dict(zip(names, np.exp(x)))})
        data = [robust(w * math.log(ratio(p, r)) / SIGMA_DATA) for r, w in rows]
        prior = [(xi - math.log(p0)) / sd for xi, (p0, sd) in zip(x, priors)]
        return np.array(data + prior)

    # Central differences: a bound that ties at the prior (a max() of two rates) still has a slope.
    res = least_squares(residuals, np.clip(x0, lo + 1e-9, hi - 1e-9), bounds=(lo, hi), x_scale="jac", jac="3-point")
    return dict(zip(names, (float(v) for v in np.exp(res.x))))


def bh_scaled(wh: dict[str, float]) -> dict[str, float]:
    """Blackhole's parameters without Blackhole data: the Wormhole fit `wh` x BH_SCALE."""
    return {name: wh[name] * scale for name, scale in BH_SCALE.items()}


def stats(logs: list[float]) -> dict:
    if not logs:
        return {"n": 0, "geomean": float("nan"), "gsd": float("nan"), "within_1_5": float("nan"), "within_1_3": float("nan")}
    return {
        "n": len(logs),
        "geomean": math.exp(statistics.fmean(logs)),
        "gsd": math.exp(statistics.pstdev(logs)) if len(logs) > 1 else 1.0,
        "within_1_5": sum(abs(x) <= math.log(1.5) for x in logs) / len(logs),
        "within_1_3": sum(abs(x) <= math.log(1.3) for x in logs) / len(logs),
    }


def _rows(r: dict) -> int:
    """A matmul row's M with the activation batch folded in (each batch padded to a tile row)."""
    return r["a_batch"] * math.ceil(r["m"] / 32) * 32 if r["a_batch"] > 1 else r["m"]


def _mkn(r: dict) -> str:
    """batch x M x K x N of a matmul row (an activation batch over one B as `16x(32)`)."""
    batch = f"{r['a_batch']}x({r['m']})" if r["a_batch"] > 1 else f"{r['batch']}x{r['m']}"
    return f"{batch}x{r['k']}x{r['n']}"


def _mem_config(r: dict) -> str:
    return f"{r['a_mem']}/{r.get('b_mem', '')}/{r['out_mem']}"


def pairs(rows: list[dict]) -> list[tuple[dict, dict]]:
    """Same suite, device, op, input and output shape, formats and fidelity; different memory configs."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        key = (
            r["suite"], r["device"], r["op"], r["m"], r["k"], r["n"], r["batch"], r["shape"], r.get("out_shape") or "",
            r["dtype_a"], r["dtype_b"], r["fidelity"],
        )  # fmt: skip
        groups[key].append(r)
    out = []
    for g in groups.values():
        for i, a in enumerate(g):
            for b in g[i + 1 :]:
                if _mem_config(a) != _mem_config(b) and a["value"] != b["value"]:
                    out.append((a, b))
    return out


def rank_agreement(est: dict[str, float], rows: list[dict]) -> tuple[int, int, list[tuple[dict, dict]]]:
    """Pairs whose estimated order matches the measured one (`est`: row id -> estimated/measured)."""
    ok, wrong = 0, []
    prs = pairs(rows)
    for a, b in prs:
        ea, eb = est[a["id"]] * _time(a), est[b["id"]] * _time(b)
        if (ea < eb) == (_time(a) < _time(b)):
            ok += 1
        else:
            wrong.append((a, b))
    return ok, len(prs), wrong


def explain_rows(ids: list[str], suites: dict[str, list[dict]], table: Table_, console: Console) -> int:
    """Print each named row's terms under the stored parameters; 2 (usage error) for an unknown id."""
    by_id = {r["id"]: r for s in suites.values() for r in s}
    unknown = [i for i in ids if i not in by_id]
    if unknown:
        print(f"calibrate.py: error: unknown row id(s): {', '.join(unknown)} (ids are the CSVs' first column)", file=sys.stderr)
        return 2
    t = Table(title="rows under the stored parameters (ttopt/device/cost_params.json), ns")
    for col in ("row", "suite", "measured", "est/meas", "compute", "dram", "noc", "launch", "op-to-op", "overlap", "sync", "device"):
        t.add_column(col, justify="left" if col in ("row", "suite") else "right")
    params = {arch: table.params(arch) for arch in {by_id[i]["arch"] for i in ids}}
    for i in ids:
        r = by_id[i]
        terms = terms_for(params[r["arch"]], r)
        measured = f"{r['value'] / 1000:.1f} us" if r["unit"] == "ns" else f"{r['value']:g} {r['unit']}"
        t.add_row(
            i, r["suite"], measured, f"{terms_ratio(terms, r):.2f}",
            *(f"{v:.0f}" for v in (terms.compute_ns, terms.dram_ns, terms.noc_ns, terms.launch_ns, terms.op_to_op_ns, terms.overlap_ns, terms.sync_ns, terms.device_ns)),
        )  # fmt: skip
    console.print(t)
    return 0


def _time(r: dict) -> float:
    """A measured time for ordering (bandwidth rows: inverse)."""
    return 1.0 / r["value"] if r["metric"] == "weight_gbps" else r["value"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calibration", type=Path, default=CALIBRATION_DIR, help="folder of suite CSVs")
    ap.add_argument("--write", action="store_true", help=f"store the fit in {CALIBRATION_FILE.relative_to(ROOT)}")
    ap.add_argument("--row", action="append", default=[], metavar="ID", help="print this row's terms under the stored parameters (no fit)")
    args = ap.parse_args(argv)
    if args.row and args.write:
        ap.error("--row prints rows under the stored parameters; it does not fit, so it cannot --write")
    console = Console(width=160)
    data = json.loads(CALIBRATION_FILE.read_text())
    table = Table_(data["params"])
    suites = load_suites(args.calibration)
    if args.row:
        return explain_rows(args.row, suites, table, console)
    fitted_suites = {s for s in suites if s not in HELD_OUT}
    archs = ("wormhole_b0", "blackhole")

    full = {"wormhole_b0": fit(table, "wormhole_b0", suites, fitted_suites)}
    full["blackhole"] = fit(table, "blackhole", suites, fitted_suites, full["wormhole_b0"])
    # table.rows is cost_params.json's params (`data`): Wormhole's evaluations and --write see the
    # shared cycles. Wormhole's fit ran before, on the stored value: no fitted Wormhole suite has a norm.
    for name in SHARED_CYCLES:
        table.rows[name]["wormhole_b0"] = full["blackhole"][name]
    full_p = {"wormhole_b0": table.params("wormhole_b0", full["wormhole_b0"])}
    full_p["blackhole"] = table.params("blackhole", {**bh_scaled(full["wormhole_b0"]), **full["blackhole"]})
    in_sample = {r["id"]: ratio(full_p[r["arch"]], r) for s in suites.values() for r in s}
    loso: dict[str, float] = {}
    for name, rows in suites.items():
        for arch in {r["arch"] for r in rows}:
            if name in fitted_suites:
                rest = fitted_suites - {name}
                wh = fit(table, "wormhole_b0", suites, rest)
                p = table.params(arch, wh if arch == "wormhole_b0" else {**bh_scaled(wh), **fit(table, arch, suites, rest, wh)})
            else:
                p = full_p[arch]
            for r in rows:
                if r["arch"] == arch:
                    loso[r["id"]] = ratio(p, r)

    pt = Table(title="fitted parameters (free per arch; others as in cost_params.json)")
    pt.add_column("parameter")
    for arch in archs:
        pt.add_column(arch, justify="right")
    shown = FREE["wormhole_b0"] + tuple(n for n in FREE["blackhole"] if n not in FREE["wormhole_b0"])
    for name in shown:
        pt.add_row(name, *(
            f"{full[a][name]:.4g}" if name in full[a] else "(scaled)" if name in BH_SCALE
            else "(= blackhole)" if name in SHARED_CYCLES else "(stored)" for a in archs
        ))  # fmt: skip
    console.print(pt)

    st = Table(title="per suite: estimate / measured (LOSO: a fitted suite scored by a fit without it; held-out suites by the full fit)")
    for col in ("suite", "role", "device", "n", "in-sample geomean", "LOSO geomean", "LOSO geo SD", "LOSO within 1.5x"):
        st.add_column(col, justify="left" if col in ("suite", "role", "device") else "right")
    all_loso: list[float] = []
    suite_stats = {}
    for name, rows in suites.items():
        for dev in sorted({r["device"] for r in rows}):
            sel = [r for r in rows if r["device"] == dev]
            ins = stats([math.log(in_sample[r["id"]]) for r in sel])
            out = stats([math.log(loso[r["id"]]) for r in sel])
            all_loso += [math.log(loso[r["id"]]) for r in sel]
            suite_stats[f"{name}/{dev}"] = {
                "role": "held out" if name in HELD_OUT else "fit", "n": out["n"], "in_sample_geomean": round(ins["geomean"], 4),
                "geomean": round(out["geomean"], 4), "within_1_5": round(out["within_1_5"], 4),
            }  # fmt: skip
            st.add_row(
                name,
                "held out" if name in HELD_OUT else "fit",
                dev,
                str(out["n"]),
                f"{ins['geomean']:.3f}",
                f"{out['geomean']:.3f}",
                f"{out['gsd']:.3f}",
                f"{out['within_1_5']:.0%}",
            )
    tot = stats(all_loso)
    st.add_row("all", "", "", str(tot["n"]), "", f"{tot['geomean']:.3f}", f"{tot['gsd']:.3f}", f"{tot['within_1_5']:.0%}")
    console.print(st)

    dt = Table(title="decode-shaped matmuls (M <= 64), leave-one-suite-out (a fitted row is scored by a fit without its suite)")
    decode = []
    for col in ("row", "device", "shape (batch x M x K x N)", "weights", "memory a/b/out", "measured", "estimate", "est/meas"):
        dt.add_column(
            col, justify="left" if col in ("row", "device", "shape (batch x M x K x N)", "weights", "memory a/b/out") else "right"
        )
    for rows in suites.values():
        for r in rows:
            if r["op"] == "matmul" and _rows(r) <= 64:
                q = loso[r["id"]]
                decode.append(q)
                unit = "GB/s" if r["metric"] == "weight_gbps" else "us"
                meas = r["value"] if unit == "GB/s" else r["value"] / 1000
                est = meas / q if unit == "GB/s" else meas * q
                dt.add_row(
                    r["id"],
                    r["device"],
                    _mkn(r),
                    r["dtype_b"],
                    _mem_config(r),
                    f"{meas:.1f} {unit}",
                    f"{est:.1f} {unit}",
                    f"{q:.2f}",
                )
    console.print(dt)
    console.print(f"decode-shaped matmuls within 1.3x: {sum(abs(math.log(q)) <= math.log(1.3) for q in decode)}/{len(decode)}")

    rt = Table(title="every row of the small suites (< 20 rows)")
    for col in ("row", "op", "shape / MxKxN", "dtype", "memory a/b/out", "measured", "in-sample est/meas", "LOSO est/meas"):
        rt.add_column(col, justify="right" if "est" in col or col == "measured" else "left")
    for rows in suites.values():
        if len(rows) >= 20:
            continue
        for r in rows:
            shape = r["shape"] or _mkn(r)
            meas = f"{r['value']:.0f} GB/s" if r["metric"] == "weight_gbps" else f"{r['value'] / 1000:.1f} us"
            rt.add_row(
                r["id"],
                r["op"],
                shape,
                r["dtype_b"] or r["dtype_a"],
                _mem_config(r),
                meas,
                f"{in_sample[r['id']]:.2f}",
                f"{loso[r['id']]:.2f}",
            )
    console.print(rt)

    all_rows = [r for s in suites.values() for r in s]
    for label, est in (("in-sample", in_sample), ("LOSO", loso)):
        ok, total, wrong = rank_agreement(est, all_rows)
        by_op: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for a, b in pairs(all_rows):
            by_op[a["op"]][1] += 1
            by_op[a["op"]][0] += (a, b) not in wrong
        detail = ", ".join(f"{op} {c[0]}/{c[1]}" for op, c in sorted(by_op.items()))
        console.print(
            f"pairwise rank agreement ({label}, same shape, different memory config): {ok}/{total} = {ok / max(1, total):.0%} ({detail})"
        )
        for a, b in wrong:
            console.print(f"  misordered: {a['id']} ({_mem_config(a)}) vs {b['id']} ({_mem_config(b)})")

    if args.write:
        for arch in archs:
            values = dict(full[arch])
            if arch == "blackhole":
                values.update(bh_scaled(full["wormhole_b0"]))
            if arch == "wormhole_b0":
                values.update({name: full["blackhole"][name] for name in SHARED_CYCLES})
            for name, v in values.items():
                data["params"][name][arch] = round(v, 4)
                if name == "page_latency_ns.reduction":
                    tie_latencies(data["params"], arch, round(v, 4))
                if name == "launch_ns.matmul":
                    data["params"]["launch_ns.conv"][arch] = round(v, 4)  # the matmul launch (Table_.params)
            tie_launches(data["params"], arch, data["params"]["launch_ns.layout"][arch], FREE[arch])
            for k in TIED_LAUNCH:  # not inside tie_launches: the fit's finite differences need the unrounded sum
                data["params"][f"launch_ns.{k}"][arch] = round(data["params"][f"launch_ns.{k}"][arch], 4)
        data["fit"] = {
            "source": "bench/calibrate.py --write on bench/calibration/*.csv",
            "held_out": list(HELD_OUT),
            "blackhole_scaled_from_wormhole": {k: round(v, 4) for k, v in BH_SCALE.items()},
            "loso": suite_stats,
            "loso_all": {k: round(v, 4) for k, v in tot.items()},
        }
        CALIBRATION_FILE.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        console.print(f"wrote {CALIBRATION_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
