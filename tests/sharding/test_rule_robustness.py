"""Seeded random generic-form ops with odd shapes and properties: whatever the verifier accepts,
building its sharding rule (both variants) never raises anything but a Diagnostic."""

from __future__ import annotations

import random

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.sharding.rules import rule_for

R = random.Random(1)
_REDUCER = (' ({\n^bb0(%x: tensor<f32>, %y: tensor<f32>):\n'
            '  %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
            '  "stablehlo.return"(%s) : (tensor<f32>) -> ()\n})')
_WITH_REGION = ("stablehlo.reduce", "stablehlo.scatter", "stablehlo.reduce_window", "stablehlo.select_and_scatter",
                "stablehlo.sort", "stablehlo.map", "stablehlo.all_reduce")


def shape() -> list[int]:
    return [R.choice([1, 2, 4, 8]) for _ in range(R.randint(0, 4))]


def t(s: list[int]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in s) + "f32>"


def il(n: int | None = None) -> list[int]:
    return [R.randint(-1, 4) for _ in range(R.randint(0, 4) if n is None else n)]


def arr(v: list[int]) -> str:
    return "[" + ", ".join(map(str, v)) + "]"


def a64(v: list[int]) -> str:
    return "array<i64" + (": " + ", ".join(map(str, v)) if v else "") + ">"


OPS = {  # name -> () -> (operand count, result count, properties)
 "stablehlo.gather": lambda: (2, 1, {"dimension_numbers": f"#stablehlo.gather<offset_dims = {arr(il())}, collapsed_slice_dims = {arr(il())}, start_index_map = {arr(il())}, index_vector_dim = {R.randint(-1,3)}>", "slice_sizes": a64(il())}),
 "stablehlo.scatter": lambda: (3, 1, {"scatter_dimension_numbers": f"#stablehlo.scatter<update_window_dims = {arr(il())}, inserted_window_dims = {arr(il())}, scatter_dims_to_operand_dims = {arr(il())}, index_vector_dim = {R.randint(-1,3)}>"}),
 "stablehlo.convolution": lambda: (2, 1, {"dimension_numbers": R.choice(["#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>", "#stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>", "#stablehlo.conv<raw input_batch_dimension = %d, input_feature_dimension = 1, input_spatial_dimensions = %s, kernel_input_feature_dimension = 0, kernel_output_feature_dimension = 1, kernel_spatial_dimensions = %s, output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = %s>" % (R.randint(0,3), arr(il()), arr(il()), arr(il()))]), "feature_group_count": f"{R.randint(0,3)} : i64", "batch_group_count": f"{R.randint(0,3)} : i64"}),
 "stablehlo.reduce_window": lambda: (2, 1, {"window_dimensions": a64(il())}),
 "stablehlo.select_and_scatter": lambda: (3, 1, {"window_dimensions": a64(il())}),
 "stablehlo.sort": lambda: (R.randint(1,2), R.randint(1,2), {"dimension": f"{R.randint(-5,5)} : i64"}),
 "stablehlo.all_to_all": lambda: (1, 1, {"split_dimension": f"{R.randint(-1,4)} : i64", "concat_dimension": f"{R.randint(-1,4)} : i64", "split_count": "2 : i64"}),
 "stablehlo.fft": lambda: (1, 1, {"fft_type": "#stablehlo<fft_type FFT>", "fft_length": a64(il())}),
 "stablehlo.cholesky": lambda: (1, 1, {}),
 "stablehlo.dynamic_update_slice": lambda: (R.randint(2,5), 1, {}),
 "stablehlo.rng_bit_generator": lambda: (1, 2, {"rng_algorithm": "#stablehlo<rng_algorithm DEFAULT>"}),
 "stablehlo.bitcast_convert": lambda: (1, 1, {}),
 "stablehlo.reshape": lambda: (1, 1, {}),
 "stablehlo.pad": lambda: (2, 1, {"edge_padding_low": a64(il()), "edge_padding_high": a64(il()), "interior_padding": a64(il())}),
 "stablehlo.reverse": lambda: (1, 1, {"dimensions": a64(il())}),
 "stablehlo.slice": lambda: (1, 1, {"start_indices": a64(il()), "limit_indices": a64(il()), "strides": a64(il())}),
 "stablehlo.dynamic_slice": lambda: (R.randint(1,4), 1, {"slice_sizes": a64(il())}),
 "stablehlo.reduce": lambda: (2*R.randint(1,2), R.randint(1,2), {"dimensions": a64(il())}),
 "stablehlo.map": lambda: (R.randint(1,2), 1, {"dimensions": a64(il())}),
 "stablehlo.all_reduce": lambda: (R.randint(1,2), R.randint(1,2), {}),
 "stablehlo.clamp": lambda: (3, 1, {}),
 "stablehlo.select": lambda: (3, 1, {}),
 "chlo.top_k": lambda: (1, 2, {"k": "2 : i64"}),
 "chlo.broadcast_add": lambda: (2, 1, {}),
 "stablehlo.custom_call": lambda: (1, 1, {"call_target_name": '"Sharding"'}),
 "stablehlo.dot": lambda: (2, 1, {}),
}  # fmt: skip


def case(seed: int) -> tuple[str, str]:
    """(op name, module text) for one seeded case."""
    R.seed(seed)
    name = R.choice(sorted(OPS))
    nin, nout, props = OPS[name]()
    ins = [shape() for _ in range(nin)]
    outs = [R.choice([shape(), *ins]) for _ in range(nout)]
    if R.random() < 0.5 and ins:
        outs = [list(ins[0]) for _ in range(nout)]
    args = ", ".join(f"%a{i}: {t(s)}" for i, s in enumerate(ins))
    p = "<{" + ", ".join(f"{k} = {v}" for k, v in props.items()) + "}> " if props else ""
    region = _REDUCER if name in _WITH_REGION else ""
    res = ", ".join(t(s) for s in outs)
    rets = ", ".join(f"%0#{i}" if nout > 1 else "%0" for i in range(nout))
    count = f":{nout}" if nout > 1 else ""
    operands = ", ".join(f"%a{i}" for i in range(nin))
    return name, (f"func.func @main({args}) -> ({res}) {{\n"
                  f'  %0{count} = "{name}"({operands}) {p}{region} : ({", ".join(t(s) for s in ins)}) -> ({res})\n'
                  f"  return {rets} : {res}\n}}\n")


def test_verified_ops_always_get_a_rule_or_a_diagnostic() -> None:
    verified = 0
    for seed in range(1500):
        name, text = case(seed)
        m = parse_module(text)
        try:
            verify(m)
        except Diagnostic:
            continue
        verified += 1
        op = next(o for o in m.walk() if o.name == name)
        for conservative in (False, True):
            try:
                rule_for(op, conservative)
            except Diagnostic:
                pass
            except Exception as e:
                raise AssertionError(f"seed {seed}: {type(e).__name__}: {e}\n{text}") from e
    # Enough of the cases reach the rules for the test to mean something.
    assert verified > 300
