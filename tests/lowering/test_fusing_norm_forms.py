"""ttir-fusing on the norm forms JAX / Flax programs export, beyond HEAD's patterns: RMS norms that
divide by sqrt(mean(x^2) + eps) (Llama, Mistral, T5; Gemma's (1 + w) weight) and layer norms with
Flax's E[x^2] - E[x]^2 variance (or E[(x - mean)^2]), with the f32 casts around them; near misses
left alone; the fused program computes what the unfused one does (reference interpreter)."""

from __future__ import annotations

import pytest

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.ttir_fusing import TTIRFusing
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.ttir_fusing_runs import op_names, same_numbers

X, R, G = "tensor<4x64xf32>", "tensor<4x1xf32>", "tensor<64xf32>"


def _fuse(text: str) -> tuple[str, list[str]]:
    """The fused text and the trace lines."""
    module = parse_module(text, "f.mlir")
    p = TTIRFusing()
    p.run(module, PassContext())
    verify(module, check_uses=True)
    return print_module(module), [d.line() for d in p.decisions]


def _module(sig: str, body: str, ret: str, ty: str = X) -> str:
    return f"module {{\n  func.func @f({sig}) -> {ty} {{\n{body}\n    return {ret} : {ty}\n  }}\n}}\n"


def _row_mean(src: str, out: str, dim: int = 1, x: str = X) -> str:
    """`out` = the [4, 1] mean of `src` over `dim`, as JAX exports it (sum, reshape, divide by N)."""
    return (f'    %{out}_s = "ttir.sum"(%{src}) <{{dim_arg = [{dim} : i32], keep_dim = false}}> : ({x}) -> tensor<4xf32>\n'
            f'    %{out}_r = "ttir.reshape"(%{out}_s) <{{shape = [4 : i32, 1 : i32]}}> : (tensor<4xf32>) -> {R}\n'
            f'    %{out}_n = "ttir.full"() <{{fill_value = 6.400000e+01 : f32, shape = array<i32: 4, 1>}}> : () -> {R}\n'
            f'    %{out} = "ttir.div"(%{out}_r, %{out}_n) : ({R}, {R}) -> {R}\n')  # fmt: skip


def _eps(name: str = "e", value: str = "9.99999997E-7") -> str:
    return f'    %{name} = "ttir.full"() <{{fill_value = {value} : f32, shape = array<i32: 4, 1>}}> : () -> {R}\n'


def _bcast(src: str, out: str) -> str:
    return f'    %{out} = "ttir.broadcast"(%{src}) <{{broadcast_dimensions = array<i64: 1, 64>}}> : ({R}) -> {X}\n'


def _gamma(src: str, out: str, ty: str = "f32") -> str:
    t = f"tensor<4x64x{ty}>"
    return (f'    %{out}_r = "ttir.reshape"(%{src}) <{{shape = [1 : i32, 64 : i32]}}> : (tensor<64x{ty}>) -> tensor<1x64x{ty}>\n'
            f'    %{out} = "ttir.broadcast"(%{out}_r) <{{broadcast_dimensions = array<i64: 4, 1>}}> : (tensor<1x64x{ty}>) -> {t}\n')  # fmt: skip


