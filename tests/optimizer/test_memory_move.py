"""The ops a layout change takes (tt-mlir HEAD's TTNNDecomposeLayouts: to_memory_config for the
memory config, to_layout for the page layout, typecast for the data type)."""

from __future__ import annotations

from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.optimizer.memory_move import TO_LAYOUT, TO_MEMORY_CONFIG, TYPECAST, expresses, same_memory, steps

WG = (8, 8)
SHAPE = (256, 512)


def _lay(tiled: bool = True, buffer: str = "dram", mem: str | None = "interleaved", grid: tuple[int, int] | None = None,
         dtype: str = "bf16") -> TTNNLayoutAttr:  # fmt: skip
    return TTNNLayoutAttr.build(SHAPE, dtype, tiled=tiled, buffer_type=buffer, memory_layout=mem, grid=grid, worker_grid=WG)


def _describe(plan: list[tuple[str, TTNNLayoutAttr]]) -> list[tuple[str, str, bool]]:
    return [(name, lay.buffer_type.value, lay.is_tiled) for name, lay in plan]


def test_memory_config_change_is_one_to_memory_config() -> None:
    src, dst = _lay(), _lay(buffer="l1", mem="height_sharded", grid=(8, 1))
    assert steps(SHAPE, src, dst, WG) == [(TO_MEMORY_CONFIG, dst)]
    assert expresses(TO_MEMORY_CONFIG, src, dst) and not expresses(TO_LAYOUT, src, dst)


def test_page_layout_change_in_place_is_one_to_layout() -> None:
    src, dst = _lay(tiled=False), _lay()
    assert steps(SHAPE, src, dst, WG) == [(TO_LAYOUT, dst)]
    assert expresses(TO_LAYOUT, src, dst) and not expresses(TO_MEMORY_CONFIG, src, dst)


def test_dtype_change_in_place_is_one_typecast() -> None:
    assert steps(SHAPE, _lay(), _lay(dtype="f32"), WG) == [(TYPECAST, _lay(dtype="f32"))]
    assert expresses(TYPECAST, _lay(), _lay(dtype="f32")) and not expresses(TYPECAST, _lay(), _lay(tiled=False))


def test_float_tilize_with_a_dtype_change_is_one_to_layout() -> None:
    assert steps(SHAPE, _lay(tiled=False, dtype="f32"), _lay(), WG) == [(TO_LAYOUT, _lay())]


def test_layout_and_dtype_changes_put_the_untilize_or_tilize_on_a_device_dtype() -> None:
    # Untilize on the output's dtype (the device untilizes bf16): typecast first.
    plan = steps(SHAPE, _lay(dtype="f32"), _lay(tiled=False), WG)
    assert [(n, lay.is_tiled, lay.dtype.value) for n, lay in plan] == [(TYPECAST, True, "bf16"), (TO_LAYOUT, False, "bf16")]
    # Untilize to u8 (not untilized on the device): untilize the input's dtype, then typecast.
    plan = steps(SHAPE, _lay(dtype="u32"), _lay(tiled=False, dtype="u8"), WG)
    assert [(n, lay.is_tiled, lay.dtype.value) for n, lay in plan] == [(TO_LAYOUT, False, "u32"), (TYPECAST, False, "u8")]
    # Tilize an integer input on its own dtype, then typecast (integers convert only by typecast).
    plan = steps(SHAPE, _lay(tiled=False, dtype="si32"), _lay(), WG)
    assert [(n, lay.is_tiled, lay.dtype.value) for n, lay in plan] == [(TO_LAYOUT, True, "si32"), (TYPECAST, True, "bf16")]
    # Tilize u8 (not tilized on the device): typecast first, then tilize the output's dtype.
    plan = steps(SHAPE, _lay(tiled=False, dtype="u8"), _lay(dtype="u32"), WG)
    assert [(n, lay.is_tiled, lay.dtype.value) for n, lay in plan] == [(TYPECAST, False, "u32"), (TO_LAYOUT, True, "u32")]


def test_no_change_is_no_op() -> None:
    assert steps(SHAPE, _lay(), _lay(), WG) == []


def test_tilize_runs_before_the_move() -> None:
    src, dst = _lay(tiled=False), _lay(buffer="l1", mem="block_sharded", grid=(8, 8))
    plan = steps(SHAPE, src, dst, WG)
    assert _describe(plan) == [(TO_LAYOUT, "dram", True), (TO_MEMORY_CONFIG, "l1", True)]
    assert same_memory(plan[0][1], src) and plan[-1][1] == dst


