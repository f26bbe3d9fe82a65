"""TTIR canonicalizations (tt-mlir's TTIR folders and patterns) through the `canonicalize` pass."""

from __future__ import annotations

import numpy as np
import pytest

import ttopt.lowering.ttir_canonicalize  # noqa: F401  (registers the TTIR set)
from ttopt.ir.printer import print_module
from ttopt.lowering.ttir_canonicalize.constants import round_float
from ttopt.parse.parser import parse_module
from ttopt.passes.canonicalize import Canonicalize
from ttopt.passes.context import PassContext

T = "tensor<4x8xf32>"


def _run(body: str, args: str = f"%a: {T}", result: str = T) -> tuple[str, dict]:
    m = parse_module(f"func.func @f({args}) -> {result} {{\n{body}\n}}\n")
    ctx = PassContext()
    Canonicalize().run(m, ctx)
    return print_module(m), ctx.stats["canonicalize"]


def _unary(name: str, src: str, dst: str, in_t: str = T, out_t: str = T) -> str:
    return f'  {dst} = "ttir.{name}"({src}) : ({in_t}) -> {out_t}'


def test_involution_pair_is_its_input_and_a_third_stays() -> None:
    out, fired = _run("\n".join([_unary("neg", "%a", "%0"), _unary("neg", "%0", "%1"), _unary("neg", "%1", "%2"), f"  return %2 : {T}"]))
    assert out.count('"ttir.neg"') == 1 and '"ttir.neg"(%arg0)' in out
    assert fired["ttir-involution"] == 1


def test_involution_needs_one_type_throughout() -> None:
    bf = "tensor<4x8xbf16>"
    out, _ = _run("\n".join([_unary("neg", "%a", "%0", T, bf), _unary("neg", "%0", "%1", bf, T), f"  return %1 : {T}"]))
    assert out.count('"ttir.neg"') == 2


def test_idempotent_op_of_itself_is_itself() -> None:
    out, _ = _run("\n".join([_unary("relu", "%a", "%0"), _unary("relu", "%0", "%1"), f"  return %1 : {T}"]))
    assert out.count('"ttir.relu"') == 1


def test_binary_idempotence_of_one_value() -> None:
    out, _ = _run(f'  %0 = "ttir.minimum"(%a, %a) : ({T}, {T}) -> {T}\n  return %0 : {T}')
    assert "ttir.minimum" not in out and "return %arg0" in out


def test_clamp_zero_six_is_relu6_and_chained_clamps_merge() -> None:
    out, fired = _run(
        f'  %0 = "ttir.clamp_scalar"(%a) <{{max = 0x7F800000 : f32, min = 0.000000e+00 : f32}}> : ({T}) -> {T}\n'
        f'  %1 = "ttir.clamp_scalar"(%0) <{{max = 6.000000e+00 : f32, min = 0xFF800000 : f32}}> : ({T}) -> {T}\n'
        f"  return %1 : {T}"
    )
    assert '"ttir.relu6"(%arg0)' in out and "clamp_scalar" not in out
    assert fired["ttir-merge-clamps"] == 1 and fired["ttir-clamp-to-relu6"] == 1


def test_clamp_with_a_shared_inner_clamp_stays() -> None:
    out, _ = _run(
        f'  %0 = "ttir.clamp_scalar"(%a) <{{max = 0x7F800000 : f32, min = 0.000000e+00 : f32}}> : ({T}) -> {T}\n'
        f'  %1 = "ttir.clamp_scalar"(%0) <{{max = 6.000000e+00 : f32, min = 0xFF800000 : f32}}> : ({T}) -> {T}\n'
        f'  %2 = "ttir.add"(%0, %1) : ({T}, {T}) -> {T}\n'
        f"  return %2 : {T}"
    )
    assert out.count("clamp_scalar") == 2 and "relu6" not in out


def test_clamp_tensor_of_constant_bounds_is_clamp_scalar() -> None:
    out, _ = _run(
        f'  %lo = "ttir.zeros"() <{{shape = array<i32: 4, 8>}}> : () -> {T}\n'
        f'  %hi = "ttir.full"() <{{fill_value = 6.000000e+00 : f32, shape = array<i32: 4, 8>}}> : () -> {T}\n'
        f'  %0 = "ttir.clamp_tensor"(%a, %lo, %hi) : ({T}, {T}, {T}) -> {T}\n'
        f"  return %0 : {T}"
    )
    # clamp_tensor -> clamp_scalar(0, 6) -> relu6; the bounds are dead and go.
    assert '"ttir.relu6"(%arg0)' in out and "ttir.full" not in out and "ttir.zeros" not in out


