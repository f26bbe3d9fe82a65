"""KV-cache ops: ttir.fill_cache lowers to ttnn.fill_cache (no result, batch_offset kept),
ttir.update_cache to HEAD's canonical ttnn.paged_update_cache (input permuted to [1, users, heads,
head_dim] and L1 height-sharded on [users, 1] cores, index repeated per user and row-major), and
the optimizer's scheduler keeps them ordered with the cache's readers."""

from __future__ import annotations

import pytest

from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.scheduler import Scheduler
from ttopt.testing.ods_check import check_module
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

CACHE = """
func.func @main(%cache: tensor<32x8x128x64xbf16>, %x: tensor<1x8x32x64xbf16>, %idx: tensor<1xi64>, %w: tensor<64x64xbf16>) -> tensor<32x8x128x64xbf16> {
  %r = "ttir.matmul"(%cache, %w) : (tensor<32x8x128x64xbf16>, tensor<64x64xbf16>) -> tensor<32x8x128x64xbf16>
  %0 = "ttir.multiply"(%x, %x) : (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  "ttir.update_cache"(%cache, %0, %idx) <{batch_offset = 0 : i32}> : (tensor<32x8x128x64xbf16>, tensor<1x8x32x64xbf16>, tensor<1xi64>) -> ()
  "ttir.fill_cache"(%cache, %0) <{batch_offset = 3 : i32}> : (tensor<32x8x128x64xbf16>, tensor<1x8x32x64xbf16>) -> ()
  %1 = "ttir.matmul"(%cache, %w) : (tensor<32x8x128x64xbf16>, tensor<64x64xbf16>) -> tensor<32x8x128x64xbf16>
  %2 = "ttir.add"(%1, %r) : (tensor<32x8x128x64xbf16>, tensor<32x8x128x64xbf16>) -> tensor<32x8x128x64xbf16>
  return %2 : tensor<32x8x128x64xbf16>
}
"""


def _names(module) -> list[str]:  # type: ignore[no-untyped-def]
    fn = next(iter(module.functions()))
    return [op.name for op in fn.regions[0].entry.ops if op.name not in ("ttnn.deallocate", "ttnn.to_layout", "ttnn.to_memory_config")]


@pytest.mark.parametrize("options", ["", "optimization-level=2", "optimization-level=2 memory-layout-analysis-policy=DFSharding"])
def test_cache_ops_lower_in_place_and_stay_between_their_readers(options: str) -> None:
    module = run_pipeline(CACHE, "cache.mlir", BACKEND.format(options))
    names = _names(module)
    # HEAD's canonical form: the [1, heads, users, head_dim] input permuted, the index repeated per user.
    assert names == ["ttnn.matmul", "ttnn.multiply", "ttnn.permute", "ttnn.repeat", "ttnn.paged_update_cache", "ttnn.fill_cache",
                     "ttnn.matmul", "ttnn.add", "func.return"]  # fmt: skip
    fn = next(iter(module.functions()))
    update, fill = (op for op in fn.regions[0].entry.ops if op.name.endswith("_cache"))
    assert update.results == [] and fill.results == []
    assert "batch_offset" not in update.properties and update.properties["share_cache"].text == "false"
    assert fill.properties["batch_offset"].text == "3 : i32"
    assert [v.type.resolve().shape for v in update.operands] == [(32, 8, 128, 64), (1, 32, 8, 64), (32,)]
    x, index = (current_layout(v.type) for v in update.operands[1:])
    assert x.is_l1 and x.memory_layout.value == "height_sharded" and tuple(x.grid) == (32, 1)
    assert not index.is_tiled and index.is_dram
    assert update.operands[2].type.resolve().element_type.text == "si32"  # paged_update_cache reads int32 indices


