"""Layout math worked examples (reference §1.2) and layout pools (seed 002 §3.1.2-3.1.3, reference §2.2-2.3)."""

from __future__ import annotations

import pytest

from ttopt.device import TensorTypeError, layout_info, layout_pool, parse_tensor_type
from ttopt.device.layout_info import tensor_tiles
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import DialectAttr
from ttopt.parse.attr_parser import AttrParser

B, H, W, I = "block_sharded", "height_sharded", "width_sharded", "interleaved"


def summary(layouts) -> list[tuple[str, str, tuple[int, int]]]:
    return [(lay.buffer_type.value, lay.memory_layout.value, lay.grid) for lay in layouts]


# ---------------------------------------------------------------------------------------------
# Worked examples of reference §1.2, through the device model's view of a layout.


def test_4096_square_dram_interleaved_shard(lay) -> None:
    pool = layout_pool((4096, 4096), "bf16")
    dram = pool.interleaved[0]
    assert dram == lay((4096, 4096))
    assert "memref<128x128x!ttcore.tile<32x32, bf16>, #dram>" in dram.print_body(alias_buffer=True)
    assert dram.grid == (1, 1) and layout_info(dram).per_core_bytes == 0  # DRAM costs no L1


def test_32x32_l1_interleaved_on_the_whole_grid() -> None:
    l1 = layout_pool((32, 32), "bf16").interleaved[1]
    assert l1.print_body(alias_buffer=True) == (
        "(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>"
    )
    assert layout_info(l1).per_core_bytes == 2048


def test_height_sharded_core_ranges_for_12_cores() -> None:
    pool = layout_pool((12, 32, 64), "bf16")
    h12 = next(lay for lay in pool.sharded if lay.memory_layout.value == H and lay.grid == (12, 1))
    assert layout_info(h12).ranges == ((0, 0, 7, 0), (0, 1, 3, 1))  # [(0,0)-(7,0), (0,1)-(3,1)]
    assert h12.print_body(alias_buffer=True) == (
        "(d0, d1, d2) -> (d0 * 32 + d1, d2), <12x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, "
        "core_ranges = <[#ttnn.core_range<(0, 0), (7, 0)>, #ttnn.core_range<(0, 1), (3, 1)>]>"
    )
    assert layout_info(h12).num_cores == 12 and layout_info(h12).bbox == (2, 8)


@pytest.mark.parametrize(
    "dtype, tile_bytes",
    [("bf16", 2048), ("f16", 2048), ("f32", 4096), ("si32", 4096), ("u32", 4096), ("bfp_bf8", 1088),
     ("bfp_bf4", 576), ("bfp_bf2", 320), ("u8", 1024)],  # fmt: skip
)
def test_per_core_bytes_per_dtype(dtype: str, tile_bytes: int) -> None:
    # 256x256 = 64 tiles; block 2x2 -> 4x4 tiles per core; L1 interleaved -> 1 tile per core.
    pool = layout_pool((256, 256), dtype)
    b22 = next(lay for lay in pool.sharded if lay.memory_layout.value == B and lay.grid == (2, 2))
    assert layout_info(b22).per_core_bytes == 16 * tile_bytes
    assert layout_info(pool.interleaved[1]).per_core_bytes == tile_bytes


def test_layouts_print_as_tt_mlir_and_parse_back() -> None:
    scope_free = AttrParser(None)
    for lay in layout_pool((2, 100, 70), "f32").all_layouts:
        text = DialectAttr.of(lay).text
        assert scope_free.attribute(text).typed == lay


@pytest.mark.parametrize("shape, tiles", [((64, 64), 4), ((1, 1, 8, 64), 2), ((3, 40, 33), 12), ((100,), 4)])
def test_tensor_tiles(shape, tiles) -> None:
    assert tensor_tiles(shape) == tiles


# ---------------------------------------------------------------------------------------------
# Pools.


