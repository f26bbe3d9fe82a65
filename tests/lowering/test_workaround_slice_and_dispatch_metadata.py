"""ttnn-workaround's slice_static decomposition (a slice whose double-buffered output row overflows
L1 runs between two permutes) and all_to_all_dispatch_metadata's operand workarounds (row-major L1
interleaved inputs on their own grid, height-sharded indices and scores), as HEAD applies them."""

from __future__ import annotations

from math import ceil
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.dialects.ttnn_layout import BufferType, TensorMemoryLayout, TTNNLayoutAttr
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.operation import Block
from ttopt.ir.printer import print_module
from ttopt.ir.properties import int_values
from ttopt.ir.verifier import verify
from ttopt.lowering.ttnn_workaround_decompositions import Decomposer
from ttopt.lowering.ttnn_workarounds import To, _Caster
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.rewrite import LayoutAliaser
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.registry import get_pass


def _ty(shape: tuple[int, ...], dtype: str, **kw: Any) -> str:
    body = TTNNLayoutAttr.build(shape, dtype, **kw).print_body()
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}, #ttnn.ttnn_layout<{body}>>"


def _slice_module(shape: tuple[int, ...], begins: tuple[int, ...], ends: tuple[int, ...], steps: tuple[int, ...],
                  dtype: str = "bf16") -> str:  # fmt: skip
    out = tuple(ceil((e - b) / s) for b, e, s in zip(begins, ends, steps))
    t, o = _ty(shape, dtype), _ty(out, dtype)
    return (f"func.func @f(%x: {t}) -> {o} {{\n"
            f'  %0 = "ttnn.slice_static"(%x) <{{begins = {i32s(begins)}, ends = {i32s(ends)}, step = {i32s(steps)}}}> : ({t}) -> {o}\n'
            f"  return %0 : {o}\n}}\n")  # fmt: skip


def i32s(values: tuple[int, ...]) -> str:
    return "[" + ", ".join(f"{x} : i32" for x in values) + "]"


def _run(text: str, preset: str | None = None) -> Any:
    module = parse_module(text, "t.mlir")
    if preset is not None:
        get_pass("ttcore-register-device")(system_desc_path=preset).run(module, PassContext())
    get_pass("ttnn-workaround")().run(module, PassContext())
    again = parse_module(print_module(module), "t (ttopt output)")
    verify(again)
    return again


def _ops(module: Any) -> list[Any]:
    return [op for op in module.functions()[0].regions[0].entry.ops if op.name != "func.return"]


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in v.type.resolve().shape)


def test_a_row_past_l1_is_sliced_on_the_nearest_dim_that_fits() -> None:
    # 400000 bf16 (every other of 800000) twice (1.6 MB) overflow wormhole_b0's 1498112 B; dim 1 is
    # the nearest that fits.
    ops = _ops(_run(_slice_module((2, 3, 800000), (0, 1, 0), (2, 3, 800000), (1, 1, 2))))
    assert [op.name for op in ops] == ["ttnn.permute", "ttnn.slice_static", "ttnn.permute"]
    forward, cut, back = ops
    assert list(int_values(forward.properties["permutation"])) == [0, 2, 1] == list(int_values(back.properties["permutation"]))
    assert [list(int_values(cut.properties[k])) for k in ("begins", "ends", "step")] == [[0, 0, 1], [2, 800000, 3], [1, 2, 1]]
    assert _shape(forward.results[0]) == (2, 800000, 3) and _shape(cut.results[0]) == (2, 400000, 2)
    assert _shape(back.results[0]) == (2, 2, 400000)


def test_a_row_that_fits_twice_stays() -> None:
    # 374528 bf16 twice are exactly wormhole_b0's usable 1498112 B.
    ops = _ops(_run(_slice_module((2, 3, 374528), (0, 1, 0), (2, 2, 374528), (1, 1, 1))))
    assert [op.name for op in ops] == ["ttnn.slice_static"]
    ops = _ops(_run(_slice_module((2, 3, 374529), (0, 1, 0), (2, 2, 374529), (1, 1, 1))))
    assert [op.name for op in ops] == ["ttnn.permute", "ttnn.slice_static", "ttnn.permute"]


def test_the_budget_is_the_module_chips_l1() -> None:
    # 360000 bf16 twice (1.44 MB) fit wormhole_b0 (1498112 B above its base), not n150 (1397984 B).
    text = _slice_module((1, 2, 360000), (0, 0, 0), (1, 1, 360000), (1, 1, 1))
    assert [op.name for op in _ops(_run(text, "wormhole_b0"))] == ["ttnn.slice_static"]
    assert [op.name for op in _ops(_run(text, "n150"))] == ["ttnn.permute", "ttnn.slice_static", "ttnn.permute"]