def test_scheduler_orders_an_in_place_write_after_earlier_and_before_later_readers() -> None:
    module = run_pipeline(CACHE, "cache.mlir", BACKEND.format(""))
    fn = next(iter(module.functions()))
    ops = [op for op in fn.regions[0].entry.ops if op.name not in ("ttnn.deallocate", "func.return")]
    before, mul, permute, repeat, index, x, update, fill, after, _ = ops
    s = Scheduler(ops)
    assert s.get_schedulable_ops() == [before, mul, repeat]  # the later reader waits for the writes
    for op in (mul, permute, repeat, index, x):
        s.schedule_op(op)
    assert not s.can_schedule(update)  # the write waits for the earlier reader
    s.schedule_op(before)
    s.schedule_op(update)
    assert not s.can_schedule(after)
    s.schedule_op(fill)
    assert s.can_schedule(after)


def test_cache_op_with_a_wrong_operand_count_is_an_error_at_the_op() -> None:
    from ttopt.ir.diagnostics import Diagnostic

    bad = CACHE.replace('"ttir.fill_cache"(%cache, %0)', '"ttir.fill_cache"(%cache, %0, %idx)').replace(
        "(tensor<32x8x128x64xbf16>, tensor<1x8x32x64xbf16>) -> ()", "(tensor<32x8x128x64xbf16>, tensor<1x8x32x64xbf16>, tensor<1xi64>) -> ()")
    with pytest.raises(Diagnostic, match=r"'ttir.fill_cache' op expected 2 operands, but found 3"):
        run_pipeline(bad, "cache.mlir", BACKEND.format(""))


PAGED_FILL = """
func.func @main(%cache: tensor<32x4x32x64xbf16>, %x: tensor<{batch}x4x{seq}x64xbf16>, %pt: tensor<4x8xi32>{idx_arg}) -> tensor<32x4x32x64xbf16> {{
  "ttir.paged_fill_cache"(%cache, %x, %pt{idx}) : (tensor<32x4x32x64xbf16>, tensor<{batch}x4x{seq}x64xbf16>, tensor<4x8xi32>{idx_type}) -> ()
  return %cache : tensor<32x4x32x64xbf16>
}}
"""


def _paged_fill(batch: int = 2, seq: int = 64, idx: int | None = 2) -> str:
    if idx is None:
        return PAGED_FILL.format(batch=batch, seq=seq, idx_arg="", idx="", idx_type="")
    return PAGED_FILL.format(batch=batch, seq=seq, idx_arg=f", %b: tensor<{idx}xi32>", idx=", %b", idx_type=f", tensor<{idx}xi32>")


@pytest.mark.parametrize("idx", [2, None])
def test_paged_fill_cache_lowers_one_to_one_with_row_major_indices(idx: int | None) -> None:
    module = run_pipeline(_paged_fill(batch=2 if idx else 1, idx=idx), "fill.mlir", BACKEND.format(""))
    fn = next(iter(module.functions()))
    (fill,) = (op for op in fn.regions[0].entry.ops if op.name == "ttnn.paged_fill_cache")
    assert fill.results == [] and len(fill.operands) == (4 if idx else 3)
    assert fill.operands[0] is fn.regions[0].entry.args[0]  # the cache is written in place
    for v in fill.operands[2:]:
        assert not current_layout(v.type).is_tiled and v.type.resolve().element_type.text == "si32"


@pytest.mark.parametrize(("text", "message"), [
    (_paged_fill(idx=3), r"Batch index tensor must have dim 0 equal to input batch \(2\), got 3"),
    (_paged_fill(idx=None), "Input batch must be statically 1 when no batch_idx_tensor is provided, got 2"),
    (_paged_fill().replace("tensor<4x8xi32>", "tensor<32xi32>"), "Page table tensor must be a 2D tensor"),
    (_paged_fill().replace("tensor<4x8xi32>", "tensor<4x8xf32>"), "Page table tensor must be an integer type"),
    (_paged_fill().replace("x4x64x64xbf16", "x4x64x64xf32"), "Cache and input tensors must have the same dtype"),
    (_paged_fill().replace("x4x64x64xbf16", "x2x64x64xbf16"), "Input must have the same number of heads as the cache."),
    (_paged_fill().replace("32x4x32x64", "32x4x40x64"), "Block size must be divisible by 32, got 40"),
])  # fmt: skip
def test_paged_fill_cache_rejects_what_heads_verifier_rejects(text: str, message: str) -> None:
    from ttopt.ir.diagnostics import Diagnostic

    with pytest.raises(Diagnostic, match=rf"'ttir.paged_fill_cache' {message}"):
        run_pipeline(text, "fill.mlir", BACKEND.format(""))


