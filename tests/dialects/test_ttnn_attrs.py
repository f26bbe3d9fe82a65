"""ttnn attributes: the layout (build rules of ref §1.2, parse, print) and the other ttnn attributes."""

from __future__ import annotations

from math import ceil, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttcore_attrs import DataType, TileType
from ttopt.dialects.ttnn_attrs import (
    BufferType,
    BufferTypeAttr,
    Conv2dConfigAttr,
    Conv2dSliceConfigAttr,
    CoreCoord,
    CoreRange,
    CoreRangeSet,
    LayoutAttr,
    MatmulMultiCoreReuseMultiCast1DProgramConfigAttr,
    MatmulMultiCoreReuseMultiCastProgramConfigAttr,
    MemoryConfigAttr,
    MeshOffsetAttr,
    MeshShapeAttr,
    ShapeAttr,
    ShardSpecAttr,
    TensorMemoryLayout,
    TensorMemoryLayoutAttr,
    UnaryWithParamAttr,
)
from ttopt.dialects.ttnn_layout import (
    TTNNLayoutAttr,
    canonical_core_ranges,
    linear_map_text,
    physical_shape,
)
from ttopt.ir.attributes import DialectAttr
from ttopt.parse.attr_parser import AttrParser
from ttopt.testing.examples import examples

H = TensorMemoryLayout.HEIGHT_SHARDED
W = TensorMemoryLayout.WIDTH_SHARDED
B = TensorMemoryLayout.BLOCK_SHARDED
I = TensorMemoryLayout.INTERLEAVED  # noqa: E741
DRAM, L1, SYS = BufferType.DRAM, BufferType.L1, BufferType.SYSTEM_MEMORY


# ---------------------------------------------------------------------------------------------
# Worked examples of ref §1.2.


def test_dram_interleaved_4096_square_prints_like_tt_mlir() -> None:
    lay = TTNNLayoutAttr.build((4096, 4096), "bf16")
    assert lay.shard_shape == (128, 128) and lay.grid == (1, 1)
    assert DialectAttr.of(lay).text == (
        "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
        "memref<128x128x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>"
    )
    assert lay.print_body(alias_buffer=True) == (
        "(d0, d1) -> (d0, d1), <1x1>, memref<128x128x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>"
    )
    assert lay.shard_size_bytes == 128 * 128 * 2048


def test_l1_interleaved_32x32_uses_the_worker_grid() -> None:
    lay = TTNNLayoutAttr.build((32, 32), DataType.BF16, buffer_type=L1)
    assert lay.print_body(alias_buffer=True) == (
        "(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>"
    )
    assert lay.grid_volume == 64 and lay.is_l1 and not lay.is_sharded and lay.is_interleaved


def test_l1_interleaved_shard_is_ceil_tiles_over_cores() -> None:
    # 256x512 bf16 = 8 * 16 = 128 tiles over 64 cores -> 2 tiles per core; 100 tiles -> 2 as well.
    assert TTNNLayoutAttr.build((256, 512), "bf16", buffer_type=L1).shard_shape == (1, 2)
    assert TTNNLayoutAttr.build((320, 320), "bf16", buffer_type=L1).shard_shape == (1, 2)
    assert TTNNLayoutAttr.build((32, 32), "bf16", buffer_type=L1, worker_grid=(10, 13)).grid == (10, 13)


def test_height_sharded_12_cores_core_ranges() -> None:
    lay = TTNNLayoutAttr.build((12, 32, 64), "bf16", buffer_type=L1, memory_layout=H, grid=12)
    assert lay.print_body(alias_buffer=True) == (
        "(d0, d1, d2) -> (d0 * 32 + d1, d2), <12x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, "
        "core_ranges = <[#ttnn.core_range<(0, 0), (7, 0)>, #ttnn.core_range<(0, 1), (3, 1)>]>"
    )
    assert lay.core_ranges.num_cores == 12


