"""ttir-fusing's conv rewrites from HEAD: a zero pad folded into conv3d's padding (PadConv3d), and a
3x3 + 1x1 conv pair of one input summed into one 3x3 conv (RepVGG); their failed preconditions with
reasons, the cost gate, and the numbers kept (reference interpreter)."""

from __future__ import annotations

from ttopt.ir.printer import PrintOptions, print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.ttir_fusing import TTIRFusing
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.ttir_fusing_runs import op_names, same_numbers


def _fuse(text: str, **options: object) -> tuple[str, list[str]]:
    """The fused text and the trace lines."""
    module = parse_module(text, "f.mlir")
    p = TTIRFusing(**options)
    p.run(module, PassContext())
    verify(module, check_uses=True)
    return print_module(module, PrintOptions(debuginfo=True)), [d.line() for d in p.decisions]


def _same_numbers(before: str, after: str) -> None:
    same_numbers(before, after, atol=1e-4, decomposed=True)


X5, P5, W5 = "tensor<1x4x6x6x8xbf16>", "tensor<1x4x8x8x8xbf16>", "tensor<8x8x3x3x3xbf16>"


def _pad_conv3d(padding: str = "0, 0, 0, 0, 1, 1, 1, 1, 0, 0", value: str = "0.000000e+00", mode: str = "zeros", out: str = "tensor<1x2x6x6x8xbf16>") -> str:
    return f"""module {{
  func.func @f(%x: {X5}, %w: {W5}) -> {out} {{
    %0 = "ttir.pad"(%x) <{{padding = array<i32: {padding}>, value = {value} : f32}}> : ({X5}) -> {P5}
    %1 = "ttir.conv3d"(%0, %w) <{{groups = 1 : i32, padding = array<i32: 0, 0, 0>, padding_mode = "{mode}", stride = array<i32: 1, 1, 1>}}> : ({P5}, {W5}) -> {out} loc("c3")
    return %1 : {out}
  }}
}}
"""


def test_a_zero_spatial_pad_becomes_the_conv3d_padding() -> None:
    out, trace = _fuse(_pad_conv3d())
    assert op_names(out) == ["ttir.conv3d"]
    assert '"ttir.conv3d"(%arg0, %arg1) <{groups = 1 : i32, padding = array<i32: 0, 1, 1>, padding_mode = "zeros"' in out
    assert 'loc("c3")' in out  # the conv keeps its location
    assert "pad_conv3d at \"c3\": [green]applied" in trace[0]


def test_a_channels_first_conv3d_reads_its_pad_through_the_channel_last_permute() -> None:
    # NCDHW, as HEAD's lit tests write it: ttir-to-ttir-decomposition permutes it to NDHWC first.
    text = """module {
  func.func @f(%x: tensor<1x8x4x6x6xbf16>, %w: tensor<8x8x3x3x3xbf16>) -> tensor<1x8x4x6x6xbf16> {
    %0 = "ttir.pad"(%x) <{padding = array<i32: 0, 0, 0, 0, 1, 1, 1, 1, 1, 1>, value = 0.000000e+00 : f32}> : (tensor<1x8x4x6x6xbf16>) -> tensor<1x8x6x8x8xbf16>
    %1 = "ttir.conv3d"(%0, %w) <{batch_dim = 0 : i64, channel_dim = 1 : i64, depth_dim = 2 : i64, groups = 1 : i32, height_dim = 3 : i64, padding = array<i32: 0, 0, 0>, padding_mode = "zeros", stride = array<i32: 1, 1, 1>, width_dim = 4 : i64}> : (tensor<1x8x6x8x8xbf16>, tensor<8x8x3x3x3xbf16>) -> tensor<1x8x4x6x6xbf16>
    return %1 : tensor<1x8x4x6x6xbf16>
  }
}
"""
    out, _ = _fuse(text)
    assert op_names(out) == ["ttir.permute", "ttir.conv3d", "ttir.permute"]
    assert '"ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 4, 1>}> : (tensor<1x8x4x6x6xbf16>) -> tensor<1x4x6x6x8xbf16>' in out
    assert "padding = array<i32: 1, 1, 1>" in out