def test_no_dim_that_fits_leaves_the_slice() -> None:
    ops = _ops(_run(_slice_module((400000, 400000), (0, 0), (400000, 400000), (1, 1))))
    assert [op.name for op in ops] == ["ttnn.slice_static"]


def test_the_swap_prefers_the_dim_nearest_the_last() -> None:
    # f32 twice: 8 bytes a column; in 199 B dim 0 (16) and dim 1 (24) fit, dim 2 (25) does not.
    module = parse_module(_slice_module((16, 24, 30), (0, 0, 0), (16, 24, 25), (1, 1, 1), "f32"), "t.mlir")
    op = _ops(module)[0]
    rewrite = Decomposer(LayoutAliaser(module), lambda: None, lambda: 199).rewrite(op)
    assert rewrite is not None and list(int_values(rewrite[0][0].properties["permutation"])) == [0, 2, 1]
    module = parse_module(_slice_module((16, 30, 30), (0, 0, 0), (16, 30, 25), (1, 1, 1), "f32"), "t.mlir")
    rewrite = Decomposer(LayoutAliaser(module), lambda: None, lambda: 199).rewrite(_ops(module)[0])
    assert rewrite is not None and list(int_values(rewrite[0][0].properties["permutation"])) == [2, 1, 0]


@st.composite
def _slices(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=2, max_size=4)))
    begins, ends, steps = [], [], []
    for n in shape:
        b = draw(st.integers(0, n - 1))
        begins.append(b)
        ends.append(draw(st.integers(b + 1, n)))
        steps.append(draw(st.integers(1, 3)))
    return shape, tuple(begins), tuple(ends), tuple(steps)


@settings(max_examples=60, deadline=None)
@given(_slices(), st.integers(8, 48))
def test_the_permuted_slice_computes_the_slice(case: tuple, budget: int) -> None:
    """Whatever dim is swapped in, permute -> slice -> permute picks the elements the slice picks."""
    shape, begins, ends, steps = case
    module = parse_module(_slice_module(shape, begins, ends, steps, "f32"), "t.mlir")
    op = _ops(module)[0]
    out = _shape(op.results[0])
    rewrite = Decomposer(LayoutAliaser(module), lambda: None, lambda: budget).rewrite(op)
    fits = [n * 4 * 2 <= budget for n in out]
    assert (rewrite is None) == (fits[-1] or not any(fits[:-1]))
    if rewrite is None:
        return
    x = np.arange(np.prod(shape)).reshape(shape)
    want = x[tuple(slice(b, e, s) for b, e, s in zip(begins, ends, steps))]
    forward, cut, back = rewrite[0]
    y = np.transpose(x, list(int_values(forward.properties["permutation"])))
    assert y.shape == _shape(forward.results[0])
    bounds = zip(*(int_values(cut.properties[k]) or () for k in ("begins", "ends", "step")))
    y = y[tuple(slice(b, e, s) for b, e, s in bounds)]
    assert y.shape == _shape(cut.results[0])
    y = np.transpose(y, list(int_values(back.properties["permutation"])))
    assert np.array_equal(y, want) and y.shape == _shape(back.results[0])
    assert back.results[0].type is op.results[0].type  # the declared type stays


DISPATCH = """func.func @f(%x: {x}, %i: {i}, %s: {x4}, %m: {m}) -> ({d}, {io}, {so}) {{
  %0:3 = "ttnn.all_to_all_dispatch_metadata"(%x, %i, %s, %m) <{{cluster_axis = 1 : i64, num_devices = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}}> : ({x}, {i}, {x4}, {m}) -> ({d}, {io}, {so})
  return %0#0, %0#1, %0#2 : {d}, {io}, {so}
}}
"""


def _dispatch(**kw: Any) -> str:
    return DISPATCH.format(x=_ty((1, 1, 32, 128), "bf16", **kw), i=_ty((1, 1, 32, 4), "ui16", tiled=False),
                           x4=_ty((1, 1, 32, 4), "bf16", **kw), m=_ty((8, 4), "ui16", tiled=False),
                           d=_ty((1, 64, 128), "bf16"), io=_ty((1, 64, 4), "ui16", tiled=False), so=_ty((1, 64, 4), "bf16"))  # fmt: skip