def test_sharded_split_is_plain_ceil_of_scalars() -> None:
    # R=160 on 4 rows -> 40 scalar rows -> 2 tiles (not ceil(5 tiles / 4) = 2 by luck: use 3 rows too).
    assert TTNNLayoutAttr.build((160, 64), "bf16", buffer_type=L1, memory_layout=H, grid=4).shard_shape == (2, 2)
    assert TTNNLayoutAttr.build((160, 64), "bf16", buffer_type=L1, memory_layout=B, grid=(4, 2)).shard_shape == (2, 1)
    # 96 rows on 3 cores -> 32 rows -> 1 tile; 100 rows (padded to 128) on 3 cores -> 43 rows -> 2 tiles.
    assert TTNNLayoutAttr.build((96, 32), "bf16", buffer_type=L1, memory_layout=H, grid=3).shard_shape == (1, 1)
    assert TTNNLayoutAttr.build((100, 32), "bf16", buffer_type=L1, memory_layout=H, grid=3).shard_shape == (2, 1)


@pytest.mark.parametrize(
    "shape, tiled, expected",
    [
        ((7,), True, "(d0) -> (0, d0)"),
        ((64, 64), True, "(d0, d1) -> (d0, d1)"),
        ((12, 32, 64), True, "(d0, d1, d2) -> (d0 * 32 + d1, d2)"),
        ((2, 1, 64, 32), True, "(d0, d1, d2, d3) -> (d0 * 64 + d1 * 64 + d2, d3)"),
        ((1, 1, 213200, 64), True, "(d0, d1, d2, d3) -> (d0 * 213216 + d1 * 213216 + d2, d3)"),
        ((64, 3, 7, 7), False, "(d0, d1, d2, d3) -> (d0 * 21 + d1 * 7 + d2, d3)"),
        ((1, 1, 1, 64), False, "(d0, d1, d2, d3) -> (d0 + d1 + d2, d3)"),
        ((1, 1, 1, 64), True, "(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3)"),
        ((1, 32, 32, 64), True, "(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3)"),
        ((3, 0, 5), False, "(d0, d1, d2) -> (d1, d2)"),
        ((0, 5), False, "(d0, d1) -> (d0, d1)"),
    ],
)
def test_linear_map(shape: tuple[int, ...], tiled: bool, expected: str) -> None:
    assert linear_map_text(physical_shape(shape, (32, 32) if tiled else None)) == expected
    lay = TTNNLayoutAttr.build(shape, "bf16", tiled=tiled)
    assert lay.linear_map == expected and lay.map_rank == len(shape)


@pytest.mark.parametrize(
    "shape, tiled, physical, collapsed",
    [
        ((1, 1, 213200, 64), True, (1, 1, 213216, 64), (213216, 64)),
        ((64, 3, 7, 7), False, (64, 3, 7, 7), (1344, 7)),
        ((256,), True, (256,), (1, 256)),
        ((40,), True, (64,), (1, 64)),
        ((5, 33, 17), True, (5, 64, 32), (320, 32)),
    ],
)
def test_physical_and_collapsed_shapes(shape, tiled, physical, collapsed) -> None:
    lay = TTNNLayoutAttr.build(shape, "f32", tiled=tiled)
    assert lay.physical_shape(shape) == physical
    assert lay.collapsed_2d(shape) == collapsed


def test_rank1_and_row_major_memrefs() -> None:
    assert TTNNLayoutAttr.build((256,), "bf16").print_body(True) == (
        "(d0) -> (0, d0), <1x1>, memref<1x8x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>"
    )
    assert TTNNLayoutAttr.build((32,), "ui32", tiled=False).print_body(True) == (
        "(d0) -> (0, d0), <1x1>, memref<1x32xui32, #dram>, <interleaved>"
    )
    sysmem = TTNNLayoutAttr.build((64, 3, 7, 7), "bf16", tiled=False, buffer_type=SYS)
    assert sysmem.print_body(True) == (
        "(d0, d1, d2, d3) -> (d0 * 21 + d1 * 7 + d2, d3), <1x1>, memref<1344x7xbf16, #system_memory>"
    )
    assert sysmem.memory_layout is None and sysmem.is_system_memory and sysmem.element_size_bytes == 2
    # A DataType row-major element prints as its builtin type (u32 -> ui32).
    assert TTNNLayoutAttr.build((4, 4), DataType.U32, tiled=False).element == "ui32"


