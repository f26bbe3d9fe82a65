"""SDPA fusing through heads folded into the batch: 3-D Q @ K^T and attention matmuls on
[B*H, S, D] reshapes of 4-D tensors, the scores unfolded to 4-D for the softmax (fusing/sdpa.py)."""

from __future__ import annotations

from ttopt.testing.ttir_fusing_runs import fuse_ttir as _fuse
from ttopt.testing.ttir_fusing_runs import op_names as _ops
from ttopt.testing.ttir_fusing_runs import same_numbers

Q4, K4T, S4 = "tensor<1x4x32x16xf32>", "tensor<1x4x16x32xf32>", "tensor<1x4x32x32xf32>"
Q3, K3T, S3 = "tensor<4x32x16xf32>", "tensor<4x16x32xf32>", "tensor<4x32x32xf32>"


def _folded(unfold_result: bool = True, fold: str = "4 : i32, 32 : i32, 16 : i32") -> str:
    ret = f"%9 : {Q4}" if unfold_result else f"%8 : {Q3}"
    tail = f'\n    %9 = "ttir.reshape"(%8) <{{shape = [1 : i32, 4 : i32, 32 : i32, 16 : i32]}}> : ({Q3}) -> {Q4}' if unfold_result else ""
    return f"""module {{
  func.func @f(%q: {Q4}, %k: {Q4}, %v: {Q4}) -> {ret.split(" : ")[1]} {{
    %c = "ttir.full"() <{{fill_value = 5.000000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}}> : () -> tensor<1x1x1x1xf32>
    %cq = "ttir.broadcast"(%c) <{{broadcast_dimensions = array<i64: 1, 4, 32, 16>}}> : (tensor<1x1x1x1xf32>) -> {Q4}
    %qs = "ttir.multiply"(%q, %cq) : ({Q4}, {Q4}) -> {Q4}
    %q3 = "ttir.reshape"(%qs) <{{shape = [{fold}]}}> : ({Q4}) -> {Q3}
    %kt = "ttir.permute"(%k) <{{permutation = array<i64: 0, 1, 3, 2>}}> : ({Q4}) -> {K4T}
    %ck = "ttir.broadcast"(%c) <{{broadcast_dimensions = array<i64: 1, 4, 16, 32>}}> : (tensor<1x1x1x1xf32>) -> {K4T}
    %ks = "ttir.multiply"(%kt, %ck) : ({K4T}, {K4T}) -> {K4T}
    %k3 = "ttir.reshape"(%ks) <{{shape = [4 : i32, 16 : i32, 32 : i32]}}> : ({K4T}) -> {K3T}
    %0 = "ttir.matmul"(%q3, %k3) : ({Q3}, {K3T}) -> {S3}
    %1 = "ttir.reshape"(%0) <{{shape = [1 : i32, 4 : i32, 32 : i32, 32 : i32]}}> : ({S3}) -> {S4}
    %2 = "ttir.softmax"(%1) <{{dimension = -1 : si32}}> : ({S4}) -> {S4}
    %3 = "ttir.reshape"(%2) <{{shape = [4 : i32, 32 : i32, 32 : i32]}}> : ({S4}) -> {S3}
    %v3 = "ttir.reshape"(%v) <{{shape = [4 : i32, 32 : i32, 16 : i32]}}> : ({Q4}) -> {Q3}
    %8 = "ttir.matmul"(%3, %v3) : ({S3}, {Q3}) -> {Q3}{tail}
    return {ret}
  }}
}}
"""


def _same_numbers(before: str, after: str) -> None:
    same_numbers(before, after)


def test_folded_attention_unfolded_again_becomes_one_4d_sdpa() -> None:
    src = _folded()
    out, p = _fuse(src)
    assert _ops(out) == ["ttir.scaled_dot_product_attention"]
    assert ('"ttir.scaled_dot_product_attention"(%arg0, %arg1, %arg2) <{is_causal = false, '
            'operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 2.500000e-01 : f32}> : '
            f"({Q4}, {Q4}, {Q4}) -> {Q4}") in out  # fmt: skip
    assert [d.reason for d in p.decisions if d.pattern == "sdpa" and d.applied] == ["scale 0.25, heads unfolded from the batch"]
    _same_numbers(src, out)


def test_folded_attention_returned_in_3d_is_folded_after_the_op() -> None:
    src = _folded(unfold_result=False)
    out, _ = _fuse(src)
    assert _ops(out) == ["ttir.scaled_dot_product_attention", "ttir.reshape"]
    assert f'"ttir.reshape"(%0) <{{shape = [4 : i32, 32 : i32, 16 : i32]}}> : ({Q4}) -> {Q3}' in out
    _same_numbers(src, out)


def test_a_reshape_that_does_not_fold_batch_and_heads_is_not_matched() -> None:
    # [1, 4, 32, 16] -> [4, 32, 16] keeps the heads apart; [1, 4, 32, 16] -> [2, 64, 16] does not.
    src = _folded(fold="2 : i32, 64 : i32, 16 : i32").replace(f"-> {Q3}\n    %kt", "-> tensor<2x64x16xf32>\n    %kt", 1)
    src = src.replace(f'"ttir.matmul"(%q3, %k3) : ({Q3},', '"ttir.matmul"(%q3, %k3) : (tensor<2x64x16xf32>,')
    out, _ = _fuse(src, verified=False)  # the mismatched batch dims make the (unfused) matmul invalid
    assert "ttir.scaled_dot_product_attention" not in _ops(out)


COMPOSED_KEY = f"""module {{
  func.func @f(%x: tensor<1x32x4x16xf32>) -> {Q4} {{
    %q = "ttir.permute"(%x) <{{permutation = array<i64: 0, 2, 1, 3>}}> : (tensor<1x32x4x16xf32>) -> {Q4}
    %kt = "ttir.permute"(%x) <{{permutation = array<i64: 0, 2, 3, 1>}}> : (tensor<1x32x4x16xf32>) -> {K4T}
    %0 = "ttir.matmul"(%q, %kt) : ({Q4}, {K4T}) -> {S4}
    %c = "ttir.full"() <{{fill_value = 2.500000e-01 : f32, shape = array<i32: 1, 4, 32, 32>}}> : () -> {S4}
    %1 = "ttir.multiply"(%0, %c) : ({S4}, {S4}) -> {S4}
    %2 = "ttir.softmax"(%1) <{{dimension = -1 : si32}}> : ({S4}) -> {S4}
    %3 = "ttir.matmul"(%2, %q) : ({S4}, {Q4}) -> {Q4}
    return %3 : {Q4}
  }}
}}
"""


def test_a_key_transpose_composed_with_the_keys_own_permute_is_still_attention() -> None:
    """canonicalize composes permute(permute(x)) into one permute, so K^T reaches the matcher as
    permute(x, [0, 2, 3, 1]) (HEAD's pattern then misses it); K is rebuilt as permute(x, [0, 2, 1, 3])."""
    out, p = _fuse(COMPOSED_KEY)
    assert "ttir.scaled_dot_product_attention" in _ops(out) and "ttir.softmax" not in _ops(out)
    assert "permutation = array<i64: 0, 2, 1, 3>" in out
    _same_numbers(COMPOSED_KEY, out)
