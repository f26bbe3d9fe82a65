"""Attention sinks: SDPA fusing reads the softmax-padding column (concat(scores, sink) -> softmax ->
slice dropping that column) as the op's `attention_sink` (fusing/sdpa.py) with the numbers kept, and
TTIR -> TTNN pre-divides the sink by the scale and feeds the decode kernel its [Hq, 32] tile, as
tt-mlir HEAD does (ttnn_fused.py, ttnn_workarounds.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.registry import get_pass
from ttopt.testing.ods_check import check_module
from ttopt.testing.ttir_fusing_runs import fuse_ttir as _fuse
from ttopt.testing.ttir_fusing_runs import op_names as _ops
from ttopt.testing.ttir_interpreter import run


def _sink_attention(sq: int, ends_last: int | None = None, sink_rows: int = 1, begins_last: int = 0) -> str:
    """GPT-OSS style attention: B=2, Hq=4, Sk=32, D=16, scale 0.25, masked, one sink logit per head."""
    q, s, p = f"tensor<2x4x{sq}x16xf32>", f"tensor<2x4x{sq}x32xf32>", f"tensor<2x4x{sq}x33xf32>"
    col, kv, kt = f"tensor<2x4x{sq}x1xf32>", "tensor<2x4x32x16xf32>", "tensor<2x4x16x32xf32>"
    end = 32 if ends_last is None else ends_last
    sink_t = f"tensor<1x4x{sink_rows}x1xf32>"
    bdims = f"2, 1, {sq // sink_rows}, 1"
    return f"""module {{
  func.func @f(%q: {q}, %k: {kv}, %v: {kv}, %m: tensor<2x1x{sq}x32xf32>, %snk: {sink_t}) -> {q} {{
    %c = "ttir.full"() <{{fill_value = 2.500000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}}> : () -> tensor<1x1x1x1xf32>
    %kt = "ttir.permute"(%k) <{{permutation = array<i64: 0, 1, 3, 2>}}> : ({kv}) -> {kt}
    %0 = "ttir.matmul"(%q, %kt) : ({q}, {kt}) -> {s}
    %1 = "ttir.multiply"(%0, %c) : ({s}, tensor<1x1x1x1xf32>) -> {s}
    %mb = "ttir.broadcast"(%m) <{{broadcast_dimensions = array<i64: 1, 4, 1, 1>}}> : (tensor<2x1x{sq}x32xf32>) -> {s}
    %2 = "ttir.add"(%1, %mb) : ({s}, {s}) -> {s}
    %sb = "ttir.broadcast"(%snk) <{{broadcast_dimensions = array<i64: {bdims}>}}> : ({sink_t}) -> {col}
    %3 = "ttir.concat"(%2, %sb) <{{dim = 3 : si32}}> : ({s}, {col}) -> {p}
    %4 = "ttir.softmax"(%3) <{{dimension = 3 : si32}}> : ({p}) -> {p}
    %5 = "ttir.slice_static"(%4) <{{begins = [0 : i32, 0 : i32, 0 : i32, {begins_last} : i32], ends = [2 : i32, 4 : i32, {sq} : i32, {end} : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}> : ({p}) -> {s}
    %6 = "ttir.matmul"(%5, %v) : ({s}, {kv}) -> {q}
    return %6 : {q}
  }}
}}
"""


def _inputs(sq: int, sink_rows: int = 1) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    q = rng.standard_normal((2, 4, sq, 16)).astype(np.float32)
    k, v = (rng.standard_normal((2, 4, 32, 16)).astype(np.float32) for _ in range(2))
    m = np.where(rng.random((2, 1, sq, 32)) < 0.2, -1e4, 0.0).astype(np.float32)
    sink = (3.0 * rng.standard_normal((1, 4, sink_rows, 1))).astype(np.float32)  # large enough to matter
    return [q, k, v, m, sink]


@pytest.mark.parametrize("sq", [8, 1])
def test_softmax_padding_column_becomes_the_sink_with_the_same_numbers(sq: int) -> None:
    src = _sink_attention(sq)
    out, p = _fuse(src)
    # the mask keeps its head broadcast, as HEAD feeds it
    assert _ops(out) == ["ttir.broadcast", "ttir.scaled_dot_product_attention"]
    assert "operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>" in out
    assert '"ttir.scaled_dot_product_attention"(%arg0, %arg1, %arg2, %0, %arg4)' in out  # the [1, Hq, 1, 1] sink itself
    assert [d.reason for d in p.decisions if d.pattern == "sdpa" and d.applied] == [
        "scale 0.25, masked, attention sink from the softmax-padding column"
    ]
    args = _inputs(sq)
    want = run(parse_module(src, "a.mlir"), "f", args)[0]
    got = run(parse_module(out, "b.mlir"), "f", args)[0]
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=2e-4, atol=1e-5)
    # the sink changes the result: without it the rows would sum their weights to 1
    s = args[0].astype(np.float64) @ np.swapaxes(args[1], -1, -2) * 0.25 + args[3]
    w = np.exp(s - s.max(-1, keepdims=True))
    plain = (w / w.sum(-1, keepdims=True)) @ args[2]
    assert not np.allclose(np.asarray(got, np.float64), plain, atol=1e-3)


def test_a_slice_dropping_the_first_column_is_no_sink() -> None:
    out, p = _fuse(_sink_attention(8, ends_last=33, begins_last=1))
    assert "ttir.scaled_dot_product_attention" not in _ops(out)
    assert "ttir.concat" in _ops(out)


def test_a_sink_that_varies_per_query_row_is_rejected_with_its_reason() -> None:
    out, p = _fuse(_sink_attention(8, sink_rows=8))
    assert "ttir.scaled_dot_product_attention" not in _ops(out)
    assert [d.reason for d in p.decisions if d.pattern == "sdpa"] == ["the sink [1, 4, 8, 1] is not one logit per query head [1, 4, 1, 1]"]


def _ttir_sdpa(sq: int, scale: str, sink_batch: int = 1) -> str:
    q, kv, sink = f"tensor<2x8x{sq}x64xbf16>", "tensor<2x2x128x64xbf16>", f"tensor<{sink_batch}x8x1x1xbf16>"
    attr = f"scale = {scale} : f32, " if scale else ""
    return f"""module {{
  func.func @f(%q: {q}, %k: {kv}, %v: {kv}, %s: {sink}) -> {q} {{
    %0 = "ttir.scaled_dot_product_attention"(%q, %k, %v, %s) <{{is_causal = false, {attr}operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}}> : ({q}, {kv}, {kv}, {sink}) -> {q}
    return %0 : {q}
  }}
}}
"""


def _lower(text: str, ods: object) -> str:
    m = parse_module(text, "l.mlir")
    pipeline = get_pass("ttir-to-ttnn-backend-pipeline")
    assert pipeline is not None
    pipeline().run(m, PassContext())
    verify(m, check_uses=True)
    assert not check_module(m, ods)
    return print_module(m)


@pytest.mark.parametrize(("scale", "fill"), [("1.250000e-01", "8.000000e+00"), ("", "8.000000e+00"), ("2.000000e+00", "5.000000e-01")])
def test_the_sink_is_divided_by_the_scale_before_the_kernel(ods: object, scale: str, fill: str) -> None:
    out = _lower(_ttir_sdpa(32, scale), ods)  # no scale attribute: 1/sqrt(64)
    assert f"fill_value = {fill} : f32, shape = #ttnn.shape<1x8x1x1>" in out
    assert re.search(r'"ttnn.multiply"\(%arg3, %\d+\) : \(tensor<1x8x1x1xbf16', out)
    assert re.search(r'"ttnn.scaled_dot_product_attention"\(%arg0, %arg1, %arg2, %\d+\)', out)


def test_a_unit_scale_leaves_the_sink_as_it_is(ods: object) -> None:
    out = _lower(_ttir_sdpa(32, "1.000000e+00"), ods)
    assert "ttnn.multiply" not in _ops(out, "ttnn") and "ttnn.full" not in _ops(out, "ttnn")
    assert '"ttnn.scaled_dot_product_attention"(%arg0, %arg1, %arg2, %arg3)' in out


@pytest.mark.parametrize("sink_batch", [1, 2])
def test_decode_takes_the_sink_as_an_hq_by_32_tile(ods: object, sink_batch: int) -> None:
    out = _lower(_ttir_sdpa(1, "1.250000e-01", sink_batch), ods)
    ops = _ops(out, "ttnn")
    start = ops.index("ttnn.multiply")
    want = ["ttnn.multiply"] + (["ttnn.slice_static"] if sink_batch > 1 else []) + ["ttnn.reshape", "ttnn.pad"]
    assert [o for o in ops[start:] if o != "ttnn.deallocate"][: len(want) + 1] == want + ["ttnn.scaled_dot_product_attention_decode"]
    assert "<{shape = [8 : i32, 1 : i32]}> : (tensor<1x8x1x1xbf16" in out
    assert "padding = array<i32: 0, 0, 0, 31>, use_multicore = true, value = 0.000000e+00 : f32}> : (tensor<8x1xbf16" in out
    assert "-> tensor<8x32xbf16" in out
    assert "operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>" in out