def test_64x64_bf16_pool_and_its_order() -> None:
    # Reference §2.2 worked example: B2x2, B1x2, B2x1, H2x1, W1x2, then the 1x1 grids.
    pool = layout_pool((64, 64), "bf16")
    assert summary(pool.interleaved) == [("dram", I, (1, 1)), ("l1", I, (8, 8))]
    assert summary(pool.sharded) == [
        ("l1", B, (2, 2)), ("l1", B, (1, 2)), ("l1", B, (2, 1)), ("l1", H, (2, 1)), ("l1", W, (1, 2)),
        ("l1", B, (1, 1)), ("l1", H, (1, 1)), ("l1", W, (1, 1)),
    ]  # fmt: skip
    assert [lay.shard_shape for lay in pool.sharded] == [(1, 1), (2, 1), (1, 2), (1, 2), (2, 1), (2, 2), (2, 2), (2, 2)]
    assert pool.op_layouts(8) == pool.interleaved + pool.sharded


def test_dedupe_keeps_the_smallest_grid_per_shard() -> None:
    # 160 rows = 5 tiles: height N=3 and N=4 both give 2-tile shards (ceil(160/3)=54, 160/4=40 scalars);
    # N=4 is dropped although it passes the tiles >= grid filter.
    heights = [lay.grid[0] for lay in layout_pool((160, 32), "bf16").sharded if lay.memory_layout.value == H]
    assert sorted(heights) == [1, 2, 3, 5]


def test_filter_needs_as_many_tiles_as_cores_per_dim() -> None:
    pool = layout_pool((64, 256), "bf16")  # 2 x 8 tiles
    for lay in pool.sharded:
        assert lay.grid[0] <= 2 and lay.grid[1] <= 8
    assert max(lay.grid[0] * lay.grid[1] for lay in pool.sharded) == 16


def test_sorted_by_volume_descending_and_stable() -> None:
    sharded = layout_pool((1024, 1024), "bf16").sharded
    vols = [lay.grid[0] * lay.grid[1] for lay in sharded]
    assert vols == sorted(vols, reverse=True)
    # Ties keep generation order: block before height before width.
    eight = [lay.memory_layout.value for lay in sharded if lay.grid[0] * lay.grid[1] == 8]
    assert eight == sorted(eight, key=[B, H, W].index)


@pytest.mark.parametrize("n, expected", [(0, 0), (1, 1), (3, 3), (8, 8), (100, 8)])
def test_max_legal_layouts_cuts_the_sharded_list(n: int, expected: int) -> None:
    pool = layout_pool((64, 64), "bf16")
    got = pool.op_layouts(n)
    assert got[:2] == pool.interleaved and len(got) == 2 + expected


def test_row_major_enabled_adds_row_major_layouts() -> None:
    pool = layout_pool((64, 64), "bf16", row_major_enabled=True)
    assert [(lay.is_tiled, lay.buffer_type.value) for lay in pool.interleaved] == [(False, "dram"), (True, "dram"), (True, "l1")]
    top = pool.top_sharded(8)
    assert sum(not lay.is_tiled for lay in top) == 4 and sum(lay.is_tiled for lay in top) == 4
    vols = [lay.grid[0] * lay.grid[1] for lay in top]
    assert vols == sorted(vols, reverse=True)
    assert not layout_pool((64, 64), "bfp_bf8", row_major_enabled=True).sharded_row_major  # block floats: tiles only
    assert all(lay.is_tiled for lay in layout_pool((64, 64), "bf16").all_layouts)


def test_1x1x8x64_pool() -> None:
    pool = layout_pool((1, 1, 8, 64), "bf16")
    assert pool.interleaved[0].linear_map == "(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3)"
    assert summary(pool.sharded) == [("l1", B, (1, 2)), ("l1", W, (1, 2)), ("l1", B, (1, 1)), ("l1", H, (1, 1)), ("l1", W, (1, 1))]


