"""convert-cpu-module-to-llvm: each TTIR op of a CPU module computes, once lowered to the LLVM
dialect and run by ttopt/testing/llvm_interpreter.py (directly and through its `_helper`), what the
TTIR interpreter computes; inputs come with any strides and offset; the module prints and reads back;
real MLIR (jaxlib) accepts it."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.ir.module import Module
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.lowering.cpu_llvm.lowerable import lowerable, why_not
from ttopt.parse.parser import parse_module
from ttopt.testing.cpu_llvm_runs import in_cpu_module, inner_module, lower, lowered_text, same_numbers
from ttopt.testing.fuzz import run_opt
from ttopt.testing.llvm_interpreter import LLVMInterpreter

RNG = np.random.default_rng(7)


def t(shape: tuple[int, ...], el: str = "f32") -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{el}>"


def func(args: list[str], body: list[str], results: list[str], ranks: bool = True) -> str:
    """`@f(args) -> results` with `body` (ops numbered %0.., the last line's values returned)."""
    params = ", ".join(f"%arg{i}: {a}" for i, a in enumerate(args))
    attrs = ""
    if ranks:
        ar = ", ".join(str(a.count("x")) for a in args)
        rr = ", ".join(str(r.count("x")) for r in results)
        attrs = f' attributes {{arg_ranks = [{ar}], result_ranks = [{rr}], tt.function_type = "forward_cpu"}}'
    res = results[0] if len(results) == 1 else "(" + ", ".join(results) + ")"
    return f"func.func @f({params}) -> {res}{attrs} {{\n" + "\n".join("  " + line for line in body) + "\n}"


def one_op(op: str, ins: list[str], out: str, props: str = "") -> str:
    operands = ", ".join(f"%arg{i}" for i in range(len(ins)))
    p = f" <{{{props}}}>" if props else ""
    return func(ins, [f'%0 = "{op}"({operands}){p} : ({", ".join(ins)}) -> {out}', f"return %0 : {out}"], [out])


def f32(*shape: int, lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    return RNG.uniform(lo, hi, shape).astype(np.float32)


def i32(*shape: int, lo: int = -9, hi: int = 10) -> np.ndarray:
    return RNG.integers(lo, hi, shape).astype(np.int32)


def strided(a: np.ndarray) -> np.ndarray:
    """`a`'s values as a view with offset and non-unit, reversed strides (a transposed, sliced buffer)."""
    big = np.zeros(tuple(2 * d + 1 for d in reversed(a.shape)), a.dtype)
    view = big[tuple(slice(1, None, 2) for _ in a.shape)].transpose(tuple(reversed(range(a.ndim))))
    view[...] = a
    assert not view.flags["C_CONTIGUOUS"] or a.size <= 1
    return view


# ---- elementwise ------------------------------------------------------------------------------------
FLOAT_UNARY = ["neg", "abs", "exp", "log", "sqrt", "rsqrt", "reciprocal", "relu", "sigmoid", "tanh", "floor", "ceil", "sin", "cos", "tan", "sign"]


@pytest.mark.parametrize("op", FLOAT_UNARY)
def test_float_unary(op: str) -> None:
    positive = op in ("log", "sqrt", "rsqrt")
    x = f32(2, 3, lo=0.1 if positive else -3.0, hi=3.0)
    if op == "sign":
        x[0, 0] = 0.0
    same_numbers(one_op(f"ttir.{op}", [t((2, 3))], t((2, 3))), [strided(x)])


def test_sign_is_heads_select_chain() -> None:
    """select(x == 0, 0, select(x > 0, 1, -1)): NaN is -1 on HEAD's host (numpy keeps NaN), -0.0 is +0.0."""
    x = np.array([np.nan, -0.0, 0.0, -2.0, 3.0, -np.inf], np.float32)
    got = same_numbers(one_op("ttir.sign", [t((6,))], t((6,))), [x], want=[np.array([-1, 0, 0, -1, 1, -1], np.float32)])[0]
    assert not np.signbit(got[1])


@pytest.mark.parametrize("op", ["neg", "abs", "relu", "sign"])
def test_int_unary(op: str) -> None:
    same_numbers(one_op(f"ttir.{op}", [t((3, 4), "i32")], t((3, 4), "i32")), [i32(3, 4)])


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "div", "maximum", "minimum", "pow", "remainder"])
def test_float_binary_broadcasting(op: str) -> None:
    a, b = f32(2, 3, lo=0.5, hi=3.0), f32(1, 3, lo=0.5, hi=3.0)
    same_numbers(one_op(f"ttir.{op}", [t((2, 3)), t((1, 3))], t((2, 3))), [strided(a), b], rtol=1e-5)


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "div", "maximum", "minimum", "remainder"])
def test_int_binary(op: str) -> None:
    a, b = i32(4, 5), i32(4, 5)
    b[0, :2] = 0  # x / 0 and x % 0 are 0 (the reference interpreter's answer), not undefined
    want = None
    if op == "remainder":  # HEAD's host remainder has the divisor's sign; the interpreter's the dividend's
        want = [np.where(b == 0, 0, np.mod(a, np.where(b == 0, 1, b))).astype(np.int32)]
    with np.errstate(all="ignore"):
        same_numbers(one_op(f"ttir.{op}", [t((4, 5), "i32"), t((4, 5), "i32")], t((4, 5), "i32")), [a, b], want=want)


@pytest.mark.parametrize("op", ["eq", "ne", "gt", "ge", "lt", "le"])
@pytest.mark.parametrize("operand,result", [("f32", "i1"), ("f32", "f32"), ("i32", "i1"), ("i32", "i32")])
def test_comparisons(op: str, operand: str, result: str) -> None:
    a = f32(3, 4) if operand == "f32" else i32(3, 4, lo=-2, hi=3)
    b = a.copy()
    b[1] = (f32(4) if operand == "f32" else i32(4, lo=-2, hi=3))
    if operand == "f32":
        a[2, 0] = np.nan  # unordered: only ne holds
    same_numbers(one_op(f"ttir.{op}", [t((3, 4), operand)] * 2, t((3, 4), result)), [a, b])


@pytest.mark.parametrize("cond", ["i1", "f32", "i32"])
def test_where(cond: str) -> None:
    c = RNG.integers(0, 2, (2, 4))
    c_arr = c.astype({"i1": np.bool_, "f32": np.float32, "i32": np.int32}[cond])
    same_numbers(one_op("ttir.where", [t((2, 4), cond), t((2, 4)), t((1, 4))], t((2, 4))), [c_arr, f32(2, 4), f32(1, 4)])


@pytest.mark.parametrize("src,dst", [("f32", "i32"), ("i32", "f32"), ("f32", "i1"), ("i1", "f32"), ("i1", "i32"), ("i32", "i1"), ("f32", "f32")])
def test_typecast(src: str, dst: str) -> None:
    x = {"f32": f32(3, 3, lo=-5, hi=5), "i32": i32(3, 3, lo=-2, hi=3), "i1": RNG.integers(0, 2, (3, 3)).astype(np.bool_)}[src]
    if src == "f32":
        x[0, 0] = 0.0
    want = [np.rint(x).astype(np.int32)] if (src, dst) == ("f32", "i32") else None  # HEAD's tosa.cast rounds
    same_numbers(one_op("ttir.typecast", [t((3, 3), src)], t((3, 3), dst)), [strided(x)], want=want)


def test_float_to_int_rounds_half_to_even_and_saturates_as_heads_tosa_cast() -> None:
    x = np.array([2.5, 3.5, -2.5, -0.6, 1.4, 3e9, -3e9, 2.0**31, np.nan, np.inf, -np.inf, 7.0], np.float32)
    want = np.array([2, 4, -2, -1, 1, 2**31 - 1, -(2**31), 2**31 - 1, 2**31 - 1, 2**31 - 1, -(2**31), 7], np.int32)
    same_numbers(one_op("ttir.typecast", [t((12,))], t((12,), "i32")), [x], want=[want])


@pytest.mark.parametrize("el", ["f32", "i32"])
def test_remainder_takes_the_divisors_sign_as_heads_host_lowering(el: str) -> None:
    a = np.array([17, -17, 17, -17, 6, -6, 0, 5], {"f32": np.float32, "i32": np.int32}[el])
    b = np.array([3, 3, -3, -3, 3, -3, 4, 0], a.dtype)
    want = np.array([2, 1, -1, -2, 0, 0, 0, 0], a.dtype)  # Python's `%` (x % 0 is 0 for i32)
    if el == "f32":
        a, b, want = a[:7], b[:7], want[:7]
    same_numbers(one_op("ttir.remainder", [t(a.shape, el), t(b.shape, el)], t(a.shape, el)), [a, b], want=[want])