def test_pads_conv3d_cannot_absorb_stay_with_their_reasons() -> None:
    cases = {
        "the pad is not symmetric": _pad_conv3d(padding="0, 0, 0, 0, 2, 0, 1, 1, 0, 0", out="tensor<1x2x6x6x8xbf16>"),
        "the pad value is not 0": _pad_conv3d(value="1.000000e+00"),
        "the pad pads the batch or channel dimension": _pad_conv3d(padding="0, 0, 0, 0, 1, 1, 0, 0, 1, 1").replace("tensor<1x4x6x6x8xbf16>", "tensor<1x4x6x8x6xbf16>"),
        'the conv pads in mode "replicate", not "zeros"': _pad_conv3d(mode="replicate"),
    }
    for reason, text in cases.items():
        out, trace = _fuse(text)
        assert "ttir.pad" in out, reason
        assert any(reason in line for line in trace), (reason, trace)


def test_a_pad_read_elsewhere_stays() -> None:
    text = _pad_conv3d().replace("    return %1 : tensor<1x2x6x6x8xbf16>", f'    %2 = "ttir.abs"(%0) : ({P5}) -> {P5}\n    return %1 : tensor<1x2x6x6x8xbf16>')
    out, trace = _fuse(text)
    assert "ttir.pad" in out and any("the pad has other users" in line for line in trace)


def _repvgg(w3: str = "%w3", order: tuple[str, str] = ("%0", "%1"), kind: str = "parameter", second_input: str = "%x") -> str:
    arg = f"{{ttcore.argument_type = #ttcore.argument_type<{kind}>}}"
    return f"""module {{
  func.func @f(%x: tensor<1x8x8x4xf32>, %y: tensor<1x8x8x4xf32>, %w3: tensor<6x4x3x3xf32> {arg}, %b3: tensor<1x1x1x6xf32> {arg},
               %w1: tensor<6x4x1x1xf32> {arg}, %b1: tensor<1x1x1x6xf32> {arg}) -> tensor<1x8x8x6xf32> {{
    %0 = "ttir.conv2d"(%x, {w3}, %b3) <{{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 1, 1>}}> : (tensor<1x8x8x4xf32>, tensor<6x4x3x3xf32>, tensor<1x1x1x6xf32>) -> tensor<1x8x8x6xf32> loc("big")
    %1 = "ttir.conv2d"({second_input}, %w1, %b1) <{{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 0, 0, 0, 0>, stride = array<i32: 1, 1>}}> : (tensor<1x8x8x4xf32>, tensor<6x4x1x1xf32>, tensor<1x1x1x6xf32>) -> tensor<1x8x8x6xf32> loc("small")
    %2 = "ttir.add"({order[0]}, {order[1]}) : (tensor<1x8x8x6xf32>, tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
    return %2 : tensor<1x8x8x6xf32>
  }}
}}
"""


def test_a_3x3_and_a_1x1_conv_of_one_input_become_one_conv() -> None:
    for order in (("%0", "%1"), ("%1", "%0")):
        text = _repvgg(order=order)
        out, trace = _fuse(text)
        assert op_names(out) == ["ttir.pad", "ttir.add", "ttir.add", "ttir.conv2d"], order
        assert '"ttir.pad"(%arg4) <{padding = array<i32: 0, 0, 0, 0, 1, 1, 1, 1>, value = 0.000000e+00 : f32}> : (tensor<6x4x1x1xf32>) -> tensor<6x4x3x3xf32> loc("small_pad"' in out
        assert '"ttir.add"(%0, %arg2)' in out and 'loc("big_weight_add"' in out
        assert '"ttir.add"(%arg3, %arg5)' in out and 'loc("big_bias_add"' in out
        assert "padding = array<i32: 1, 1, 1, 1>" in out and 'loc("big")' in out
        assert any("repvgg_conv_sum" in line and "applied" in line for line in trace)
        _same_numbers(text, out)


