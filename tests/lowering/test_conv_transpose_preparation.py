"""conv_transpose2d weight preparation: with the optimizer, every ttnn.conv_transpose2d reads its
weight through ttnn.prepare_conv_transpose2d_weights (IOHW, mirrored kernel, its output padding)
and its bias through prepare_conv_transpose2d_bias, hoisted into const-eval for parameters (HEAD's
TTNNPrepareConv2dWeightsAndBias); module estimates cost the preparations."""

from __future__ import annotations

import pytest

from ttopt.device import CostModel
from ttopt.device.device import load_device
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

P = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"


def _program(groups: int = 1, bias: bool = True, w_attr: str = "") -> str:
    w = f"tensor<64x{32 // groups}x3x3xbf16>"
    b = ", %b: tensor<1x1x1x32xbf16>" if bias else ""
    return f"""func.func @main(%x: tensor<1x16x16x64xbf16>, %w: {w} {w_attr}{b}) -> tensor<1x34x34x32xbf16> {{
  %0 = "ttir.conv_transpose2d"(%x, %w{", %b" if bias else ""}) <{{dilation = array<i32: 1, 1>, groups = {groups} : i32, output_padding = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>}}> : (tensor<1x16x16x64xbf16>, {w}{", tensor<1x1x1x32xbf16>" if bias else ""}) -> tensor<1x34x34x32xbf16>
  return %0 : tensor<1x34x34x32xbf16>
}}"""


def _ops(module, name: str) -> list:  # type: ignore[no-untyped-def]
    return [op for op in module.walk() if op.name == name]


@pytest.mark.parametrize("groups", [1, 2])
def test_weights_and_bias_are_prepared_with_the_optimizer(groups: int) -> None:
    m = run_pipeline(_program(groups), "ct.mlir", BACKEND.format("optimization-level=1"))
    (conv,) = _ops(m, "ttnn.conv_transpose2d")
    (pw,) = _ops(m, "ttnn.prepare_conv_transpose2d_weights")
    (pb,) = _ops(m, "ttnn.prepare_conv_transpose2d_bias")
    assert conv.operands[1] is pw.results[0] and conv.operands[2] is pb.results[0]
    assert pw.properties["weights_format"].text == '"IOHW"' and pw.properties["mirror_kernel"].text == "true"
    assert pw.properties["output_padding"].text == "array<i32: 1, 1>" and pw.properties["has_bias"].text == "true"
    assert "output_padding" not in pb.properties and "weights_format" not in pb.properties
    # the conv2d weight it amounts to, [out, in/groups, kh, kw], prepared as 1x1x(in/groups*kh*kw)xout
    assert pw.results[0].type.resolve().shape == (1, 1, 64 // groups * 9, 32)
    assert "weights_dtype = bf16" in conv.properties["conv2d_config"].text


def test_no_preparation_without_the_optimizer() -> None:
    m = run_pipeline(_program(bias=False), "ct.mlir", BACKEND.format(""))
    assert not _ops(m, "ttnn.prepare_conv_transpose2d_weights")


def test_parameter_weights_are_prepared_in_const_eval_and_costed() -> None:
    m = run_pipeline(_program(w_attr=P, bias=False), "ct.mlir", BACKEND.format("optimization-level=1"))
    (pw,) = _ops(m, "ttnn.prepare_conv_transpose2d_weights")
    fn = pw.parent.parent.parent
    assert fn.get_attr("tt.function_type").value == "const_eval"
    costs = [e for f in CostModel(load_device(None, m)).module_cost(m) for e in f.ops if e.op is pw]
    assert costs and costs[0].cost is not None and costs[0].cost.ns > 0
