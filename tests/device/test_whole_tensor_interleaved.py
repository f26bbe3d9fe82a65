"""tt-mlir's L1-interleaved form: a 1x1 grid whose memref holds the whole tensor. The op model
accepts it as an output hint and sizes it as tt-metal lays it out, pages dealt over every L1 bank;
ttopt's own form (the worker grid, ceil(tiles / cores) tiles per core) keeps its numbers."""

from __future__ import annotations

import pytest

from ttopt.device import OpConfig, Status, layout_info
from ttopt.device.layout_info import interleaved_bytes_per_bank, is_whole_tensor_interleaved
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.parse.parser import parse_module

TILE_BF16 = 2048


def whole(memref: str, rank_map: str = "(d0, d1) -> (d0, d1)", buffer: str = "l1") -> TTNNLayoutAttr:
    """A `<1x1>` interleaved layout as tt-mlir's lit tests spell it."""
    text = (
        f"#ttnn.ttnn_layout<{rank_map}, <1x1>, memref<{memref}, #ttnn.buffer_type<{buffer}>>, <interleaved>>"
    )
    module = parse_module(f'"test.use"() {{a = {text}}} : () -> ()', "layout.mlir")
    return module.op.regions[0].entry.ops[0].attributes["a"].resolve().typed


def test_whole_tensor_form_is_recognised_only_on_l1_interleaved_1x1() -> None:
    assert is_whole_tensor_interleaved(whole("128x16x!ttcore.tile<32x32, bf16>"))
    assert not is_whole_tensor_interleaved(whole("128x16x!ttcore.tile<32x32, bf16>", buffer="dram"))
    canon = TTNNLayoutAttr.build((4096, 512), "bf16", tiled=True, buffer_type="l1", memory_layout="interleaved")
    assert canon.grid[:2] == (8, 8) and not is_whole_tensor_interleaved(canon)


@pytest.mark.parametrize(
    "memref, per_bank",
    [
        ("128x16x!ttcore.tile<32x32, bf16>", 32 * TILE_BF16),  # 2048 tiles over 64 banks
        ("2x8x!ttcore.tile<32x32, bf16>", 1 * TILE_BF16),  # 16 tiles: one page on some banks
        ("65x1x!ttcore.tile<32x32, bf16>", 2 * TILE_BF16),  # 65 tiles: two pages on the first bank
        ("64x128xui16", 128 * 2),  # row-major: a page is one row
        ("130x128xbf16", 3 * 128 * 2),
    ],
)
def test_whole_tensor_form_is_sized_per_bank(memref: str, per_bank: int) -> None:
    info = layout_info(whole(memref))
    assert info.per_core_bytes == per_bank


def test_ttopt_form_keeps_its_size() -> None:
    for shape in [(4096, 512), (64, 128), (96, 4000)]:
        lay = TTNNLayoutAttr.build(shape, "bf16", tiled=True, buffer_type="l1", memory_layout="interleaved")
        info = layout_info(lay)
        assert info.per_core_bytes == info.shard_bytes
        assert interleaved_bytes_per_bank(lay, 64) == info.shard_bytes


def test_op_model_accepts_the_whole_tensor_hint_and_counts_it_per_bank(model, op, lay) -> None:
    l1 = whole("128x16x!ttcore.tile<32x32, bf16>")
    x = "4096x512xbf16"
    res = model.validate(op("ttnn.relu", [x], x), [l1], OpConfig(l1))
    assert res.status is Status.SUCCESS, res.reason
    assert res.output_layout == l1
    # input and output 32 tiles per bank each, two 2-tile bf16 CBs.
    assert (res.l1.tensor_peak, res.l1.output_per_core, res.l1.cb_peak) == (2 * 32 * TILE_BF16, 32 * TILE_BF16, 4 * TILE_BF16)
    add = model.validate(op("ttnn.add", [x, x], x), [lay((4096, 512)), lay((4096, 512))], OpConfig(l1))
    assert add.status is Status.SUCCESS and add.l1.tensor_peak == 32 * TILE_BF16


def test_op_model_rejects_a_1x1_l1_memref_that_is_not_the_result(model, op) -> None:
    x = "4096x512xbf16"
    short = whole("64x16x!ttcore.tile<32x32, bf16>")
    res = model.validate(op("ttnn.relu", [x], x), [whole("128x16x!ttcore.tile<32x32, bf16>")], OpConfig(short))
    assert res.status is Status.ILLEGAL and "built for another shape" in res.reason