# ---- creation ------------------------------------------------------------------------------------------
def test_constants_splat_and_dense_become_stores_and_a_global() -> None:
    body = [
        '%0 = "ttir.constant"() <{value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>',
        '%1 = "ttir.constant"() <{value = dense<2.5> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>',
        '%2 = "ttir.multiply"(%arg0, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>',
        '%3 = "ttir.add"(%2, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>',
        '%4 = "ttir.constant"() <{value = dense<[true, false, true]> : tensor<3xi1>}> : () -> tensor<3xi1>',
        '%5 = "ttir.constant"() <{value = dense<[7]> : tensor<1xi32>}> : () -> tensor<1xi32>',
        "return %3, %4, %5, %0 : tensor<2x3xf32>, tensor<3xi1>, tensor<1xi32>, tensor<2x3xf32>",
    ]
    text = func([t((2, 3))], body, [t((2, 3)), t((3,), "i1"), t((1,), "i32"), t((2, 3))])
    got = same_numbers(text, [f32(2, 3)])
    assert got[1].tolist() == [True, False, True] and got[2].tolist() == [7]
    out = lowered_text(text)
    assert "llvm.mlir.global" in out and "llvm.mlir.addressof" in out and out.count('"llvm.mlir.global"') == 2


@pytest.mark.parametrize("op,props,el", [
    ("ttir.full", "fill_value = 3.5 : f32, shape = array<i32: 2, 3>", "f32"),
    ("ttir.full", "fill_value = 3 : i32, shape = array<i32: 2, 3>", "i32"),
    ("ttir.full", "fill_value = 1.0 : f32, shape = array<i32: 2, 3>", "i1"),
    ("ttir.zeros", "shape = array<i32: 2, 3>", "f32"),
    ("ttir.ones", "shape = array<i32: 2, 3>", "i32"),
])  # fmt: skip
def test_creation_ops(op: str, props: str, el: str) -> None:
    out = t((2, 3), el)
    same_numbers(func([], [f'%0 = "{op}"() <{{{props}}}> : () -> {out}', f"return %0 : {out}"], [out]), [])


# ---- data movement -----------------------------------------------------------------------------------
def test_reshape_of_an_argument_copies_a_strided_one_and_views_a_computed_one() -> None:
    body = [
        '%0 = "ttir.reshape"(%arg0) <{shape = [3 : i32, 2 : i32, 2 : i32]}> : (tensor<4x3xf32>) -> tensor<3x2x2xf32>',
        '%1 = "ttir.neg"(%0) : (tensor<3x2x2xf32>) -> tensor<3x2x2xf32>',
        '%2 = "ttir.reshape"(%1) <{shape = [12 : i32]}> : (tensor<3x2x2xf32>) -> tensor<12xf32>',
        "return %2, %0 : tensor<12xf32>, tensor<3x2x2xf32>",
    ]
    same_numbers(func([t((4, 3))], body, [t((12,)), t((3, 2, 2))]), [strided(f32(4, 3))])


@pytest.mark.parametrize("perm", [(0, 1, 2), (2, 0, 1), (1, 2, 0), (2, 1, 0)])
def test_permute(perm: tuple[int, ...]) -> None:
    shape = (2, 3, 4)
    out = tuple(shape[p] for p in perm)
    props = f"permutation = array<i64: {', '.join(map(str, perm))}>"
    same_numbers(one_op("ttir.permute", [t(shape)], t(out), props), [strided(f32(*shape))])


def test_transpose_with_negative_dims() -> None:
    same_numbers(one_op("ttir.transpose", [t((2, 3, 4))], t((2, 4, 3)), "dim0 = -2 : si32, dim1 = -1 : si32"), [f32(2, 3, 4)])


def test_broadcast_and_repeat() -> None:
    body = [
        '%0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 1, 4, 1>}> : (tensor<2x1x3xf32>) -> tensor<2x4x3xf32>',
        '%1 = "ttir.repeat"(%arg0) <{repeat_dimensions = array<i64: 2, 3, 2>}> : (tensor<2x1x3xf32>) -> tensor<4x3x6xf32>',
        "return %0, %1 : tensor<2x4x3xf32>, tensor<4x3x6xf32>",
    ]
    same_numbers(func([t((2, 1, 3))], body, [t((2, 4, 3)), t((4, 3, 6))]), [strided(f32(2, 1, 3))])


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_concat(dim: int) -> None:
    shapes = [(2, 3), (2, 3), (2, 3)]
    d = dim % 2
    out = tuple(sum(s[d] for s in shapes) if k == d else 2 if k == 0 else 3 for k in range(2))
    ins = [t(s) for s in shapes]
    same_numbers(one_op("ttir.concat", ins, t(out), f"dim = {dim} : si32"), [strided(f32(*s)) for s in shapes])


def test_slice_static_with_steps() -> None:
    props = "begins = [1 : i32, 0 : i32, -3 : i32], ends = [4 : i32, 5 : i32, 6 : i32], step = [2 : i32, 2 : i32, 1 : i32]"
    same_numbers(one_op("ttir.slice_static", [t((5, 5, 6))], t((2, 3, 3)), props), [strided(f32(5, 5, 6))])


# ---- reductions and matmul ----------------------------------------------------------------------------
@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("dims,keep", [("[1 : i32]", True), ("[0 : i32, -1 : i32]", False), (None, False), (None, True)])
def test_reductions(op: str, dims: str | None, keep: bool) -> None:
    shape = (2, 3, 4)
    reduced = {0, 1, 2} if dims is None else {int(x) % 3 for x in re.findall(r"-?\d+(?= : i32)", dims)}
    out = tuple(1 if k in reduced else n for k, n in enumerate(shape)) if keep else tuple(n for k, n in enumerate(shape) if k not in reduced)
    props = ", ".join(p for p in (f"dim_arg = {dims}" if dims else "", f"keep_dim = {'true' if keep else 'false'}") if p)
    same_numbers(one_op(f"ttir.{op}", [t(shape)], t(out), props), [strided(f32(*shape))], rtol=1e-5)


@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_int_reductions(op: str) -> None:
    same_numbers(one_op(f"ttir.{op}", [t((3, 4), "i32")], t((3,), "i32"), "dim_arg = [1 : i32], keep_dim = false"), [i32(3, 4)])


def test_a_reduction_over_several_dims_reduces_the_last_dim_first_as_heads_chain() -> None:
    """HEAD's createReductionOpChain: one reduction per dimension, the last first, each from 0 in f32:
    the row sums are 1e8, -1e8 and 0 (each 1 lost against 1e8), so the total is 0, where one running
    sum over all twelve elements would end at 3."""
    x = np.array([[1e8, 1, 1, 1], [-1e8, 1, 1, 1], [0, 0, 0, 0]], np.float32)
    got = same_numbers(one_op("ttir.sum", [t((3, 4))], t(()), "keep_dim = false"), [x], want=[np.array(0.0, np.float32)])
    assert float(got[0]) == 0.0
    mean = same_numbers(one_op("ttir.mean", [t((3, 4))], t((1, 1)), "dim_arg = [0 : i32, 1 : i32], keep_dim = true"), [x],
                        want=[np.zeros((1, 1), np.float32)])  # fmt: skip
    assert float(mean[0][0, 0]) == 0.0


def test_float_max_and_min_start_from_flt_max_as_tosa_to_linalg() -> None:
    """TosaToLinalg starts reduce_max from -FLT_MAX (reduce_min from FLT_MAX): a row of -inf has the
    maximum -FLT_MAX on HEAD's host; over a dimension of size 1 the reduction folds away."""
    big = np.finfo(np.float32).max
    x = np.array([[-np.inf, -np.inf, -np.inf], [1.0, -np.inf, 2.0]], np.float32)
    got = same_numbers(one_op("ttir.max", [t((2, 3))], t((2,)), "dim_arg = [1 : i32], keep_dim = false"), [x],
                       want=[np.array([-big, 2.0], np.float32)])[0]  # fmt: skip
    assert got[0] == -big
    same_numbers(one_op("ttir.min", [t((2, 3))], t((2,)), "dim_arg = [1 : i32], keep_dim = false"), [-x],
                 want=[np.array([big, -2.0], np.float32)])  # fmt: skip
    one = np.array([[-np.inf], [3.0]], np.float32)
    same_numbers(one_op("ttir.max", [t((2, 1))], t((2,)), "dim_arg = [1 : i32], keep_dim = false"), [one])


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_with_transposes_and_batch_broadcast(ta: bool, tb: bool) -> None:
    props = f"transpose_a = {str(ta).lower()}, transpose_b = {str(tb).lower()}"
    for a_shape, b_shape in (((2, 3, 3, 4), (4, 5)), ((1, 3, 4), (2, 3, 4, 5))):
        a_shape = a_shape[:-2] + a_shape[:-3:-1] if ta else a_shape
        b_shape = b_shape[:-2] + b_shape[:-3:-1] if tb else b_shape
        same_numbers(one_op("ttir.matmul", [t(a_shape), t(b_shape)], t((2, 3, 3, 5)), props), [strided(f32(*a_shape)), f32(*b_shape)], rtol=1e-5)


