"""The ops a layout change takes (tt-mlir HEAD's split: to_memory_config for the memory config,
to_layout for page layout and dtype)."""

from __future__ import annotations

from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.optimizer.memory_move import TO_LAYOUT, TO_MEMORY_CONFIG, expresses, same_memory, steps

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


def test_dtype_change_in_place_is_one_to_layout() -> None:
    assert steps(SHAPE, _lay(), _lay(dtype="f32"), WG) == [(TO_LAYOUT, _lay(dtype="f32"))]


def test_no_change_is_no_op() -> None:
    assert steps(SHAPE, _lay(), _lay(), WG) == []


def test_tilize_runs_before_the_move() -> None:
    src, dst = _lay(tiled=False), _lay(buffer="l1", mem="block_sharded", grid=(8, 8))
    plan = steps(SHAPE, src, dst, WG)
    assert _describe(plan) == [(TO_LAYOUT, "dram", True), (TO_MEMORY_CONFIG, "l1", True)]
    assert same_memory(plan[0][1], src) and plan[-1][1] == dst


def test_untilize_runs_after_the_move() -> None:
    src, dst = _lay(buffer="l1", mem="block_sharded", grid=(8, 8)), _lay(tiled=False)
    plan = steps(SHAPE, src, dst, WG)
    assert _describe(plan) == [(TO_MEMORY_CONFIG, "dram", True), (TO_LAYOUT, "dram", False)]
    assert same_memory(plan[0][1], dst) and plan[-1][1] == dst


def test_every_step_is_legal_for_its_op() -> None:
    layouts = [_lay(), _lay(tiled=False), _lay(buffer="l1"),
               _lay(buffer="l1", mem="height_sharded", grid=(8, 1)), _lay(buffer="l1", mem="block_sharded", grid=(8, 8)),
               _lay(dtype="f32")]  # fmt: skip
    for src in layouts:
        for dst in layouts:
            cur = src
            for name, lay in steps(SHAPE, src, dst, WG):
                assert expresses(name, cur, lay), (src, dst, name)
                cur = lay
            assert cur == dst
