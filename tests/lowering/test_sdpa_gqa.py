"""SDPA fusing peels a GQA head expansion: K and V repeat_interleave'd from Hkv to Hq heads by the same
factor are fed un-expanded (fusing/sdpa.py), and the numbers are kept."""

from __future__ import annotations

import numpy as np

from ttopt.parse.parser import parse_module
from ttopt.testing.ttir_fusing_runs import fuse_ttir as _fuse
from ttopt.testing.ttir_fusing_runs import op_names as _ops
from ttopt.testing.ttir_interpreter import run

QT, KN, KE = "tensor<1x4x32x16xf32>", "tensor<1x2x32x16xf32>", "tensor<1x4x32x16xf32>"
KT, SC = "tensor<1x4x16x32xf32>", "tensor<1x4x32x32xf32>"


def _gqa(v_repeats: int = 2, cast: bool = False) -> str:
    kn = "tensor<1x2x32x16xbf16>" if cast else KN
    kcast = f'\n    %kc = "ttir.typecast"(%ke) : ({KE.replace("f32", "bf16")}) -> {KE}' if cast else ""
    kin = "%kc" if cast else "%ke"
    vshape = f"tensor<1x{4 // v_repeats}x32x16xf32>"
    return f"""module {{
  func.func @f(%q: {QT}, %k: {kn}, %v: {vshape}) -> {QT} {{
    %ke = "ttir.repeat_interleave"(%k) <{{dim = 1 : si32, repeats = 2 : ui32}}> : ({kn}) -> {KE.replace("f32", "bf16") if cast else KE}{kcast}
    %ve = "ttir.repeat_interleave"(%v) <{{dim = 1 : si32, repeats = {v_repeats} : ui32}}> : ({vshape}) -> {KE}
    %kt = "ttir.permute"({kin}) <{{permutation = array<i64: 0, 1, 3, 2>}}> : ({KE}) -> {KT}
    %0 = "ttir.matmul"(%q, %kt) : ({QT}, {KT}) -> {SC}
    %c = "ttir.full"() <{{fill_value = 2.500000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}}> : () -> tensor<1x1x1x1xf32>
    %cb = "ttir.broadcast"(%c) <{{broadcast_dimensions = array<i64: 1, 4, 32, 32>}}> : (tensor<1x1x1x1xf32>) -> {SC}
    %1 = "ttir.multiply"(%0, %cb) : ({SC}, {SC}) -> {SC}
    %2 = "ttir.softmax"(%1) <{{dimension = 3 : si32}}> : ({SC}) -> {SC}
    %3 = "ttir.matmul"(%2, %ve) : ({SC}, {KE}) -> {QT}
    return %3 : {QT}
  }}
}}
"""


def test_gqa_expansion_is_peeled_from_k_and_v() -> None:
    src = _gqa()
    out, p = _fuse(src)
    assert _ops(out) == ["ttir.scaled_dot_product_attention"]
    assert f"({QT}, {KN}, {KN}) -> {QT}" in out
    assert [d.reason for d in p.decisions if d.pattern == "sdpa" and d.applied] == ["scale 0.25, GQA expansion x2 peeled"]
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(s).astype(np.float32) for s in ((1, 4, 32, 16), (1, 2, 32, 16), (1, 2, 32, 16)))
    ke, ve = np.repeat(k, 2, axis=1), np.repeat(v, 2, axis=1)  # what the peeled repeat_interleave computed
    s = q.astype(np.float64) @ np.swapaxes(ke, -1, -2) * 0.25
    w = np.exp(s - s.max(-1, keepdims=True))
    want = (w / w.sum(-1, keepdims=True)) @ ve
    got = run(parse_module(out, "b.mlir"), "f", [q, k, v])[0]
    np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=2e-4, atol=1e-5)


def test_a_cast_around_the_expansion_is_re_applied_on_the_native_tensor() -> None:
    out, _ = _fuse(_gqa(cast=True))
    assert _ops(out) == ["ttir.typecast", "ttir.scaled_dot_product_attention"]
    assert f'"ttir.typecast"(%arg1) : (tensor<1x2x32x16xbf16>) -> {KN}' in out


def test_different_expansions_of_k_and_v_keep_the_repeats() -> None:
    out, _ = _fuse(_gqa(v_repeats=4))
    assert _ops(out).count("ttir.repeat_interleave") == 2
    assert "ttir.scaled_dot_product_attention" in _ops(out)