def test_a_block_float_untilize_casts_its_tiles_first() -> None:
    # Neither bfp_bf8 nor u8 is untilized on the device, and a block float has no row-major layout.
    plan = steps(SHAPE, _lay(dtype="bfp_bf8"), _lay(tiled=False, dtype="u8"), WG)
    assert [(n, lay.is_tiled, lay.dtype.value) for n, lay in plan] == [(TYPECAST, True, "u8"), (TO_LAYOUT, False, "u8")]
    plan = steps(SHAPE, _lay(tiled=False, dtype="u8"), _lay(dtype="bfp_bf8"), WG)
    assert [(n, lay.is_tiled, lay.dtype.value) for n, lay in plan] == [(TO_LAYOUT, True, "u8"), (TYPECAST, True, "bfp_bf8")]


def test_untilize_of_a_sharded_tensor_runs_after_the_move() -> None:
    src, dst = _lay(buffer="l1", mem="block_sharded", grid=(8, 8)), _lay(tiled=False)
    plan = steps(SHAPE, src, dst, WG)
    assert _describe(plan) == [(TO_MEMORY_CONFIG, "dram", True), (TO_LAYOUT, "dram", False)]
    assert same_memory(plan[0][1], dst) and plan[-1][1] == dst


def test_untilize_of_a_dram_tensor_runs_before_the_move() -> None:
    src, dst = _lay(), _lay(tiled=False, buffer="l1", mem="height_sharded", grid=(8, 1))
    plan = steps(SHAPE, src, dst, WG)
    assert _describe(plan) == [(TO_LAYOUT, "dram", False), (TO_MEMORY_CONFIG, "l1", False)]
    assert same_memory(plan[0][1], src) and plan[-1][1] == dst


def test_unaligned_height_sharded_tilize_goes_through_dram() -> None:
    shape = (100, 64)
    src = TTNNLayoutAttr.build(shape, "bf16", tiled=False, buffer_type="l1", memory_layout="height_sharded", grid=(4, 1), worker_grid=WG)
    dst = TTNNLayoutAttr.build(shape, "bf16", buffer_type="l1", memory_layout="height_sharded", grid=(4, 1), worker_grid=WG)
    plan = steps(shape, src, dst, WG)
    assert [(n, lay.buffer_type.value, lay.is_tiled) for n, lay in plan] == [
        (TO_MEMORY_CONFIG, "dram", False), (TO_LAYOUT, "dram", True), (TO_MEMORY_CONFIG, "l1", True)]  # fmt: skip


def test_every_step_is_legal_for_its_op() -> None:
    layouts = [_lay(), _lay(tiled=False), _lay(buffer="l1"),
               _lay(buffer="l1", mem="height_sharded", grid=(8, 1)), _lay(buffer="l1", mem="block_sharded", grid=(8, 8)),
               _lay(dtype="f32"), _lay(tiled=False, dtype="f32"), _lay(dtype="u32"), _lay(tiled=False, dtype="u8"),
               _lay(tiled=False, buffer="l1", mem="height_sharded", grid=(8, 1)), _lay(dtype="bfp_bf8"),
               _lay(buffer="l1", mem="block_sharded", grid=(8, 8), dtype="bfp_bf8"), _lay(tiled=False, dtype="f16")]  # fmt: skip
    for src in layouts:
        for dst in layouts:
            cur = src
            for name, lay in steps(SHAPE, src, dst, WG):
                assert expresses(name, cur, lay), (src, dst, name)
                cur = lay
            assert cur == dst


def test_a_relayout_in_l1_interleaved_keeps_the_tensors_grid() -> None:
    """An L1-interleaved tensor on fewer cores than the worker grid (a 1x1 grid, as tt-mlir puts
    small row-major kernel outputs): every op of the plan is one HEAD's verifiers accept, so a
    to_layout never changes the grid."""
    src = TTNNLayoutAttr.build(SHAPE, "bf16", tiled=False, buffer_type="l1", memory_layout="interleaved", worker_grid=(1, 1))
    assert tuple(src.grid) == (1, 1)
    plan = steps(SHAPE, src, _lay(), WG)
    cur = src
    for name, lay in plan:
        assert expresses(name, cur, lay), (name, cur, lay)
        cur = lay
    assert cur == _lay()
