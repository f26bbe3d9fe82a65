"""ttir-fusing's RoPE patterns (HEAD's RoPEFusingPattern.cpp): the rotate-half, expanded and
interleaved-pair chains become a `ttcore.composite "rotary_embedding"` with a private
decomposition; every precondition HEAD checks leaves the chain alone; the composite keeps the
numbers (reference interpreter) and, through the backend pipeline, ends as ttnn.rotary_embedding
(a decode-mode one when its result goes to decode order, erase-inverse-ops on)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.ttir_fusing_runs import fuse_ttir, op_names, same_numbers
from ttopt.testing.ttir_interpreter import run

X, C, H = "tensor<1x8x32x64xf32>", "tensor<1x1x32x64xf32>", "tensor<1x8x32x32xf32>"
SLICE = '"ttir.slice_static"(%x) <{{begins = [0 : i32, 0 : i32, 0 : i32, {b} : i32], ends = [1 : i32, 8 : i32, 32 : i32, {e} : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}>'
ROTATE_HALF = f"""module {{
  func.func @f(%x: {X}, %cos: {C}, %sin: {C}) -> {X} {{
    %cb = "ttir.broadcast"(%cos) <{{broadcast_dimensions = array<i64: 1, 8, 1, 1>}}> : ({C}) -> {X}
    %xc = "ttir.multiply"(%x, %cb) : ({X}, {X}) -> {X}
    %hi = {SLICE.format(b=32, e=64)} : ({X}) -> {H}
    %nh = "ttir.neg"(%hi) : ({H}) -> {H}
    %lo = {SLICE.format(b=0, e=32)} : ({X}) -> {H}
    %rot = "ttir.concat"(%nh, %lo) <{{dim = 3 : si32}}> : ({H}, {H}) -> {X}
    %sb = "ttir.broadcast"(%sin) <{{broadcast_dimensions = array<i64: 1, 8, 1, 1>}}> : ({C}) -> {X}
    %rs = "ttir.multiply"(%rot, %sb) : ({X}, {X}) -> {X}
    %r = "ttir.add"(%xc, %rs) : ({X}, {X}) -> {X}
    return %r : {X}
  }}
}}
"""


def _composites(text: str) -> list[str]:
    return re.findall(r'"ttcore\.composite"\(([^)]*)\) <\{composite_name = "rotary_embedding", decomposition = @(\w+)\}>', text)


def _main(text: str) -> str:
    return text.split("func.func private")[0]


def test_rotate_half_becomes_a_composite_of_x_and_the_unbroadcast_tables() -> None:
    out, p = fuse_ttir(ROTATE_HALF)
    assert _composites(out) == [("%arg0, %arg1, %arg2", "rotary_embedding_decomp_0")]
    assert op_names(_main(out)) == []
    assert "func.func private @rotary_embedding_decomp_0(" in out and "attributes {tt.composite_decomposition}" in out
    (d,) = p.decisions
    assert (d.pattern, d.applied, d.fused) == ("rope", True, "ttcore.composite")
    same_numbers(ROTATE_HALF, out)


@pytest.mark.parametrize("edit", [
    ('"ttir.add"(%xc, %rs)', '"ttir.add"(%rs, %xc)'),
    ('"ttir.multiply"(%x, %cb)', '"ttir.multiply"(%cb, %x)'),
    ('"ttir.multiply"(%rot, %sb)', '"ttir.multiply"(%sb, %rot)'),
], ids=["add", "cos-multiply", "sin-multiply"])  # fmt: skip
def test_commuted_operands_fuse_alike(edit: tuple[str, str]) -> None:
    text = ROTATE_HALF.replace(*edit)
    out, _ = fuse_ttir(text)
    assert len(_composites(out)) == 1 and op_names(_main(out)) == []
    same_numbers(text, out)


def test_x_behind_a_typecast_in_the_cos_branch_and_3d_tables_behind_a_reshape() -> None:
    t3 = "tensor<1x32x64xf32>"
    text = (ROTATE_HALF.replace(f"%cos: {C}", f"%cos: {t3}")
            .replace('%cb = "ttir.broadcast"(%cos)', f'%c4 = "ttir.reshape"(%cos) <{{shape = [1 : i32, 1 : i32, 32 : i32, 64 : i32]}}> : ({t3}) -> {C}\n    %cb = "ttir.broadcast"(%c4)')
            .replace('%xc = "ttir.multiply"(%x, %cb)', f'%xt = "ttir.typecast"(%x) : ({X}) -> {X}\n    %xc = "ttir.multiply"(%xt, %cb)'))  # fmt: skip
    out, _ = fuse_ttir(text)
    ((operands, _),) = _composites(out)
    assert operands.startswith("%arg0, %0, %arg2")  # x itself, cos reshaped to 4-D, sin unbroadcast
    assert op_names(_main(out)) == ["ttir.reshape"]
    same_numbers(text, out)


NO_MATCH = {
    "both halves negated": ('%rot = "ttir.concat"(%nh, %lo)', f'%nl = "ttir.neg"(%lo) : ({H}) -> {H}\n    %rot = "ttir.concat"(%nh, %nl)'),
    "halves swapped": ('%rot = "ttir.concat"(%nh, %lo)', f'%nl = "ttir.neg"(%lo) : ({H}) -> {H}\n    %rot = "ttir.concat"(%nl, %hi)'),
    "sin branch multiplies x": ('"ttir.multiply"(%rot, %sb)', '"ttir.multiply"(%x, %sb)'),
    "negative concat dim": ("<{dim = 3 : si32}>", "<{dim = -1 : si32}>"),
    "a middle slice, not a half": (SLICE.format(b=32, e=64), SLICE.format(b=16, e=48)),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NO_MATCH))
def test_forms_head_does_not_match_stay(name: str) -> None:
    text = ROTATE_HALF.replace(*NO_MATCH[name])
    assert text != ROTATE_HALF
    out, p = fuse_ttir(text)
    assert "ttcore.composite" not in out and "ttir.add" in out
    assert not any(d.applied for d in p.decisions)


def test_different_x_sources_stay() -> None:
    text = ROTATE_HALF.replace(f"%x: {X}, %cos", f"%x: {X}, %y: {X}, %cos").replace('"ttir.multiply"(%x, %cb)', '"ttir.multiply"(%y, %cb)')
    out, p = fuse_ttir(text)
    assert "ttcore.composite" not in out
    assert [(d.pattern, d.applied, d.reason) for d in p.decisions] == [("rope", False, "the cos multiply does not read the rotated x")]


@pytest.mark.parametrize(("reader", "value"), [("%rot", X), ("%xc", X), ("%nh", H)])
def test_an_intermediate_read_elsewhere_keeps_the_chain(reader: str, value: str) -> None:
    text = ROTATE_HALF.replace(f"-> {X} {{", f"-> ({X}, {value}) {{").replace(f"return %r : {X}", f"return %r, {reader} : {X}, {value}")
    out, p = fuse_ttir(text)
    assert "ttcore.composite" not in out
    assert [(d.applied, d.reason) for d in p.decisions] == [(False, "a multiply, the rotated concat or the neg has other readers")]


def test_a_3d_x_is_not_fused() -> None:
    x3, c3, h3 = "tensor<8x32x64xf32>", "tensor<1x32x64xf32>", "tensor<8x32x32xf32>"
    sl = '"ttir.slice_static"(%x) <{{begins = [0 : i32, 0 : i32, {b} : i32], ends = [8 : i32, 32 : i32, {e} : i32], step = [1 : i32, 1 : i32, 1 : i32]}}>'
    text = f"""module {{
  func.func @f(%x: {x3}, %cos: {c3}, %sin: {c3}) -> {x3} {{
    %xc = "ttir.multiply"(%x, %cos) : ({x3}, {c3}) -> {x3}
    %hi = {sl.format(b=32, e=64)} : ({x3}) -> {h3}
    %nh = "ttir.neg"(%hi) : ({h3}) -> {h3}
    %lo = {sl.format(b=0, e=32)} : ({x3}) -> {h3}
    %rot = "ttir.concat"(%nh, %lo) <{{dim = 2 : si32}}> : ({h3}, {h3}) -> {x3}
    %rs = "ttir.multiply"(%rot, %sin) : ({x3}, {c3}) -> {x3}
    %r = "ttir.add"(%xc, %rs) : ({x3}, {x3}) -> {x3}
    return %r : {x3}
  }}
}}
"""
    out, p = fuse_ttir(text)
    assert "ttcore.composite" not in out
    assert [d.reason for d in p.decisions] == ["x is 3-D, not 4-D"]


def test_fusing_again_leaves_the_decomposition_alone() -> None:
    once, _ = fuse_ttir(ROTATE_HALF)
    twice, p = fuse_ttir(once)
    assert twice == once and p.decisions == []


def test_decomposition_names_are_unique_in_the_file() -> None:
    taken = ROTATE_HALF.replace("  }\n}\n", f"  }}\n  func.func private @rotary_embedding_decomp_0(%a: {X}) -> {X} {{\n    return %a : {X}\n  }}\n}}\n")
    out, _ = fuse_ttir(taken)
    assert [n for _, n in _composites(out)] == ["rotary_embedding_decomp_1"]
    two = ROTATE_HALF.replace("-> {X} {{".format(X=X), f"-> ({X}, {X}) {{").replace(f"return %r : {X}", f'%r2 = "ttir.multiply"(%r, %r) : ({X}, {X}) -> {X}\n    return %r, %r2 : {X}, {X}')
    module = parse_module(two + two.replace("@f(", "@g("), "two.mlir")
    from ttopt.lowering.ttir_fusing import TTIRFusing

    TTIRFusing().run(module, PassContext())
    assert [n for _, n in _composites(print_module(module))] == ["rotary_embedding_decomp_0", "rotary_embedding_decomp_1"]


# -- expanded (complex rotation) -------------------------------------------------------------------
XE, TE, HE = "tensor<16x8x1x64xf32>", "tensor<1x1x1x32xf32>", "tensor<16x8x1x32xf32>"
SLICE_E = '"ttir.slice_static"(%x) <{{begins = [0 : i32, 0 : i32, 0 : i32, {b} : i32], ends = [16 : i32, 8 : i32, 1 : i32, {e} : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}>'
EXPANDED = f"""module {{
  func.func @f(%x: {XE}, %c: {TE}, %s: {TE}) -> {XE} {{
    %x1 = {SLICE_E.format(b=0, e=32)} : ({XE}) -> {HE}
    %x2 = {SLICE_E.format(b=32, e=64)} : ({XE}) -> {HE}
    %0 = "ttir.multiply"(%x1, %c) : ({HE}, {TE}) -> {HE}
    %1 = "ttir.multiply"(%s, %x2) : ({TE}, {HE}) -> {HE}
    %2 = "ttir.subtract"(%0, %1) : ({HE}, {HE}) -> {HE}
    %3 = "ttir.multiply"(%x2, %c) : ({HE}, {TE}) -> {HE}
    %4 = "ttir.multiply"(%x1, %s) : ({HE}, {TE}) -> {HE}
    %5 = "ttir.add"(%3, %4) : ({HE}, {HE}) -> {HE}
    %6 = "ttir.concat"(%2, %5) <{{dim = 3 : si32}}> : ({HE}, {HE}) -> {XE}
    return %6 : {XE}
  }}
}}
"""


def test_expanded_form_reads_the_tables_doubled_and_decomposes_as_a_complex_rotation() -> None:
    out, p = fuse_ttir(EXPANDED)
    main, decomposition = out.split("func.func private")
    assert op_names(main) == ["ttir.concat", "ttir.concat"]
    assert '"ttir.concat"(%arg1, %arg1) <{dim = 3 : si32}>' in main and '"ttir.concat"(%arg2, %arg2) <{dim = 3 : si32}>' in main
    assert _composites(out) == [("%arg0, %0, %1", "rotary_embedding_decomp_0")]
    assert op_names(decomposition).count("ttir.subtract") == 1 and "ttir.neg" not in decomposition
    assert [d.pattern for d in p.decisions] == ["rope_expanded"]
    same_numbers(EXPANDED, out)


@pytest.mark.parametrize(("edit", "reason"), [
    (('"ttir.multiply"(%x2, %c)', '"ttir.multiply"(%x2, %s)'), "the subtract and the add do not read the same cos and sin"),
    (('%2 = "ttir.subtract"(%0, %1)', '%2 = "ttir.subtract"(%1, %0)'), "the slices are not x1 * cos - x2 * sin, x2 * cos + x1 * sin on the last dimension's halves"),
    ((f"return %6 : {XE}", f'%7 = "ttir.multiply"(%0, %0) : ({HE}, {HE}) -> {HE}\n    return %6 : {XE}'), "the subtract, the add or a multiply has other readers"),
], ids=["tables", "halves", "uses"])  # fmt: skip
def test_expanded_preconditions(edit: tuple[str, str], reason: str) -> None:
    out, p = fuse_ttir(EXPANDED.replace(*edit))
    assert "ttcore.composite" not in out
    assert [(d.applied, d.reason) for d in p.decisions] == [(False, reason)]


# -- interleaved pairs -----------------------------------------------------------------------------
def _slice(src: str, src_t: str, out_t: str, begins: tuple[int, ...], ends: tuple[int, ...]) -> str:
    ints = lambda vs: "[" + ", ".join(f"{v} : i32" for v in vs) + "]"  # noqa: E731
    return (f'"ttir.slice_static"({src}) <{{begins = {ints(begins)}, ends = {ints(ends)}, step = {ints([1] * len(begins))}}}> '
            f": ({src_t}) -> {out_t}")  # fmt: skip


def _interleaved(pair_for_column0: int = 0, final: bool = True) -> str:
    """The interleaved-pair chain on x [1, 4, 2, 8] and freqs_cis [1, 4, 1, 4, 2, 2]."""
    x, x6, f6 = "tensor<1x4x2x8xf32>", "tensor<1x4x2x4x1x2xf32>", "tensor<1x4x1x4x2x2xf32>"
    b5, f5, x5 = "tensor<1x4x2x4x2xf32>", "tensor<1x4x1x4x2xf32>", "tensor<1x4x2x4x1xf32>"
    lines = [f'%x6 = "ttir.reshape"(%x) <{{shape = [1 : i32, 4 : i32, 2 : i32, 4 : i32, 1 : i32, 2 : i32]}}> : ({x}) -> {x6}']
    for c in (0, 1):
        p = c if pair_for_column0 == 0 else 1 - c
        lines += [
            f"%fs{c} = " + _slice("%freqs", f6, "tensor<1x4x1x4x2x1xf32>", (0, 0, 0, 0, 0, c), (1, 4, 1, 4, 2, c + 1)),
            f'%fr{c} = "ttir.reshape"(%fs{c}) <{{shape = [1 : i32, 4 : i32, 1 : i32, 4 : i32, 2 : i32]}}> : (tensor<1x4x1x4x2x1xf32>) -> {f5}',
            f'%fb{c} = "ttir.broadcast"(%fr{c}) <{{broadcast_dimensions = array<i64: 1, 1, 2, 1, 1>}}> : ({f5}) -> {b5}',
            f"%xs{c} = " + _slice("%x6", x6, "tensor<1x4x2x4x1x1xf32>", (0, 0, 0, 0, 0, p), (1, 4, 2, 4, 1, p + 1)),
            f'%xr{c} = "ttir.reshape"(%xs{c}) <{{shape = [1 : i32, 4 : i32, 2 : i32, 4 : i32, 1 : i32]}}> : (tensor<1x4x2x4x1x1xf32>) -> {x5}',
            f'%xb{c} = "ttir.broadcast"(%xr{c}) <{{broadcast_dimensions = array<i64: 1, 1, 1, 1, 2>}}> : ({x5}) -> {b5}',
            f'%m{c} = "ttir.multiply"(%fb{c}, %xb{c}) : ({b5}, {b5}) -> {b5}',
        ]
    lines.append(f'%sum = "ttir.add"(%m0, %m1) : ({b5}, {b5}) -> {b5}')
    if final:
        lines += [f'%r = "ttir.reshape"(%sum) <{{shape = [1 : i32, 4 : i32, 2 : i32, 8 : i32]}}> : ({b5}) -> {x}', f"return %r : {x}"]
    else:
        lines.append(f"return %sum : {b5}")
    body = "\n    ".join(lines)
    return f"module {{\n  func.func @f(%x: {x}, %freqs: {f6}) -> {x if final else b5} {{\n    {body}\n  }}\n}}\n"


def _rotations(rng: np.random.Generator) -> np.ndarray:
    """freqs_cis [1, 4, 1, 4, 2, 2]: per pair [[cos, -sin], [sin, cos]]."""
    theta = rng.uniform(-np.pi, np.pi, (1, 4, 1, 4))
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2).astype(np.float32)


def test_interleaved_pairs_become_a_composite_between_the_pair_permutations() -> None:
    text = _interleaved()
    out, p = fuse_ttir(text)
    main = _main(out)
    assert len(_composites(out)) == 1 and '"ttir.permute"' in main and "ttir.multiply" not in main
    assert '"ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32, 0 : i32, 1 : i32], ends = [1 : i32, 4 : i32, 2 : i32, 8 : i32], step = [1 : i32, 1 : i32, 1 : i32, 2 : i32]}>' in main
    # The composite reads freqs[..., 0, 0] and freqs[..., 1, 0] as slices of the column slices the
    # chain had; the slice fold makes each one slice of freqs.
    assert [d.pattern for d in p.decisions] == ["rope_interleaved", "fold_slices", "fold_slices"]
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((1, 4, 2, 8)).astype(np.float32), _rotations(rng)]
    a, b = parse_module(text, "a.mlir"), parse_module(out, "b.mlir")
    np.testing.assert_allclose(run(b, "f", args)[0], run(a, "f", args)[0], rtol=1e-5, atol=1e-6)


def test_interleaved_pairs_with_crossed_columns_or_no_reshape_back_stay() -> None:
    out, p = fuse_ttir(_interleaved(pair_for_column0=1))
    assert "ttcore.composite" not in out
    assert [d.reason for d in p.decisions] == ["the pair indices and freqs_cis columns are not (0, 0) and (1, 1)"]
    out, p = fuse_ttir(_interleaved(final=False))
    assert "ttcore.composite" not in out
    assert [d.reason for d in p.decisions] == ["the add's only reader is not a reshape back to x's shape"]


# -- through the backend pipeline ------------------------------------------------------------------
def _pipeline(text: str, options: str) -> str:
    from ttopt.passes.manager import PassManager
    from ttopt.passes.pipeline import instantiate, parse_pipeline

    spec = f"builtin.module(ttir-to-ttnn-backend-pipeline{{{options}}})"
    module = parse_module(text, "p.mlir")
    PassManager(instantiate(parse_pipeline(spec), spec), PassContext()).run(module)
    return print_module(module)


XD, CD, HD = "tensor<32x8x1x64xbf16>", "tensor<1x1x1x64xbf16>", "tensor<32x8x1x32xbf16>"
DECODE = f"""module {{
  func.func @f(%x: {XD}, %cos: {CD}, %sin: {CD}) -> tensor<1x32x8x64xbf16> {{
    %xc = "ttir.multiply"(%x, %cos) : ({XD}, {CD}) -> {XD}
    %hi = "ttir.slice_static"(%x) <{{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [32 : i32, 8 : i32, 1 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}> : ({XD}) -> {HD}
    %nh = "ttir.neg"(%hi) : ({HD}) -> {HD}
    %lo = "ttir.slice_static"(%x) <{{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [32 : i32, 8 : i32, 1 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}> : ({XD}) -> {HD}
    %rot = "ttir.concat"(%nh, %lo) <{{dim = 3 : si32}}> : ({HD}, {HD}) -> {XD}
    %rs = "ttir.multiply"(%rot, %sin) : ({XD}, {CD}) -> {XD}
    %r = "ttir.add"(%xc, %rs) : ({XD}, {XD}) -> {XD}
    %d = "ttir.reshape"(%r) <{{shape = [1 : i32, 32 : i32, 8 : i32, 64 : i32]}}> : ({XD}) -> tensor<1x32x8x64xbf16>
    return %d : tensor<1x32x8x64xbf16>
  }}
}}
"""


def test_decode_rope_stays_whole_through_erase_inverse_ops_and_runs_in_decode_mode() -> None:
    out = _pipeline(DECODE, "optimization-level=1")
    assert out.count('"ttnn.rotary_embedding"') == 1 and "token_index = 0 : ui32" in out
    assert '"ttnn.neg"' not in out and "ttcore.composite" not in out and "rotary_embedding_decomp" not in out


def test_force_promote_writes_the_typed_op() -> None:
    out = _pipeline(DECODE, "composite-resolution=force-promote")
    assert out.count('"ttnn.rotary_embedding"') == 1 and "rotary_embedding_decomp" not in out and '"ttnn.neg"' not in out