def test_neg_of_constants() -> None:
    out, _ = _run(
        '  %0 = "ttir.constant"() <{value = dense<[[1.0, -2.0]]> : tensor<1x2xf32>}> : () -> tensor<1x2xf32>\n'
        '  %1 = "ttir.neg"(%0) : (tensor<1x2xf32>) -> tensor<1x2xf32>\n'
        "  return %1 : tensor<1x2xf32>",
        args="",
        result="tensor<1x2xf32>",
    )
    assert "ttir.neg" not in out and "dense<[[-1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>" in out


def test_neg_of_a_full_is_a_full_and_of_minus_one_is_ones() -> None:
    out, _ = _run(
        f'  %0 = "ttir.full"() <{{fill_value = -1.000000e+00 : f32, shape = array<i32: 4, 8>}}> : () -> {T}\n'
        f'  %1 = "ttir.neg"(%0) : ({T}) -> {T}\n'
        f"  return %1 : {T}",
        args="",
    )
    assert '"ttir.ones"() <{shape = array<i32: 4, 8>}>' in out and "ttir.neg" not in out


def test_splat_constant_becomes_full_but_not_one_a_full_cannot_hold() -> None:
    out, _ = _run(
        '  %0 = "ttir.constant"() <{value = dense<3.0> : tensor<2xf32>}> : () -> tensor<2xf32>\n'
        '  %1 = "ttir.constant"() <{value = dense<9223372036854775807> : tensor<2xi64>}> : () -> tensor<2xi64>\n'
        "  return %0, %1 : tensor<2xf32>, tensor<2xi64>",
        args="",
        result="(tensor<2xf32>, tensor<2xi64>)",
    )
    assert '"ttir.full"() <{fill_value = 3.000000e+00 : f32, shape = array<i32: 2>}>' in out
    assert "dense<9223372036854775807>" in out


def test_permutes_compose_and_transpose_pairs_vanish() -> None:
    out, _ = _run(
        '  %0 = "ttir.transpose"(%a) <{dim0 = 0 : si32, dim1 = 1 : si32}> : (tensor<4x8xf32>) -> tensor<8x4xf32>\n'
        '  %1 = "ttir.transpose"(%0) <{dim0 = -1 : si32, dim1 = -2 : si32}> : (tensor<8x4xf32>) -> tensor<4x8xf32>\n'
        f"  return %1 : {T}"
    )
    assert "transpose" not in out and "permute" not in out and "return %arg0" in out


def test_reshape_chain_and_identity_reshape() -> None:
    out, _ = _run(
        '  %0 = "ttir.reshape"(%a) <{shape = [32 : i32]}> : (tensor<4x8xf32>) -> tensor<32xf32>\n'
        '  %1 = "ttir.reshape"(%0) <{shape = [4 : i32, 8 : i32]}> : (tensor<32xf32>) -> tensor<4x8xf32>\n'
        f"  return %1 : {T}"
    )
    assert "reshape" not in out


def test_repeat_of_a_shared_repeat_stays_and_unit_repeat_goes() -> None:
    out, _ = _run(
        '  %0 = "ttir.repeat"(%a) <{repeat_dimensions = array<i64: 2, 1>}> : (tensor<4x8xf32>) -> tensor<8x8xf32>\n'
        '  %1 = "ttir.repeat"(%0) <{repeat_dimensions = array<i64: 1, 2>}> : (tensor<8x8xf32>) -> tensor<8x16xf32>\n'
        '  %2 = "ttir.repeat"(%a) <{repeat_dimensions = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
        "  return %0, %1, %2 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<4x8xf32>",
        result="(tensor<8x8xf32>, tensor<8x16xf32>, tensor<4x8xf32>)",
    )
    assert out.count('"ttir.repeat"') == 2 and "return %0, %1, %arg0" in out


def test_where_of_a_constant_condition_selects() -> None:
    out, _ = _run(
        f'  %c = "ttir.zeros"() <{{shape = array<i32: 4, 8>}}> : () -> {T}\n'
        f'  %0 = "ttir.where"(%c, %a, %b) : ({T}, {T}, {T}) -> {T}\n'
        f"  return %0 : {T}",
        args=f"%a: {T}, %b: {T}",
    )
    assert "ttir.where" not in out and "return %arg1" in out


def test_less_than_becomes_greater_than_swapped() -> None:
    out, _ = _run(f'  %0 = "ttir.lt"(%a, %b) : ({T}, {T}) -> {T}\n  return %0 : {T}', args=f"%a: {T}, %b: {T}")
    assert '"ttir.gt"(%arg1, %arg0)' in out


