"""stablehlo.batch_norm_grad -> HEAD's elementwise decomposition: the TTIR interpreter's gradients
agree with the closed form of batch norm's backward pass (numpy, float64); batch_norm_training ->
ttir.batch_norm_training with zero/one running statistics and momentum 1."""

from __future__ import annotations

import numpy as np

from tests.lowering.test_stablehlo_to_ttir import lower
from ttopt.parse.parser import parse_module
from ttopt.testing.ttir_interpreter import run

GRAD = """func.func @main(%x: tensor<2x3x4x5xf32>, %scale: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>, %g: tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %g) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
}"""


def _reference(x, scale, mean, var, g, eps):  # type: ignore[no-untyped-def]
    axes = (0, 2, 3)
    b = lambda v: v.reshape(1, -1, 1, 1)  # noqa: E731
    n = x.size / x.shape[1]
    c = x - b(mean)
    s = np.sqrt(b(var) + eps)
    grad_x = b(scale) / s / n * (g * n - b(g.sum(axes)) - b((g * c).sum(axes)) * c / (b(var) + eps))
    return grad_x, (g * c / s).sum(axes), g.sum(axes)


def test_batch_norm_grad_matches_the_closed_form() -> None:
    printed = lower(GRAD)
    assert "stablehlo." not in printed and '"ttir.sqrt"' in printed
    rng = np.random.default_rng(0)
    x, g = (rng.standard_normal((2, 3, 4, 5)) for _ in range(2))
    scale, mean = rng.standard_normal(3), rng.standard_normal(3)
    var = rng.random(3) + 0.5
    ins = [a.astype(np.float32) for a in (x, scale, mean, var, g)]
    got = run(parse_module(printed, "bn.mlir"), "main", ins)
    for w, o in zip(_reference(x, scale, mean, var, g, 1e-3), got):
        np.testing.assert_allclose(o.astype(np.float64), w, rtol=1e-4, atol=1e-5)


def test_batch_norm_training_starts_from_zero_and_one_statistics() -> None:
    printed = lower("""func.func @main(%x: tensor<2x2x2x2xf32>, %s: tensor<2xf32>, %o: tensor<2xf32>) -> tensor<2xf32> {
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %0#1 : tensor<2xf32>
}""")
    assert '"ttir.zeros"() <{shape = array<i32: 2>}> : () -> tensor<2xf32>' in printed
    assert '"ttir.ones"() <{shape = array<i32: 2>}> : () -> tensor<2xf32>' in printed
    assert ('%result, %batch_mean, %batch_variance = "ttir.batch_norm_training"(%arg0, %arg1, %arg2, %0, %1) '
            "<{dimension = 1 : i32, epsilon = 0.000000e+00 : f32, momentum = 1.000000e+00 : f32}>") in printed
    assert "return %batch_mean : tensor<2xf32>" in printed