def test_dispatch_metadata_reads_l1_interleaved_rows_on_the_dram_grid() -> None:
    ops = _ops(_run(_dispatch()))
    op = next(o for o in ops if o.name == "ttnn.all_to_all_dispatch_metadata")
    ins = [current_layout(v.type) for v in op.operands]
    for lay, n in zip(ins[:3], (32 * 128, 32 * 4, 32 * 4)):
        assert (lay.buffer_type, lay.memory_layout, lay.grid, lay.shard_shape, lay.is_tiled) == \
            (BufferType.L1, TensorMemoryLayout.INTERLEAVED, (1, 1), (1, n), False)  # fmt: skip
    assert [lay.dtype.value for lay in ins] == ["bf16", "u16", "bf16", "u16"]
    assert isinstance(op.operands[3].owner, Block)  # the mapping is row-major ui16 already
    outs = [current_layout(r.type) for r in op.results]
    assert (outs[0].buffer_type, outs[0].is_tiled) == (BufferType.DRAM, False)
    for lay in outs[1:]:
        assert (lay.buffer_type, lay.memory_layout, lay.grid, lay.shard_shape) == (BufferType.L1, TensorMemoryLayout.HEIGHT_SHARDED, (1, 1), (64, 4))
        assert lay.core_ranges is not None and lay.core_ranges.short_text() == "<[#ttnn.core_range<(0, 0), (0, 0)>]>"
    # Each result goes back to its declared layout (tiled / row-major DRAM interleaved) before the return.
    ret = ops[0].parent.ops[-1]
    assert [v.owner.name for v in ret.operands] == ["ttnn.to_tensor_spec"] * 3
    assert [v.owner.operands[0] for v in ret.operands] == op.results
    assert [(current_layout(v.type).buffer_type, current_layout(v.type).is_tiled) for v in ret.operands] == \
        [(BufferType.DRAM, True), (BufferType.DRAM, False), (BufferType.DRAM, True)]  # fmt: skip


def test_dispatch_metadata_inputs_already_in_l1_keep_their_grid() -> None:
    ops = _ops(_run(_dispatch(buffer_type="l1", tiled=False)))
    op = next(o for o in ops if o.name == "ttnn.all_to_all_dispatch_metadata")
    assert isinstance(op.operands[0].owner, Block)  # bf16 row-major L1 interleaved as it is
    assert current_layout(op.operands[0].type).grid == (8, 8)


def test_a_grid_that_cannot_be_height_sharded_shards_on_one_core() -> None:
    module = parse_module(_dispatch(), "t.mlir")
    caster = _Caster(module)
    t = parse_module(f'func.func @g(%a: {_ty((64, 64), "bf16", buffer_type="l1")}) {{\n  return\n}}\n', "g.mlir")
    arg = t.functions()[0].regions[0].entry.args[0]
    target = To(tiled=False, buffer=BufferType.L1, memory=TensorMemoryLayout.HEIGHT_SHARDED)
    lay = current_layout(caster.retyped(arg.type.resolve(), target))
    assert (lay.grid, lay.shard_shape, lay.memory_layout) == ((1, 1), (64, 64), TensorMemoryLayout.HEIGHT_SHARDED)
    t = parse_module(f'func.func @g(%a: {_ty((64, 64), "bf16", buffer_type="l1", memory_layout="height_sharded", grid=2)}) {{\n  return\n}}\n', "g.mlir")
    arg = t.functions()[0].regions[0].entry.args[0]
    lay = current_layout(caster.retyped(arg.type.resolve(), To(dtype=None, tiled=False, buffer=BufferType.L1,
                                                              memory=TensorMemoryLayout.INTERLEAVED)))  # fmt: skip
    assert (lay.grid, lay.shard_shape, lay.memory_layout) == ((2, 1), (1, 2048), TensorMemoryLayout.INTERLEAVED)


def test_a_bad_system_desc_is_an_error_at_it() -> None:
    desc = ('#ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], '
            "[{arch = <wormhole_b0>, grid = 8x8, l1_size = 1024}], [0], [1 : i32], [ 0x0x0x0]>")  # fmt: skip
    text = f"module attributes {{ttcore.system_desc = {desc}}} {{\n{_slice_module((2, 3, 64), (0, 0, 0), (2, 1, 64), (1, 1, 1))}}}\n"
    with pytest.raises(Diagnostic, match="ttnn-workaround: .*num_dram_channels"):
        _run(text)