def test_matmul_batches_as_heads_collapse_and_tile() -> None:
    """HEAD collapses each operand's batch dimensions into one and tiles a batch of 1: a batch of 2
    against one of 3 (which numpy broadcasts to 2x3) is refused, as HEAD's tosa.matmul cannot take it."""
    text = func([t((2, 1, 3, 4)), t((3, 4, 5)), t((2, 3, 4)), t((4, 5))], [
        '%0 = "ttir.matmul"(%arg0, %arg1) : (tensor<2x1x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x3x5xf32>',
        '%1 = "ttir.matmul"(%arg2, %arg3) : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>',
        "return %1 : tensor<2x3x5xf32>"], [t((2, 3, 5))])  # fmt: skip
    ops = parse_module("module {\n" + text + "\n}").functions()[0].regions[0].blocks[0].ops
    assert "collapse-and-tile" in (why_not(ops[0]) or "") and lowerable(ops[1])


def test_int_matmul() -> None:
    same_numbers(one_op("ttir.matmul", [t((3, 4), "i32"), t((4, 2), "i32")], t((3, 2), "i32")), [i32(3, 4), i32(4, 2)])


# ---- functions -------------------------------------------------------------------------------------------
def test_several_results_an_argument_returned_and_one_value_returned_twice() -> None:
    body = [
        '%0 = "ttir.add"(%arg0, %arg1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>',
        "return %0, %arg0, %0, %arg1 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>",
    ]
    text = func([t((2, 2)), t((2, 2))], body, [t((2, 2))] * 4)
    same_numbers(text, [strided(f32(2, 2)), f32(2, 2)])
    out = lowered_text(text)
    desc = "struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>"
    assert f"-> !llvm.struct<({', '.join([desc] * 4)})>" in out


def test_rank_zero_tensors() -> None:
    body = ['%0 = "ttir.sum"(%arg0) <{keep_dim = false}> : (tensor<3xf32>) -> tensor<f32>', "return %0 : tensor<f32>"]
    text = func([t((3,))], body, [t(())])
    same_numbers(text, [f32(3)])
    assert "-> !llvm.struct<(ptr, ptr, i64)>" in lowered_text(text)


def test_signature_and_helper_as_heads_lit_tests_check_them() -> None:
    text = lowered_text(func([t((32, 32)), t((32, 32))], ['%0 = "ttir.subtract"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>',
                                                          "return %0 : tensor<32x32xf32>"], [t((32, 32))]))  # fmt: skip
    args = ", ".join(f"%arg{i}: {'!llvm.ptr' if i % 7 < 2 else 'i64'}" for i in range(14))
    assert f"llvm.func @f({args}) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> attributes {{arg_ranks = [2, 2]" in text
    assert "llvm.func @f_helper(%arg0: !llvm.ptr) -> !llvm.ptr {" in text
    assert "llvm.func @malloc(i64) -> !llvm.ptr" in text and "func.func" not in text and "ttir." not in text


def test_a_function_without_ranks_gets_no_helper_as_in_head() -> None:
    body = ['%0 = "ttir.neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>', "return %0 : tensor<2xf32>"]
    text = lowered_text(func([t((2,))], body, [t((2,))], ranks=False))
    assert "llvm.func @f(" in text and "_helper" not in text


def test_a_large_permute_is_a_loop_nest_not_unrolled() -> None:
    text = lowered_text(one_op("ttir.permute", [t((4096, 4096))], t((4096, 4096)), "permutation = array<i64: 1, 0>"))
    body = text[text.index("llvm.func @f(") : text.index("llvm.func @f_helper")]
    assert body.count(" = ") + body.count('"llvm.store"') < 60


def test_device_module_is_untouched() -> None:
    device = ('ttcore.device_module {\n  builtin.module {\n    func.func @forward(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n'
              '      %0 = "ttir.neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n      return %0 : tensor<2xf32>\n    }\n  }\n}')  # fmt: skip
    body = ['%0 = "ttir.neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>', "return %0 : tensor<2xf32>"]
    text = in_cpu_module(func([t((2,))], body, [t((2,))])).replace("module {\n", "module {\n" + device + "\n", 1)
    out = print_module(lower(text))
    assert 'func.func @forward(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n        %0 = "ttir.neg"' in out
    assert "llvm.func @f(" in out


# ---- errors --------------------------------------------------------------------------------------------
def test_an_op_without_lowering_is_an_error_at_the_op_and_nothing_changes() -> None:
    body = ['%0 = "ttir.neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>', '%1 = "ttir.softsign"(%0) : (tensor<2xf32>) -> tensor<2xf32>',
            "return %1 : tensor<2xf32>"]  # fmt: skip
    text = in_cpu_module(func([t((2,))], body, [t((2,))]))
    r = run_opt(["--pass-pipeline=builtin.module(ttnn-common-to-runtime-pipeline)", "-"], text.encode())
    assert r.exit_code == 1, r.output
    line = text.splitlines().index(next(x for x in text.splitlines() if "ttir.softsign" in x)) + 1
    assert re.search(rf"<stdin>:{line}:\d+: error: 'ttir.softsign' op cannot be lowered to the LLVM dialect", r.output), r.output
    assert "Traceback" not in r.output


def test_an_f16_argument_is_an_error_at_the_function() -> None:
    text = in_cpu_module(func([t((2,), "f16")], ["return %arg0 : tensor<2xf16>"], [t((2,), "f16")]))
    r = run_opt(["--convert-cpu-module-to-llvm", "-"], text.encode())
    assert r.exit_code == 1 and "error: 'func.func' op tensor<2xf16> is not a static tensor of f32, bf16, i32 or i1" in r.output, r.output


def test_bf16_converts_to_and_from_f32_rounding_to_nearest_even() -> None:
    """A CPU-fallback function may convert to or from bf16 (HEAD's snippet
    ttir/stablehlo_convert_cpu_hoisted.mlir): fptrunc / fpext, bf16 held in 2 bytes."""
    pytest.importorskip("ml_dtypes")
    body = ['%0 = "ttir.typecast"(%arg0) : (tensor<3x5xf32>) -> tensor<3x5xbf16>',
            '%1 = "ttir.typecast"(%arg1) : (tensor<4xbf16>) -> tensor<4xf32>',
            "return %0, %1 : tensor<3x5xbf16>, tensor<4xf32>"]  # fmt: skip
    x = f32(3, 5)
    x[0, :3] = [1.00390625, 1.01171875, -3.4e38]  # ties to even (down and up), and a value that overflows bf16
    y = np.array([1.5, -2.25, 3.0e38, 0.0], np.float32).astype(np.dtype("bfloat16"))
    got = same_numbers(func([t((3, 5)), t((4,), "bf16")], body, [t((3, 5), "bf16"), t((4,))]), [strided(x), y])
    assert got[0][0, 0] == 1.0 and got[0][0, 1] == 1.015625 and np.isinf(got[0][0, 2])
    text = lowered_text(func([t((3, 5)), t((4,), "bf16")], body, [t((3, 5), "bf16"), t((4,))]))
    assert '"llvm.fptrunc"' in text and '"llvm.fpext"' in text and "elem_type = bf16" in text


def test_bf16_arithmetic_stays_off_the_host() -> None:
    op = parse_module("module {\n" + one_op("ttir.add", [t((2,), "bf16")] * 2, t((2,), "bf16")) + "\n}\n").functions()[0]
    add = op.regions[0].blocks[0].ops[0]
    assert why_not(add) == "bf16 is lowered by a typecast to or from f32 only (the host computes in f32)"


# ---- lowerable ----------------------------------------------------------------------------------------
def test_lowerable_answers_for_types_and_attributes() -> None:
    text = func([t((2, 3)), t((2, 3), "bf16"), t((2, 3), "i32")], [
        '%0 = "ttir.exp"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>',
        '%1 = "ttir.exp"(%arg1) : (tensor<2x3xbf16>) -> tensor<2x3xbf16>',
        '%2 = "ttir.exp"(%arg2) : (tensor<2x3xi32>) -> tensor<2x3xi32>',
        '%3 = "ttir.softsign"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>',
        '%4 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 2, 1>}> : (tensor<2x3xf32>) -> tensor<4x3xf32>',
        '%5 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>',
        '%6 = "ttir.mean"(%arg2) <{dim_arg = [0 : i32], keep_dim = false}> : (tensor<2x3xi32>) -> tensor<3xi32>',
        "return %0 : tensor<2x3xf32>",
    ], [t((2, 3))])  # fmt: skip
    ops = parse_module("module {\n" + text + "\n}").functions()[0].regions[0].blocks[0].ops
    assert [lowerable(op) for op in ops[:-1]] == [True, False, False, False, False, True, False]
    assert "bf16" in (why_not(ops[1]) or "") and "not 1" in (why_not(ops[4]) or "")