def test_typecast_of_constant_and_out_of_range_cast() -> None:
    out, _ = _run(
        '  %0 = "ttir.constant"() <{value = dense<[1.7, -2.3]> : tensor<2xf32>}> : () -> tensor<2xf32>\n'
        '  %1 = "ttir.typecast"(%0) : (tensor<2xf32>) -> tensor<2xsi8>\n'
        '  %2 = "ttir.constant"() <{value = dense<[128.0, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>\n'
        '  %3 = "ttir.typecast"(%2) : (tensor<2xf32>) -> tensor<2xsi8>\n'
        "  return %1, %3 : tensor<2xsi8>, tensor<2xsi8>",
        args="",
        result="(tensor<2xsi8>, tensor<2xsi8>)",
    )
    assert "dense<[1, -2]> : tensor<2xsi8>" in out and out.count('"ttir.typecast"') == 1


def test_binary_fold_of_bf16_constants_rounds_to_bf16() -> None:
    bf = "tensor<2xbf16>"
    out, _ = _run(
        f'  %0 = "ttir.constant"() <{{value = dense<[200.15, 1.0]> : {bf}}}> : () -> {bf}\n'
        f'  %1 = "ttir.constant"() <{{value = dense<[-0.55, 2.0]> : {bf}}}> : () -> {bf}\n'
        f'  %2 = "ttir.add"(%0, %1) : ({bf}, {bf}) -> {bf}\n'
        f"  return %2 : {bf}",
        args="",
        result=bf,
    )
    assert "ttir.add" not in out
    # 200.15 is 200 in bf16, -0.55 is -0.55078125; their sum 199.449 rounds to 199 (bf16 steps by 1 there).
    assert "dense<[1.990000e+02, 3.000000e+00]> : tensor<2xbf16>" in out


def test_a_side_effecting_or_unknown_reader_keeps_the_value() -> None:
    out, _ = _run(
        "\n".join([_unary("relu", "%a", "%0"), _unary("relu", "%0", "%1"),
                   f'  "my.sink"(%0) : ({T}) -> ()', f"  return %1 : {T}"])  # fmt: skip
    )
    assert '"my.sink"(%0)' in out and "return %0" in out


@pytest.mark.parametrize(("value", "element", "expected"), [(200.15, "bf16", 200.0), (1.0 + 2**-9, "bf16", 1.0), (0.1, "f32", 0.10000000149011612)])
def test_round_float(value: float, element: str, expected: float) -> None:
    assert round_float(value, element) == expected


def test_concat_drops_empty_inputs_and_one_input_concat_goes() -> None:
    out, _ = _run(
        '  %0 = "ttir.concat"(%a, %e, %a) <{dim = 1 : si32}> : (tensor<4x8xf32>, tensor<4x0xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>\n'
        '  %1 = "ttir.concat"(%a) <{dim = 0 : si32}> : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
        "  return %0, %1 : tensor<4x16xf32>, tensor<4x8xf32>",
        args=f"%a: {T}, %e: tensor<4x0xf32>",
        result="(tensor<4x16xf32>, tensor<4x8xf32>)",
    )
    assert '"ttir.concat"(%arg0, %arg0)' in out and "return %0, %arg0" in out


def test_reverse_pair_keeps_the_dimensions_reversed_once() -> None:
    out, _ = _run(
        f'  %0 = "ttir.reverse"(%a) <{{dimensions = array<i64: 0, 1>}}> : ({T}) -> {T}\n'
        f'  %1 = "ttir.reverse"(%0) <{{dimensions = array<i64: 1>}}> : ({T}) -> {T}\n'
        f"  return %1 : {T}"
    )
    assert out.count('"ttir.reverse"') == 1 and "dimensions = array<i64: 0>" in out


def test_unit_pool_is_its_input() -> None:
    x = "tensor<1x8x8x4xf32>"
    out, _ = _run(
        f'  %0 = "ttir.max_pool2d"(%a) <{{kernel = array<i32: 1, 1>, stride = array<i32: 1, 1>, dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 0, 0>, ceil_mode = false}}> : ({x}) -> {x}\n'
        f"  return %0 : {x}",
        args=f"%a: {x}",
        result=x,
    )
    assert "max_pool2d" not in out and "return %arg0" in out


def test_prod_of_a_comparison_is_min_and_sum_of_a_splat_is_a_full() -> None:
    out, _ = _run(
        f'  %0 = "ttir.eq"(%a, %b) : ({T}, {T}) -> {T}\n'
        '  %1 = "ttir.prod"(%0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<4xf32>\n'
        f'  %2 = "ttir.full"() <{{fill_value = 2.500000e+00 : f32, shape = array<i32: 4, 8>}}> : () -> {T}\n'
        '  %3 = "ttir.sum"(%2) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x8xf32>) -> tensor<4xf32>\n'
        "  return %1, %3 : tensor<4xf32>, tensor<4xf32>",
        args=f"%a: {T}, %b: {T}",
        result="(tensor<4xf32>, tensor<4xf32>)",
    )
    assert '"ttir.min"(%0) <{dim_arg = [1 : i32], keep_dim = false}>' in out and "ttir.prod" not in out
    assert "fill_value = 2.000000e+01 : f32, shape = array<i32: 4>" in out and "ttir.sum" not in out