def test_cache_writes_are_costed_as_their_input_streamed_into_the_cache() -> None:
    from ttopt.device import CostModel
    from ttopt.device.device import load_device

    module = run_pipeline(CACHE, "cache.mlir", BACKEND.format(""))
    module_fill = run_pipeline(_paged_fill(), "fill.mlir", BACKEND.format(""))
    for m in (module, module_fill):
        cm = CostModel(load_device(None, m))
        entries = [e for f in cm.module_cost(m) for e in f.ops if e.op.name.endswith("_cache")]
        assert entries and all(e.cost is not None and e.cost.ns > 0 for e in entries)
    # Writing twice the rows costs more.
    small, big = (run_pipeline(_paged_fill(seq=s), "fill.mlir", BACKEND.format("")) for s in (32, 256))
    ns = [next(e.cost.ns for f in CostModel(load_device(None, m)).module_cost(m) for e in f.ops if e.op.name == "ttnn.paged_fill_cache") for m in (small, big)]
    assert ns[0] < ns[1]


PAGED_UPDATE = """
func.func @main(%cache: tensor<8x2x32x64xf32>, %x: tensor<1x{users}x2x64xf32>, %idx: tensor<{users}xi32>{pt_arg}) -> tensor<8x2x32x64xf32> {{
  "ttir.paged_update_cache"(%cache, %x, %idx{pt}) <{{share_cache = {share}}}> : (tensor<8x2x32x64xf32>, tensor<1x{users}x2x64xf32>, tensor<{users}xi32>{pt_type}) -> ()
  return %cache : tensor<8x2x32x64xf32>
}}
"""


def _paged_update(users: int = 3, table: str | None = "3x4", share: str = "false") -> str:
    if table is None:
        return PAGED_UPDATE.format(users=users, pt_arg="", pt="", pt_type="", share=share)
    return PAGED_UPDATE.format(users=users, pt_arg=f", %pt: tensor<{table}xi32>", pt=", %pt", pt_type=f", tensor<{table}xi32>", share=share)


@pytest.mark.parametrize(("table", "share"), [("3x4", "false"), (None, "false"), ("3x4", "true")])
def test_paged_update_cache_lowers_one_to_one_with_heads_workarounds(ods, table: str | None, share: str) -> None:  # type: ignore[no-untyped-def]
    module = run_pipeline(_paged_update(table=table, share=share), "update.mlir", BACKEND.format(""))
    fn = next(iter(module.functions()))
    (update,) = (op for op in fn.regions[0].entry.ops if op.name == "ttnn.paged_update_cache")
    assert update.results == [] and len(update.operands) == (4 if table else 3)
    assert update.operands[0] is fn.regions[0].entry.args[0]  # the cache is written in place
    assert update.properties["share_cache"].text == share
    x = current_layout(update.operands[1].type)
    assert x.is_l1 and x.memory_layout.value == "height_sharded" and tuple(x.grid) == (3, 1)  # [users, 1] cores
    for v in update.operands[2:]:
        assert not current_layout(v.type).is_tiled and v.type.resolve().element_type.text == "si32"
    assert not check_module(module, ods)