@given(st.lists(st.integers(1, 4), min_size=1, max_size=4).flatmap(lambda s: st.tuples(st.just(tuple(s)), st.permutations(range(len(s))))))
def test_permute_then_add_any_shape(case: tuple[tuple[int, ...], list[int]]) -> None:
    shape, perm = case
    out = tuple(shape[p] for p in perm)
    body = [f'%0 = "ttir.permute"(%arg0) <{{permutation = array<i64: {", ".join(map(str, perm))}>}}> : ({t(shape)}) -> {t(out)}',
            f'%1 = "ttir.add"(%0, %arg1) : ({t(out)}, {t(out)}) -> {t(out)}', f"return %1 : {t(out)}"]  # fmt: skip
    same_numbers(func([t(shape), t(out)], body, [t(out)]), [strided(f32(*shape)), f32(*out)])


# ---- real MLIR --------------------------------------------------------------------------------------------
@pytest.mark.oracle
def test_jaxlibs_mlir_verifies_the_lowered_module() -> None:
    jm = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    body = [
        '%0 = "ttir.constant"() <{value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>',
        '%1 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<3x2xf32>) -> tensor<2x3xf32>',
        '%2 = "ttir.multiply"(%1, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>',
        '%3 = "ttir.sigmoid"(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>',
        '%4 = "ttir.gt"(%3, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>',
        '%5 = "ttir.where"(%4, %3, %0) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>',
        '%6 = "ttir.sum"(%5) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x3xf32>) -> tensor<2x1xf32>',
        '%7 = "ttir.typecast"(%5) : (tensor<2x3xf32>) -> tensor<2x3xi32>',
        '%8 = "ttir.div"(%7, %7) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>',
        '%9 = "ttir.matmul"(%5, %1) <{transpose_b = true}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>',
        '%10 = "ttir.concat"(%6, %9) <{dim = 1 : si32}> : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>',
        '%11 = "ttir.abs"(%8) : (tensor<2x3xi32>) -> tensor<2x3xi32>',
        '%12 = "ttir.repeat"(%4) <{repeat_dimensions = array<i64: 1, 2>}> : (tensor<2x3xi1>) -> tensor<2x6xi1>',
        '%13 = "ttir.arange"() <{arange_dimension = 0 : i64, end = 2 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<2x3xi32>',
        '%14 = "ttir.clamp_scalar"(%13) <{max = 1 : i32, min = 0 : i32}> : (tensor<2x3xi32>) -> tensor<2x3xi32>',
        '%15 = "ttir.reverse"(%14) <{dimensions = array<i64: 1>}> : (tensor<2x3xi32>) -> tensor<2x3xi32>',
        '%16 = "ttir.logical_not"(%12) : (tensor<2x6xi1>) -> tensor<2x6xi1>',
        '%17 = "ttir.prod"(%5) <{keep_dim = false}> : (tensor<2x3xf32>) -> tensor<f32>',
        "return %10, %11, %16, %15, %17 : tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x6xi1>, tensor<2x3xi32>, tensor<f32>",
    ]
    results = [t((2, 3)), t((2, 3), "i32"), t((2, 6), "i1"), t((2, 3), "i32"), t(())]
    no_result = 'func.func @g(%arg0: tensor<2xf32>) attributes {arg_ranks = [1], result_ranks = []} {\n  return\n}'
    text = lowered_text(func([t((3, 2))], body, results) + "\n" + no_result)
    assert "llvm.func @g_helper(%arg0: !llvm.ptr) {" in text
    # jaxlib knows no ttcore: the builtin.module inside the ttcore.cpu_module is what it reads
    start = text.index("builtin.module")
    end = text.rindex("}", 0, text.rindex("}"))
    generic = print_module(Module(inner_module(parse_module(text))), PrintOptions(generic=True))  # --mlir-print-op-generic
    for inner in (text[start:end], generic):
        m = ir.Module.parse(inner, context=jm.make_ir_context())
        assert m.operation.verify()


@pytest.mark.oracle
def test_jaxlibs_mlir_verifies_the_cpu_fallbacks_lowered_stablehlo() -> None:
    """The host functions of the CPU fallback (a StableHLO einsum and dynamic_update_slice, as
    cpu-hoist-non-lowerable-shlo-ops writes them, and a convert to bf16) lowered to the LLVM
    dialect verify in real MLIR."""
    jm = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    einsum = func([t((2, 3, 4)), t((2, 5, 4))], [
        '%0 = "stablehlo.einsum"(%arg0, %arg1) {einsum_config = "bij,bkj->bki"} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x5x3xf32>',
        "return %0 : tensor<2x5x3xf32>"], [t((2, 5, 3))])  # fmt: skip
    dus = func([t((6, 4)), t((2, 4)), "tensor<i32>", "tensor<i32>"], [
        "%0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 : (tensor<6x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<6x4xf32>",
        "return %0 : tensor<6x4xf32>"], [t((6, 4))]).replace("@f(", "@g(")  # fmt: skip
    convert = func([t((4, 4))], ["%0 = stablehlo.convert %arg0 : (tensor<4x4xf32>) -> tensor<4x4xbf16>", "return %0 : tensor<4x4xbf16>"],
                   [t((4, 4), "bf16")]).replace("@f(", "@h(")  # HEAD's snippet ttir/stablehlo_convert_cpu_hoisted.mlir
    module = parse_module(lowered_text(einsum + "\n" + dus + "\n" + convert))
    generic = print_module(Module(inner_module(module)), PrintOptions(generic=True))
    assert "stablehlo." not in generic and "ttir." not in generic
    m = ir.Module.parse(generic, context=jm.make_ir_context())
    assert m.operation.verify()


# ---- more ops of const-eval subgraphs (rotary tables, masks) ------------------------------------------
@pytest.mark.parametrize("el", ["f32", "i32"])
def test_arange_then_cos_like_a_rotary_table(el: str) -> None:
    out = t((2, 5), el)
    body = [f'%0 = "ttir.arange"() <{{arange_dimension = 1 : i64, end = 13 : si64, start = 3 : si64, step = 2 : si64}}> : () -> {out}']
    if el == "f32":
        body += [f'%1 = "ttir.cos"(%0) : ({out}) -> {out}', f"return %0, %1 : {out}, {out}"]
        same_numbers(func([], body, [out, out]), [], rtol=1e-5)
    else:
        same_numbers(func([], body + [f"return %0 : {out}"], [out]), [])


@pytest.mark.parametrize("el,bounds", [("f32", "max = 1.5 : f32, min = -0.5 : f32"), ("i32", "max = 4 : i32, min = -3 : i32")])
def test_clamp_scalar(el: str, bounds: str) -> None:
    x = f32(3, 4) if el == "f32" else i32(3, 4)
    same_numbers(one_op("ttir.clamp_scalar", [t((3, 4), el)], t((3, 4), el), bounds), [strided(x)])


def test_reverse_of_a_strided_argument() -> None:
    same_numbers(one_op("ttir.reverse", [t((3, 4, 2))], t((3, 4, 2)), "dimensions = array<i64: 0, 2>"), [strided(f32(3, 4, 2))])


@pytest.mark.parametrize("el", ["f32", "i32"])
def test_prod(el: str) -> None:
    x = f32(2, 3, lo=0.5, hi=1.5) if el == "f32" else i32(2, 3, lo=-3, hi=4)
    same_numbers(one_op("ttir.prod", [t((2, 3), el)], t((2,), el), "dim_arg = [1 : i32], keep_dim = false"), [x], rtol=1e-5)


@pytest.mark.parametrize("op", ["logical_and", "logical_or", "logical_xor", "logical_not"])
def test_logical_ops_on_booleans(op: str) -> None:
    n = 1 if op == "logical_not" else 2
    ins = [RNG.integers(0, 2, (2, 3)).astype(np.bool_) for _ in range(n)]
    same_numbers(one_op(f"ttir.{op}", [t((2, 3), "i1")] * n, t((2, 3), "i1")), ins)


def test_a_function_without_results_returns_nothing_and_leaks_nothing() -> None:
    text = 'func.func @f(%arg0: tensor<2xf32>) attributes {arg_ranks = [1], result_ranks = []} {\n  %0 = "ttir.neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n  return\n}'
    assert same_numbers(text, [f32(2)]) == []
    assert "llvm.func @f_helper(%arg0: !llvm.ptr) {" in lowered_text(text)


def test_constant_spellings_bool_int_hex_and_rank_zero() -> None:
    body = ['%0 = "ttir.constant"() <{value = dense<true> : tensor<2x2xi1>}> : () -> tensor<2x2xi1>',
            '%1 = "ttir.constant"() <{value = dense<3> : tensor<2xi32>}> : () -> tensor<2xi32>',
            '%2 = "ttir.constant"() <{value = dense<"0x0000803F"> : tensor<3xf32>}> : () -> tensor<3xf32>',
            '%3 = "ttir.constant"() <{value = dense<"0x0000803F00000040"> : tensor<2xf32>}> : () -> tensor<2xf32>',
            '%4 = "ttir.constant"() <{value = dense<-1.5> : tensor<f32>}> : () -> tensor<f32>',
            "return %0, %1, %2, %3, %4 : tensor<2x2xi1>, tensor<2xi32>, tensor<3xf32>, tensor<2xf32>, tensor<f32>"]  # fmt: skip
    got = same_numbers(func([], body, [t((2, 2), "i1"), t((2,), "i32"), t((3,)), t((2,)), t(())]), [])
    assert got[3].tolist() == [1.0, 2.0] and float(got[4]) == -1.5