def test_the_repvgg_sum_is_cost_gated_when_the_weights_are_computed_per_run() -> None:
    # Weights that are not parameters: the pad and the sum of 128x128x3x3 weights (a tile per
    # 3x3) run every time, estimated slower than the 1x1 conv and the add they replace.
    text = (_repvgg().replace(" {ttcore.argument_type = #ttcore.argument_type<parameter>}", "").replace("6x4x", "128x128x")
            .replace("1x1x1x6x", "1x1x1x128x").replace("1x8x8x4x", "1x1x400x128x").replace("1x8x8x6x", "1x1x400x128x"))  # fmt: skip
    out, trace = _fuse(text)
    assert op_names(out).count("ttir.conv2d") == 2
    assert any("repvgg_conv_sum" in line and "the fused op is estimated slower" in line for line in trace)
    out, _ = _fuse(text, cost_check=False)
    assert op_names(out).count("ttir.conv2d") == 1


def test_conv_pairs_that_are_not_repvgg_stay() -> None:
    out, trace = _fuse(_repvgg(second_input="%y"))
    assert op_names(out).count("ttir.conv2d") == 2 and any("the convs have different inputs" in line for line in trace)
    # two 3x3 convs: not a 3x3 / 1x1 pair (reading %w3 twice keeps every shape valid)
    text = _repvgg().replace('%1 = "ttir.conv2d"(%x, %w1, %b1) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 0, 0, 0, 0>',
                             '%1 = "ttir.conv2d"(%x, %w3, %b1) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>').replace(
        "(tensor<1x8x8x4xf32>, tensor<6x4x1x1xf32>, tensor<1x1x1x6xf32>)", "(tensor<1x8x8x4xf32>, tensor<6x4x3x3xf32>, tensor<1x1x1x6xf32>)")  # fmt: skip
    out, trace = _fuse(text)
    assert op_names(out).count("ttir.conv2d") == 2 and any("not a 3x3 conv with padding 1" in line for line in trace)


def test_channels_first_repvgg_convs_are_read_through_their_permutes() -> None:
    arg = "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
    conv = ('"ttir.conv2d"(%x, {w}, {b}) <{{batch_dim = 0 : i64, channel_dim = 1 : i64, dilation = array<i32: 1, 1>, groups = 1 : i32, height_dim = 2 : i64, '
            'padding = array<i32: {p}, {p}, {p}, {p}>, stride = array<i32: 1, 1>, width_dim = 3 : i64}}> : (tensor<1x4x8x8xf32>, {wt}, tensor<1x6x1x1xf32>) -> tensor<1x6x8x8xf32>')  # fmt: skip
    text = f"""module {{
  func.func @f(%x: tensor<1x4x8x8xf32>, %w3: tensor<6x4x3x3xf32> {arg}, %b3: tensor<1x6x1x1xf32> {arg}, %w1: tensor<6x4x1x1xf32> {arg}, %b1: tensor<1x6x1x1xf32> {arg}) -> tensor<1x6x8x8xf32> {{
    %0 = {conv.format(w="%w3", b="%b3", p=1, wt="tensor<6x4x3x3xf32>")}
    %1 = {conv.format(w="%w1", b="%b1", p=0, wt="tensor<6x4x1x1xf32>")}
    %2 = "ttir.add"(%0, %1) : (tensor<1x6x8x8xf32>, tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
    return %2 : tensor<1x6x8x8xf32>
  }}
}}
"""
    out, _ = _fuse(text)
    names = op_names(out)
    assert names.count("ttir.conv2d") == 1 and "ttir.add" in names and names[-1] == "ttir.permute"
    _same_numbers(text, out)
