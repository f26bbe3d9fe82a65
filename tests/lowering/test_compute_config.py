"""The backend pipeline's compute-cfg-* options: which ops get a compute config, what an op's own
knobs keep, and the large-inner-dimension matmul fix."""

from __future__ import annotations

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline

TEXT = """module {
  func.func @f(%a: tensor<32x64xbf16>, %b: tensor<64x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.matmul"(%a, %b) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.softmax"(%0) <{dimension = 1 : si32}> : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %2 = "ttir.relu"(%1) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %2 : tensor<32x32xbf16>
  }
}
"""
LARGE_K = """module {
  func.func @f(%a: tensor<32x51200xbf16>, %b: tensor<51200x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.matmul"(%a, %b) : (tensor<32x51200xbf16>, tensor<51200x32xbf16>) -> tensor<32x32xbf16>
    return %0 : tensor<32x32xbf16>
  }
}
"""


def backend(text: str, options: str = "") -> str:
    module = parse_module(text, "t.mlir")
    pipeline = f"builtin.module(ttir-to-ttnn-backend-pipeline{{{options}}})"
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    return print_module(module)


def test_given_knobs_go_on_every_configurable_op() -> None:
    out = backend(TEXT, "compute-cfg-math-fidelity=lofi compute-cfg-fp32-dest-acc-en=true compute-cfg-packer-l1-acc=false")
    cfg = "compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi, fp32_dest_acc_en = true, packer_l1_acc = false>"
    assert out.count(cfg) == 2  # matmul and softmax
    relu = next(ln for ln in out.splitlines() if '"ttnn.relu"' in ln)
    assert "compute_config" not in relu


def test_no_option_no_config() -> None:
    assert "compute_config" not in backend(TEXT)


def test_large_inner_dimension_bf16_matmul_accumulates_in_fp32() -> None:
    out = backend(LARGE_K, "compute-cfg-math-fidelity=hifi2")
    assert "#ttnn.device_compute_kernel_config<math_fidelity = hifi2, fp32_dest_acc_en = true, packer_l1_acc = true>" in out