@pytest.mark.parametrize("el", ["f32", "i32"])
def test_pad(el: str) -> None:
    x = f32(2, 3) if el == "f32" else i32(2, 3)
    value = "2.5 : f32" if el == "f32" else "7.0 : f32"
    props = f"padding = array<i32: 1, 0, 2, 1>, value = {value}"
    same_numbers(one_op("ttir.pad", [t((2, 3), el)], t((3, 6), el), props), [strided(x)])


def test_clamp_tensor_with_broadcast_bounds() -> None:
    lo, hi = f32(1, 4, lo=-1.0, hi=0.0), f32(1, 4, lo=0.0, hi=1.0)
    same_numbers(one_op("ttir.clamp_tensor", [t((3, 4)), t((1, 4)), t((1, 4))], t((3, 4))), [strided(f32(3, 4)), lo, hi])


@pytest.mark.parametrize("op", ["reduce_and", "reduce_or"])
def test_boolean_reductions(op: str) -> None:
    x = RNG.integers(0, 2, (3, 4)).astype(np.bool_)
    x[0] = True
    x[1] = False
    same_numbers(one_op(f"ttir.{op}", [t((3, 4), "i1")], t((3, 1), "i1"), "dim_arg = [1 : i32], keep_dim = true"), [x])


@pytest.mark.parametrize("op", ["reduce_and", "reduce_or"])
@pytest.mark.parametrize("el", ["i32", "f32"])
def test_boolean_reductions_of_32_bit_elements(op: str, el: str) -> None:
    """Booleans held in 32 bits on the host (0 / 1) reduce as booleans: HEAD's CPU-fallback
    decomposition makes reduce_and a product and reduce_or a sum compared with 0."""
    dtype = np.int32 if el == "i32" else np.float32
    text = one_op(f"ttir.{op}", [t((4, 3), el)], t((4, 1), el), "dim_arg = [1 : i32], keep_dim = true")
    x = np.array([[0, 0, 0], [1, 1, 1], [0, 1, 0], [1, 0, 0]], dtype=dtype)
    got = same_numbers(text, [x])
    assert got[0].tolist() == ([[0], [1], [0], [0]] if op == "reduce_and" else [[0], [1], [1], [1]])
    # Other numbers give HEAD's product / sum test, not a logical reduction: [2, -3, 5] ANDs to -30,
    # [1, -1, 0] ORs to 0.
    y = np.array([[2, -3, 5], [1, -1, 0]], dtype=dtype)
    want = np.array([[-30], [0]] if op == "reduce_and" else [[1], [0]], dtype=dtype)
    same_numbers(one_op(f"ttir.{op}", [t((2, 3), el)], t((2, 1), el), "dim_arg = [1 : i32], keep_dim = true"), [y], want=[want])


# ---- math and activations (HEAD's EltwiseUnary.cpp / EltwiseBinary.cpp) --------------------------------
MATH_EDGES = {
    "erf": [0.0, -0.0, 0.5, -0.5, 3.0, -3.0, 10.0, -1e30, 1e-8],
    "erfc": [0.0, 0.5, -0.5, 3.0, -3.0, 10.0, -10.0, 30.0, 1e-8],
    "expm1": [0.0, 1.0, -1.0, 10.0, 88.0, -100.0, 0.5, -0.5, 2.0],
    "log1p": [0.0, -0.5, 1.0, 1e3, 1e30, -1.0, 0.25, 5.0, 3.0],
    "cbrt": [-27.0, -8.0, 0.0, -0.0, 1e-30, 1e30, 8.0, 2.0, -3.5],
    "atan": [-1e30, -1.0, 0.0, 1.0, 1e30, 0.5, -0.5, 10.0, -10.0],
    "asin": [-1.0, -0.5, 0.0, 0.5, 1.0, 0.99, -0.99, 0.1, -0.1],
    "acos": [-1.0, -0.5, 0.0, 0.5, 1.0, 0.99, -0.99, 0.1, -0.1],
    "asinh": [-1e20, -1.0, 0.0, 1.0, 1e20, 0.5, -0.5, 1e-8, 30.0],
    "silu": [-100.0, -1.0, 0.0, 1.0, 100.0, -5.0, 5.0, 0.5, -0.5],
    "gelu": [-10.0, -1.0, 0.0, 1.0, 10.0, -3.0, 3.0, 0.5, -0.5],
    "mish": [-100.0, -5.0, 0.0, 5.0, 100.0, -1.0, 1.0, 20.0, -20.0],
    "hardsigmoid": [-4.0, -3.0, 0.0, 3.0, 4.0, -1.5, 1.5, 100.0, -100.0],
    "relu6": [-1.0, 0.0, -0.0, 3.0, 6.0, 7.0, np.nan, 1e30, -1e30],
    "isfinite": [0.0, -1.0, 1e38, np.inf, -np.inf, np.nan, -0.0, 3.5, -3e38],
}
MATH_UNARY = list(MATH_EDGES)


@pytest.mark.parametrize("op", MATH_UNARY)
def test_math_unary_at_edge_values(op: str) -> None:
    x = np.array(MATH_EDGES[op], np.float32).reshape(3, 3)
    with np.errstate(all="ignore"):
        same_numbers(one_op(f"ttir.{op}", [t((3, 3))], t((3, 3))), [strided(x)], rtol=4e-6)


@pytest.mark.parametrize("op", MATH_UNARY)
def test_math_unary_on_random_values(op: str) -> None:
    lo, hi = {"asin": (-1.0, 1.0), "acos": (-1.0, 1.0), "log1p": (-0.99, 20.0)}.get(op, (-6.0, 6.0))
    same_numbers(one_op(f"ttir.{op}", [t((4, 5))], t((4, 5))), [f32(4, 5, lo=lo, hi=hi)], rtol=4e-6)


def test_expm1_and_log1p_are_heads_expansions_not_the_accurate_functions() -> None:
    """MLIR's MathToLLVM expands math.expm1 to `exp(x) - 1` and math.log1p to `log(1 + x)` in f32:
    near 0 they lose what the C functions keep (expm1(1e-8) is 0 on HEAD's host, not 1e-8)."""
    x = np.array([1e-8, -1e-8, 1e-4, 0.0, 1.0, -0.5], np.float32)
    expm1 = same_numbers(one_op("ttir.expm1", [t((6,))], t((6,))), [x], want=[np.exp(x) - np.float32(1)])[0]
    log1p = same_numbers(one_op("ttir.log1p", [t((6,))], t((6,))), [x], want=[np.log(np.float32(1) + x)])[0]
    assert expm1[0] == 0.0 and np.expm1(x[0]) > 0 and log1p[0] == 0.0 and np.log1p(x[0]) > 0


def test_gelu_is_heads_erf_formula() -> None:
    """(0.5 * x) * (1 + erf(x * 0.70710677)), erf from libm's erff (no tanh approximation: HEAD's
    ttir.gelu has none)."""
    x = np.array([-2.0, -0.5, 0.0, 0.7, 4.0], np.float32)
    erf = np.array([math.erf(v) for v in (x * np.float32(0.7071067811865475)).astype(np.float64)], np.float32)
    want = (np.float32(0.5) * x) * (np.float32(1) + erf)
    got = same_numbers(one_op("ttir.gelu", [t((5,))], t((5,))), [x], want=[want], rtol=0, atol=0)[0]
    assert "llvm.func @erff(f32) -> f32" in lowered_text(one_op("ttir.gelu", [t((5,))], t((5,))))
    assert got[2] == 0.0


def test_isfinite_is_one_or_zero_in_f32() -> None:
    x = np.array([1.0, np.inf, -np.inf, np.nan, 0.0, -3e38], np.float32)
    got = same_numbers(one_op("ttir.isfinite", [t((6,))], t((6,))), [x])[0]
    assert got.tolist() == [1.0, 0.0, 0.0, 0.0, 1.0, 1.0]


@pytest.mark.parametrize("slope", ["0.01 : f32", "-2.5 : f32", "0.0 : f32"])
def test_leaky_relu(slope: str) -> None:
    x = np.array([[-3.0, -0.0, 0.0, 2.0], [1e30, -1e30, np.nan, -0.5]], np.float32)
    same_numbers(one_op("ttir.leaky_relu", [t((2, 4))], t((2, 4)), f"parameter = {slope}"), [strided(x)])


def test_relu6_on_integers() -> None:
    x = np.array([-7, 0, 3, 6, 7, 2**31 - 1, -(2**31)], np.int32)
    got = same_numbers(one_op("ttir.relu6", [t((7,), "i32")], t((7,), "i32")), [x])[0]
    assert got.tolist() == [0, 0, 3, 6, 6, 6, 0]