def _rms(form: str = "div", eps_after_root: bool = False) -> str:
    """x / sqrt(mean(x^2) + eps) * gamma in the spelling `form` (f32)."""
    body = f'    %sq = "ttir.multiply"(%x, %x) : ({X}, {X}) -> {X}\n' + _row_mean("sq", "m") + _eps()
    if eps_after_root:
        body += (f'    %rt = "ttir.sqrt"(%m) : ({R}) -> {R}\n'
                 f'    %d = "ttir.add"(%rt, %e) : ({R}, {R}) -> {R}\n')  # fmt: skip
    else:
        body += (f'    %a = "ttir.add"(%m, %e) : ({R}, {R}) -> {R}\n'
                 f'    %d = "ttir.sqrt"(%a) : ({R}) -> {R}\n')  # fmt: skip
    if form == "div":
        body += _bcast("d", "db") + f'    %n = "ttir.div"(%x, %db) : ({X}, {X}) -> {X}\n'
    elif form == "one_over":
        body += (f'    %one = "ttir.full"() <{{fill_value = 1.000000e+00 : f32, shape = array<i32: 4, 1>}}> : () -> {R}\n'
                 f'    %inv = "ttir.div"(%one, %d) : ({R}, {R}) -> {R}\n') + _bcast("inv", "ib") + f'    %n = "ttir.multiply"(%ib, %x) : ({X}, {X}) -> {X}\n'  # fmt: skip
    else:
        body += f'    %inv = "ttir.reciprocal"(%d) : ({R}) -> {R}\n' + _bcast("inv", "ib") + f'    %n = "ttir.multiply"(%x, %ib) : ({X}, {X}) -> {X}\n'
    body += _gamma("g", "gb") + f'    %out = "ttir.multiply"(%gb, %n) : ({X}, {X}) -> {X}'
    return _module(f"%x: {X}, %g: {G}", body, "%out")


@pytest.mark.parametrize("form", ["div", "one_over", "reciprocal"])
def test_rms_norm_dividing_by_the_root_becomes_rms_norm(form: str) -> None:
    text = _rms(form)
    out, trace = _fuse(text)
    assert op_names(out) == ["ttir.rms_norm"]
    assert '"ttir.rms_norm"(%arg0, %arg1) <{epsilon = 9.99999997E-7 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0>}>' in out
    assert any("rms_norm at" in line and "applied" in line for line in trace)
    same_numbers(text, out, atol=1e-5)


def test_epsilon_added_after_the_root_is_not_an_rms_norm() -> None:
    out, _ = _fuse(_rms(eps_after_root=True))
    assert "ttir.rms_norm" not in out


def test_a_mean_over_another_dimension_is_not_an_rms_norm() -> None:
    sq = "tensor<64x64xf32>"
    body = (f'    %sq = "ttir.multiply"(%x, %x) : ({sq}, {sq}) -> {sq}\n'
            f'    %s = "ttir.sum"(%sq) <{{dim_arg = [0 : i32], keep_dim = true}}> : ({sq}) -> tensor<1x64xf32>\n'
            f'    %n = "ttir.full"() <{{fill_value = 6.400000e+01 : f32, shape = array<i32: 1, 64>}}> : () -> tensor<1x64xf32>\n'
            f'    %m = "ttir.div"(%s, %n) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>\n'
            f'    %e = "ttir.full"() <{{fill_value = 1.0E-6 : f32, shape = array<i32: 1, 64>}}> : () -> tensor<1x64xf32>\n'
            f'    %a = "ttir.add"(%m, %e) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>\n'
            f'    %d = "ttir.sqrt"(%a) : (tensor<1x64xf32>) -> tensor<1x64xf32>\n'
            f'    %db = "ttir.broadcast"(%d) <{{broadcast_dimensions = array<i64: 64, 1>}}> : (tensor<1x64xf32>) -> {sq}\n'
            f'    %nx = "ttir.div"(%x, %db) : ({sq}, {sq}) -> {sq}\n'
            f'    %gr = "ttir.reshape"(%g) <{{shape = [1 : i32, 64 : i32]}}> : ({G}) -> tensor<1x64xf32>\n'
            f'    %gb = "ttir.broadcast"(%gr) <{{broadcast_dimensions = array<i64: 64, 1>}}> : (tensor<1x64xf32>) -> {sq}\n'
            f'    %out = "ttir.multiply"(%nx, %gb) : ({sq}, {sq}) -> {sq}')  # fmt: skip
    out, _ = _fuse(_module(f"%x: {sq}, %g: {G}", body, "%out", sq))
    assert "ttir.rms_norm" not in out