@pytest.mark.parametrize(
    "dtype, tile_bytes",
    [("bf16", 2048), ("f16", 2048), ("f32", 4096), ("si32", 4096), ("u32", 4096), ("u16", 2048), ("u8", 1024),
     ("bfp_bf8", 1088), ("bfp_f8", 1088), ("bfp_bf4", 576), ("bfp_bf2", 320)],
)  # fmt: skip
def test_shard_size_bytes_per_dtype(dtype: str, tile_bytes: int) -> None:
    lay = TTNNLayoutAttr.build((64, 96), dtype, buffer_type=L1, memory_layout=B, grid=(2, 3))
    assert lay.shard_shape == (1, 1) and lay.element_size_bytes == tile_bytes
    assert lay.shard_size_bytes == tile_bytes and lay.tile == TileType(dtype=DataType(dtype))


@pytest.mark.parametrize(
    "grid, layout, buffer, expected",
    [
        ((4, 4), B, L1, [(0, 0, 3, 3)]),
        ((8, 4), B, L1, [(0, 0, 3, 7)]),
        ((2, 1), B, L1, [(0, 0, 0, 1)]),
        ((8, 1), H, L1, [(0, 0, 7, 0)]),
        ((12, 1), H, L1, [(0, 0, 7, 0), (0, 1, 3, 1)]),
        ((1, 5), W, L1, [(0, 0, 4, 0)]),
        ((1, 64), W, L1, [(0, 0, 7, 7)]),
        ((1, 20), W, L1, [(0, 0, 7, 1), (0, 2, 3, 2)]),
        ((1, 12), W, DRAM, [(0, 0, 11, 0)]),
    ],
)
def test_canonical_core_ranges(grid, layout, buffer, expected) -> None:
    assert canonical_core_ranges(grid, layout, buffer) == CoreRangeSet.of(expected)


def test_blackhole_worker_grid_fill_uses_its_width() -> None:
    crs = canonical_core_ranges((20, 1), H, L1, (10, 13))
    assert crs == CoreRangeSet.of([(0, 0, 12, 0), (0, 1, 6, 1)])


def test_build_explicit_core_ranges_and_ignore_physical_layout() -> None:
    crs = CoreRangeSet.of([(0, 0, 0, 7)])
    lay = TTNNLayoutAttr.build((256, 128), "bf16", buffer_type=L1, memory_layout=H, grid=8, core_ranges=crs)
    assert lay.core_ranges == crs
    lay = TTNNLayoutAttr.build((32, 1024), "bf16", buffer_type=L1, memory_layout=W, grid=8, ignore_physical_layout=True)
    assert lay.print_body(True) == (
        "(d0, d1) -> (d0, d1), <1x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>, ignorePhysicalLayout = true"
    )


def test_a_higher_rank_memref_reads_as_its_2d_collapse() -> None:
    text = "#ttnn.ttnn_layout<(d0, d1, d2) -> (d0, d1, d2), <1x1>, memref<1x4x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>"
    lay = AttrParser(None).attribute(text).typed
    assert lay.shard_shape == (4, 8) and lay.dtype.value == "bf16"
    assert lay == TTNNLayoutAttr.build((1, 128, 256), "bf16").model_copy(update={"linear_map": lay.linear_map})


def test_relayout_keeps_element_and_changes_memory() -> None:
    dram = TTNNLayoutAttr.build((256, 128), "bf16")
    l1 = dram.relayout((256, 128), buffer_type=L1, memory_layout=H, grid=8)
    assert l1 == TTNNLayoutAttr.build((256, 128), "bf16", buffer_type=L1, memory_layout=H, grid=8)
    assert l1.relayout((256, 128), buffer_type=DRAM) == dram
    assert l1.relayout((512, 128)).grid == (8, 1)
    rm = TTNNLayoutAttr.build((4, 4), "ui32", tiled=False)
    assert rm.relayout((8, 8)).element == "ui32"
    assert rm.relayout((8, 8), tiled=True).tile == TileType(dtype=DataType.U32)


def test_memory_config_from_layout() -> None:
    lay = TTNNLayoutAttr.build((12, 32, 64), "bf16", buffer_type=L1, memory_layout=H, grid=12)
    assert lay.memory_config().text == (
        "#ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0, 0), "
        "(7, 0)>, #ttnn.core_range<(0, 1), (3, 1)>]>, <32x64>, <row_major>>>"
    )
    assert TTNNLayoutAttr.build((64, 64), "bf16").memory_config().print_body(alias_buffer=True) == "#dram, <interleaved>"