def test_atan2_broadcasting_with_signed_zeros() -> None:
    y = np.array([[0.0, -0.0, 1.0, -1.0], [3.0, -2.0, 1e30, np.inf]], np.float32)
    x = np.array([[-1.0, -1.0, 0.0, 0.0]], np.float32)
    got = same_numbers(one_op("ttir.atan2", [t((2, 4)), t((1, 4))], t((2, 4))), [strided(y), x])[0]
    assert got[0, 0] == np.float32(np.pi) and got[0, 1] == -np.float32(np.pi)


# ---- embedding, cumsum, squeeze / unsqueeze --------------------------------------------------------------
@pytest.mark.parametrize("idx_shape", [(5,), (2, 3)])
@pytest.mark.parametrize("el", ["f32", "i32"])
def test_embedding_of_i32_indices(idx_shape: tuple[int, ...], el: str) -> None:
    """As the const-eval subgraphs of Hugging Face's Flax models: i32 indices [N] or [B, N], a [V, D] table."""
    idx = i32(*idx_shape, lo=0, hi=7)
    idx.flat[0], idx.flat[-1] = 0, 6  # the first and the last row
    weight = f32(7, 4) if el == "f32" else i32(7, 4)
    out = idx_shape + (4,)
    same_numbers(one_op("ttir.embedding", [t(idx_shape, "i32"), t((7, 4), el)], t(out, el)), [strided(idx), strided(weight)])


def test_embedding_of_f32_indices_truncates_as_heads_fptosi() -> None:
    idx = np.array([0.0, 2.9, 1.5, 3.0, 0.99], np.float32)
    weight = f32(1, 4, 3)
    want = weight[0][[0, 2, 1, 3, 0]]  # fptosi truncates toward zero (the TTIR interpreter rounds)
    same_numbers(one_op("ttir.embedding", [t((5,)), t((1, 4, 3))], t((5, 3))), [idx, weight], want=[want])


@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
@pytest.mark.parametrize("el", ["f32", "i32"])
def test_cumsum(dim: int, el: str) -> None:
    x = f32(3, 4, 5) if el == "f32" else i32(3, 4, 5)
    same_numbers(one_op("ttir.cumsum", [t((3, 4, 5), el)], t((3, 4, 5), el), f"dim = {dim} : i64"), [strided(x)], rtol=1e-5)


def test_cumsum_adds_in_order_in_the_element_type() -> None:
    """A running sum from 0 in f32 (1e8 + 1 + 1 stays 1e8) and in i32 (wrapping), as HEAD's scf.for of linalg.add."""
    x = np.array([1e8, 1.0, 1.0, -1e8, 1.0], np.float32)
    assert same_numbers(one_op("ttir.cumsum", [t((5,))], t((5,)), "dim = 0 : i64"), [x])[0].tolist() == [1e8, 1e8, 1e8, 0.0, 1.0]
    n = np.array([2**31 - 1, 1, 5], np.int32)
    got = same_numbers(one_op("ttir.cumsum", [t((3,), "i32")], t((3,), "i32"), "dim = 0 : i64"), [n])[0]
    assert got.tolist() == [2**31 - 1, -(2**31), -(2**31) + 5]


def test_squeeze_and_unsqueeze_of_strided_and_computed_values() -> None:
    body = [
        '%0 = "ttir.squeeze"(%arg0) <{dim = 1 : si32}> : (tensor<3x1x4xf32>) -> tensor<3x4xf32>',
        '%1 = "ttir.neg"(%0) : (tensor<3x4xf32>) -> tensor<3x4xf32>',
        '%2 = "ttir.unsqueeze"(%1) <{dim = -1 : si32}> : (tensor<3x4xf32>) -> tensor<3x4x1xf32>',
        '%3 = "ttir.unsqueeze"(%arg0) <{dim = 0 : si32}> : (tensor<3x1x4xf32>) -> tensor<1x3x1x4xf32>',
        "return %2, %3, %0 : tensor<3x4x1xf32>, tensor<1x3x1x4xf32>, tensor<3x4xf32>",
    ]
    same_numbers(func([t((3, 1, 4))], body, [t((3, 4, 1)), t((1, 3, 1, 4)), t((3, 4))]), [strided(f32(3, 1, 4))])


# ---- bitwise ops, shifts and HEAD's multi-op patterns -----------------------------------------------------
@pytest.mark.parametrize("op", ["bitwise_and", "bitwise_or", "bitwise_xor"])
def test_bitwise_binary_on_i32(op: str) -> None:
    a = np.array([[0, -1, 5, 2**31 - 1], [-(2**31), 12, -7, 3]], np.int32)
    same_numbers(one_op(f"ttir.{op}", [t((2, 4), "i32"), t((1, 4), "i32")], t((2, 4), "i32")), [strided(a), i32(1, 4, lo=-100, hi=100)])


def test_bitwise_not_on_i32() -> None:
    x = np.array([0, -1, 5, 2**31 - 1, -(2**31)], np.int32)
    assert same_numbers(one_op("ttir.bitwise_not", [t((5,), "i32")], t((5,), "i32")), [x])[0].tolist() == [-1, 0, -6, -(2**31), 2**31 - 1]


@pytest.mark.parametrize("op", ["logical_left_shift", "logical_right_shift"])
def test_logical_shifts_on_i32(op: str) -> None:
    """Logical shifts (a negative value's bits shift as unsigned); amounts 0..31 (LLVM's shl / lshr,
    as HEAD's arith.shli / shrui: a larger amount is poison there)."""
    x = np.array([[1, -1, 2**31 - 1, -(2**31), 7, -12]], np.int32)
    n = np.array([[0, 31, 1, 1, 3, 4]], np.int32)
    same_numbers(one_op(f"ttir.{op}", [t((1, 6), "i32")] * 2, t((1, 6), "i32")), [x, n])


@pytest.mark.parametrize("el", ["f32", "i32"])
def test_concatenate_heads(el: str) -> None:
    x = f32(2, 3, 4, 5) if el == "f32" else i32(2, 3, 4, 5)
    same_numbers(one_op("ttir.concatenate_heads", [t((2, 3, 4, 5), el)], t((2, 4, 15), el)), [strided(x)])


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax(dim: int) -> None:
    same_numbers(one_op("ttir.softmax", [t((3, 4, 5))], t((3, 4, 5)), f"dimension = {dim} : si32"), [strided(f32(3, 4, 5, lo=-5, hi=5))], rtol=1e-5)


def test_softmax_of_large_values_and_masked_positions() -> None:
    """The maximum is subtracted first (HEAD's pattern always does), so 1e30 does not overflow; -inf
    positions (an attention mask) weigh 0; a row of one element is 1."""
    x = np.array([[1e30, 1e30, -1e30, 0.0], [0.0, -np.inf, 1.0, -np.inf], [-50.0, 50.0, 0.0, 3.0]], np.float32)
    got = same_numbers(one_op("ttir.softmax", [t((3, 4))], t((3, 4)), "dimension = 1 : si32"), [x], rtol=1e-5)[0]
    assert got[0].tolist() == [0.5, 0.5, 0.0, 0.0] and got[1, 1] == 0.0
    same_numbers(one_op("ttir.softmax", [t((3, 1))], t((3, 1)), "dimension = 1 : si32"), [x[:, :1]])


@pytest.mark.parametrize("props,out", [("dim_arg = [1 : i32], keep_dim = false", (3,)), ("dim_arg = [-2 : i32], keep_dim = true", (1, 4)),
                                       ("keep_dim = false", ()), ("keep_dim = true", (1, 1))])  # fmt: skip
@pytest.mark.parametrize("el", ["f32", "i32"])
def test_argmax(props: str, out: tuple[int, ...], el: str) -> None:
    x = f32(3, 4) if el == "f32" else i32(3, 4, lo=-3, hi=3)  # small integers: ties, the first index wins
    same_numbers(one_op("ttir.argmax", [t((3, 4), el)], t(out, "i32"), props), [strided(x)])


def test_argmax_passes_over_nan_as_heads_ordered_compare() -> None:
    """HEAD keeps the first element greater (`ogt`) than the running maximum, which starts at -inf:
    NaN is never greater, so a NaN is passed over (numpy's argmax picks it) and a row of -inf gives 0."""
    x = np.array([[np.nan, 1.0, 3.0, 3.0], [-np.inf, -np.inf, -np.inf, -np.inf], [2.0, np.nan, 5.0, -1.0]], np.float32)
    want = np.array([2, 0, 2], np.int32)
    same_numbers(one_op("ttir.argmax", [t((3, 4))], t((3,), "i32"), "dim_arg = [1 : i32], keep_dim = false"), [x], want=[want])


@pytest.mark.parametrize("shapes", [((2, 3, 4), (4, 5), (5,)), ((3, 4), (4, 5), (3, 5)), ((2, 3, 4), (2, 4, 5), None), ((1, 3, 4), (2, 3, 4, 5), (1, 5))])
def test_linear(shapes: tuple[tuple[int, ...], ...]) -> None:
    a, w, bias = shapes
    out = (*np.broadcast_shapes(a[:-2], w[:-2]), a[-2], w[-1])
    ins = [t(a), t(w)] + ([t(bias)] if bias else [])
    vals = [strided(f32(*a)), f32(*w)] + ([f32(*bias)] if bias else [])
    same_numbers(one_op("ttir.linear", ins, t(out)), vals, rtol=1e-5)


