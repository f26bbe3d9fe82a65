"""KV-cache ops: ttir.fill_cache lowers to ttnn.fill_cache (no result, batch_offset kept),
ttir.update_cache to HEAD's canonical ttnn.paged_update_cache (input permuted to [1, users, heads,
head_dim] and L1 height-sharded on [users, 1] cores, index repeated per user and row-major), and
the optimizer's scheduler keeps them ordered with the cache's readers."""

from __future__ import annotations

import pytest

from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.scheduler import Scheduler
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
    with pytest.raises(Diagnostic, match=r"'ttir.fill_cache' op expects 2 operand\(s\), got 3"):
        run_pipeline(bad, "cache.mlir", BACKEND.format(""))
