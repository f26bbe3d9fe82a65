"""Op-specific configs: matmul program configs per layout (reference §2.4), the conv2d search space
(seed 002 §3.1.4), and the candidate configs of an op."""

from __future__ import annotations

import pytest

from ttopt.device import (
    Conv2dConfig,
    MatmulProgramConfig,
    candidate_configs,
    conv2d_search_space,
    derive_program_config,
    layout_info,
    matmul_dims,
)
from ttopt.device.conv2d_config import odometer
from ttopt.device.matmul_config import MULTICAST_1D, MULTICAST_2D, check_program_config
from ttopt.dialects.ttnn_attrs import Conv2dConfigAttr
from ttopt.parse.attr_parser import AttrParser

# ---------------------------------------------------------------------------------------------
# Matmul program configs.


@pytest.mark.parametrize(
    "a, b, out, mem, grid, kind, cgrid, per_core, in0_block_w, subblock_w, mcast_in0",
    [
        # block with both grid dims > 1 -> 2-D mcast: per_core_M = ceil(Mt/gy), per_core_N = ceil(Nt/gx).
        ((256, 128), (128, 512), (256, 512), "b", (4, 4), MULTICAST_2D, (4, 4), (2, 4), 2, 4, False),
        ((256, 96), (96, 512), (256, 512), "b", (2, 8), MULTICAST_2D, (8, 2), (4, 2), 1, 2, False),  # Kt odd
        # width -> 1-D mcast_in0: per_core_N = ceil(Nt / cores); Nt <= 128 -> largest of 8,4,2,1 dividing Kt.
        ((32, 192), (192, 1024), (32, 1024), "w", 8, MULTICAST_1D, (8, 1), (1, 4), 2, 4, True),
        ((32, 256), (256, 1024), (32, 1024), "w", 8, MULTICAST_1D, (8, 1), (1, 4), 8, 4, True),
        # ... and Nt > 128 -> 2 if Kt even else 1.
        ((32, 256), (256, 8192), (32, 8192), "w", 64, MULTICAST_1D, (8, 8), (1, 4), 2, 4, True),
        # height -> 1-D: per_core_M = ceil(Mt / cores), per_core_N = Nt, in0_block_w = Kt.
        ((256, 128), (128, 128), (256, 128), "h", 8, MULTICAST_1D, (8, 1), (1, 4), 4, 4, False),
        ((12, 32, 64), (64, 64), (12, 32, 64), "h", 12, MULTICAST_1D, (8, 2), (1, 2), 2, 2, False),
        # block with a degenerate grid: 1xN behaves as width, Nx1 as height.
        ((64, 128), (128, 256), (64, 256), "b", (1, 8), MULTICAST_1D, (8, 1), (2, 1), 4, 1, True),
        ((256, 64), (64, 64), (256, 64), "b", (8, 1), MULTICAST_1D, (1, 8), (1, 2), 2, 2, False),
    ],
)
def test_derived_program_configs(lay, a, b, out, mem, grid, kind, cgrid, per_core, in0_block_w, subblock_w, mcast_in0) -> None:
    o = layout_info(lay(out, "l1", mem, grid))
    dims = matmul_dims(a, b, out)
    cfg = derive_program_config(dims, o)
    assert cfg is not None
    assert (cfg.kind, cfg.grid, (cfg.per_core_m, cfg.per_core_n)) == (kind, cgrid, per_core)
    assert (cfg.in0_block_w, cfg.out_subblock_h, cfg.out_subblock_w, cfg.mcast_in0) == (in0_block_w, 1, subblock_w, mcast_in0)
    assert (cfg.out_block_h, cfg.out_block_w) == per_core and cfg.fuse_batch
    assert check_program_config(cfg, dims, o) is None


def test_height_config_prints_as_in_tt_mlir(lay) -> None:
    # The 1-D config of testdata/ttnn/l1_sharded_chain.mlir's first matmul (height 8x1, fused relu).
    o = layout_info(lay((256, 128), "l1", "h", 8))
    cfg = derive_program_config(matmul_dims((256, 128), (128, 128), (256, 128)), o, activation="relu")
    assert cfg.to_attr().text == (
        "#ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config<compute_with_storage_grid_size = "
        "#ttnn.core_coord<8, 1>, in0_block_w = 4, out_subblock_h = 1, out_subblock_w = 4, out_block_h = 1, "
        "out_block_w = 4, per_core_m = 1, per_core_n = 4, fuse_batch = true, fused_activation = "
        "#ttnn.unary_with_param<op_type = relu>, mcast_in0 = false, gather_in0 = false, hop_cores = "
        "#ttnn.core_range_set<>, num_global_cb_receivers = 0, untilize_out = false>"
    )
    back = MatmulProgramConfig.from_attr(AttrParser(None).attribute(cfg.to_attr().text).typed)
    assert back == cfg


def test_2d_config_round_trips(lay) -> None:
    o = layout_info(lay((256, 512), "l1", "b", (4, 4)))
    cfg = derive_program_config(matmul_dims((256, 128), (128, 512), (256, 512)), o)
    text = cfg.to_attr().text
    assert text.startswith("#ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = #ttnn.core_coord<4, 4>")
    assert MatmulProgramConfig.from_attr(AttrParser(None).attribute(text).typed) == cfg


@pytest.mark.parametrize("where, mem, grid", [("dram", "i", None), ("l1", "i", None)])
def test_no_program_config_for_interleaved_outputs(lay, where, mem, grid) -> None:
    assert derive_program_config(matmul_dims((64, 64), (64, 64), (64, 64)), layout_info(lay((64, 64), where, mem, grid))) is None