def test_linear_with_transposes() -> None:
    props = "transpose_a = true, transpose_b = true"
    same_numbers(one_op("ttir.linear", [t((2, 4, 3)), t((5, 4)), t((5,))], t((2, 3, 5)), props), [f32(2, 4, 3), f32(5, 4), f32(5)], rtol=1e-5)


@pytest.mark.parametrize("norm,seg", [((4,), (1, 1, 1)), ((4,), (1, 0, 0)), ((3, 4), (1, 0, 1)), ((3, 4), (1, 1, 0)), ((2, 3, 4), (1, 1, 1))])
def test_layer_norm(norm: tuple[int, ...], seg: tuple[int, ...]) -> None:
    ins = [t((2, 3, 4))] + [t(norm)] * (seg[1] + seg[2])
    props = (f"normalized_shape = array<i64: {', '.join(map(str, norm))}>, epsilon = 1.0e-05 : f32, "
             f"operandSegmentSizes = array<i32: {', '.join(map(str, seg))}>")  # fmt: skip
    x = f32(2, 3, 4, lo=-3, hi=3)
    x[0, 0] = 7.0  # a constant row: variance 0, the epsilon keeps it finite
    same_numbers(one_op("ttir.layer_norm", ins, t((2, 3, 4)), props), [strided(x)] + [f32(*norm) for _ in ins[1:]], rtol=1e-5, atol=1e-5)


def test_lowerable_answers_for_the_compound_and_bitwise_ops() -> None:
    cases = {
        '"ttir.argmax"(%arg0) <{dim_arg = [0 : i32, 1 : i32], keep_dim = false}> : (tensor<2x3xf32>) -> tensor<i32>': "several dims",
        '"ttir.argmax"(%arg0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<2x3xf32>) -> tensor<2xf32>': "i32 indices",
        '"ttir.softmax"(%arg1) <{dimension = 1 : si32}> : (tensor<2x3xi32>) -> tensor<2x3xi32>': "f32 operand",
        '"ttir.softmax"(%arg0) <{dimension = 2 : si32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>': "dimension within",
        '"ttir.layer_norm"(%arg0) <{normalized_shape = array<i64: 2>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>': "trailing",
        '"ttir.linear"(%arg1, %arg1) <{transpose_b = true}> : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x2xi32>': "f32 a, b",
        '"ttir.logical_left_shift"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>': "not lowered for f32",
        '"ttir.bitwise_not"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>': "not lowered for f32",
    }
    body = [f"%{i} = {c}" for i, c in enumerate(cases)] + ["return %arg0 : tensor<2x3xf32>"]
    ops = parse_module("module {\n" + func([t((2, 3)), t((2, 3), "i32")], body, [t((2, 3))]) + "\n}").functions()[0].regions[0].blocks[0].ops
    for op, want in zip(ops, cases.values()):
        assert want in (why_not(op) or ""), (op.name, why_not(op), want)


def test_the_backend_pipeline_hoists_an_embedding_and_a_cumsum_and_its_llvm_computes_them() -> None:
    """testdata/lowering/cpu_hoist_embedding_cumsum.mlir through --ttir-to-ttnn-backend-pipeline: the
    host function it lowers, run through its helper, is the cumulative sum of the table's rows."""
    path = Path(__file__).parents[2] / "testdata" / "lowering" / "cpu_hoist_embedding_cumsum.mlir"
    r = run_opt(["--ttir-to-ttnn-backend-pipeline", "-"], path.read_bytes())
    assert r.exit_code == 0 and "Skipping CPU hoisting" not in r.output, r.output
    # From the first alias line (what comes before is stderr); created aliases print in MLIR's order.
    module = parse_module(r.output[re.search(r"^#", r.output, re.M).start() :])
    name = next(op.properties["sym_name"].value for op in inner_module(module).regions[0].entry.ops
                if op.name == "llvm.func" and op.regions and not op.properties["sym_name"].value.endswith("_helper"))  # fmt: skip
    idx, weight = i32(2, 8, lo=0, hi=64), f32(64, 32)
    got = LLVMInterpreter(inner_module(module)).call_helper(name, [idx, weight], [np.float32])[0]
    np.testing.assert_allclose(got, np.cumsum(weight[idx], axis=1, dtype=np.float32), rtol=1e-6, atol=1e-6)


def test_lowerable_answers_for_the_new_ops() -> None:
    cases = {
        '"ttir.cumsum"(%arg2) <{dim = 0 : i64}> : (tensor<2x3xi1>) -> tensor<2x3xi1>': "f32 and i32",
        '"ttir.cumsum"(%arg0) <{dim = 2 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xf32>': "dim within",
        '"ttir.embedding"(%arg2, %arg3) : (tensor<2x3xi1>, tensor<5x4xf32>) -> tensor<2x3x4xf32>': "f32 or i32 indices",
        '"ttir.embedding"(%arg1, %arg3) : (tensor<2x3xi32>, tensor<5x4xf32>) -> tensor<2x3x4xi32>': "element types differ",
        '"ttir.embedding"(%arg1, %arg4) : (tensor<2x3xi32>, tensor<2x5x4xf32>) -> tensor<2x3x4xf32>': "(1, ..., 1, N, M)",
        '"ttir.isfinite"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xi1>': "element types differ",
        '"ttir.gelu"(%arg1) : (tensor<2x3xi32>) -> tensor<2x3xi32>': "not lowered for i32",
        '"ttir.atan2"(%arg1, %arg1) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>': "not lowered for i32",
        '"ttir.squeeze"(%arg0) <{dim = 0 : si32}> : (tensor<2x3xf32>) -> tensor<3xf32>': "not 1",
        '"ttir.unsqueeze"(%arg0) <{dim = 1 : si32}> : (tensor<2x3xf32>) -> tensor<2x3x1xf32>': "unsqueezed",
    }
    args = [t((2, 3)), t((2, 3), "i32"), t((2, 3), "i1"), t((5, 4)), t((2, 5, 4))]
    body = [f"%{i} = {c}" for i, c in enumerate(cases)] + ["return %arg0 : tensor<2x3xf32>"]
    ops = parse_module("module {\n" + func(args, body, [t((2, 3))]) + "\n}").functions()[0].regions[0].blocks[0].ops
    for op, want in zip(ops, cases.values()):
        assert want in (why_not(op) or ""), (op.name, why_not(op), want)
    good = one_op("ttir.embedding", [t((2, 3), "i32"), t((1, 5, 4), "i32")], t((2, 3, 4), "i32"))
    assert lowerable(parse_module("module {\n" + good + "\n}").functions()[0].regions[0].blocks[0].ops[0])


