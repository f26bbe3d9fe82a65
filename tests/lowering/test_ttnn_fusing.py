"""ttnn-fusing's HEAD patterns on the TTNN that convert-ttir-to-ttnn makes: RoPE (rotate-half and
expanded), decode RoPE, decode concat-heads, RMS norm + activation; each applies on its canonical
form, declines with its reason, obeys its options and the cost check. Also the attention lowering
of a decode step and the TTIR fusions added with them (NaN-safe SDPA, concatenate_heads), whose
numbers the reference interpreter checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.ir.printer import print_module
from ttopt.lowering.ttir_fusing import TTIRFusing
from ttopt.lowering.ttir_to_ttnn import ConvertTTIRToTTNN
from ttopt.lowering.ttnn_fusing import TTNNFusing
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.ttir_interpreter import run


def _t(shape: tuple[int, ...], dtype: str = "bf16") -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def _slice(name: str, src: str, shape: tuple[int, ...], lo: int, hi: int) -> str:
    begins = ", ".join(f"{lo if i == len(shape) - 1 else 0} : i32" for i in range(len(shape)))
    ends = ", ".join(f"{hi if i == len(shape) - 1 else d} : i32" for i, d in enumerate(shape))
    steps = ", ".join("1 : i32" for _ in shape)
    out = (*shape[:-1], hi - lo)
    return (f'    %{name} = "ttir.slice_static"(%{src}) <{{begins = [{begins}], ends = [{ends}], step = [{steps}]}}> : '
            f"({_t(shape)}) -> {_t(out)}")  # fmt: skip


def rope(x: tuple[int, ...] = (1, 8, 32, 64), seq: int | None = None, negate: str = "hi", after: str = "",
         tables: tuple[int, ...] | None = None) -> str:  # fmt: skip
    """x * cos + rotate_half(x) * sin (TTIR), optionally followed by `after` reading %r."""
    d = x[-1]
    h = (*x[:-1], d // 2)
    cs = tables or (1, 1, x[2] if seq is None else seq, d)
    first, second = ("hi", "lo") if negate == "hi" else ("lo", "hi")
    body = "\n".join([
        f'    %xc = "ttir.multiply"(%x, %cos) : ({_t(x)}, {_t(cs)}) -> {_t(x)}',
        _slice("hi", "x", x, d // 2, d),
        _slice("lo", "x", x, 0, d // 2),
        f'    %n = "ttir.neg"(%{first}) : ({_t(h)}) -> {_t(h)}',
        f'    %rot = "ttir.concat"(%n, %{second}) <{{dim = 3 : si32}}> : ({_t(h)}, {_t(h)}) -> {_t(x)}',
        f'    %rs = "ttir.multiply"(%rot, %sin) : ({_t(x)}, {_t(cs)}) -> {_t(x)}',
        f'    %r = "ttir.add"(%xc, %rs) : ({_t(x)}, {_t(x)}) -> {_t(x)}',
    ])  # fmt: skip
    ret, rt = "%r", _t(x)
    if after:
        body += "\n" + after
        ret, rt = "%out", after.split("-> ")[-1]
    return (f"module {{\n  func.func @f(%x: {_t(x)}, %cos: {_t(cs)}, %sin: {_t(cs)}) -> {rt} {{\n{body}\n"
            f"    return {ret} : {rt}\n  }}\n}}\n")  # fmt: skip


def _ttnn(text: str, **options: object) -> tuple[str, dict, list[str]]:
    module = parse_module(text, "t.mlir")
    ctx = PassContext()
    ConvertTTIRToTTNN().run(module, ctx)
    lines: list[str] = []
    ctx.trace.enabled = True
    ctx.trace.print = lines.append  # type: ignore[method-assign]
    TTNNFusing(**options).run(module, ctx)
    return print_module(module), ctx.stats["ttnn-fusing"], lines


def test_rope_becomes_one_rotary_embedding_reading_x_cos_and_sin() -> None:
    out, stats, lines = _ttnn(rope(), enable_rope_fusion=True)
    assert '"ttnn.rotary_embedding"(%arg0, %arg1, %arg2)' in out
    for gone in ("ttnn.neg", "ttnn.concat", "ttnn.multiply", "ttnn.slice_static", "ttnn.add"):
        assert gone not in out
    assert stats["rope.applied"] == 1 and stats["saved_ns"] > 0
    assert any("rope at" in line and "applied" in line and "7 ops" in line for line in lines)


def test_rope_is_off_unless_asked_as_in_heads_standalone_pass() -> None:
    out, stats, _ = _ttnn(rope())
    assert "rotary_embedding" not in out and "rope.applied" not in stats


@pytest.mark.parametrize(("kind", "reason"), [
    ("wrong_half", None),
    ("short_tables", "cos/sin hold 1 positions, fewer than x's 32"),
])  # fmt: skip
def test_rope_refusals(kind: str, reason: str | None) -> None:
    text = rope(negate="lo") if kind == "wrong_half" else rope(seq=1)
    out, stats, lines = _ttnn(text, enable_rope_fusion=True)
    assert "rotary_embedding" not in out and '"ttnn.add"' in out
    if reason:
        assert stats["rope.rejected"] == 1 and any(reason in line for line in lines)


def test_rope_not_estimated_faster_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    import ttopt.lowering.ttnn_fusing as tf

    monkeypatch.setattr(tf, "_ns", lambda cost, op: 1e9 if op.name == "ttnn.rotary_embedding" else 1.0)
    out, stats, lines = _ttnn(rope(), enable_rope_fusion=True)
    assert "rotary_embedding" not in out and stats["rope.rejected"] == 1
    assert any("estimated slower" in line for line in lines)


DECODE = rope(x=(32, 8, 1, 64), after='    %out = "ttir.permute"(%r) <{permutation = array<i64: 2, 0, 1, 3>}> : '
              f"({_t((32, 8, 1, 64))}) -> {_t((1, 32, 8, 64))}")  # fmt: skip


def test_decode_rope_permutes_the_input_and_sets_the_token_index() -> None:
    out, stats, _ = _ttnn(DECODE, enable_rope_fusion=True, enable_op_constraints=True)
    assert '"ttnn.permute"(%arg0) <{permutation = array<i64: 2, 0, 1, 3>}>' in out
    assert "token_index = 0 : ui32" in out and out.count('"ttnn.rotary_embedding"') == 1
    assert stats["rope_decode.applied"] == 1


def test_decode_rope_is_applied_whatever_the_estimates(monkeypatch: pytest.MonkeyPatch) -> None:
    import ttopt.lowering.ttnn_fusing as tf

    monkeypatch.setattr(tf, "_ns", lambda cost, op: 1e9 if op.name == "ttnn.permute" and "token" not in str(op.properties) else 1.0)
    out, _, lines = _ttnn(DECODE, enable_rope_fusion=True, enable_op_constraints=True)
    assert "token_index" in out
    assert any("as HEAD always rewrites it" in line for line in lines)


def test_per_user_tables_are_not_a_rotary_embedding() -> None:
    # tt-metal's RotaryEmbedding takes one [1, 1, S, D] table for every batch row and head: a
    # decode batch whose users sit at different positions ([B, 1, 1, D]) stays elementwise.
    text = rope(x=(32, 8, 1, 64), tables=(32, 1, 1, 64))
    out, stats, lines = _ttnn(text, enable_rope_fusion=True, enable_op_constraints=True)
    assert "rotary_embedding" not in out and '"ttnn.neg"' in out and stats["rope.rejected"] == 1
    assert any("[1, 1, S, D] tables" in line for line in lines)


def test_decode_rope_needs_op_constraints() -> None:
    out, _, _ = _ttnn(DECODE, enable_rope_fusion=True)
    assert "token_index" not in out and '"ttnn.rotary_embedding"' in out


def _heads(batch: int) -> str:
    x, y, z = _t((1, batch, 8, 128)), _t((batch, 8, 1, 128)), _t((batch, 1024))
    return (f"module {{\n  func.func @f(%x: {x}) -> {z} {{\n"
            f'    %0 = "ttir.permute"(%x) <{{permutation = array<i64: 1, 2, 0, 3>}}> : ({x}) -> {y}\n'
            f'    %1 = "ttir.reshape"(%0) <{{shape = [{batch} : i32, 1024 : i32]}}> : ({y}) -> {z}\n'
            f"    return %1 : {z}\n  }}\n}}\n")  # fmt: skip


def test_concat_heads_decode_replaces_reorder_and_collapse() -> None:
    out, stats, _ = _ttnn(_heads(32), enable_op_constraints=True)
    assert '"ttnn.nlp_concat_heads_decode"(%arg0) <{num_heads = 8 : ui32}>' in out and "ttnn.permute" not in out
    assert "-> tensor<1x1x32x1024xbf16" in out and stats["concat_heads_decode.applied"] == 1


def test_concat_heads_decode_batch_beyond_the_worker_grid_is_refused() -> None:
    out, stats, lines = _ttnn(_heads(256), enable_op_constraints=True)
    assert "nlp_concat_heads_decode" not in out and stats["concat_heads_decode.rejected"] == 1
    assert any("batch 256 exceeds the 64 worker cores" in line for line in lines)


def _norm_act(act: str, through_permute: bool, rows: int = 32) -> str:
    x, w, p = _t((rows, 512)), _t((512,)), _t((512, rows))
    body = (f'    %0 = "ttir.rms_norm"(%x, %w) <{{normalized_shape = array<i64: 512>, epsilon = 1.000000e-05 : f32, '
            f"operandSegmentSizes = array<i32: 1, 1, 0>}}> : ({x}, {w}) -> {x}\n")  # fmt: skip
    src, t = "%0", x
    if through_permute:
        body += f'    %1 = "ttir.permute"(%0) <{{permutation = array<i64: 1, 0>}}> : ({x}) -> {p}\n'
        src, t = "%1", p
    body += f'    %a = "ttir.{act}"({src}) : ({t}) -> {t}\n'
    return f"module {{\n  func.func @f(%x: {x}, %w: {w}) -> {t} {{\n{body}    return %a : {t}\n  }}\n}}\n"


@pytest.mark.parametrize(("act", "through_permute", "rows"), [("silu", False, 2048), ("gelu", True, 2048), ("relu", False, 32)])
def test_rms_norm_activation_becomes_the_fused_norm(act: str, through_permute: bool, rows: int) -> None:
    out, stats, _ = _ttnn(_norm_act(act, through_permute, rows), enable_op_constraints=True)
    assert f'activation = "{act}"' in out and f'"ttnn.{act}"' not in out and '"ttnn.rms_norm"' not in out
    assert "operandSegmentSizes = array<i32: 1, 1, 0, 0>" in out
    assert ('"ttnn.permute"' in out) is through_permute
    assert stats["rms_norm_activation.applied"] == 1


@pytest.mark.parametrize("act", ["gelu", "silu"])
def test_rms_norm_activation_on_one_tile_row_keeps_a_costly_activation_apart(act: str) -> None:
    # The fused norm runs its activation on the norm's cores, one per tile row: an accurate gelu
    # or silu (~2850 / ~1860 cycles per tile) over 16 tiles on one core costs more than the
    # activation's own program on 16.
    out, stats, lines = _ttnn(_norm_act(act, False, 32), enable_op_constraints=True)
    assert f'"ttnn.{act}"' in out and "dit_rms_norm_unary_fused" not in out
    assert stats["rms_norm_activation.rejected"] == 1
    assert any("rms_norm_activation" in line and "estimated slower" in line for line in lines)


def test_sigmoid_after_rms_norm_is_not_a_fused_norm_activation() -> None:
    out, _, _ = _ttnn(_norm_act("sigmoid", False), enable_op_constraints=True)
    assert "dit_rms_norm_unary_fused" not in out and '"ttnn.sigmoid"' in out


# -- TTIR: attention and heads ---------------------------------------------------------------------
def _same_numbers(before: str, after: str, args: list[np.ndarray]) -> None:
    a, b = parse_module(before, "a.mlir"), parse_module(after, "b.mlir")
    for x, y in zip(run(a, "f", args), run(b, "f", args)):
        np.testing.assert_allclose(np.asarray(y, np.float64), np.asarray(x, np.float64), rtol=2e-4, atol=1e-5)


NAN_SAFE = """module {
  func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %m: tensor<1x1x8x8xf32>) -> tensor<1x2x8x16xf32> {
    %kt = "ttir.permute"(%k) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x2x8x16xf32>) -> tensor<1x2x16x8xf32>
    %s = "ttir.matmul"(%q, %kt) : (tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32>) -> tensor<1x2x8x8xf32>
    %c = "ttir.full"() <{fill_value = 2.500000e-01 : f32, shape = array<i32: 1, 1, 1, 1>}> : () -> tensor<1x1x1x1xf32>
    %ss = "ttir.multiply"(%s, %c) : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x8x8xf32>
    %sm = "ttir.add"(%ss, %m) : (tensor<1x2x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x2x8x8xf32>
    %ninf = "ttir.full"() <{fill_value = 0xFF800000 : f32, shape = array<i32: 1, 2, 8, 8>}> : () -> tensor<1x2x8x8xf32>
    %isinf = "ttir.eq"(%sm, %ninf) : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %all = "ttir.min"(%isinf) <{dim_arg = [3 : i32], keep_dim = true}> : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
    %allb = "ttir.broadcast"(%all) <{broadcast_dimensions = array<i64: 1, 1, 1, 8>}> : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x8xf32>
    %p = "ttir.softmax"(%sm) <{dimension = -1 : si32}> : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %z = "ttir.zeros"() <{shape = array<i32: 1, 2, 8, 8>}> : () -> tensor<1x2x8x8xf32>
    %safe = "ttir.where"(%allb, %z, %p) : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %o = "ttir.matmul"(%safe, %v) : (tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
    return %o : tensor<1x2x8x16xf32>
  }
}
"""


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_nan_safe_attention_fuses_and_keeps_fully_masked_rows_zero() -> None:
    module = parse_module(NAN_SAFE, "a.mlir")
    p = TTIRFusing()
    p.run(module, PassContext())
    out = print_module(module)
    assert '"ttir.scaled_dot_product_attention"' in out and '"ttir.softmax"' not in out
    assert '"ttir.where"' in out and '"ttir.max"(%arg3)' in out
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((1, 2, 8, 16)).astype(np.float32) for _ in range(3))
    mask = np.zeros((1, 1, 8, 8), np.float32)
    mask[..., 3, :] = -np.inf  # a fully masked query row: NaN without the select
    mask[..., 5, :4] = -np.inf
    ref = run(parse_module(NAN_SAFE, "b.mlir"), "f", [q, k, v, mask])[0]
    got = run(module, "f", [q, k, v, mask])[0]
    assert not np.isnan(np.asarray(ref)).any() and np.all(np.asarray(got)[:, :, 3, :] == 0)
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(ref, np.float64), rtol=2e-4, atol=1e-5)


def test_decode_attention_lowers_to_the_decode_op_with_permuted_operands() -> None:
    text = """module {
  func.func @f(%q: tensor<4x8x1x64xbf16>, %k: tensor<4x8x128x64xbf16>, %v: tensor<4x8x128x64xbf16>, %m: tensor<4x1x1x128xbf16>) -> tensor<4x8x1x64xbf16> {
    %0 = "ttir.scaled_dot_product_attention"(%q, %k, %v, %m) <{is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>, scale = 1.250000e-01 : f32}> : (tensor<4x8x1x64xbf16>, tensor<4x8x128x64xbf16>, tensor<4x8x128x64xbf16>, tensor<4x1x1x128xbf16>) -> tensor<4x8x1x64xbf16>
    return %0 : tensor<4x8x1x64xbf16>
  }
}
"""
    module = parse_module(text, "d.mlir")
    ConvertTTIRToTTNN().run(module, PassContext())
    out = print_module(module)
    assert '"ttnn.permute"(%arg0) <{permutation = array<i64: 2, 0, 1, 3>}>' in out
    assert '"ttnn.permute"(%arg3) <{permutation = array<i64: 0, 2, 1, 3>}>' in out
    assert "repeat_dims = #ttnn.shape<1x1x8x1>" in out and "-> tensor<4x1x8x128xbf16" in out
    assert "operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>" in out
    assert '<{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<1x4x8x64xbf16' in out


def _heads_ttir(two_d: bool) -> str:
    x, p = "tensor<2x4x8x16xf32>", "tensor<2x8x4x16xf32>"
    out = "tensor<16x64xf32>" if two_d else "tensor<2x8x64xf32>"
    shape = "[16 : i32, 64 : i32]" if two_d else "[2 : i32, 8 : i32, 64 : i32]"
    return (f"module {{\n  func.func @f(%x: {x}) -> {out} {{\n"
            f'    %0 = "ttir.permute"(%x) <{{permutation = array<i64: 0, 2, 1, 3>}}> : ({x}) -> {p}\n'
            f'    %1 = "ttir.reshape"(%0) <{{shape = {shape}}}> : ({p}) -> {out}\n'
            f"    return %1 : {out}\n  }}\n}}\n")  # fmt: skip


@pytest.mark.parametrize("two_d", [False, True])
def test_permute_reshape_merging_heads_is_concatenate_heads(two_d: bool) -> None:
    text = _heads_ttir(two_d)
    module = parse_module(text, "h.mlir")
    ctx = PassContext()
    TTIRFusing(cost_check=False).run(module, ctx)
    out = print_module(module)
    assert '"ttir.concatenate_heads"(%arg0)' in out and "ttir.permute" not in out
    assert ("ttir.reshape" in out) is two_d
    x = np.random.default_rng(1).standard_normal((2, 4, 8, 16)).astype(np.float32)
    _same_numbers(text, out, [x])


def test_a_permute_that_does_not_merge_heads_is_left() -> None:
    text = _heads_ttir(False).replace("array<i64: 0, 2, 1, 3>", "array<i64: 0, 1, 2, 3>").replace("tensor<2x8x4x16xf32>", "tensor<2x4x8x16xf32>")
    module = parse_module(text, "h.mlir")
    TTIRFusing(cost_check=False).run(module, PassContext())
    assert "concatenate_heads" not in print_module(module)


def _qkv(heads: tuple[int, int, int], linear: bool = False) -> str:
    """Three projections of x [32, 512] into [1, H, 32, 64] heads (weights [H*64, 512], transpose_b)."""
    sig = ["%x: tensor<32x512xf32>"]
    body, rets, rtys = [], [], []
    for i, h in enumerate(heads):
        n = h * 64
        sig.append(f"%w{i}: tensor<{n}x512xf32>")
        if linear:
            sig.append(f"%b{i}: tensor<{n}xf32>")
            body.append(f'    %p{i} = "ttir.linear"(%x, %w{i}, %b{i}) <{{transpose_a = false, transpose_b = true}}> : '
                        f"(tensor<32x512xf32>, tensor<{n}x512xf32>, tensor<{n}xf32>) -> tensor<32x{n}xf32>")  # fmt: skip
        else:
            body.append(f'    %p{i} = "ttir.matmul"(%x, %w{i}) <{{transpose_a = false, transpose_b = true}}> : '
                        f"(tensor<32x512xf32>, tensor<{n}x512xf32>) -> tensor<32x{n}xf32>")  # fmt: skip
        body.append(f'    %r{i} = "ttir.reshape"(%p{i}) <{{shape = [1 : i32, 32 : i32, {h} : i32, 64 : i32]}}> : '
                    f"(tensor<32x{n}xf32>) -> tensor<1x32x{h}x64xf32>")  # fmt: skip
        body.append(f'    %h{i} = "ttir.permute"(%r{i}) <{{permutation = array<i64: 0, 2, 1, 3>}}> : '
                    f"(tensor<1x32x{h}x64xf32>) -> tensor<1x{h}x32x64xf32>")  # fmt: skip
        rets.append(f"%h{i}")
        rtys.append(f"tensor<1x{h}x32x64xf32>")
    return (f"module {{\n  func.func @f({', '.join(sig)}) -> ({', '.join(rtys)}) {{\n" + "\n".join(body)
            + f"\n    return {', '.join(rets)} : {', '.join(rtys)}\n  }}\n}}\n")  # fmt: skip


@pytest.mark.parametrize(("heads", "linear"), [((8, 8, 8), False), ((2, 8, 2), False), ((4, 4, 4), True)])
def test_three_head_projections_become_one_projection_and_a_split(heads: tuple[int, int, int], linear: bool) -> None:
    text = _qkv(heads, linear)
    module = parse_module(text, "q.mlir")
    ctx = PassContext()
    TTIRFusing().run(module, ctx)
    out = print_module(module)
    assert out.count('"ttir.matmul"' if not linear else '"ttir.linear"') == 1 and '"ttir.permute"' not in out
    assert ctx.stats["ttir-fusing"]["split_qkv.applied"] == 1
    q = max(range(3), key=lambda i: (heads[i], i))  # the last of equals: the first slice of the shared-LHS concat
    hq, hkv = heads[q], heads[(q + 1) % 3]
    assert f"num_heads = {hq} : ui32" in out and (f"num_kv_heads = {hkv} : ui32" in out) is (hq != hkv)
    # The numbers: the split op on the Q, K, V-ordered projection computes what the three projections did.
    rng = np.random.default_rng(2)
    func = parse_module(text, "r.mlir").functions()[0]
    args = [rng.standard_normal(tuple(a.type.resolve().shape)).astype(np.float32) for a in func.regions[0].entry.args]
    ref = run(parse_module(text, "r.mlir"), "f", args)
    got = run(module, "f", args)
    for r, g in zip(ref, got):
        np.testing.assert_allclose(np.asarray(g), np.asarray(r), rtol=1e-4, atol=1e-4)
    # Q's weight (and bias) first: the shared-LHS concat reordered for the split (HEAD's reorder).
    assert f'"ttir.concat"(%arg{1 + (2 if linear else 1) * q},' in out
    if linear:
        assert f'"ttir.concat"(%arg{2 + 2 * q},' in out


def test_two_projections_are_not_a_qkv_split() -> None:
    text = _qkv((8, 8, 8)).replace(", %h2", "").replace(", tensor<1x8x32x64xf32>)", ")", 1)
    text = text.replace("-> (tensor<1x8x32x64xf32>, tensor<1x8x32x64xf32>, tensor<1x8x32x64xf32>)", "-> (tensor<1x8x32x64xf32>, tensor<1x8x32x64xf32>)")
    text = text.replace(": tensor<1x8x32x64xf32>, tensor<1x8x32x64xf32>, tensor<1x8x32x64xf32>\n", ": tensor<1x8x32x64xf32>, tensor<1x8x32x64xf32>\n")
    lines = [ln for ln in text.split("\n") if "%p2" not in ln and "%r2" not in ln and "%h2" not in ln]
    module = parse_module("\n".join(lines), "q.mlir")
    TTIRFusing().run(module, PassContext())
    out = print_module(module)
    assert "split_query_key_value" not in out and out.count('"ttir.matmul"') == 2


def test_key_and_value_with_different_heads_are_refused() -> None:
    module = parse_module(_qkv((8, 2, 4)), "q.mlir")
    p = TTIRFusing()
    p.run(module, PassContext())
    assert "split_query_key_value" not in print_module(module)
    assert any(d.pattern == "split_qkv" and not d.applied and "K and V differ in heads" in d.reason for d in p.decisions)


@settings(max_examples=25, deadline=None)
@given(b=st.sampled_from([1, 2]), h=st.sampled_from([1, 4, 8]), s=st.sampled_from([1, 16, 32]),
       d=st.sampled_from([32, 64, 128]), per_position=st.booleans())  # fmt: skip
def test_rope_fuses_exactly_when_the_tables_cover_every_position(b: int, h: int, s: int, d: int, per_position: bool) -> None:
    # cos / sin hold every position, or one broadcast over them all (valid TTIR either way).
    cos_seq = s if per_position else 1
    out, _, _ = _ttnn(rope(x=(b, h, s, d), seq=cos_seq), enable_rope_fusion=True)
    assert ('"ttnn.rotary_embedding"' in out) is (cos_seq >= s)
    assert ('"ttnn.neg"' in out) is (cos_seq < s)


def test_an_activation_folded_into_a_matmul_saves_its_program_not_its_compute() -> None:
    # The fused matmul runs the gelu on its output tiles, so the fold is credited the gelu op's
    # estimate less the gelu's cost inside the matmul: its launch and traffic.
    from ttopt.device import CostModel, load_device
    from ttopt.ir.attributes import StringAttr

    a, w, y = (256, 512), (512, 1024), (256, 1024)
    text = (
        f"module {{\n  func.func @f(%a: {_t(a)}, %w: {_t(w)}) -> {_t(y)} {{\n"
        f'    %m = "ttir.matmul"(%a, %w) : ({_t(a)}, {_t(w)}) -> {_t(y)}\n'
        f'    %g = "ttir.gelu"(%m) : ({_t(y)}) -> {_t(y)}\n'
        f"    return %g : {_t(y)}\n  }}\n}}\n"
    )
    out, stats, lines = _ttnn(text)
    assert 'activation = "gelu"' in out and '"ttnn.gelu"' not in out and stats["gelu.applied"] == 1
    # The same two ops, unfused, under the pass's cost model.
    module = parse_module(text, "t.mlir")
    ConvertTTIRToTTNN().run(module, PassContext())
    cost = CostModel(load_device(None))
    ops = {o.name: o for o in module.walk()}
    matmul, gelu = ops["ttnn.matmul"], ops["ttnn.gelu"]
    plain, act = cost.current_op_cost(matmul).ns, cost.current_op_cost(gelu)
    matmul.properties["activation"] = StringAttr("gelu")
    fused = cost.current_op_cost(matmul).ns
    assert fused > plain  # the gelu's compute, partly hidden under the matmul's traffic (overlap)
    assert stats["saved_ns"] == pytest.approx(act.ns - (fused - plain), abs=0.1)
    assert 0 < stats["saved_ns"] < act.ns
    assert any("less its cost in the fused op" in line for line in lines)
