"""ttir-fusing's shared-LHS fusion (HEAD's SharedLHSMatmulFusion): three or more matmuls / linears
of one input become one op on the concatenated weights and a slice per result, computing what they
computed (the reference interpreter, random inputs); HEAD's preconditions refuse the rest."""

from __future__ import annotations

import numpy as np
import pytest

from ttopt.ir.printer import print_module
from ttopt.lowering.ttir_fusing import TTIRFusing
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.ttir_interpreter import run


def _t(shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def _group(x: tuple[int, ...], widths: list[int], op: str = "matmul", bias: list[bool] | None = None,
           tb: list[bool] | None = None, batch_w: bool = False) -> str:  # fmt: skip
    """`len(widths)` projections of x [..., K]: weights [K, N] ([N, K] where tb), batched weights
    [B, K, N] when batch_w, biases [N] where bias."""
    k = x[-1]
    bias = bias or [False] * len(widths)
    tb = tb or [False] * len(widths)
    sig, body, rets, rtys = [f"%x: {_t(x)}"], [], [], []
    for i, n in enumerate(widths):
        w = (n, k) if tb[i] else (k, n)
        w = (x[0], *w) if batch_w else w
        out = (*x[:-1], n)
        sig.append(f"%w{i}: {_t(w)}")
        operands, types = [f"%x, %w{i}"], [_t(x), _t(w)]
        if bias[i]:
            sig.append(f"%b{i}: {_t((n,))}")
            operands.append(f"%b{i}")
            types.append(_t((n,)))
        body.append(f'    %p{i} = "ttir.{op}"({", ".join(operands)}) <{{transpose_a = false, transpose_b = {str(tb[i]).lower()}}}> : '
                    f"({', '.join(types)}) -> {_t(out)}")  # fmt: skip
        rets.append(f"%p{i}")
        rtys.append(_t(out))
    return (f"module {{\n  func.func @f({', '.join(sig)}) -> ({', '.join(rtys)}) {{\n" + "\n".join(body)
            + f"\n    return {', '.join(rets)} : {', '.join(rtys)}\n  }}\n}}\n")  # fmt: skip


def _fuse(text: str) -> tuple[str, TTIRFusing, list, list]:
    """The fused module's text, the pass, and the unfused and fused results on random inputs."""
    module = parse_module(text, "s.mlir")
    p = TTIRFusing()
    p.run(module, PassContext())
    rng = np.random.default_rng(7)
    func = parse_module(text, "r.mlir").functions()[0]
    args = [rng.standard_normal(tuple(a.type.resolve().shape)).astype(np.float32) for a in func.regions[0].entry.args]
    return print_module(module), p, run(parse_module(text, "r.mlir"), "f", args), run(module, "f", args)


@pytest.mark.parametrize(
    ("x", "widths", "op", "bias", "tb", "batch_w"),
    [
        ((32, 64), [32, 64, 96], "matmul", None, None, False),
        ((32, 64), [64, 64, 64, 32], "matmul", None, [False, True, False, True], False),  # mixed transposes, four-way
        ((2, 16, 64), [32, 32, 64], "matmul", None, None, False),  # batched input, 2-D weights
        ((2, 16, 64), [32, 32, 64], "matmul", None, [True, True, True], True),  # batched weights
        ((32, 64), [32, 64, 32], "linear", None, None, False),
        ((32, 64), [32, 64, 32], "linear", [True, True, True], [True, True, True], False),
        ((2, 16, 64), [64, 32, 32], "linear", [True, True, True], None, False),
    ],
)
def test_the_fused_op_and_its_slices_compute_what_the_projections_did(
    x: tuple[int, ...], widths: list[int], op: str, bias: list[bool] | None, tb: list[bool] | None, batch_w: bool
) -> None:
    out, p, ref, got = _fuse(_group(x, widths, op, bias, tb, batch_w))
    assert out.count(f'"ttir.{op}"') == 1 and out.count('"ttir.slice_static"') == len(widths)
    assert out.count('"ttir.concat"') == (2 if bias else 1)
    assert [d.pattern for d in p.decisions if d.applied] == ["shared_lhs_matmul"]
    for r, g in zip(ref, got):
        np.testing.assert_allclose(np.asarray(g), np.asarray(r), rtol=1e-5, atol=1e-5)


def test_the_weights_are_concatenated_newest_use_first() -> None:
    out, _, _, _ = _fuse(_group((32, 64), [32, 64, 96]))
    assert '"ttir.concat"(%arg3, %arg2, %arg1) <{dim = 1 : si32}>' in out


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (_group((32, 64), [32, 32, 32], "linear", [True, False, True]), "some linears have a bias and some not"),
        (_group((2, 64), [131072, 131072, 1024]), "the fused width 263168 exceeds 262144"),
    ],
)
def test_heads_preconditions_refuse(text: str, reason: str) -> None:
    out, p, _, _ = _fuse(text)
    assert '"ttir.concat"' not in out
    assert any(d.pattern == "shared_lhs_matmul" and not d.applied and d.reason == reason for d in p.decisions)


