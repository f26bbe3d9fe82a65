"""ttir.distributed_layer_norm lowers as HEAD's TTNN decomposition leaves it: the residual added,
per-device statistics (layer_norm_pre_all_gather, 64 wide), their all_gather over the cluster axis
(none over one device), then layer_norm_post_all_gather with weight, bias and epsilon; HEAD's
verifiers' checks are errors at the op; the new ops are priced as norms."""

from __future__ import annotations

import re

import numpy as np
import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.parse.parser import parse_module
from ttopt.testing.ods_check import check_module
from ttopt.testing.ttir_interpreter import run
from ttopt.testing.ttnn_outputs import BACKEND, run_pipeline

NORM = """
module attributes {{ttcore.meshes = #ttcore.meshes<[<"mesh" = {mesh}>]>}} {{
  func.func @main(%x: tensor<1x1x32x128xbf16>, %w: tensor<{wshape}xbf16>, %b: tensor<128xbf16>, %r: tensor<1x1x32x128xbf16>) -> tensor<1x1x32x128xbf16> {{
    %0 = "ttir.distributed_layer_norm"({operands}) <{{cluster_axis = {axis} : ui32, epsilon = {eps} : f32, operandSegmentSizes = array<i32: {seg}>}}> : ({types}) -> tensor<1x1x32x128xbf16>
    return %0 : tensor<1x1x32x128xbf16>
  }}
}}
"""
X = "tensor<1x1x32x128xbf16>"


def _norm(seg: tuple[int, int, int, int] = (1, 1, 1, 1), mesh: str = "1x4", axis: int = 1, eps: str = "1.000000e-05", wshape: str = "128") -> str:
    names = [n for n, on in zip(("%x", "%w", "%b", "%r"), seg) if on]
    types = [t for t, on in zip((X, f"tensor<{wshape}xbf16>", "tensor<128xbf16>", X), seg) if on]
    return NORM.format(mesh=mesh, wshape=wshape, operands=", ".join(names), axis=axis, eps=eps, seg=", ".join(map(str, seg)), types=", ".join(types))


def _ops(module) -> list:  # type: ignore[no-untyped-def]
    fn = next(iter(module.functions()))
    return [op for op in fn.regions[0].entry.ops if op.name not in ("ttnn.deallocate", "func.return")]


@pytest.mark.parametrize("seg", [(1, 0, 0, 0), (1, 1, 1, 0), (1, 0, 0, 1), (1, 1, 1, 1), (1, 1, 0, 0)])
def test_decomposes_into_statistics_gather_and_normalization(ods, seg: tuple[int, int, int, int]) -> None:  # type: ignore[no-untyped-def]
    module = run_pipeline(_norm(seg), "norm.mlir", BACKEND.format(""))
    ops = _ops(module)
    assert [op.name for op in ops] == ["ttnn.add"] * seg[3] + ["ttnn.layer_norm_pre_all_gather", "ttnn.all_gather", "ttnn.layer_norm_post_all_gather"]
    *_, pre, gather, post = ops
    args = next(iter(module.functions())).regions[0].entry.args
    normalized = ops[0].results[0] if seg[3] else args[0]  # the residual sum feeds both steps
    assert pre.operands == [normalized] and post.operands[0] is normalized
    assert pre.results[0].type.resolve().shape == (1, 1, 32, 64)
    assert gather.results[0].type.resolve().shape == (1, 1, 32, 256)  # 64 per device, 4 devices
    assert gather.properties["all_gather_dim"].text == "3 : si32" and gather.properties["cluster_axis"].text == "1 : ui32"
    assert post.operands[1] is gather.results[0]
    assert post.operands[2:] == [a for a, on in zip(args[1:3], seg[1:3]) if on]
    assert post.properties["operandSegmentSizes"].text == f"array<i32: 1, 1, {seg[1]}, {seg[2]}>"
    assert post.properties["epsilon"].text.endswith(": f32")
    assert not check_module(module, ods)  # every op as HEAD's TTNNOps.td defines it


def test_one_device_on_the_cluster_axis_gathers_nothing() -> None:
    module = run_pipeline(_norm(mesh="1x4", axis=0), "norm.mlir", BACKEND.format(""))
    names = [op.name for op in _ops(module)]
    assert "ttnn.all_gather" not in names and names[-2:] == ["ttnn.layer_norm_pre_all_gather", "ttnn.layer_norm_post_all_gather"]
    post = _ops(module)[-1]
    assert post.operands[1].type.resolve().shape == (1, 1, 32, 64)


@pytest.mark.parametrize(("text", "message"), [
    (_norm(axis=2), "cluster_axis must be 0 or 1"),
    (_norm(eps="0.000000e+00"), "epsilon must be positive"),
    (_norm().replace("%r: tensor<1x1x32x128xbf16>", "%r: tensor<1x1x32x64xbf16>").replace(f"tensor<128xbf16>, {X})", "tensor<128xbf16>, tensor<1x1x32x64xbf16>)"),
     "residual tensor shape must match input tensor shape"),
    (_norm(wshape="64"), "weight tensor's last dimension must match input's last dimension"),
    (_norm(wshape="1x128"), "weight tensor must be 1D with size matching the last dimension of input"),
])  # fmt: skip
def test_rejects_what_heads_verifiers_reject(text: str, message: str) -> None:
    with pytest.raises(Diagnostic, match=rf"'ttir.distributed_layer_norm' {message}"):
        run_pipeline(text, "norm.mlir", BACKEND.format(""))


def test_new_ops_are_priced() -> None:
    from ttopt.device import CostModel
    from ttopt.device.device import load_device

    module = run_pipeline(_norm(), "norm.mlir", BACKEND.format(""))
    cm = CostModel(load_device(None, module))
    entries = {e.op.name: e for f in cm.module_cost(module) for e in f.ops}
    for name in ("ttnn.layer_norm_pre_all_gather", "ttnn.layer_norm_post_all_gather"):
        assert entries[name].cost is not None and entries[name].cost.ns > 0


def test_statistics_from_the_shards_normalize_as_the_op_does() -> None:
    """The decomposition's recipe (per-shard sum(x) and sum(x^2), gathered, then normalized per
    shard) computes the interpreter's one-device op on the whole row."""
    rng = np.random.default_rng(1)
    x, r = rng.standard_normal((1, 1, 32, 128)), rng.standard_normal((1, 1, 32, 128))
    w, b = rng.standard_normal(128), rng.standard_normal(128)
    text = re.sub(r"xbf16", "xf32", _norm(mesh="1x1", axis=0))
    (got,) = run(parse_module(text, "norm.mlir"), "main", [x.astype(np.float32), w.astype(np.float32), b.astype(np.float32), r.astype(np.float32)])
    s = (x + r).astype(np.float32).astype(np.float64)
    shards = np.split(s, 4, axis=-1)
    sums = sum(np.sum(p, axis=-1, keepdims=True) for p in shards)
    squares = sum(np.sum(p * p, axis=-1, keepdims=True) for p in shards)
    mean = sums / 128
    var = squares / 128 - mean * mean
    want = np.concatenate([(p - mean) / np.sqrt(var + 1e-5) for p in shards], axis=-1) * w + b
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