@pytest.mark.parametrize(
    "change, message",
    [
        ({"grid": (2, 2)}, "does not match the output's core grid"),
        ({"in0_block_w": 3}, "not a multiple of in0_block_w"),
        ({"out_subblock_h": 3}, "not a multiple of out_subblock_h"),
        ({"out_subblock_w": 3}, "not a multiple of out_subblock_w"),
        ({"out_subblock_h": 2, "out_subblock_w": 8, "per_core_m": 2, "per_core_n": 8}, "exceeds 8 DST tiles"),
        ({"per_core_n": 8, "out_subblock_w": 4}, "does not match the output shard"),
    ],
)
def test_program_config_checks(lay, change: dict, message: str) -> None:
    from dataclasses import replace

    o = layout_info(lay((256, 512), "l1", "b", (4, 4)))
    dims = matmul_dims((256, 128), (128, 512), (256, 512))
    cfg = replace(derive_program_config(dims, o), **change)
    assert message in check_program_config(cfg, dims, o)


def test_2d_config_needs_tiles_per_grid_dim(lay) -> None:
    # Mt = 1 < 2 grid rows: the 2-D derivation is rejected (Mt >= grid rows, Nt >= grid cols).
    o = layout_info(lay((32, 2048), "l1", "b", (2, 8)))
    dims = matmul_dims((32, 64), (64, 2048), (32, 2048))
    assert "Mt >= grid rows" in check_program_config(derive_program_config(dims, o), dims, o)


# ---------------------------------------------------------------------------------------------
# Conv2d search space.


def test_default_conv2d_search_space() -> None:
    cfgs = conv2d_search_space()
    assert [(c.act_block_h_override, c.deallocate_activation) for c in cfgs] == [(0, True), (64, True), (32, True)]


def test_odometer_turns_the_first_field_fastest() -> None:
    combos = list(odometer({"a": (1, 2), "b": ("x", "y"), "c": (True,)}))
    assert [(d["a"], d["b"]) for d in combos] == [(1, "x"), (2, "x"), (1, "y"), (2, "y")]
    assert list(odometer({"a": ()})) == []


def test_reshard_without_shard_layout_is_filtered() -> None:
    space = {"reshard_if_not_optimal": (False, True), "shard_layout": (None, "height_sharded")}
    cfgs = conv2d_search_space(space=space)
    assert [(c.reshard_if_not_optimal, c.shard_layout) for c in cfgs] == [(False, None), (False, "height_sharded"), (True, "height_sharded")]


def test_conv2d_config_attr_keeps_the_op_keys_in_order() -> None:
    base = Conv2dConfigAttr.parse("weights_dtype = bf16, activation = <op_type = relu>, deallocate_activation = false, act_block_h_override = 0")
    cfg = Conv2dConfig.from_attr(base)
    assert cfg.weights_dtype == "bf16" and not cfg.deallocate_activation
    out = conv2d_search_space(cfg)[1].to_attr().text
    assert out == (
        "#ttnn.conv2d_config<weights_dtype = bf16, activation = <op_type = relu>, deallocate_activation = true, "
        "act_block_h_override = 64>"
    )


# ---------------------------------------------------------------------------------------------
# Candidate configs per op.

CONV_PROPS = (
    "batch_size = 1 : i32, in_channels = 16 : i32, out_channels = 32 : i32, input_height = 8 : i32, "
    "input_width = 8 : i32, kernel_size = array<i32: 3, 3>, stride = array<i32: 1, 1>, "
    "padding = array<i32: 1, 1, 1, 1>, dilation = array<i32: 1, 1>, groups = 1 : i32"
)


def test_matmul_candidates_carry_a_program_config_per_sharded_layout(wormhole, op) -> None:
    mm = op("ttnn.matmul", ["256x128xbf16", "128x512xbf16"], "256x512xbf16")
    cfgs = candidate_configs(mm, wormhole, 8)
    assert len(cfgs) == 10
    assert [c.matmul is None for c in cfgs[:2]] == [True, True]  # DRAM / L1 interleaved
    assert all(c.matmul is not None for c in cfgs[2:])
    batched = op("ttnn.matmul", ["2x64x64xbf16", "2x64x64xbf16"], "2x64x64xbf16")
    assert all(c.matmul is None for c in candidate_configs(batched, wormhole))  # fuse_batch false


def test_conv2d_candidates_repeat_layouts_per_config(wormhole, op) -> None:
    conv = op("ttnn.conv2d", ["1x1x64x16xbf16", "32x16x3x3xf32"], "1x1x64x32xbf16", CONV_PROPS)
    cfgs = candidate_configs(conv, wormhole, 2)
    assert len(cfgs) == 3 * 4
    assert [c.conv2d.act_block_h_override for c in cfgs] == [0] * 4 + [64] * 4 + [32] * 4
    assert cfgs[0].output == cfgs[4].output and cfgs[0].conv2d.weights_dtype == "f32"


def test_fixed_and_unknown_ops_keep_their_layout(wormhole, op, lay) -> None:
    enc = lay((32, 32), "l1", "i").text
    t = f"tensor<32x32xbf16, {enc}>"
    for name in ("ttnn.to_layout", "ttnn.empty_like_thing"):
        o = op(name, [t], t)
        cfgs = candidate_configs(o, wormhole)
        assert len(cfgs) == 1 and cfgs[0].output == lay((32, 32), "l1", "i")
    assert candidate_configs(op("ttnn.relu", ["32x32xbf16"], "32x32xbf16"), wormhole, 0)[0].output == lay((32, 32))
