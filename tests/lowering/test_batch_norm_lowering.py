"""ttir.batch_norm_inference -> ttnn.batch_norm_inference: TTNN's operand order (input, running
mean, running variance, weight, bias), the 1-D parameters reshaped to 1xCx1x1, operand segments
and epsilon; other forms than HEAD lowers are an error at the op."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

BN = """
func.func @main(%x: tensor<2x64x14x14xbf16>, %scale: tensor<64xbf16>, %offset: tensor<64xbf16>, %mean: tensor<64xbf16>, %var: tensor<64xbf16>) -> tensor<2x64x14x14xbf16> {
  %0 = "ttir.batch_norm_inference"(%x, %scale, %offset, %mean, %var) <{dimension = DIM : i32, epsilon = 9.99999974E-6 : f32}> : (tensor<2x64x14x14xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<2x64x14x14xbf16>
  return %0 : tensor<2x64x14x14xbf16>
}
"""


def test_batch_norm_inference_takes_ttnn_operand_order() -> None:
    module = run_pipeline(BN.replace("DIM", "1"), "bn.mlir", BACKEND.format(""))
    (op,) = [o for o in module.walk() if o.name == "ttnn.batch_norm_inference"]
    fn = next(iter(module.functions()))
    args = list(fn.regions[0].entry.args)
    sources = [getattr(v, "op", None) for v in op.operands]
    assert op.operands[0] is args[0]
    # mean, variance, scale, offset: each a reshape of the argument to 1x64x1x1
    assert [s.operands[0] for s in sources[1:]] == [args[3], args[4], args[1], args[2]]
    assert all(v.type.resolve().shape == (1, 64, 1, 1) for v in op.operands[1:])
    assert op.properties["operandSegmentSizes"].text == "array<i32: 1, 1, 1, 1, 1>"
    assert op.properties["epsilon"].text == "9.99999974E-6 : f32"


def test_batch_norm_over_another_dimension_is_an_error_at_the_op() -> None:
    with pytest.raises(Diagnostic, match="rank-4 input normalized over dimension 1"):
        run_pipeline(BN.replace("DIM", "3").replace("tensor<64xbf16>", "tensor<14xbf16>"), "bn.mlir", BACKEND.format(""))