def test_two_projections_are_left() -> None:
    out, p, _, _ = _fuse(_group((32, 64), [32, 32]))
    assert '"ttir.concat"' not in out and not p.decisions


def test_weights_of_other_batch_dimensions_are_not_candidates() -> None:
    text = _group((2, 16, 64), [32, 32, 32], batch_w=True).replace("%w2: tensor<2x64x32xf32>", "%w2: tensor<1x64x32xf32>")
    text = text.replace(
        "tensor<2x16x64xf32>, tensor<2x64x32xf32>) -> tensor<2x16x32xf32>\n    return",
        "tensor<2x16x64xf32>, tensor<1x64x32xf32>) -> tensor<2x16x32xf32>\n    return",
    )
    out, _, ref, got = _fuse(text)
    assert '"ttir.concat"' not in out and out.count('"ttir.matmul"') == 3


def _qkv_and_mlp(mlp_first: bool) -> str:
    """Q, K, V projections of x [32, 256] into [1, H, 32, 64] heads (4, 2, 2 heads) and a fourth
    projection [32, 128] of x (a parallel-attention MLP), emitted first or last."""
    lines, rets, rtys = [], [], []
    mlp = ['    %m = "ttir.matmul"(%x, %wm) : (tensor<32x256xf32>, tensor<256x128xf32>) -> tensor<32x128xf32>']
    for name, h in (("q", 4), ("k", 2), ("v", 2)):
        n = h * 64
        lines += [f'    %{name}0 = "ttir.matmul"(%x, %w{name}) : (tensor<32x256xf32>, tensor<256x{n}xf32>) -> tensor<32x{n}xf32>',
                  f'    %{name}1 = "ttir.reshape"(%{name}0) <{{shape = [1 : i32, 32 : i32, {h} : i32, 64 : i32]}}> : (tensor<32x{n}xf32>) -> tensor<1x32x{h}x64xf32>',
                  f'    %{name}2 = "ttir.permute"(%{name}1) <{{permutation = array<i64: 0, 2, 1, 3>}}> : (tensor<1x32x{h}x64xf32>) -> tensor<1x{h}x32x64xf32>']  # fmt: skip
        rets.append(f"%{name}2")
        rtys.append(f"tensor<1x{h}x32x64xf32>")
    body = mlp + lines if mlp_first else lines + mlp
    sig = "%x: tensor<32x256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x128xf32>, %wv: tensor<256x128xf32>, %wm: tensor<256x128xf32>"
    rtys.append("tensor<32x128xf32>")
    return (f"module {{\n  func.func @f({sig}) -> ({', '.join(rtys)}) {{\n" + "\n".join(body)
            + f"\n    return {', '.join(rets)}, %m : {', '.join(rtys)}\n  }}\n}}\n")  # fmt: skip


def test_attention_projections_fused_with_a_fourth_are_split_into_heads_when_they_come_first() -> None:
    # Emitted MLP first: the shared-LHS concat (newest use first) is V, K, Q, MLP, so the Q, K, V
    # columns start at 0; the split puts Q first, slices them off and leaves the MLP slice. With no
    # attention op to trace, the two 2-head blocks are K and V in column order (HEAD's fallback).
    out, p, ref, got = _fuse(_qkv_and_mlp(mlp_first=True))
    assert [d.pattern for d in p.decisions if d.applied] == ["shared_lhs_matmul", "split_qkv"]
    assert '"ttir.concat"(%arg1, %arg3, %arg2, %arg4)' in out and "num_heads = 4 : ui32, num_kv_heads = 2 : ui32" in out
    assert out.count('"ttir.matmul"') == 1 and '"ttir.permute"' not in out
    for r, g in zip(ref, got):
        np.testing.assert_allclose(np.asarray(g), np.asarray(r), rtol=1e-4, atol=1e-4)


def test_attention_projections_after_a_fourth_column_block_are_not_split() -> None:
    # Emitted MLP last: its columns come first, so the heads do not start at column 0 (as HEAD).
    out, p, ref, got = _fuse(_qkv_and_mlp(mlp_first=False))
    assert "split_query_key_value" not in out and out.count('"ttir.matmul"') == 1
    assert any(d.pattern == "split_qkv" and not d.applied and "contiguously from 0" in d.reason for d in p.decisions)
    for r, g in zip(ref, got):
        np.testing.assert_allclose(np.asarray(g), np.asarray(r), rtol=1e-5, atol=1e-5)
