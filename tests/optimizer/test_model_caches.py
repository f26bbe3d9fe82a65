"""The op model's and cost model's caches: answers are shared by ops with equal
signatures, and never stale after an op's layouts change (the optimizer's rewrite gives values new
types; the caches must then answer as a fresh model would)."""

from __future__ import annotations

from typing import Any

from ttnn_graphs import module

from ttopt.device import CostModel, OpConfig, OpModel, preset
from ttopt.device.layout_info import DRAM, INTERLEAVED, L1, make_layout
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import TensorMemoryLayout
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.rewrite import LayoutAliaser
from ttopt.parse.parser import parse_module

DEVICE = preset("wormhole_b0")
SHAPE = (2048, 2048)


def _ops(text: str) -> tuple[Any, list[Any]]:
    m = parse_module(text, "test.mlir")
    return m, list(m.functions()[0].regions[0].entry.ops)[:-1]  # without the return


def _layout(where: str, grid: tuple[int, int] | None = None) -> Any:
    if where == "dram":
        return make_layout(SHAPE, DataType.BF16, True, DRAM, INTERLEAVED, None, DEVICE.worker_grid)
    if where == "l1":
        return make_layout(SHAPE, DataType.BF16, True, L1, INTERLEAVED, None, DEVICE.worker_grid)
    return make_layout(SHAPE, DataType.BF16, True, L1, TensorMemoryLayout.BLOCK_SHARDED, grid, DEVICE.worker_grid)


def _relayout(m: Any, value: Any, layout: Any) -> None:
    """What the rewrite does: a new type object carrying `layout`."""
    t = value.type.resolve()
    assert isinstance(t, TensorType)
    value.type = LayoutAliaser(m).tensor_type(t, layout)


def test_equal_signatures_share_one_cost_and_one_validation() -> None:
    _, ops = _ops(module(["a = add(x0, x1)", "b = add(x0, x1)", "c = matmul(a, b)", "d = matmul(a, b)"], 2, ["c", "d"]))
    cost = CostModel(DEVICE)
    model = OpModel(DEVICE)
    assert cost.signature_uid(ops[0]) == cost.signature_uid(ops[1]) != cost.signature_uid(ops[2])
    assert cost.signature_uid(ops[2]) == cost.signature_uid(ops[3])
    assert cost.current_op_cost(ops[0]) is cost.current_op_cost(ops[1])
    assert model.validate_current(ops[2]) is model.validate_current(ops[3])


def test_cost_and_validation_follow_a_layout_change() -> None:
    m, ops = _ops(module(["a = add(x0, x1)", "b = relu(a)", "c = add(b, x1)"], 2, ["c"]))
    cost = CostModel(DEVICE)
    model = OpModel(DEVICE)
    before = [cost.current_op_cost(op) for op in ops]
    checks = [model.validate_current(op) for op in ops]
    for layout in (_layout("l1"), _layout("sharded", (8, 8)), _layout("dram")):
        _relayout(m, ops[0].results[0], layout)  # a's result: read by b
        _relayout(m, ops[1].results[0], layout)  # b's result: read by c
        for op in ops:
            # the reference reads the IR's layouts directly (no type-keyed cache) and asks fresh models
            ins = [current_layout(v.type) for v in op.operands]
            out = current_layout(op.results[0].type)
            assert cost.current_op_cost(op) == CostModel(DEVICE).op_cost(op, ins, out), (layout, op.name)
            assert model.validate_current(op) == OpModel(DEVICE).validate(op, ins, OpConfig(output=out)), (layout, op.name)
    # back to DRAM: the first answers again
    assert [cost.current_op_cost(op) for op in ops] == before
    assert [model.validate_current(op) for op in ops] == checks


def test_l1_result_costs_differ_from_dram() -> None:
    """The cache key includes the layouts: an L1-sharded result is not answered from the DRAM entry."""
    m, ops = _ops(module(["a = add(x0, x1)"], 2, ["a"]))
    cost = CostModel(DEVICE)
    dram = cost.current_op_cost(ops[0])
    _relayout(m, ops[0].results[0], _layout("sharded", (8, 8)))
    sharded = cost.current_op_cost(ops[0])
    assert dram is not None and sharded is not None
    assert sharded.dram_bytes < dram.dram_bytes


def test_matmul_fidelity_is_part_of_the_cost_signature() -> None:
    """Two matmuls with equal shapes but different compute configs must not share a cost."""
    _, ops = _ops(module(["a = matmul(x0, x1)", "b = matmul(x0, x1)"], 2, ["a", "b"]))
    cost = CostModel(DEVICE)
    hifi = _with_fidelity(ops[1], "hifi4")
    assert cost.signature_uid(ops[0]) != cost.signature_uid(hifi)
    assert cost.current_op_cost(hifi) == CostModel(DEVICE).current_op_cost(hifi)
    assert cost.current_op_cost(hifi).ns > cost.current_op_cost(ops[0]).ns


def _with_fidelity(op: Any, fidelity: str) -> Any:
    """A matmul like `op` (same module text) with `math_fidelity = <fidelity>` in its compute config."""
    text = module(["a = matmul(x0, x1)"], 2, ["a"]).replace(
        '"ttnn.matmul"(%x0, %x1)',
        f'"ttnn.matmul"(%x0, %x1) <{{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = {fidelity}>}}>',
    )
    _, ops = _ops(text)
    return ops[0]


def test_current_costs_follow_a_layout_change_and_a_new_compute_config() -> None:
    """`stats.CurrentCosts` (one estimate per op while its types and compute config are the same
    objects) answers as the uncached estimate after every relayout, and after the op's compute
    config is replaced."""
    from ttopt.optimizer.stats import CurrentCosts, op_estimate

    m, ops = _ops(module(["a = add(x0, x1)", "b = relu(a)", "c = matmul(b, x1)"], 2, ["c"]))
    cost = CostModel(DEVICE)
    costs = CurrentCosts(cost)
    before = [costs.get(op) for op in ops]
    assert before == [op_estimate(CostModel(DEVICE), op) for op in ops]
    for layout in (_layout("l1"), _layout("sharded", (8, 8)), _layout("dram")):
        _relayout(m, ops[0].results[0], layout)
        _relayout(m, ops[1].results[0], layout)
        for op in ops:
            assert costs.get(op) == op_estimate(CostModel(DEVICE), op), (layout, op.name)
    assert [costs.get(op) for op in ops] == before
    hifi = _with_fidelity(ops[2], "hifi4")  # a matmul op of another module: a different op, too
    ops[2].properties["compute_config"] = hifi.get_attr("compute_config")
    assert costs.get(ops[2]) == op_estimate(CostModel(DEVICE), ops[2])
    assert costs.get(ops[2]).ns > before[2].ns
