"""`ttnn.conv3d`'s estimate (ttopt/device/conv3d_program.py): the blocking it reads from its
config, tt-metal's split of the blocks over the cores, a time that grows with the work and shrinks
with the cores, its L1, and its place in module estimates (priced, never free)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ttopt.device import CostModel, preset
from ttopt.device.conv3d_program import (
    Conv3dBlocking,
    Conv3dShape,
    blocking_of,
    cb_bytes,
    conv3d_split,
    conv3d_terms,
    default_c_in_block,
    l1_bytes_of,
    shard_positions,
    uses_shard,
)
from ttopt.device.cost_terms import params_for
from ttopt.parse.parser import parse_module

P = params_for("wormhole_b0")
K3 = (3, 3, 3)
L1 = 1499136 - 103712
SMOKE = Conv3dShape(1, 6, 26, 26, 128, 32, K3)  # tt-mlir's n150 optimizer smoke test
DEFAULT = Conv3dBlocking(1, 1, 1, 32, 32)  # tt-mlir's conversion default
TUNED = Conv3dBlocking(1, 8, 8, 32, 128)  # tt-metal's blocking for 128 -> 128 3x3x3


def _ns(shape: Conv3dShape, blocking: Conv3dBlocking = TUNED, cores: int = 64, **kw) -> float:
    return conv3d_terms(P, shape, blocking, cores, 2, "bf16", "bf16", l1_bytes=L1, **kw).ns


def test_the_config_text_gives_the_blocking_and_grid() -> None:
    text = (
        "#ttnn.conv3d_config<weights_dtype = bf16, t_out_block = 2, w_out_block = 4, h_out_block = 8, "
        "c_out_block = 64, c_in_block = 96, compute_with_storage_grid_size = #ttcore.grid<8x7>>"
    )
    assert blocking_of(text) == Conv3dBlocking(2, 4, 8, 64, 96, 56)
    # Without a config: tt-metal's own defaults, one voxel and one tile of output channels a block.
    assert blocking_of(None) == Conv3dBlocking(1, 1, 1, 32, 0, 0)
    assert default_c_in_block(27) == 32 and default_c_in_block(1) == 32 and default_c_in_block(8) == 16


def test_the_split_is_the_factorys() -> None:
    # 128 input channels in blocks of 32: four slices on four cores each; the other 16 cores per
    # output split C_out (one block), then T (6 blocks), then H (2 of 26); W stays on one core.
    s = conv3d_split(SMOKE, DEFAULT, 64)
    assert (s.c_in_slices, s.cores, s.c_out_per_core, s.spatial_per_core) == (4, 48, 1, 13 * 26)
    assert (s.patches, s.m_tiles, s.k_tiles, s.n_tiles) == (1, 1, 27, 1)
    t = conv3d_split(SMOKE, TUNED, 64)
    assert (t.c_in_slices, t.patches, t.m_tiles, t.k_tiles) == (1, 64, 2, 108)
    # A config's grid overrides the device's.
    assert conv3d_split(SMOKE, replace(DEFAULT, grid_cores=16), 64).cores == 16


def test_a_conv3d_is_never_free_and_grows_with_its_volume_and_channels() -> None:
    base = _ns(SMOKE)
    assert base > P.launch("conv") + P.op_to_op_ns
    taller = _ns(replace(SMOKE, h_out=52))
    deeper = _ns(replace(SMOKE, t_out=12))
    wider_in = _ns(replace(SMOKE, in_channels=256), replace(TUNED, c_in_block=128))
    wider_out = _ns(replace(SMOKE, out_channels=256))
    assert taller > base and deeper > base and wider_in > base and wider_out > base
    # Twice the blocks on one core: twice the compute, about twice the time (the launch stays).
    one = Conv3dShape(1, 4, 32, 32, 128, 32, K3)
    a = conv3d_terms(P, one, TUNED, 1, 2, "bf16", "bf16", l1_bytes=L1)
    b = conv3d_terms(P, replace(one, h_out=64), TUNED, 1, 2, "bf16", "bf16", l1_bytes=L1)
    assert b.compute_ns == pytest.approx(2 * a.compute_ns)
    assert 1.9 * a.ns < b.ns < 2 * a.ns


def test_more_cores_run_it_faster() -> None:
    shape = Conv3dShape(1, 8, 64, 64, 128, 128, K3)
    assert _ns(shape, cores=64) < _ns(shape, cores=32) < _ns(shape, cores=8)


def test_voxel_blocks_cost_more_than_blocks_that_fill_tiles() -> None:
    # One voxel a block fills 1/32 of each tile row the matmul runs; the tuned blocks fill them.
    assert _ns(SMOKE, DEFAULT) > 5 * _ns(SMOKE, TUNED)


def test_sliced_input_channels_pay_the_reduction_hand_off() -> None:
    whole = conv3d_terms(P, SMOKE, TUNED, 64, 2, "bf16", "bf16", l1_bytes=L1)
    sliced = conv3d_terms(P, SMOKE, replace(TUNED, c_in_block=32), 64, 2, "bf16", "bf16", l1_bytes=L1)
    assert whole.sync_ns == 0 and sliced.sync_ns > 0


def test_higher_fidelity_costs_more_compute() -> None:
    lo = conv3d_terms(P, SMOKE, TUNED, 64, 2, "bf16", "bf16", fidelity="LoFi", l1_bytes=L1)
    hi = conv3d_terms(P, SMOKE, TUNED, 64, 2, "bf16", "bf16", fidelity="HiFi4", l1_bytes=L1)
    assert hi.compute_ns > lo.compute_ns


def test_l1_holds_the_buffers_and_the_shard_when_it_fits() -> None:
    split = conv3d_split(SMOKE, TUNED, 64)
    others = cb_bytes(split, 2, "bf16", "bf16", bias=False)
    t, h, w = shard_positions(SMOKE, TUNED)
    assert (t, h, w) == (3, 10, 10)
    shard = t * h * w * 128 * 2
    assert l1_bytes_of(SMOKE, TUNED, 64, 2, "bf16", False, False, L1) == others + shard
    # Too little L1 for the shard: the reader reads every patch's positions directly, and that costs more.
    small = others + 200 * 1024 + shard - 1
    assert not uses_shard(SMOKE, TUNED, split, 2, others, small)
    assert l1_bytes_of(SMOKE, TUNED, 64, 2, "bf16", False, False, small) == others
    assert _ns(SMOKE, TUNED) < conv3d_terms(P, SMOKE, TUNED, 64, 2, "bf16", "bf16", l1_bytes=small).ns
    # fp32 partials of sliced channels take more L1 than bf16 ones.
    sliced = replace(TUNED, c_in_block=32)
    assert l1_bytes_of(SMOKE, sliced, 64, 2, "bf16", True, False, L1) > l1_bytes_of(SMOKE, sliced, 64, 2, "bf16", False, False, L1)


_MODULE = """
#dram = #ttnn.buffer_type<dram>
#x = #ttnn.ttnn_layout<(d0, d1, d2, d3, d4) -> (d0 * 6272 + d1 * 784 + d2 * 28 + d3, d4), <1x1>, memref<6272x128xbf16, #dram>, <interleaved>>
#w = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<108x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#o = #ttnn.ttnn_layout<(d0, d1, d2, d3, d4) -> (d0 * 4056 + d1 * 676 + d2 * 26 + d3, d4), <1x1>, memref<4056x32xbf16, #dram>, <interleaved>>
module {
  func.func @f(%arg0: tensor<1x8x28x28x128xbf16, #x>, %arg1: tensor<3456x32xbf16, #w>) -> tensor<1x6x26x26x32xbf16, #o> {
    %0 = "ttnn.get_device"() <{mesh_shape = #ttnn<mesh_shape 1x1>}> : () -> !ttnn.device
    %1 = "ttnn.conv3d"(%arg0, %arg1, %0) <{batch_size = 1 : i32, conv3d_config = #ttnn.conv3d_config<t_out_block = 1, w_out_block = W, h_out_block = H, c_out_block = 32, c_in_block = C, compute_with_storage_grid_size = #ttcore.grid<8x8>>, groups = 1 : i32, in_channels = 128 : i32, input_depth = 8 : i32, input_height = 28 : i32, input_width = 28 : i32, kernel_size = array<i32: 3, 3, 3>, out_channels = 32 : i32, padding = array<i32: 0, 0, 0>, padding_mode = "zeros", stride = array<i32: 1, 1, 1>}> : (tensor<1x8x28x28x128xbf16, #x>, tensor<3456x32xbf16, #w>, !ttnn.device) -> tensor<1x6x26x26x32xbf16, #o>
    return %1 : tensor<1x6x26x26x32xbf16, #o>
  }
}
"""


def _module_conv3d_ns(w: int, h: int, c: int, model: CostModel | None = None) -> float:
    text = _MODULE.replace("w_out_block = W", f"w_out_block = {w}").replace("h_out_block = H", f"h_out_block = {h}")
    module = parse_module(text.replace("c_in_block = C", f"c_in_block = {c}"))
    (fn,) = (model or CostModel(preset("n150"))).module_cost(module)
    (entry,) = [e for e in fn.ops if e.op.name == "ttnn.conv3d"]
    assert entry.cost is not None, entry.note
    assert fn.ns == pytest.approx(entry.cost.ns)
    return entry.cost.ns


def test_module_estimates_price_a_conv3d_as_its_program() -> None:
    ns = _module_conv3d_ns(1, 1, 32)
    # The op's attributes give the same shape and blocking as the direct terms.
    assert ns == pytest.approx(_ns(SMOKE, DEFAULT))
    assert _module_conv3d_ns(8, 8, 128) == pytest.approx(_ns(SMOKE, TUNED))


def test_one_model_tells_conv3ds_of_different_configs_apart() -> None:
    model = CostModel(preset("n150"))
    assert _module_conv3d_ns(1, 1, 32, model) > _module_conv3d_ns(8, 8, 128, model)


@pytest.mark.parametrize("blocking", [DEFAULT, TUNED, Conv3dBlocking(0, 0, 0, 0, 0, 0), Conv3dBlocking(4, 64, 64, 64, 512, 3)])
def test_odd_shapes_and_configs_give_a_finite_estimate(blocking: Conv3dBlocking) -> None:
    # An empty output, a config wider than the tensor, a 1x1x1 kernel: priced, no exception.
    for shape in (replace(SMOKE, w_out=0), replace(SMOKE, kernel=(1, 1, 1)), Conv3dShape(2, 1, 1, 1, 8, 7, K3, (2, 2, 2))):
        t = conv3d_terms(P, shape, blocking, 64, 2, "bf16", "bf16", l1_bytes=L1)
        assert t.ns >= t.floor_ns > 0
