"""The op model of `ttnn.split_query_key_value_and_split_heads`: interleaved tiled inputs, the three
results in the input's memory config, key and value counted in L1; the cost model counts every head."""

from __future__ import annotations

from typing import Any

import pytest

import ttopt.dialects  # noqa: F401  (registers ops and typed attributes)
from tests.device.conftest import make_layout
from ttopt.device import CostModel, OpConfig, OpModel, Status, layout_info
from ttopt.device.op_families import Family, family_of
from ttopt.device.rules.transformer import heads_shape, result_layouts
from ttopt.parse.parser import parse_module

Q, KV = "tensor<1x16x128x64xbf16>", "tensor<1x8x128x64xbf16>"


def split_op(width: int = 16 * 64 + 2 * 8 * 64, head: int = 64, q: str = Q, kv: str = KV) -> Any:
    text = f"""func.func @f(%a: tensor<1x128x{width}xbf16>) -> ({q}, {kv}, {kv}) {{
  %q, %k, %v = "ttnn.split_query_key_value_and_split_heads"(%a) <{{num_heads = 16 : ui32, num_kv_heads = 8 : ui32, transpose_key = false}}> : (tensor<1x128x{width}xbf16>) -> ({q}, {kv}, {kv})
  return %q, %k, %v : {q}, {kv}, {kv}
}}
"""
    return parse_module(text, "split.mlir").functions()[0].regions[0].entry.ops[0]


@pytest.fixture()
def split() -> Any:
    return split_op()


def test_split_heads_has_the_transformer_family() -> None:
    assert family_of("ttnn.split_query_key_value_and_split_heads") is Family.TRANSFORMER


@pytest.mark.parametrize("where", ["dram", "l1"])
def test_results_take_the_interleaved_input_config(model: OpModel, split: Any, where: str) -> None:
    x = make_layout((1, 128, 2048), where)
    res = model.validate(split, [x])
    assert res.status is Status.SUCCESS, res.reason
    assert res.output_layout == make_layout((1, 16, 128, 64), where)


def test_output_in_another_buffer_than_the_input_is_illegal(model: OpModel, split: Any) -> None:
    res = model.validate(split, [make_layout((1, 128, 2048), "dram")], OpConfig(make_layout((1, 16, 128, 64), "l1")))
    assert res.status is Status.ILLEGAL
    assert "take the input's memory config" in res.reason


def test_sharded_input_is_illegal(model: OpModel, split: Any) -> None:
    res = model.validate(split, [make_layout((1, 128, 2048), "l1", "b", (4, 8))])
    assert res.status is Status.ILLEGAL
    assert "must be interleaved" in res.reason and "41526" in res.reason


def test_head_size_not_a_tile_multiple_is_illegal(model: OpModel) -> None:
    op = split_op(width=16 * 48 + 2 * 8 * 48, q="tensor<1x16x128x48xbf16>", kv="tensor<1x8x128x48xbf16>")
    res = model.validate(op, [make_layout((1, 128, 16 * 48 + 2 * 8 * 48))])
    assert res.status is Status.ILLEGAL
    assert "head size 48" in res.reason


def test_key_and_value_count_in_l1(model: OpModel, split: Any) -> None:
    x = make_layout((1, 128, 2048), "l1")
    res = model.validate(split, [x])
    q, k, v = (layout_info(lay) for lay in result_layouts(split, res.output_layout, (8, 8)))
    assert k.layout == make_layout((1, 8, 128, 64), "l1") and v.layout == k.layout
    assert res.l1.tensor_peak == layout_info(x).per_core_bytes + q.per_core_bytes + k.per_core_bytes + v.per_core_bytes


def test_cost_counts_every_head(wormhole: Any, split: Any) -> None:
    assert heads_shape(split) == (1, 32, 128, 64)
    cost = CostModel(wormhole)
    dram = cost.op_cost(split, [make_layout((1, 128, 2048))], make_layout((1, 16, 128, 64)))
    l1 = cost.op_cost(split, [make_layout((1, 128, 2048), "l1")], make_layout((1, 16, 128, 64), "l1"))
    assert dram.dram_bytes == 2 * 128 * 2048 * 2  # the input read and every head written, bf16
    assert l1.ns < dram.ns
