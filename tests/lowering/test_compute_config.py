"""ttnn-set-compute-kernel-config and the backend pipeline's compute-cfg-* options: which ops get a
compute config, what an op's own knobs keep, the defaults each optimization level gives, the
tri-state knobs, and the large-inner-dimension matmul fix."""

from __future__ import annotations

import pytest

from ttopt.ir.printer import print_module
from ttopt.testing.ttnn_outputs import run_pipeline

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


def _run(pass_name: str, text: str, options: str) -> str:
    return print_module(run_pipeline(text, "t.mlir", f"builtin.module({pass_name}{{{options}}})"))


def backend(text: str, options: str = "") -> str:
    return _run("ttir-to-ttnn-backend-pipeline", text, options)


def test_given_knobs_go_on_every_configurable_op() -> None:
    out = backend(TEXT, "compute-cfg-math-fidelity=lofi compute-cfg-fp32-dest-acc-en=true compute-cfg-packer-l1-acc=false")
    cfg = "compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi, fp32_dest_acc_en = true, packer_l1_acc = false>"
    assert out.count(cfg) == 2  # matmul and softmax
    relu = next(ln for ln in out.splitlines() if '"ttnn.relu"' in ln)
    assert "compute_config" not in relu


LEVEL0 = "compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>"


def test_level_zero_gives_hifi4_and_fp32_accumulation() -> None:
    out = backend(TEXT)
    assert out.count(LEVEL0) == 2  # matmul and softmax, as tt-mlir's optimization-level=0 stamps them
    assert backend(TEXT, "enable-optimizer=true").count(LEVEL0) == 2  # the level decides, not the optimizer


@pytest.mark.parametrize("level", [1, 2])
def test_higher_levels_leave_the_knobs_to_ttnn(level: int) -> None:
    assert "compute_config" not in backend(TEXT, f"optimization-level={level}")


def test_a_given_option_beats_the_level() -> None:
    assert backend(TEXT, "optimization-level=2 compute-cfg-fp32-dest-acc-en=true").count("<fp32_dest_acc_en = true>") == 2
    out = backend(TEXT, "compute-cfg-math-fidelity=hifi2")
    assert out.count("<math_fidelity = hifi2, fp32_dest_acc_en = true>") == 2


def test_undefined_and_unset_leave_a_knob_out() -> None:
    assert "compute_config" not in backend(TEXT, "compute-cfg-math-fidelity=undefined compute-cfg-fp32-dest-acc-en=unset")
    out = backend(TEXT, "compute-cfg-math-fidelity=undefined compute-cfg-packer-l1-acc=false")
    assert out.count("<fp32_dest_acc_en = true, packer_l1_acc = false>") == 2


def test_the_pass_alone_has_heads_defaults() -> None:
    assert _set(backend(TEXT, "optimization-level=1"), "").count(LEVEL0) == 2


def test_large_inner_dimension_bf16_matmul_accumulates_in_fp32() -> None:
    out = backend(LARGE_K, "compute-cfg-math-fidelity=hifi2")
    assert "#ttnn.device_compute_kernel_config<math_fidelity = hifi2, fp32_dest_acc_en = true, packer_l1_acc = true>" in out


def _set(text: str, options: str) -> str:
    return _run("ttnn-set-compute-kernel-config", text, options)


def test_a_config_in_the_attribute_dictionary_is_read_and_kept_there() -> None:
    text = """module {
  func.func @f(%a: tensor<32x64xbf16>) -> tensor<32x64xbf16> {
    %0 = "ttnn.softmax"(%a) {dimension = 1 : si32, compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi2>} : (tensor<32x64xbf16>) -> tensor<32x64xbf16>
    return %0 : tensor<32x64xbf16>
  }
}
"""
    out = _set(text, "math-fidelity=hifi4 fp32-dest-acc-en=true")
    assert out.count("compute_config") == 1
    assert "{compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi2, fp32_dest_acc_en = true>, dimension" in out


def test_large_k_reads_the_element_type_without_a_layout() -> None:
    text = """module {
  func.func @f(%a: tensor<1x50001xbf16>, %b: tensor<50001x128xbf16>, %c: tensor<1x50001xf32>, %d: tensor<50001x128xf32>) -> (tensor<1x128xbf16>, tensor<1x128xf32>) {
    %0 = "ttnn.matmul"(%a, %b) <{transpose_a = false, transpose_b = false}> : (tensor<1x50001xbf16>, tensor<50001x128xbf16>) -> tensor<1x128xbf16>
    %1 = "ttnn.matmul"(%c, %d) <{transpose_a = false, transpose_b = false}> : (tensor<1x50001xf32>, tensor<50001x128xf32>) -> tensor<1x128xf32>
    return %0, %1 : tensor<1x128xbf16>, tensor<1x128xf32>
  }
}
"""
    out = _set(text, "math-fidelity=undefined fp32-dest-acc-en=unset").splitlines()
    bf16 = next(ln for ln in out if "%0 = " in ln)
    f32 = next(ln for ln in out if "%1 = " in ln)
    assert "<fp32_dest_acc_en = true, packer_l1_acc = true>" in bf16
    assert "compute_config" not in f32
