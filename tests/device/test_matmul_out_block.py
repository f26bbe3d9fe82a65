"""An interleaved matmul's output block shrinks until its circular buffers fit L1 (tt-metal's
auto-picker, get_multi_dim_per_core_factor): an LM head is legal DRAM interleaved."""

from __future__ import annotations

from ttopt.device.matmul_config import fit_out_block


def _cb(m: int, n: int, k: int) -> int:
    tile = 2048
    return (2 * k * m + 2 * k * n + m * n) * tile


def test_a_block_that_fits_is_kept() -> None:
    assert fit_out_block(3, 8, 2, _cb, 1_500_000) == (3, 8, 2)


def test_the_largest_fitting_divisor_block_is_taken() -> None:
    # per core 3 x 501 tiles (an LM head of 128256 columns over 8 columns of cores) does not fit;
    # neither do 3 x 167 (the squarest of product 501) nor 1 x 167: 3 x 3 does
    m, n, k = fit_out_block(3, 501, 2, _cb, 1_498_112)
    assert (m, n, k) == (3, 3, 2)
    assert _cb(3, 167, 2) >= 1_498_112 and _cb(1, 167, 2) >= 1_498_112
    assert 3 % m == 0 and 501 % n == 0 and _cb(m, n, k) < 1_498_112
    assert _cb(3, 501, 2) >= 1_498_112


def test_nothing_fits_gives_one_tile() -> None:
    assert fit_out_block(4, 4, 2, _cb, 10) == (1, 1, 1)


def test_lm_head_matmul_is_legal_dram_interleaved() -> None:
    from ttopt.device import OpModel, preset
    from ttopt.parse.parser import parse_module

    text = """
#dram = #ttnn.buffer_type<dram>
#a = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<18x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#b = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x4008x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#c = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<18x4008x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
func.func @f(%a: tensor<576x2048xbf16, #a>, %b: tensor<2048x128256xbf16, #b>) -> tensor<576x128256xbf16, #c> {
  %0 = "ttnn.matmul"(%a, %b) <{transpose_a = false, transpose_b = false}> : (tensor<576x2048xbf16, #a>, tensor<2048x128256xbf16, #b>) -> tensor<576x128256xbf16, #c>
  return %0 : tensor<576x128256xbf16, #c>
}
"""
    module = parse_module(text, "lm_head.mlir")
    (op,) = [o for o in module.walk() if o.name == "ttnn.matmul"]
    r = OpModel(preset("wormhole_b0")).validate_current(op)
    assert r.ok, r.reason
    assert 0 < r.l1.peak < 1_498_112