def test_blackhole_grid_pool() -> None:
    pool = layout_pool((1024, 1024), "bf16", worker_grid=(10, 13))
    assert pool.interleaved[1].grid == (10, 13)
    h16 = next(lay for lay in pool.sharded if lay.memory_layout.value == H and lay.grid == (16, 1))
    assert layout_info(h16).ranges == ((0, 0, 12, 0), (0, 1, 2, 1))  # row-major fill, 13 wide


@pytest.mark.parametrize(
    "text, message",
    [
        ("64x64xi7", "unknown dtype 'i7'"),
        ("64x64xfoo", "unknown dtype 'foo'"),
        ("bf16", "rank-0 tensors have no TTNN layout"),
        ("1x2x3x4x5x6xbf16", "rank 6 is not supported"),
        ("0x64xbf16", "dimension 0 has size 0"),
        ("64x?xbf16", "dimension 1 is dynamic"),
        ("64x-1xbf16", "bad dimension"),
        ("tensor<", "expected a tensor type"),
    ],
)
def test_bad_tensor_types(text: str, message: str) -> None:
    with pytest.raises(TensorTypeError) as e:
        parse_tensor_type(text)
    assert message in e.value.message


@pytest.mark.parametrize("shape", [(), (1, 2, 3, 4, 5, 6), (4, 0)])
def test_pool_rejects_bad_shapes(shape) -> None:
    with pytest.raises(TensorTypeError):
        layout_pool(shape, "bf16")


@pytest.mark.parametrize("text, shape, dtype", [
    ("64x64xbf16", (64, 64), "bf16"), ("tensor<1x1x8x64xf32>", (1, 1, 8, 64), "f32"), ("8xi32", (8,), "si32"),
    ("tensor<2x3xbf16, #layout>", (2, 3), "bf16"), ("4x4xbfp_bf8", (4, 4), "bfp_bf8"),
])  # fmt: skip
def test_parse_tensor_type(text: str, shape, dtype: str) -> None:
    d = parse_tensor_type(text)
    assert d.shape == shape and d.dtype.value == dtype


def test_layout_info_is_interned_by_identity_and_value(lay) -> None:
    a, b = lay((64, 64), "l1", "b", (2, 2)), lay((64, 64), "l1", "b", (2, 2))
    assert layout_info(a) is layout_info(a) and layout_info(a) is layout_info(b)
    assert layout_info(a).spec_key != layout_info(lay((64, 64), "l1", "h", 2)).spec_key
    ignore = TTNNLayoutAttr.build((64, 64), "bf16", buffer_type="l1", memory_layout="height_sharded", grid=2,
                                  ignore_physical_layout=True)  # fmt: skip
    assert layout_info(ignore).ranges == layout_info(lay((64, 64), "l1", "h", 2)).ranges


def test_building_reproduces_every_layout_of_the_bundled_samples() -> None:
    # Build each layout of testdata/ttnn from (shape, dtype, buffer, memory layout, grid) and print it.
    from pathlib import Path

    from ttopt.ir.types import TensorType
    from ttopt.parse.parser import parse_module

    checked = 0
    for path in sorted((Path(__file__).resolve().parents[2] / "testdata" / "ttnn").glob("*.mlir")):
        m = parse_module(path.read_text(), str(path))
        for o in m.walk():
            vals = list(o.operands) + list(o.results) + [a for r in o.regions for b in r.blocks for a in b.args]
            for v in vals:
                t = v.type.resolve()
                typed = t.encoding.typed if isinstance(t, TensorType) and t.encoding is not None else None
                if not isinstance(typed, TTNNLayoutAttr):
                    continue
                built = TTNNLayoutAttr.build(
                    t.shape, typed.dtype if typed.is_tiled else typed.element, tiled=typed.is_tiled,
                    buffer_type=typed.buffer_type, memory_layout=typed.memory_layout,
                    grid=typed.grid if typed.is_sharded else None, ignore_physical_layout=typed.ignore_physical_layout,
                )  # fmt: skip
                assert built.print_body(alias_buffer=True) == typed.print_body(alias_buffer=True), (path.name, t.text)
                checked += 1
    assert checked > 50