def test_linear_without_bias_is_matmul() -> None:
    out, _ = _run(
        '  %0 = "ttir.linear"(%a, %b) <{transpose_b = true}> : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>\n'
        "  return %0 : tensor<4x16xf32>",
        args=f"%a: {T}, %b: tensor<16x8xf32>",
        result="tensor<4x16xf32>",
    )
    assert '"ttir.matmul"(%arg0, %arg1) <{transpose_b = true}>' in out


def test_embedding_indices_lose_their_unit_dimensions() -> None:
    out, _ = _run(
        '  %0 = "ttir.reshape"(%i) <{shape = [4 : i32, 1 : i32]}> : (tensor<4xi32>) -> tensor<4x1xi32>\n'
        '  %1 = "ttir.embedding"(%0, %w) : (tensor<4x1xi32>, tensor<10x8xf32>) -> tensor<4x1x8xf32>\n'
        '  %2 = "ttir.reshape"(%1) <{shape = [4 : i32, 8 : i32]}> : (tensor<4x1x8xf32>) -> tensor<4x8xf32>\n'
        "  return %2 : tensor<4x8xf32>",
        args="%i: tensor<4xi32>, %w: tensor<10x8xf32>",
        result="tensor<4x8xf32>",
    )
    assert "ttir.reshape" not in out and '"ttir.embedding"(%arg0, %arg1) : (tensor<4xi32>, tensor<10x8xf32>) -> tensor<4x8xf32>' in out


def _values(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    from ttopt.testing.ttir_interpreter import run

    return [np.asarray(v) for v in run(parse_module(text), "f", args)]


def test_a_slice_of_a_slice_counts_negative_bounds_from_each_slices_own_input() -> None:
    body = ('  %0 = "ttir.slice_static"(%a) <{begins = [0 : i32], ends = [8 : i32], step = [1 : i32]}> : (tensor<16xf32>) -> tensor<8xf32>\n'
            '  %1 = "ttir.slice_static"(%0) <{begins = [-4 : i32], ends = [-1 : i32], step = [1 : i32]}> : (tensor<8xf32>) -> tensor<3xf32>\n'
            '  return %1 : tensor<3xf32>')  # fmt: skip
    src = f"func.func @f(%a: tensor<16xf32>) -> tensor<3xf32> {{\n{body}\n}}\n"
    out, _ = _run(body, "%a: tensor<16xf32>", "tensor<3xf32>")
    assert out.count("ttir.slice_static") == 1 and "begins = [4 : i32], ends = [7 : i32]" in out
    x = np.arange(16, dtype=np.float32)
    assert _values(out, [x])[0].tolist() == _values(src, [x])[0].tolist() == [4.0, 5.0, 6.0]


def test_an_integer_clamp_bound_past_the_type_saturates_instead_of_wrapping() -> None:
    body = ('  %c = "ttir.constant"() <{value = dense<[-5, 0, 7, 100]> : tensor<4xi32>}> : () -> tensor<4xi32>\n'
            '  %0 = "ttir.clamp_scalar"(%c) <{max = 2.14748365E+9 : f32, min = 0.000000e+00 : f32}> : (tensor<4xi32>) -> tensor<4xi32>\n'
            '  return %0 : tensor<4xi32>')  # fmt: skip
    out, _ = _run(body, "", "tensor<4xi32>")
    assert "dense<[0, 0, 7, 100]>" in out


def test_clamps_of_disjoint_ranges_do_not_merge() -> None:
    """clamp(clamp(x, 0, 1), 5, 10) is 5 everywhere; clamp(x, 5, 1) would be 1."""
    body = ('  %0 = "ttir.clamp_scalar"(%a) <{max = 1.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
            '  %1 = "ttir.clamp_scalar"(%0) <{max = 1.000000e+01 : f32, min = 5.000000e+00 : f32}> : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
            '  return %1 : tensor<4x8xf32>')  # fmt: skip
    out, _ = _run(body)
    assert out.count("ttir.clamp_scalar") == 2


def test_reverses_of_one_dim_spelled_negative_and_positive_cancel() -> None:
    body = ('  %0 = "ttir.reverse"(%a) <{dimensions = array<i64: -1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
            '  %1 = "ttir.reverse"(%0) <{dimensions = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>\n'
            '  return %1 : tensor<4x8xf32>')  # fmt: skip
    out, _ = _run(body)
    assert "ttir.reverse" not in out or "dimensions = array<i64>" in out