def test_build_rank0() -> None:
    """A rank-0 tensor is one element: HEAD's collapsed map has two constant rows, `() -> (0, 0)`."""
    assert TTNNLayoutAttr.build((), "bf16").print_body(alias_buffer=True) == (
        "() -> (0, 0), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>"
    )
    assert TTNNLayoutAttr.build((), "f32", tiled=False, buffer_type=SYS).print_body(alias_buffer=True) == (
        "() -> (0, 0), <1x1>, memref<1x1xf32, #system_memory>"
    )


def test_build_row_major_l1_interleaved_is_one_row_of_elements_per_core() -> None:
    """tt-mlir's canonical row-major L1-interleaved form: ceil(volume / cores) elements in one row."""
    lay = TTNNLayoutAttr.build((1, 1, 32, 128), "bf16", tiled=False, buffer_type=L1)
    assert lay.print_body(alias_buffer=True) == (
        "(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3), <8x8>, memref<1x64xbf16, #l1>, <interleaved>"
    )
    assert lay.shard_size_bytes == 128
    assert TTNNLayoutAttr.build((5, 7), "bf16", tiled=False, buffer_type=L1).shard_shape == (1, 1)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"shape": (32, 32), "dtype": "bf16", "buffer_type": L1, "memory_layout": H}, "needs a grid"),
        ({"shape": (32, 32), "dtype": "bf16", "buffer_type": L1, "memory_layout": H, "grid": (2, 2)}, r"\[N, 1\]"),
        ({"shape": (32, 32), "dtype": "bf16", "buffer_type": L1, "memory_layout": W, "grid": (2, 1)}, r"\[1, N\]"),
        ({"shape": (32, 32), "dtype": "bf16", "buffer_type": L1, "memory_layout": B, "grid": (9, 1)}, "does not fit"),
        ({"shape": (32, 32), "dtype": "bf16", "buffer_type": L1, "memory_layout": H, "grid": 65}, "exceed"),
        ({"shape": (32, 32), "dtype": "bf16", "buffer_type": L1, "memory_layout": B, "grid": 4}, "2-D grid"),
        ({"shape": (32, 32), "dtype": "bf16", "buffer_type": SYS, "memory_layout": I}, "no tensor memory layout"),
        ({"shape": (32, 32), "dtype": "bf16", "grid": (2, 2)}, "has grid 1x1"),
        ({"shape": (32, 32), "dtype": "bfp_bf8", "tiled": False}, "block floats are tiled"),
        ({"shape": (32, 32), "dtype": "i1"}, "no ttcore data type"),
        ({"shape": (32, 32), "dtype": "bf16", "buffer_type": "hbm"}, "invalid ttnn layout"),
        ({"shape": (32, 32), "dtype": "bf16", "memory_layout": TensorMemoryLayout.ND_SHARDED, "grid": (1, 1)}, "nd_sharded"),
        ({"shape": (32, -1), "dtype": "bf16"}, "negative"),
    ],
)
def test_build_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(AttrError, match=message):
        TTNNLayoutAttr.build(**kwargs)


# ---------------------------------------------------------------------------------------------
# Parsing layouts.


def test_parse_sharded_layout_fields(typed) -> None:
    lay = typed(
        "#ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 32 + d1, d2), <12x1>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, "
        "<height_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (7, 0)>, #ttnn.core_range<(0, 1), (3, 1)>]>>"
    )
    assert isinstance(lay, TTNNLayoutAttr)
    assert lay.grid == (12, 1) and lay.shard_shape == (1, 2) and lay.buffer_type is L1 and lay.memory_layout is H
    assert lay.tile == TileType(shape=(32, 32), dtype=DataType.BF16) and lay.dtype is DataType.BF16
    assert lay.core_ranges == CoreRangeSet.of([(0, 0, 7, 0), (0, 1, 3, 1)])
    assert lay.scalar_shard_shape == (32, 64) and lay.shard_size_bytes == 2 * 2048
    assert lay == TTNNLayoutAttr.build((12, 32, 64), "bf16", buffer_type=L1, memory_layout=H, grid=12)