def test_a_gamma_varying_over_rows_is_rejected() -> None:
    text = _rms().replace(_gamma("g", "gb"), _bcast("g", "gb")).replace(f"%g: {G}", f"%g: {R}")
    out, trace = _fuse(text)
    assert "ttir.rms_norm" not in out
    assert any("gamma [4, 1] is not one value per element of the last dimension (64)" in line for line in trace)


def _flax_rms(gemma: bool = False, t5: bool = False) -> str:
    """Flax's Llama (Gemma: (1 + w), T5: the weight cast to f32) RMS norm of a bf16 x, in f32."""
    XB, X32 = "tensor<4x64xbf16>", X
    body = (f'    %x32 = "ttir.typecast"(%x) : ({XB}) -> {X32}\n'
            f'    %sq = "ttir.multiply"(%x32, %x32) : ({X32}, {X32}) -> {X32}\n') + _row_mean("sq", "m") + _eps() + (
            f'    %a = "ttir.add"(%m, %e) : ({R}, {R}) -> {R}\n'
            f'    %d = "ttir.sqrt"(%a) : ({R}) -> {R}\n') + _bcast("d", "db") + (
            f'    %n = "ttir.div"(%x32, %db) : ({X32}, {X32}) -> {X32}\n')  # fmt: skip
    if t5:
        body += (f'    %g32 = "ttir.typecast"(%g) : (tensor<64xbf16>) -> {G}\n' + _gamma("g32", "gb") +
                 f'    %o32 = "ttir.multiply"(%gb, %n) : ({X32}, {X32}) -> {X32}\n'
                 f'    %out = "ttir.typecast"(%o32) : ({X32}) -> {XB}')  # fmt: skip
    else:
        w = "g"
        if gemma:
            body += ('    %one = "ttir.full"() <{fill_value = 1.000000e+00 : f32, shape = array<i32: 64>}> : () -> tensor<64xbf16>\n'
                     '    %w1 = "ttir.add"(%one, %g) : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16>\n')  # fmt: skip
            w = "w1"
        body += (f'    %nb = "ttir.typecast"(%n) : ({X32}) -> {XB}\n' + _gamma(w, "gb", "bf16") +
                 f'    %out = "ttir.multiply"(%gb, %nb) : ({XB}, {XB}) -> {XB}')  # fmt: skip
    return _module(f"%x: {XB}, %g: tensor<64xbf16>", body, "%out", XB)


@pytest.mark.parametrize("model", ["llama", "gemma", "t5"])
def test_flax_rms_norms_in_f32_around_bf16_fuse_on_the_bf16_input(model: str) -> None:
    text = _flax_rms(gemma=model == "gemma", t5=model == "t5")
    out, _ = _fuse(text)
    names = op_names(out)
    assert names.count("ttir.rms_norm") == 1 and "ttir.sqrt" not in names and "ttir.sum" not in names
    # the norm reads x before its f32 cast, and the weight as the model holds it (bf16)
    assert '"ttir.rms_norm"(%arg0, ' in out and "(tensor<4x64xbf16>, tensor<64xbf16>) -> tensor<4x64xbf16>" in out
    if model == "gemma":
        assert names[:2] == ["ttir.full", "ttir.add"]  # (1 + w) stays, computed once on the [64] weight
    same_numbers(text, out, rtol=2e-2, atol=2e-2)