ORACLE_CASES = [
    *(one_op(f"ttir.{op}", [t((2, 3))], t((2, 3))) for op in FLOAT_UNARY),
    *(one_op(f"ttir.{op}", [t((2, 3), "i32")], t((2, 3), "i32")) for op in ("neg", "abs", "relu", "sign")),
    *(one_op(f"ttir.{op}", [t((2, 3), el), t((1, 3), el)], t((2, 3), el))
      for el, ops in (("f32", ("add", "subtract", "multiply", "div", "maximum", "minimum", "pow", "remainder")),
                      ("i32", ("add", "subtract", "multiply", "div", "maximum", "minimum", "remainder"))) for op in ops),
    *(one_op(f"ttir.{op}", [t((2, 3), el)] * 2, t((2, 3), res)) for op in ("eq", "ne", "gt", "ge", "lt", "le")
      for el, res in (("f32", "i1"), ("i32", "f32"), ("f32", "i32"))),
    *(one_op("ttir.typecast", [t((2, 3), a)], t((2, 3), b)) for a in ("f32", "i32", "i1") for b in ("f32", "i32", "i1")),
    *(one_op(f"ttir.{op}", [t((2, 3), "i1")] * (1 if op == "logical_not" else 2), t((2, 3), "i1"))
      for op in ("logical_and", "logical_or", "logical_xor", "logical_not")),
    *(one_op(f"ttir.{op}", [t((2, 3), el)], t((2,), el), "dim_arg = [1 : i32], keep_dim = false")
      for op, el in (("sum", "f32"), ("mean", "f32"), ("max", "f32"), ("min", "i32"), ("prod", "i32"), ("reduce_and", "i1"), ("reduce_or", "i1"), ("reduce_and", "i32"), ("reduce_or", "f32"))),
    one_op("ttir.where", [t((2, 3), "f32"), t((2, 3), "i32"), t((2, 3), "i32")], t((2, 3), "i32")),
    one_op("ttir.clamp_scalar", [t((2, 3))], t((2, 3)), "max = 1.0 : f32, min = 0.0 : f32"),
    one_op("ttir.clamp_tensor", [t((2, 3), "i32")] * 3, t((2, 3), "i32")),
    one_op("ttir.pad", [t((2, 3), "i1")], t((2, 5), "i1"), "padding = array<i32: 0, 0, 1, 1>, value = 1.0 : f32"),
    one_op("ttir.reverse", [t((2, 3))], t((2, 3)), "dimensions = array<i64: 1>"),
    one_op("ttir.slice_static", [t((4, 3))], t((2, 3)), "begins = [1 : i32, 0 : i32], ends = [4 : i32, 3 : i32], step = [2 : i32, 1 : i32]"),
    one_op("ttir.reshape", [t((4, 3))], t((12,)), "shape = [12 : i32]"),
    one_op("ttir.broadcast", [t((1, 3))], t((4, 3)), "broadcast_dimensions = array<i64: 4, 1>"),
    one_op("ttir.matmul", [t((2, 3), "i32"), t((3, 4), "i32")], t((2, 4), "i32")),
    *(one_op(f"ttir.{op}", [t((2, 3))], t((2, 3))) for op in MATH_UNARY),
    one_op("ttir.relu6", [t((2, 3), "i32")], t((2, 3), "i32")),
    one_op("ttir.leaky_relu", [t((2, 3))], t((2, 3)), "parameter = 0.01 : f32"),
    one_op("ttir.atan2", [t((2, 3)), t((1, 3))], t((2, 3))),
    one_op("ttir.embedding", [t((2, 3), "i32"), t((10, 4))], t((2, 3, 4))),
    one_op("ttir.embedding", [t((3,)), t((1, 10, 4), "i32")], t((3, 4), "i32")),
    one_op("ttir.cumsum", [t((3, 4))], t((3, 4)), "dim = -1 : i64"),
    one_op("ttir.cumsum", [t((3, 4), "i32")], t((3, 4), "i32"), "dim = 0 : i64"),
    one_op("ttir.squeeze", [t((3, 1, 4))], t((3, 4)), "dim = 1 : si32"),
    one_op("ttir.unsqueeze", [t((3, 4), "i1")], t((1, 3, 4), "i1"), "dim = 0 : si32"),
    *(one_op(f"ttir.{op}", [t((2, 3), "i32"), t((1, 3), "i32")], t((2, 3), "i32"))
      for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "logical_left_shift", "logical_right_shift")),
    one_op("ttir.bitwise_not", [t((2, 3), "i32")], t((2, 3), "i32")),
    one_op("ttir.concatenate_heads", [t((2, 3, 4, 5))], t((2, 4, 15))),
    one_op("ttir.softmax", [t((3, 4))], t((3, 4)), "dimension = -1 : si32"),
    one_op("ttir.argmax", [t((3, 4))], t((3,), "i32"), "dim_arg = [1 : i32], keep_dim = false"),
    one_op("ttir.argmax", [t((3, 4), "i32")], t((1, 1), "i32"), "keep_dim = true"),
    one_op("ttir.linear", [t((2, 3, 4)), t((4, 5)), t((5,))], t((2, 3, 5))),
    one_op("ttir.layer_norm", [t((2, 3, 4)), t((3, 4)), t((3, 4))], t((2, 3, 4)),
           "normalized_shape = array<i64: 3, 4>, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>"),
    func([], ['%0 = "ttir.arange"() <{arange_dimension = 0 : i64, end = 4 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<4xi32>',
              '%1 = "ttir.full"() <{fill_value = 1 : i32, shape = array<i32: 4>}> : () -> tensor<4xi1>',
              '%2 = "ttir.zeros"() <{shape = array<i32: 4>}> : () -> tensor<4xf32>',
              "return %0, %1, %2 : tensor<4xi32>, tensor<4xi1>, tensor<4xf32>"], [t((4,), "i32"), t((4,), "i1"), t((4,))]),
]  # fmt: skip


@pytest.mark.oracle
@pytest.mark.parametrize("case", range(len(ORACLE_CASES)))
def test_jaxlibs_mlir_verifies_each_op_lowering(case: int) -> None:
    jm = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    text = lowered_text(ORACLE_CASES[case])
    inner = print_module(Module(inner_module(parse_module(text))))
    assert ir.Module.parse(inner, context=jm.make_ir_context()).operation.verify()


@st.composite
def _reduction(draw: st.DrawFn) -> tuple[tuple[int, ...], list[int], bool, str]:
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    dims = draw(st.lists(st.integers(-len(shape), len(shape) - 1), unique_by=lambda d: d % len(shape), max_size=len(shape)))
    return shape, dims, draw(st.booleans()), draw(st.sampled_from(["sum", "max", "min", "mean"]))


@given(_reduction())
def test_reductions_over_any_dims(case: tuple[tuple[int, ...], list[int], bool, str]) -> None:
    shape, dims, keep, op = case
    reduced = {d % len(shape) for d in dims} if dims else set(range(len(shape)))
    out = tuple(1 if k in reduced else n for k, n in enumerate(shape)) if keep else tuple(n for k, n in enumerate(shape) if k not in reduced)
    dim_arg = f"dim_arg = [{', '.join(f'{d} : i32' for d in dims)}], " if dims else ""
    same_numbers(one_op(f"ttir.{op}", [t(shape)], t(out), f"{dim_arg}keep_dim = {str(keep).lower()}"), [strided(f32(*shape))], rtol=1e-5)


@st.composite
def _slice(draw: st.DrawFn) -> tuple[tuple[int, ...], list[tuple[int, int, int]]]:
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)))
    bounds = [(draw(st.integers(-n, n - 1)), draw(st.integers(-n, n)), draw(st.integers(1, 3))) for n in shape]
    return shape, bounds


@given(_slice())
def test_slice_static_any_bounds(case: tuple[tuple[int, ...], list[tuple[int, int, int]]]) -> None:
    shape, bounds = case
    out = tuple(len(range(*slice(b, e, s).indices(n))) for (b, e, s), n in zip(bounds, shape))
    props = ", ".join(f"{k} = [{', '.join(f'{x[i]} : i32' for x in bounds)}]" for i, k in enumerate(("begins", "ends", "step")))
    same_numbers(one_op("ttir.slice_static", [t(shape)], t(out), props), [strided(f32(*shape))])


@pytest.mark.parametrize("op", ["logical_and", "logical_or", "logical_xor", "logical_not"])
def test_logical_ops_on_i32_as_heads_hoisting_types_booleans(op: str) -> None:
    # The hoisting computes i1 values in i32 (HEAD's getCPUCompatibleElementType): non-zero is true.
    a = np.array([[0, 3, -2, 0], [1, 0, 7, 0]], np.int32)
    c = np.array([[0, 0, 5, 1], [1, -1, 0, 0]], np.int32)
    ins = [a] if op == "logical_not" else [a, c]
    fn = {"logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor, "logical_not": np.logical_not}[op]
    want = fn(*ins).astype(np.int32)
    same_numbers(one_op(f"ttir.{op}", [t((2, 4), "i32")] * len(ins), t((2, 4), "i32")), ins, want=[want])


@st.composite
def _along_a_dim(draw: st.DrawFn) -> tuple[tuple[int, ...], int, str]:
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    return shape, draw(st.integers(-len(shape), len(shape) - 1)), draw(st.sampled_from(["cumsum", "softmax", "argmax", "layer_norm"]))


@given(_along_a_dim())
def test_ops_along_a_dim_any_shape(case: tuple[tuple[int, ...], int, str]) -> None:
    """cumsum, softmax, argmax (keep_dim) and layer_norm (over the trailing dims from `dim`) of any
    small shape: lowerable, and the numbers of the TTIR interpreter."""
    shape, dim, op = case
    rank = len(shape)
    props = {"cumsum": f"dim = {dim} : i64", "softmax": f"dimension = {dim} : si32",
             "argmax": f"dim_arg = [{dim} : i32], keep_dim = true",
             "layer_norm": f"normalized_shape = array<i64: {', '.join(map(str, shape[dim % rank:]))}>, operandSegmentSizes = array<i32: 1, 0, 0>"}[op]  # fmt: skip
    out = t(tuple(1 if k == dim % rank else n for k, n in enumerate(shape)), "i32") if op == "argmax" else t(shape)
    text = one_op(f"ttir.{op}", [t(shape)], out, props)
    assert why_not(parse_module("module {\n" + text + "\n}").functions()[0].regions[0].blocks[0].ops[0]) is None
    same_numbers(text, [strided(f32(*shape))], rtol=1e-5, atol=1e-5)


def test_stablehlo_ops_of_a_cpu_module_become_ttir_and_lower() -> None:
    """tt-mlir's CPU fallback hoists StableHLO ops as they are: they go through TTIR to LLVM."""
    text = func([t((2, 3)), t((2, 3))], ['%0 = "stablehlo.add"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>',
                                         '%1 = "stablehlo.multiply"(%0, %arg1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>',
                                         "return %1 : tensor<2x3xf32>"], [t((2, 3))])  # fmt: skip
    x, y = f32(2, 3), f32(2, 3)
    same_numbers(text, [x, y], want=[(x + y) * y])
    assert "stablehlo." not in lowered_text(text)
