"""ttir.moe_gpt lowers one to one to ttnn.moe_gpt (five results, attributes copied) as HEAD's
MoeGptOpConversionPattern, after HEAD's TTIR verifier's checks; module estimates cost it as its
operands read once (the expert weights dominate)."""

from __future__ import annotations

import pytest

from ttopt.device import CostModel
from ttopt.device.device import load_device
from ttopt.ir.diagnostics import Diagnostic
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

W01, W2 = "tensor<12x1x4x4x2880x128xbf16>", "tensor<12x1x4x2x2880x128xbf16>"
IDX = "tensor<128x4xui16>"


def _program(w01: str = W01, w2: str = W2, idx: str = IDX) -> str:
    results = "tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>, tensor<12x2x32x2880xbf16>, tensor<12x2x32x2880xbf16>"
    return f"""module attributes {{ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>}} {{
func.func @main(%x: tensor<128x2880xbf16>, %i: {idx}, %s: tensor<128x4xbf16>, %m: tensor<1x16xui16>, %a: {w01}, %b: {w2}) -> (tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>) {{
  %0, %1, %2, %3, %4 = "ttir.moe_gpt"(%x, %i, %s, %m, %a, %b) <{{output_height_shard_dim = 4 : ui32, output_width_shard_dim = 3 : ui32, hidden_size = 2880 : ui32, cluster_axis = 0 : ui32}}> : (tensor<128x2880xbf16>, {idx}, tensor<128x4xbf16>, tensor<1x16xui16>, {w01}, {w2}) -> ({results})
  return %0, %1, %2 : tensor<1x16xui32>, tensor<1x512xui32>, tensor<4x129xui32>
}}
}}"""


def test_moe_gpt_lowers_one_to_one_and_is_costed() -> None:
    m = run_pipeline(_program(), "moe.mlir", BACKEND.format("mesh-shape=1,4"))
    (op,) = [o for o in m.walk() if o.name == "ttnn.moe_gpt"]
    assert len(op.operands) == 6 and len(op.results) == 5
    assert [op.properties[k].text for k in ("cluster_axis", "hidden_size", "output_height_shard_dim", "output_width_shard_dim")] == [
        "0 : ui32", "2880 : ui32", "4 : ui32", "3 : ui32"]
    assert [tuple(r.type.resolve().shape) for r in op.results[3:]] == [(12, 2, 32, 2880)] * 2
    (entry,) = [e for f in CostModel(load_device(None, m)).module_cost(m) for e in f.ops if e.op is op]
    assert entry.cost is not None and entry.cost.dram_bytes >= 12 * 4 * 6 * 2880 * 128 * 2  # both weights read


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"w01": "tensor<12x4x4x2880x128xbf16>"}, "w0_w1_tensor must be a rank 6 tensor"),
    ({"w2": "tensor<12x1x4x2x2880x64xbf16>"}, r"w2_tensor dim\[5\] must be 128"),
    ({"w2": "tensor<8x1x4x2x2880x128xbf16>"}, r"w0_w1_tensor and w2_tensor must have same dim\[0\] \(num_cores\)"),
    ({"w2": "tensor<12x1x2x2x2880x128xbf16>"}, r"w0_w1_tensor and w2_tensor must have same dim\[2\] \(experts_per_device\)"),
    ({"idx": "tensor<128xui16>"}, "expert_indices must have rank >= 2"),
])  # fmt: skip
def test_moe_gpt_rejects_what_heads_verifier_rejects(kwargs: dict, message: str) -> None:
    with pytest.raises(Diagnostic, match=rf"'ttir.moe_gpt' {message}"):
        run_pipeline(_program(**kwargs), "moe.mlir", BACKEND.format("mesh-shape=1,4"))