def _ln(variance: str = "fast", form: str = "rsqrt", gamma: bool = True, beta: bool = True, eps_after_root: bool = False,
        mean_dim: int = 1, guard: bool = True) -> str:  # fmt: skip
    """A layer norm of x [4, 64] (f32) as Flax exports it (`fast`: E[x^2] - E[x]^2 under maximum(0, .);
    `centred`: E[(x - mean)^2]), gamma folded into rsqrt(var + eps) (`rsqrt`) or x - mean divided by
    sqrt(var + eps) (`div`)."""
    body = _row_mean("x", "mu") + _bcast("mu", "mub") + f'    %c = "ttir.subtract"(%x, %mub) : ({X}, {X}) -> {X}\n'
    if variance == "fast":
        body += (f'    %sq = "ttir.square"(%x) : ({X}) -> {X}\n' + _row_mean("sq", "m2", dim=mean_dim) +
                 f'    %mm = "ttir.square"(%mu) : ({R}) -> {R}\n'
                 f'    %df = "ttir.subtract"(%m2, %mm) : ({R}, {R}) -> {R}\n')  # fmt: skip
        if guard:
            body += (f'    %z = "ttir.zeros"() <{{shape = array<i32: 4, 1>}}> : () -> {R}\n'
                     f'    %v = "ttir.maximum"(%z, %df) : ({R}, {R}) -> {R}\n')  # fmt: skip
        else:
            body += f'    %v = "ttir.reshape"(%df) <{{shape = [4 : i32, 1 : i32]}}> : ({R}) -> {R}\n'
    else:
        body += f'    %cc = "ttir.multiply"(%c, %c) : ({X}, {X}) -> {X}\n' + _row_mean("cc", "v", dim=mean_dim)
    body += _eps("e", "9.99999974E-6")
    if eps_after_root:
        body += f'    %rt = "ttir.sqrt"(%v) : ({R}) -> {R}\n    %d = "ttir.add"(%rt, %e) : ({R}, {R}) -> {R}\n'
    else:
        body += f'    %a = "ttir.add"(%v, %e) : ({R}, {R}) -> {R}\n'
        body += f'    %d = "ttir.{"rsqrt" if form == "rsqrt" else "sqrt"}"(%a) : ({R}) -> {R}\n'
    body += _bcast("d", "db")
    last = "y"
    if form == "rsqrt":
        if gamma:
            body += _gamma("g", "gb") + f'    %k = "ttir.multiply"(%db, %gb) : ({X}, {X}) -> {X}\n'
            body += f'    %y = "ttir.multiply"(%c, %k) : ({X}, {X}) -> {X}\n'
        else:
            body += f'    %y = "ttir.multiply"(%c, %db) : ({X}, {X}) -> {X}\n'
    else:
        body += f'    %y = "ttir.div"(%c, %db) : ({X}, {X}) -> {X}\n'
        if gamma:
            body += _gamma("g", "gb") + f'    %yg = "ttir.multiply"(%y, %gb) : ({X}, {X}) -> {X}\n'
            last = "yg"
    if beta:
        body += _gamma("b", "bb") + f'    %out = "ttir.add"(%{last}, %bb) : ({X}, {X}) -> {X}\n'
        last = "out"
    return _module(f"%x: {X}, %g: {G}, %b: {G}", body.rstrip("\n"), f"%{last}")


@pytest.mark.parametrize(("variance", "form", "gamma", "beta", "segments"), [
    ("fast", "rsqrt", True, True, "1, 1, 1"),
    ("fast", "rsqrt", True, False, "1, 1, 0"),
    ("fast", "rsqrt", False, False, "1, 0, 0"),
    ("fast", "rsqrt", False, True, "1, 0, 1"),
    ("fast", "div", True, True, "1, 1, 1"),
    ("fast", "div", False, False, "1, 0, 0"),
    ("fast", "div", True, False, "1, 1, 0"),
    ("centred", "div", True, True, "1, 1, 1"),
    ("centred", "rsqrt", True, True, "1, 1, 1"),
])  # fmt: skip
def test_layer_norm_forms_become_layer_norm(variance: str, form: str, gamma: bool, beta: bool, segments: str) -> None:
    text = _ln(variance, form, gamma, beta)
    out, trace = _fuse(text)
    assert op_names(out) == ["ttir.layer_norm"], out
    assert f"epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: {segments}>" in out
    assert any("layer_norm at" in line and "[green]applied" in line for line in trace)
    same_numbers(text, out, atol=1e-5)