@pytest.mark.parametrize(("text", "message"), [
    (_paged_update().replace("tensor<3xi32>", "tensor<3x1xi32>"), "Update index tensor must be a 1D tensor"),
    (_paged_update().replace("tensor<1x3x2x64xf32>", "tensor<2x3x2x64xf32>"), "Input tensor must have dim 0 be equal to 1, got 2"),
    (_paged_update().replace("tensor<1x3x2x64xf32>", "tensor<1x4x2x64xf32>"),
     r"Input tensor must have shape equal to the number of users \(determined by update index shape\): 3, got 4"),
    (_paged_update().replace("tensor<1x3x2x64xf32>", "tensor<1x3x2x32xf32>"), r"Input tensor must have dim 3 be equal to the head dimension \(determined by cache shape\): 64, got 32"),
    (_paged_update(table="12"), "Page table tensor must be a 2D tensor"),
    (_paged_update(table="2x4"), r"Page table tensor must have dim 0 be equal to the number of users \(determined by update index shape\): 3, got 2"),
    (_paged_update().replace("8x2x32x64", "8x2x40x64"), "Block size must be divisible by 32, got 40"),
])  # fmt: skip
def test_paged_update_cache_rejects_what_heads_verifier_rejects(text: str, message: str) -> None:
    from ttopt.ir.diagnostics import Diagnostic

    with pytest.raises(Diagnostic, match=rf"'ttir.paged_update_cache' {message}"):
        run_pipeline(text, "update.mlir", BACKEND.format(""))


def test_a_static_cache_block_need_not_be_whole_tiles() -> None:
    # HEAD checks the block size only for a paged cache (one with a page table).
    text = _paged_update(table=None).replace("8x2x32x64", "8x2x40x64")
    module = run_pipeline(text, "update.mlir", BACKEND.format(""))
    assert any(op.name == "ttnn.paged_update_cache" for f in module.functions() for op in f.regions[0].entry.ops)


def test_paged_update_cache_writes_each_users_row_at_its_position() -> None:
    import numpy as np

    from ttopt.parse.parser import parse_module
    from ttopt.testing.ttir_interpreter import run

    rng = np.random.default_rng(0)
    cache, x = rng.standard_normal((8, 2, 32, 64)).astype(np.float32), rng.standard_normal((1, 3, 2, 64)).astype(np.float32)
    idx, table = np.array([5, 40, 70], np.int32), np.array([[7, 0, 0, 0], [1, 6, 0, 0], [2, 3, 4, 9]], np.int32)
    (paged,) = run(parse_module(_paged_update(), "u.mlir"), "main", [cache.copy(), x, idx, table])
    want = cache.copy()
    want[7, :, 5], want[6, :, 8], want[4, :, 6] = x[0, 0], x[0, 1], x[0, 2]  # block = table[u, pos // 32], row = pos % 32
    np.testing.assert_array_equal(paged, want)
    # Without a page table each user owns its row of a static cache: the same as ttir.update_cache
    # of the input read [1, heads, users, dim] at one position (HEAD's canonical form of it).
    (static,) = run(parse_module(_paged_update(table=None), "u.mlir"), "main", [cache.copy(), x, np.full(3, 9, np.int32)])
    update = CACHE_UPDATE.replace("USERS", "3")
    (ref,) = run(parse_module(update, "u.mlir"), "main", [cache.copy(), x.transpose(0, 2, 1, 3), np.array([9], np.int32)])
    np.testing.assert_array_equal(static, ref)
    assert not np.array_equal(static, cache)


CACHE_UPDATE = """
func.func @main(%cache: tensor<8x2x32x64xf32>, %x: tensor<1x2xUSERSx64xf32>, %idx: tensor<1xi32>) -> tensor<8x2x32x64xf32> {
  "ttir.update_cache"(%cache, %x, %idx) <{batch_offset = 0 : i32}> : (tensor<8x2x32x64xf32>, tensor<1x2xUSERSx64xf32>, tensor<1xi32>) -> ()
  return %cache : tensor<8x2x32x64xf32>
}
"""
