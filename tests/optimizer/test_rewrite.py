"""Graph transformation (reference §2.10): configs, reshards, spills and their interplay, aliases."""

from __future__ import annotations

from ttopt.device import OpConfig, layout_info
from ttopt.device.layout_info import make_layout
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.chain import Edge, MemReconfigEntry, SpillLocation
from ttopt.optimizer.policies import LayoutDecisions
from ttopt.optimizer.rewrite import LayoutAliaser, apply_decisions

D = "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<8x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>"
T = f"tensor<256x512xbf16, {D}>"
FORK = f"""func.func @f(%x: {T}) -> ({T}, {T}, {T}) attributes {{tt.function_type = "forward_device"}} {{
  %0 = "ttnn.relu"(%x) : ({T}) -> {T} loc("relu")
  %1 = "ttnn.gelu"(%0) : ({T}) -> {T} loc("gelu")
  %2 = "ttnn.neg"(%0) : ({T}) -> {T} loc("neg")
  return %0, %1, %2 : {T}, {T}, {T}
}}
"""


def _lay(mem: TensorMemoryLayout, grid: tuple[int, int]):
    from ttopt.dialects.ttcore_attrs import DataType

    return make_layout((256, 512), DataType.BF16, True, BufferType.L1, mem, grid, (8, 8))


def test_spill_keeps_reshards_on_l1_and_drops_identity_ones(make_fn) -> None:
    """relu is spilled; gelu's reshard would convert to relu's own layout (not inserted: gelu reads L1),
    neg's reshard converts to another layout (it reads the L1 result, not the DRAM spill); the
    return reads the spill."""
    fn = make_fn(FORK)
    relu, gelu, neg = fn.ops
    block8 = _lay(TensorMemoryLayout.BLOCK_SHARDED, (8, 8))
    height = _lay(TensorMemoryLayout.HEIGHT_SHARDED, (8, 1))
    same = MemReconfigEntry({0: [block8]}, 0)
    other = MemReconfigEntry({0: [height]}, 0)
    d = LayoutDecisions(
        op_configs={relu: OpConfig(output=block8), gelu: OpConfig(output=block8), neg: OpConfig(output=height)},
        reshards={Edge(relu, gelu, 0): same, Edge(relu, neg, 0): other},
        spills={relu: SpillLocation.DRAM},
    )
    result = apply_decisions(fn.module, fn, d, LayoutAliaser(fn.module))
    verify(fn.module)
    assert len(result.reshards) == 1 and len(result.spills) == 1
    ops = fn.block.ops
    names = [op.location.name for op in ops[:-1]]
    assert names == ["relu", "relu_spill", "gelu", "neg_mem_reconfig", "neg"]
    assert gelu.operands[0] is relu.results[0]
    reshard = ops[3]
    assert reshard.operands[0] is relu.results[0] and neg.operands[0] is reshard.results[0]
    ret = ops[-1]
    assert ret.operands[0] is ops[1].results[0]  # the return reads the DRAM spill
    assert layout_info(current_layout(ret.operands[0].type)).dram
    ft = fn.func.properties["function_type"].type
    assert [t.text for t in ft.results] == [v.type.text for v in ret.operands]


def test_new_layouts_are_hoisted_into_aliases(make_fn) -> None:
    fn = make_fn(FORK)
    relu = fn.ops[0]
    block8 = _lay(TensorMemoryLayout.BLOCK_SHARDED, (8, 8))
    apply_decisions(fn.module, fn, LayoutDecisions(op_configs={relu: OpConfig(output=block8)}), LayoutAliaser(fn.module))
    text = print_module(fn.module)
    assert "#l1 = #ttnn.buffer_type<l1>" in text
    assert "#ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x2x!ttcore.tile<32x32, bf16>, #l1>, <block_sharded>" in text
    assert '-> tensor<256x512xbf16, #ttnn_layout> loc("relu")' in print_module(fn.module, __import__("ttopt.ir.printer", fromlist=["PrintOptions"]).PrintOptions(debuginfo=True))


def test_default_configs_without_decisions(make_fn) -> None:
    """No policy: every op gets its first legal config (DRAM interleaved) and nothing is inserted."""
    fn = make_fn(FORK)
    result = apply_decisions(fn.module, fn, LayoutDecisions(), LayoutAliaser(fn.module))
    assert not result.reshards and not result.spills
    assert all(layout_info(current_layout(op.results[0].type)).dram for op in fn.ops)


def test_config_attributes_are_shared_per_distinct_config() -> None:
    """`rewrite.config_attr` gives equal configs one attribute (printed as a fresh one would be)
    and configs differing in any field their own."""
    from dataclasses import replace

    from ttopt.device.conv2d_config import Conv2dConfig
    from ttopt.device.matmul_config import MULTICAST_2D, MatmulProgramConfig
    from ttopt.ir.attributes import DialectAttr
    from ttopt.optimizer.rewrite import config_attr

    mm = MatmulProgramConfig(MULTICAST_2D, (8, 8), 2, 1, 4, 1, 4, 1, 4)
    for cfg, other in ((mm, replace(mm, in0_block_w=4)), (mm, replace(mm, fused_activation="relu")),
                       (Conv2dConfig(), Conv2dConfig(act_block_h_override=32)),
                       (Conv2dConfig(), Conv2dConfig(deallocate_activation=True))):  # fmt: skip
        a = config_attr(cfg)
        assert a is config_attr(replace(cfg))
        assert a.text == DialectAttr.of(cfg.to_attr()).text
        assert config_attr(other).text == DialectAttr.of(other.to_attr()).text != a.text
