"""The lowering's op families on real JAX output (testdata/lowering/families, written by
testdata/lowering/generate_families.py): sort / argsort / key-value sort, top-k, argmax / argmin,
CHLO ops (exact GELU's erfc), RNG, rounding / shifts / bitcast / optimization barrier, and the
element types tt-mlir normalizes (i64, ui32, ui8, i8, i1, f64).

Each file converts with `convert-stablehlo-to-ttir` to TTIR that re-parses and verifies with no
StableHLO/CHLO left; the numpy interpreter run on the StableHLO input and on the TTIR output gives
JAX's own results on random inputs (RNG: the shapes, types and ranges); and
`ttir-to-ttnn-backend-pipeline` takes the TTIR to TTNN that re-parses and verifies. Also: constants
narrowed to TTNN's 32-bit types get converted values that MLIR (jaxlib) accepts.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.passes.pipeline import instantiate, parse_pipeline
from ttopt.testing.ttir_interpreter import dtype_of, run, shape_of

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ROOT / "testdata" / "lowering" / "families"
NAMES = sorted(p.stem for p in FAMILIES.glob("*.mlir"))
RANDOM = {"rng"}  # results drawn at random: shapes, types and ranges only
UNIT_INTERVAL = {"chlo_unary": {1}}  # argument positions drawn from (-0.9, 0.9) (acos, asin, atanh)


def _generator() -> Any:
    jax = pytest.importorskip("jax")
    spec = importlib.util.spec_from_file_location("generate_families", ROOT / "testdata" / "lowering" / "generate_families.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return jax, mod


def _run_passes(text: str, pipeline: str, name: str) -> str:
    m = parse_module(text, name)
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(m)
    return print_module(m)


def _inputs(module: Any, name: str, seed: int) -> list[Any]:
    f = next(f for f in module.functions() if f.properties["sym_name"].value == "main")
    rng = np.random.default_rng(seed)
    out = []
    for i, a in enumerate(f.regions[0].blocks[0].args):
        dt, shape = np.dtype(dtype_of(a.type)), shape_of(a.type)
        if dt == np.bool_:
            out.append(rng.random(shape) < 0.5)
        elif dt.kind in "iu":
            hi = 31 if name == "bits" and i == 2 else 100
            out.append(rng.integers(0 if dt.kind == "u" else -100, hi, shape).astype(dt))
        elif i in UNIT_INTERVAL.get(name, ()):
            out.append(rng.uniform(-0.9, 0.9, shape).astype(dt))
        else:
            # distinct values: sort and argmax ties would make the order implementation-defined
            out.append((rng.permutation(int(np.prod(shape))).reshape(shape) / 7.0 - 2.0).astype(dt))
    return out


def _same(got: Any, want: Any, what: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got.astype(want.dtype), want, err_msg=what)
    else:
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=2e-5, atol=1e-6, err_msg=what)


@pytest.mark.parametrize("name", NAMES)
def test_family_lowers_to_ttir_and_keeps_jax_numbers(name: str) -> None:
    jax, gen = _generator()
    text = (FAMILIES / f"{name}.mlir").read_text()
    assert gen.render(name) == text, f"{name}.mlir is stale: run testdata/lowering/generate_families.py"
    ttir = _run_passes(text, "builtin.module(convert-stablehlo-to-ttir)", name)
    after = parse_module(ttir, name)
    verify(after, check_uses=True)
    assert not [op.name for op in after.walk() if op.dialect in ("stablehlo", "chlo")]
    before = parse_module(text, name)
    fn, _ = gen.CASES[name]
    for seed in (0, 1):
        ins = _inputs(before, name, seed)
        with jax.enable_x64(name in gen.X64):
            want = [np.asarray(w) for w in jax.tree_util.tree_leaves(jax.jit(fn)(*ins))]
        for label, module in (("stablehlo", before), ("ttir", after)):
            got = run(module, "main", ins)
            assert len(got) == len(want)
            for i, (g, w) in enumerate(zip(got, want)):
                if name in RANDOM:
                    assert (g.shape, g.dtype) == (w.shape, w.dtype), (label, i)
                    continue
                _same(g, w, f"{name} {label} result {i} (seed {seed})")
    if name == "rng":
        state, bits, uniform = run(after, "main", _inputs(before, name, 0))
        assert np.all((uniform >= -1.0) & (uniform < 2.0)) and bits.dtype == np.uint32


@pytest.mark.parametrize("name", NAMES)
def test_family_reaches_ttnn(name: str) -> None:
    text = (FAMILIES / f"{name}.mlir").read_text()
    ttnn = _run_passes(text, "builtin.module(convert-stablehlo-to-ttir, ttir-to-ttnn-backend-pipeline)", name)
    again = parse_module(ttnn, name)
    verify(again)
    # A TTNN program as tt-mlir prints it has these ttcore ops: the device, its module wrappers, const-eval calls.
    program = {"ttcore.load_cached", "ttcore.device", "ttcore.device_module", "ttcore.cpu_module"}
    left = sorted({op.name for op in again.walk()
                   if op.dialect in ("stablehlo", "chlo", "ttir", "ttcore") and op.name not in program})  # fmt: skip
    assert not left, left


NARROWING = """
func.func @main(%x: tensor<3xi64>) -> (tensor<3xi64>, tensor<2xui64>, tensor<2xf64>, tensor<2xi8>, tensor<4xi1>) {
  %c = "ttir.constant"() <{value = dense<[4294967296, -5, -9223372036854775808]> : tensor<3xi64>}> : () -> tensor<3xi64>
  %0 = "ttir.add"(%x, %c) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %u = "ttir.constant"() <{value = dense<[4294967295, 18446744073709551615]> : tensor<2xui64>}> : () -> tensor<2xui64>
  %f = "ttir.constant"() <{value = dense<[1.0e300, 0x3FB999999999999A]> : tensor<2xf64>}> : () -> tensor<2xf64>
  %i = "ttir.constant"() <{value = dense<"0xFF07"> : tensor<2xi8>}> : () -> tensor<2xi8>
  %b = "ttir.constant"() <{value = dense<"0x01000100"> : tensor<4xi1>}> : () -> tensor<4xi1>
  return %0, %u, %f, %i, %b : tensor<3xi64>, tensor<2xui64>, tensor<2xf64>, tensor<2xi8>, tensor<4xi1>
}
"""


def test_narrowed_constants_get_converted_values_mlir_accepts() -> None:
    out = _run_passes(NARROWING, "builtin.module(convert-ttir-to-ttnn)", "narrowing.mlir")
    consts = re.findall(r"value = (dense<[^>]*> : tensor<[^>]*>)", out)
    # The constants behind the add are hoisted to the front in reverse order, as MLIR's canonicalizer
    # moves them (hoist_constants); the first one stays where it is.
    assert consts == [
        "dense<[1.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00]> : tensor<4xbf16>",
        "dense<[255, 7]> : tensor<2xui8>",  # i8 -1 keeps its bits as ui8
        "dense<[0x7F800000, 1.000000e-01]> : tensor<2xf32>",  # 1e300 overflows f32 to +inf
        "dense<4294967295> : tensor<2xui32>",  # both saturate to the ui32 maximum
        "dense<[2147483647, -5, -2147483648]> : tensor<3xsi32>",  # saturated to the si32 range (HEAD's Int32)
    ], consts
    pytest.importorskip("jax")
    from jax._src.lib.mlir import ir

    with ir.Context():
        for c in consts:
            ir.Attribute.parse(c)


def test_unconvertible_constant_is_an_error_at_the_op() -> None:
    text = 'func.func @main() -> tensor<2xi64> {\n  %c = "ttir.constant"() <{value = dense<[(1, 2), (3, 4)]> : tensor<2xi64>}> : () -> tensor<2xi64>\n  return %c : tensor<2xi64>\n}\n'
    from ttopt.ir.diagnostics import Diagnostic

    with pytest.raises(Diagnostic) as e:
        _run_passes(text, "builtin.module(convert-ttir-to-ttnn)", "bad.mlir")
    assert "'ttir.constant' has a constant of element type i64 that cannot be converted to si32" in e.value.message
    assert e.value.render().startswith("bad.mlir:2:")


def test_interpreter_reads_hex_literals_of_float_elements_as_bit_patterns() -> None:
    m = parse_module("""func.func @main() -> (tensor<3xf32>, tensor<2xbf16>, tensor<2xf64>) {
  %0 = "ttir.constant"() <{value = dense<[0x7F800000, 1.5, 0xFF800000]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %1 = "ttir.constant"() <{value = dense<[0x3F80, 2.0]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  %2 = "ttir.constant"() <{value = dense<[0x3FF0000000000000, 3.0]> : tensor<2xf64>}> : () -> tensor<2xf64>
  return %0, %1, %2 : tensor<3xf32>, tensor<2xbf16>, tensor<2xf64>
}""")
    a, b, c = run(m, "main", [])
    assert list(a) == [np.inf, 1.5, -np.inf] and [float(v) for v in b] == [1.0, 2.0] and list(c) == [1.0, 3.0]


def test_batch_norm_inference_and_dimension_size_keep_the_numbers() -> None:
    text = """func.func @main(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<i32>) {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %1 = stablehlo.get_dimension_size %x, dim = 2 : (tensor<2x3x4xf32>) -> tensor<i32>
  return %0, %1 : tensor<2x3x4xf32>, tensor<i32>
}"""
    before = parse_module(text)
    after = parse_module(_run_passes(text, "builtin.module(convert-stablehlo-to-ttir)", "bn.mlir"))
    verify(after)
    assert [op.name for op in after.walk() if op.dialect == "ttir"] == ["ttir.batch_norm_inference", "ttir.constant"]
    rng = np.random.default_rng(0)
    ins = [rng.standard_normal(s).astype(np.float32) for s in ((2, 3, 4), (3,), (3,), (3,))] + [rng.random(3).astype(np.float32)]
    want, got = run(before, "main", ins), run(after, "main", ins)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    assert int(got[1]) == int(want[1]) == 4
    x, s, o, m, v = (a.astype(np.float64) for a in ins)
    ref = (x - m[:, None]) / np.sqrt(v[:, None] + 1e-3) * s[:, None] + o[:, None]
    np.testing.assert_allclose(got[0], ref, rtol=1e-5)