def test_without_the_maximum_guard_the_fast_variance_still_fuses() -> None:
    text = _ln(guard=False)
    out, _ = _fuse(text)
    assert op_names(out) == ["ttir.layer_norm"]
    same_numbers(text, out, atol=1e-5)


@pytest.mark.parametrize("variance", ["fast", "centred"])
def test_a_variance_over_another_dimension_is_not_a_layer_norm(variance: str) -> None:
    sq = "tensor<64x64xf32>"
    text = _ln(variance, mean_dim=0)
    # the [4, 64] program with the variance's sum over rows: give it a square x so the sum types hold
    text = text.replace(X, sq).replace("tensor<4xf32>", "tensor<64xf32>").replace(R, "tensor<64x1xf32>").replace(
        "shape = [4 : i32, 1 : i32]", "shape = [64 : i32, 1 : i32]").replace("array<i32: 4, 1>", "array<i32: 64, 1>").replace(
        "broadcast_dimensions = array<i64: 4, 1>", "broadcast_dimensions = array<i64: 64, 1>")  # fmt: skip
    out, _ = _fuse(text)
    assert "ttir.layer_norm" not in out


def test_epsilon_added_after_the_root_is_not_a_layer_norm() -> None:
    out, _ = _fuse(_ln(form="div", eps_after_root=True))
    assert "ttir.layer_norm" not in out


def test_a_layer_norm_gamma_varying_over_rows_is_rejected() -> None:
    text = _ln().replace(_gamma("g", "gb"), _bcast("g", "gb")).replace(f"%g: {G}", f"%g: {R}")
    out, trace = _fuse(text)
    assert "ttir.layer_norm" not in out
    assert any("gamma [4, 1] is not one value per element of the last dimension (64)" in line for line in trace)


def test_heads_rsqrt_form_of_a_centred_input_stays_heads_rms_norm() -> None:
    # (x - mean) * rsqrt(mean((x - mean)^2) + eps) * gamma is HEAD's RMS norm of x - mean: kept as
    # HEAD fuses it (the same numbers), and the beta add stays beside it
    text = _ln("centred", "rsqrt").replace('%k = "ttir.multiply"(%db, %gb)', '%k0 = "ttir.multiply"(%c, %db)').replace(
        '%y = "ttir.multiply"(%c, %k)', '%y = "ttir.multiply"(%k0, %gb)')  # fmt: skip
    out, _ = _fuse(text)
    assert "ttir.rms_norm" in op_names(out) and "ttir.layer_norm" not in out
    same_numbers(text, out, atol=1e-5)


def test_flax_bf16_layer_norm_fuses_on_the_bf16_input_with_its_parameters() -> None:
    XB = "tensor<4x64xbf16>"
    text = _ln().replace(f"%x: {X}, %g: {G}, %b: {G}", f"%x0: {XB}, %g0: tensor<64xbf16>, %b0: tensor<64xbf16>").replace(
        "    %mu_s", f'    %x = "ttir.typecast"(%x0) : ({XB}) -> {X}\n'
                    f'    %g = "ttir.typecast"(%g0) : (tensor<64xbf16>) -> {G}\n'
                    f'    %b = "ttir.typecast"(%b0) : (tensor<64xbf16>) -> {G}\n    %mu_s', 1)  # fmt: skip
    text = text.replace(f"    return %out : {X}", f'    %ob = "ttir.typecast"(%out) : ({X}) -> {XB}\n    return %ob : {XB}').replace(f") -> {X} {{", f") -> {XB} {{")
    out, _ = _fuse(text)
    # the f32 round trip left behind is canonicalize's to fold
    assert op_names(out) == ["ttir.layer_norm", "ttir.typecast", "ttir.typecast"], out
    assert '"ttir.layer_norm"(%arg0, %arg1, %arg2)' in out
    assert "(tensor<4x64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<4x64xbf16>" in out
    same_numbers(text, out, rtol=2e-2, atol=3e-2)