@pytest.mark.parametrize(
    "body, printed",
    [
        # Inline buffer type and alias parse to the same model.
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>", None),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>", "inline"),
        # Alias with a non-canonical name (old CHECK lines use `#l1_`).
        ("(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #l1_>, <interleaved>",
         "(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <interleaved>"),
        # Long form core range set and `(0,0)` without spaces print in tt-mlir's short canonical form.
        ("(d0, d1) -> (d0, d1), <1x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <width_sharded>, "
         "core_ranges = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,0)>]>",
         "(d0, d1) -> (d0, d1), <1x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <width_sharded>, "
         "core_ranges = <[#ttnn.core_range<(0, 0), (7, 0)>]>"),
        # A tile written with spaces.
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32 x 32, f32>, #ttnn.buffer_type<dram>>, <interleaved>",
         "(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, <interleaved>"),
        # Mesh, grid mapping and ignorePhysicalLayout kept as written.
        ("(d0, d1) -> (d0, d1), <1x1>, mesh = <\"mesh\">, memref<2x2xbf16, #ttnn.buffer_type<dram>>, <interleaved>", None),
        ("(d0, d1) -> (d0, d1), <8x8, (d0, d1) -> (0, d0, d1)>, memref<1x1x!ttcore.tile<32x32, bf16>, "
         "#ttnn.buffer_type<l1>>, <interleaved>", None),
        ("(d0, d1) -> (d0, d1), <1x8>, memref<1x4x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <width_sharded>, "
         "ignorePhysicalLayout = true", None),
        # Hand-written non-canonical multipliers are kept (recomputed only by build()).
        ("(d0, d1, d2) -> (d0 * 1024 + d1, d2), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, "
         "<interleaved>", None),
        ("(d0) -> (d0), <1x1>, memref<1x1xf32, #ttnn.buffer_type<system_memory>>", None),
    ],
)  # fmt: skip
def test_parse_print(attr, body: str, printed: str | None) -> None:
    model = attr(f"#ttnn.ttnn_layout<{body}>").typed
    if printed == "inline":
        printed = body.replace("#dram", "#ttnn.buffer_type<dram>")
    assert model.print_body() == (printed or body)
    # print -> parse is a fixed point.
    again = attr(f"#ttnn.ttnn_layout<{model.print_body()}>").typed
    assert again == model and hash(again) == hash(model)


