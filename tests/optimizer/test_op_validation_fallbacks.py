"""`ttnn-operation-validation-and-fallback`: the kernels' operand requirements, tt-mlir's distance
order of input fallbacks, the conv L1 model under slice configs and tt-mlir's conv config search."""

from __future__ import annotations

import pytest

from ttopt.device.device import preset
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.lowering import ttnn_conv_fallbacks as conv
from ttopt.lowering import ttnn_op_constraints as constraints
from ttopt.lowering import ttnn_op_fallbacks as fallbacks

SHAPE = (64, 32)


def lay(dtype: DataType, tiled: bool = True, buffer: BufferType = BufferType.DRAM) -> TTNNLayoutAttr:
    memory = None if buffer is BufferType.SYSTEM_MEMORY else TensorMemoryLayout.INTERLEAVED
    return TTNNLayoutAttr.build(SHAPE, dtype, tiled=tiled, buffer_type=buffer, memory_layout=memory)


@pytest.mark.parametrize(
    ("a", "b", "cost"),
    [
        (DataType.BF16, DataType.BF16, 0.0),
        (DataType.F32, DataType.BF16, 1.0),  # precision drop
        (DataType.BF16, DataType.F32, 2.0),  # precision rise
        (DataType.SI32, DataType.U32, 1.0),  # lateral
        (DataType.F32, DataType.U32, 2.0),  # float -> int
    ],
)
def test_dtype_distance(a: DataType, b: DataType, cost: float) -> None:
    assert fallbacks.dtype_distance(a, b) == cost


def test_layout_distance_adds_page_layout_and_buffer_moves() -> None:
    assert fallbacks.layout_distance(lay(DataType.F32), lay(DataType.BF16, tiled=False)) == 3.0
    assert fallbacks.layout_distance(lay(DataType.BF16, buffer=BufferType.L1), lay(DataType.BF16)) == 3.0
    assert fallbacks.layout_distance(lay(DataType.BF16), lay(DataType.BF16, tiled=False, buffer=BufferType.SYSTEM_MEMORY)) == 8.0


def test_candidates_are_dram_interleaved_row_major_first_then_the_original() -> None:
    original = lay(DataType.F32)
    got = fallbacks.candidates(original, SHAPE)
    assert len(got) == 8  # 2 page layouts x 4 data types, less the original, plus the original
    assert [(c.is_tiled, c.dtype) for c in got[:4]] == [
        (False, DataType.F32),
        (False, DataType.BF16),
        (False, DataType.U32),
        (False, DataType.SI32),
    ]
    assert got[-1] is original
    assert all(c.is_dram and c.memory_layout is TensorMemoryLayout.INTERLEAVED for c in got)


def test_combinations_nearest_first_with_enum_tie_break() -> None:
    combos = list(fallbacks.combinations([lay(DataType.F32)], [SHAPE]))
    assert combos[0].distance == 0.0 and combos[0].layouts[0].dtype is DataType.F32
    # Distance 1: f32 -> bf16 tile is the only one.
    assert combos[1].distance == 1.0 and (combos[1].layouts[0].dtype, combos[1].layouts[0].is_tiled) == (DataType.BF16, True)
    distances = [c.distance for c in combos]
    assert distances == sorted(distances)


def test_embedding_requires_bf16_weights_and_ui32_or_bf16_indices() -> None:
    assert constraints.check("ttnn.embedding", [lay(DataType.U32), lay(DataType.BF16)]) is None
    assert constraints.check("ttnn.embedding", [lay(DataType.U32), lay(DataType.F32)]) == "operand 1: data type f32 is not one of bf16"
    assert constraints.check("ttnn.embedding", [lay(DataType.F32), lay(DataType.BF16)]) is not None


def test_upsample_requires_row_major_and_keeps_it() -> None:
    assert constraints.check("ttnn.upsample", [lay(DataType.BF16)]) == "operand 0: needs row_major layout, got tile"
    rm = lay(DataType.BF16, tiled=False)
    assert constraints.check("ttnn.upsample", [rm]) is None
    assert constraints.output_of("ttnn.upsample", [rm], lay(DataType.BF16)) == (DataType.BF16, False)


def test_pool_writes_row_major() -> None:
    assert constraints.output_of("ttnn.max_pool2d", [lay(DataType.BF16)], lay(DataType.BF16)) == (DataType.BF16, False)
    assert constraints.check("ttnn.max_pool2d", [lay(DataType.F32)]) is not None


def test_ops_without_rules_accept_anything() -> None:
    assert constraints.check("ttnn.add", [lay(DataType.F32), lay(DataType.SI32, tiled=False)]) is None
    assert constraints.output_of("ttnn.add", [lay(DataType.F32)], lay(DataType.F32)) is None


def shape(rows: int, width: int, cin: int, cout: int, k: int = 3) -> conv.ConvShape:
    return conv.ConvShape(batch=1, in_rows=rows, in_w=width, out_h=rows // width, out_w=width, in_channels=cin,
                          out_channels=cout, kernel=(k, k), act_tile_bytes=2048, weight_tile_bytes=2048)  # fmt: skip


def test_conv_peak_falls_with_slices_and_smaller_act_blocks() -> None:
    dev = preset("wormhole_b0")
    s = shape(512 * 512, 512, 64, 64)
    assert conv.peak_l1(s, 0, 1, dev) > conv.peak_l1(s, 64, 1, dev)
    assert conv.peak_l1(s, 64, 1, dev) > conv.peak_l1(s, 64, 8, dev)


def test_conv_fits_l1_full_only_when_the_whole_tensor_does() -> None:
    dev = preset("wormhole_b0")
    small, big = shape(32 * 32, 32, 64, 64), shape(1024 * 1024, 1024, 256, 256)
    assert conv.fits(small, "l1_full", 0, 0, dev)
    assert not conv.fits(big, "l1_full", 0, 32, dev)
    assert conv.fits(big, "dram_width", 0, 1024, dev)  # auto slice count
    assert not conv.fits(big, "dram_width", 2, 1024, dev)  # two slices are not enough
    assert not conv.fits(big, "no_such_slice", 0, 0, dev)


def test_conv_search_order_is_tt_mlirs() -> None:
    order = list(conv.candidates())
    assert order[:3] == [("l1_full", 0), ("l1_full", 1024), ("l1_full", 992)]
    assert order[33] == ("dram_width", 1024)
    assert order[-1] == ("dram_height", 32)
    assert len(order) == 33 + 32 + 32