@pytest.mark.parametrize(
    "body, message",
    [
        ("(d0, d1) -> (d0, d1), <1x1>", "at least an affine map"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1xbf16, #dram>, foo", "unexpected parameter"),
        ("(d0, d1) -> (d0, d1), <1x1>, <interleaved>, memref<1x1xbf16, #dram>", "right after the grid"),
        ("d0 -> d1, <1x1>, memref<2x2xbf16, #dram>", "affine map"),
        ("(d0, d1) -> (d0, d1), <8>, memref<2x2xbf16, #dram>", "2-D"),
        ("(d0, d1) -> (d0, d1), 1x1, memref<2x2xbf16, #dram>", "the grid"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2xbf16, #nope>", "undefined symbol alias id 'nope'"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2xbf16, #grid>", "must be a #ttnn.buffer_type"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2xbf16>", "exactly one memory space"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2xbf16, #ttnn.buffer_type<hbm>>", "memory space"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, q7>, #dram>", "tile"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<4xbf16, #dram>", "2-D"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x?xbf16, #dram>", "static"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<2x2xbf16, #dram>, <diagonal>", "unknown tensor memory layout"),
        ("(d0, d1) -> (d0, d1), <2x1>, memref<1x1xbf16, #l1>, <height_sharded>", "needs core_ranges"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1xbf16, #dram>, <interleaved>, core_ranges = <[]>", "only allowed on sharded"),
        ("(d0, d1) -> (d0, d1), <2x1>, memref<1x1xbf16, #l1>, <height_sharded>, core_ranges = <[#ttnn.core_range<(1, 0), (0, 0)>]>", "before its start"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1xbf16, #dram>, <interleaved>, <interleaved>", "duplicate"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1xbf16, #dram>, ignorePhysicalLayout = maybe", "true or false"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1xbf16, #dram>, frobnicate = 1", "unknown parameter 'frobnicate'"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1xbf16, #dram>, mesh = <\"m\">", "before the memref"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1xbf16, #dram>>, <interleaved>", "unbalanced"),
        ("(d0, d1) -> (d0, d1), <1x1, memref<1x1xbf16, #dram>, <interleaved>", "unclosed"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1xbf16, #dram>,, <interleaved>", "empty parameter"),
        ("(d0, d1) -> (d0, d1), <1x1>, memref<1x1 bf16, #dram>", "bad memref"),
    ],
)  # fmt: skip
def test_parse_errors(scope, body: str, message: str) -> None:
    # Built directly: some bodies are unbalanced, which the outer attribute parser would reject first.
    a = DialectAttr("ttnn.ttnn_layout", body, scope=scope)
    with pytest.raises(AttrError, match=message):
        a.typed


def test_error_offsets_point_into_the_body(scope, attr) -> None:
    body = "(d0, d1) -> (d0, d1), <1x1>, memref<2x2xbf16, #nope>"
    with pytest.raises(AttrError) as e:
        DialectAttr("ttnn.ttnn_layout", body, scope=scope).typed
    assert body[: e.value.offset].endswith("#nope")  # MLIR reports an undefined alias at its end
    # Read from text, the undefined alias is refused when the attribute is read (as MLIR does),
    # at the end of the reference.
    from ttopt.parse.attr_parser import AttrSyntaxError

    text = f"#ttnn.ttnn_layout<{body}>"
    with pytest.raises(AttrSyntaxError, match="undefined symbol alias id 'nope'") as e2:
        attr(text)
    assert text[: e2.value.offset].endswith("#nope")


def test_alias_inside_body_needs_a_scope() -> None:
    a = DialectAttr("ttnn.ttnn_layout", "(d0, d1) -> (d0, d1), <1x1>, memref<2x2xbf16, #dram>, <interleaved>")
    with pytest.raises(AttrError, match="undefined alias #dram"):
        a.typed


def test_layout_is_hashable_dict_key() -> None:
    a = TTNNLayoutAttr.build((64, 64), "bf16")
    b = TTNNLayoutAttr.build((64, 64), DataType.BF16)
    assert {a: 1}[b] == 1
    with pytest.raises(Exception):
        a.grid = (2, 2)  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------
# Property: build -> print -> parse gives the same model; shards cover the tensor.

_DTYPES = ["bf16", "f32", "f16", "si32", "u32", "u16", "u8", "bfp_bf8", "bfp_bf4", "bfp_bf2"]
_RM_DTYPES = ["bf16", "f32", "si32", "ui32", "ui16", "ui8", "f16"]


@st.composite
def layouts(draw):
    rank = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 300), min_size=rank, max_size=rank)))
    tiled = draw(st.booleans())
    dtype = draw(st.sampled_from(_DTYPES if tiled else _RM_DTYPES))
    kind = draw(st.sampled_from(["dram", "l1", "sys", "height", "width", "block", "dram_width"]))
    kw: dict = {"tiled": tiled}
    if kind == "dram":
        pass
    elif kind == "sys":
        kw["buffer_type"] = SYS
    elif kind == "l1":
        kw["buffer_type"] = L1
        kw["tiled"] = True
        dtype = draw(st.sampled_from(_DTYPES))
    elif kind == "height":
        kw.update(buffer_type=L1, memory_layout=H, grid=draw(st.integers(1, 64)))
    elif kind == "width":
        kw.update(buffer_type=L1, memory_layout=W, grid=draw(st.integers(1, 64)))
    elif kind == "block":
        kw.update(buffer_type=L1, memory_layout=B, grid=(draw(st.integers(1, 8)), draw(st.integers(1, 8))))
    else:
        kw.update(buffer_type=DRAM, memory_layout=W, grid=draw(st.integers(1, 12)))
    return shape, dtype, kw


@settings(max_examples=examples(150), deadline=None)
@given(layouts())
def test_build_print_parse_round_trip(case) -> None:
    shape, dtype, kw = case
    lay = TTNNLayoutAttr.build(shape, dtype, **kw)
    text = DialectAttr.of(lay).text
    parsed = AttrParser(None).attribute(text).typed
    assert parsed == lay and parsed.print_body() == lay.print_body()

    rows, cols = lay.collapsed_2d(shape)
    th, tw = lay.tile.shape if lay.tile else (1, 1)
    if lay.is_sharded:
        srows, scols = lay.scalar_shard_shape
        assert srows * lay.grid[0] >= rows and scols * lay.grid[1] >= cols
        assert lay.core_ranges.num_cores == lay.grid_volume
    elif lay.is_l1:
        assert lay.shard_shape[0] == 1
        assert lay.shard_shape[1] * lay.grid_volume >= ceil(rows / th) * ceil(cols / tw)
    else:
        assert lay.grid == (1, 1) and lay.shard_shape == (ceil(rows / th), ceil(cols / tw))
    assert lay.shard_size_bytes == prod(lay.shard_shape) * lay.element_size_bytes


# ---------------------------------------------------------------------------------------------
# Other ttnn attributes.


@pytest.mark.parametrize(
    "text, cls, printed",
    [
        ("#ttnn.buffer_type<l1>", BufferTypeAttr, None),
        ("#ttnn.buffer_type<system_memory>", BufferTypeAttr, None),
        ("#ttnn.buffer_type<l1_small>", BufferTypeAttr, None),
        ("#ttnn.buffer_type<trace>", BufferTypeAttr, None),
        ("#ttnn.tensor_memory_layout<height_sharded>", TensorMemoryLayoutAttr, None),
        ("#ttnn.tensor_memory_layout<nd_sharded>", TensorMemoryLayoutAttr, None),
        ("#ttnn.layout<row_major>", LayoutAttr, None),
        ("#ttnn.layout<tile>", LayoutAttr, None),
        ("#ttnn.core_coord<8, 2>", CoreCoord, None),
        ("#ttnn.core_coord<8,2>", CoreCoord, "#ttnn.core_coord<8, 2>"),
        ("#ttnn.core_range<(0,0), (7,7)>", CoreRange, "#ttnn.core_range<(0, 0), (7, 7)>"),
        ("#ttnn.core_range_set<>", CoreRangeSet, None),
        ("#ttnn.core_range_set<[]>", CoreRangeSet, "#ttnn.core_range_set<>"),
        ("#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 0)>, #ttnn.core_range<(0, 1), (3, 1)>]>", CoreRangeSet, None),
        ("#ttnn.core_range_set<[#range]>", CoreRangeSet, "#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>"),
        ("#ttnn.shard_spec<<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x32>, <row_major>>", ShardSpecAttr, None),
        ("#ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <64x32>, <col_major>, <physical>, <64x64>>",
         ShardSpecAttr, "#ttnn.shard_spec<<[#ttnn.core_range<(0, 0), (1, 0)>]>, <64x32>, <col_major>, <physical>, <64x64>>"),
        ("#ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>", MemoryConfigAttr, None),
        ("#ttnn.memory_config<#dram, <interleaved>>", MemoryConfigAttr, "#ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>"),
        ("#ttnn.memory_config<#ttnn.buffer_type<system_memory>>", MemoryConfigAttr, None),
        ("#ttnn.memory_config<#l1, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x32>, <row_major>>>",
         MemoryConfigAttr, "#ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x32>, <row_major>>>"),
        ("#ttnn.shape<32x1024>", ShapeAttr, None),
        ("#ttnn.shape<>", ShapeAttr, None),
        ("#ttnn<mesh_shape 1x1>", MeshShapeAttr, None),
        ("#ttnn<mesh_offset 0x0>", MeshOffsetAttr, None),
        ("#ttnn.conv2d_slice_config<l1_full, 0>", Conv2dSliceConfigAttr, None),
        ("#ttnn.conv2d_slice_config<dram_height, 4>", Conv2dSliceConfigAttr, None),
        ("#ttnn.conv2d_config<weights_dtype = bf16, activation = <op_type = relu>, deallocate_activation = true, act_block_h_override = 0>",
         Conv2dConfigAttr, None),
        ("#ttnn.unary_with_param<op_type = relu>", UnaryWithParamAttr, None),
    ],
)  # fmt: skip
def test_other_ttnn_attrs(attr, text: str, cls: type, printed: str | None) -> None:
    model = attr(text).typed
    assert isinstance(model, cls)
    assert DialectAttr.of(model).text == (printed or text)
    assert attr(DialectAttr.of(model).text).typed == model


def test_memory_config_alias_printing(typed) -> None:
    mc = typed("#ttnn.memory_config<#dram, <interleaved>>")
    assert mc.print_body(alias_buffer=True) == "#dram, <interleaved>"
    assert mc.buffer_type is DRAM and mc.memory_layout is I and mc.shard_spec is None


def test_core_range_set_queries() -> None:
    crs = CoreRangeSet.of([(0, 0, 7, 0), (0, 1, 3, 1)])
    assert crs.num_cores == 12 and crs.bounding_box == (2, 8)
    assert crs.short_text() == "<[#ttnn.core_range<(0, 0), (7, 0)>, #ttnn.core_range<(0, 1), (3, 1)>]>"
    assert CoreRangeSet().print_body() == "" and CoreRangeSet().num_cores == 0


def test_matmul_program_config_accessors(typed) -> None:
    cfg = typed(
        "#ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config<compute_with_storage_grid_size = #ttnn.core_coord<8, 1>, "
        "in0_block_w = 4, out_subblock_h = 1, out_subblock_w = 4, out_block_h = 1, out_block_w = 4, per_core_m = 1, "
        "per_core_n = 4, fuse_batch = true, fused_activation = #ttnn.unary_with_param<op_type = relu>, mcast_in0 = false, "
        "gather_in0 = false, hop_cores = #ttnn.core_range_set<>, num_global_cb_receivers = 0, untilize_out = false>"
    )
    assert isinstance(cfg, MatmulMultiCoreReuseMultiCast1DProgramConfigAttr)
    assert cfg.compute_with_storage_grid_size == CoreCoord(x=8, y=1)
    assert (cfg.in0_block_w, cfg.per_core_m, cfg.per_core_n) == (4, 1, 4)
    assert cfg.get_bool("fuse_batch") is True and cfg.get_bool("mcast_in0") is False
    assert cfg.get("hop_cores") == "#ttnn.core_range_set<>" and cfg.get("missing") is None
    built = MatmulMultiCoreReuseMultiCastProgramConfigAttr.of(
        compute_with_storage_grid_size=CoreCoord(x=4, y=4), in0_block_w=1, out_subblock_h=1, out_subblock_w=4,
        out_block_h=2, out_block_w=4, per_core_m=2, per_core_n=4, transpose_mcast=False, fuse_batch=False,
    )  # fmt: skip
    assert built.text == (
        "#ttnn.matmul_multi_core_reuse_multi_cast_program_config<compute_with_storage_grid_size = #ttnn.core_coord<4, 4>, "
        "in0_block_w = 1, out_subblock_h = 1, out_subblock_w = 4, out_block_h = 2, out_block_w = 4, per_core_m = 2, "
        "per_core_n = 4, transpose_mcast = false, fuse_batch = false>"
    )
    conv = typed("#ttnn.conv2d_config<weights_dtype = bf16, deallocate_activation = true>")
    assert conv.weights_dtype is DataType.BF16


def test_unknown_ttnn_short_form_stays_opaque(attr) -> None:
    assert attr("#ttnn<something else>").typed is None


@pytest.mark.parametrize(
    "text, message",
    [
        ("#ttnn.buffer_type<hbm>", "Input should be"),
        ("#ttnn.core_coord<1>", "x, y"),
        ("#ttnn.core_coord<-1, 0>", "non-negative"),
        ("#ttnn.core_range<(2, 2), (1, 1)>", "before its start"),
        ("#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (3, 3)>, #ttnn.core_range<(2, 2), (4, 4)>]>", "overlap"),
        ("#ttnn.core_range_set<[#ttnn.shape<1x1>]>", "expected #ttnn.core_range"),
        ("#ttnn.core_range_set<[#undefined]>", "undefined symbol alias id 'undefined'"),  # refused when read
        ("#ttnn.memory_config<#dram, <interleaved>, #ttnn.shard_spec<<[]>, <32x32>, <row_major>>>", "sharded memory layout"),
        ("#ttnn.memory_config<#dram, <interleaved>, <interleaved>>", "once"),
        ("#ttnn.memory_config<>", "1 to 3"),
        ("#ttnn.shard_spec<<[]>, <32x32>>", "3 to 5"),
        ("#ttnn.shard_spec<<[]>, <32x32>, <diagonal>>", "unknown shard orientation"),
        ("#ttnn.shape<32xx2>", "shape"),
        ("#ttnn.conv2d_slice_config<l1_full>", "2 parameters"),
        ("#ttnn.conv2d_config<weights_dtype bf16>", "key = value"),
        ("#ttnn.conv2d_config<a = 1, a = 2>", "duplicate"),
        ("#ttnn<mesh_shape 1xx1>", "mesh shape"),
    ],
)
def test_other_ttnn_attr_errors(attr, text: str, message: str) -> None:
    from ttopt.parse.attr_parser import AttrSyntaxError

    with pytest.raises((AttrError, AttrSyntaxError), match=message):
        attr(text).typed
