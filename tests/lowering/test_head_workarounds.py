"""convert-ttir-to-ttnn's implicit-broadcast fold (on by default, off with the backend pipeline's
enable-implicit-broadcast-folding-pass=false; a repeat after the op when every operand was a
folded broadcast), ttnn-workaround's embedding_bw data types and the rank-1 gather workaround, as
HEAD applies them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.backend_pipeline import TTIRToTTNNBackendPipeline
from ttopt.lowering.ttir_to_ttnn import _implicit_shape
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext

BOTH = """func.func @f(%a: tensor<1x128xf32>, %b: tensor<1x128xf32>) -> tensor<784x128xf32> {
  %0 = "ttir.broadcast"(%a) <{broadcast_dimensions = array<i64: 784, 1>}> : (tensor<1x128xf32>) -> tensor<784x128xf32>
  %1 = "ttir.broadcast"(%b) <{broadcast_dimensions = array<i64: 784, 1>}> : (tensor<1x128xf32>) -> tensor<784x128xf32>
  %2 = "ttir.add"(%0, %1) : (tensor<784x128xf32>, tensor<784x128xf32>) -> tensor<784x128xf32>
  return %2 : tensor<784x128xf32>
}
"""

EMB_BW = """func.func @f(%i: tensor<1x32xf32>, %w: tensor<512x128xf32>, %g: tensor<1x32x128xf32>) -> tensor<512x128xf32> {
  %0 = "ttir.embedding_backward"(%i, %w, %g) : (tensor<1x32xf32>, tensor<512x128xf32>, tensor<1x32x128xf32>) -> tensor<512x128xf32>
  return %0 : tensor<512x128xf32>
}
"""


def _lower(text: str, **options: object) -> Any:
    module = parse_module(text, "t.mlir")
    TTIRToTTNNBackendPipeline(**options).run(module, PassContext())
    again = parse_module(print_module(module), "t (ttopt output)")
    verify(again)
    return again


def _ops(module: Any) -> list[Any]:
    return [op for op in module.functions()[0].regions[0].entry.ops if op.name not in ("ttnn.deallocate", "func.return")]


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(v.type.resolve().shape)


def test_both_operands_folded_repeat_the_result() -> None:
    ops = _ops(_lower(BOTH))
    assert [op.name for op in ops] == ["ttnn.add", "ttnn.repeat"]
    add, rep = ops
    assert _shape(add.results[0]) == (1, 128)
    assert rep.operands[0] is add.results[0] and _shape(rep.results[0]) == (784, 128)
    assert "784x1" in rep.properties["repeat_dims"].text


def test_folding_off_keeps_the_broadcasts_as_repeats() -> None:
    ops = _ops(_lower(BOTH, enable_implicit_broadcast_folding_pass=False))
    assert [op.name for op in ops] == ["ttnn.repeat", "ttnn.repeat", "ttnn.add"]
    assert _shape(ops[2].results[0]) == (784, 128)


@pytest.mark.parametrize(
    "shapes, expected",
    [([(1, 128), (1, 128)], (1, 128)), ([(784, 1), (1, 128)], (784, 128)), ([(128,), (4, 1, 128)], (4, 1, 128)),
     ([(3, 2), (4, 2)], None), ([(2, None)], None)],
)  # fmt: skip
def test_implicit_shape(shapes: list, expected: tuple | None) -> None:
    assert _implicit_shape(shapes) == expected


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data())
def test_implicit_shape_of_ones_and_the_shape_is_the_shape(shape: list[int], data: st.DataObject) -> None:
    ones = [d if data.draw(st.booleans()) else 1 for d in shape]
    assert _implicit_shape([tuple(ones), tuple(shape)]) == tuple(shape)
    assert _implicit_shape([tuple(shape), tuple(ones)]) == tuple(shape)


def test_embedding_bw_runs_in_bf16_with_ui32_indices() -> None:
    ops = _ops(_lower(EMB_BW))
    emb = next(op for op in ops if op.name == "ttnn.embedding_bw")
    dtypes = [v.type.resolve().element_type.resolve().text for v in emb.operands if hasattr(v.type.resolve(), "shape")]
    assert dtypes == ["ui32", "bf16", "bf16"]
    assert emb.results[0].type.resolve().element_type.resolve().text == "bf16"
    (back,) = [u for u in emb.results[0].users if u.name != "ttnn.deallocate"]
    assert back.name == "ttnn.typecast" and back.results[0].type.resolve().element_type.resolve().text == "f32"


GATHER_1D = """func.func @f(%x: tensor<8xf32>, %i: tensor<3xui32>) -> tensor<3xf32> {
  %0 = "ttir.gather"(%x, %i) <{dim = 0 : i32}> : (tensor<8xf32>, tensor<3xui32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""


def test_rank1_gather_runs_on_rank2() -> None:
    ops = _ops(_lower(GATHER_1D))
    assert [op.name for op in ops] == ["ttnn.reshape", "ttnn.reshape", "ttnn.gather", "ttnn.reshape"]
    gather = ops[2]
    assert [_shape(v) for v in gather.operands] == [(1, 8), (1, 3)] and _shape(gather.results[0]) == (1, 3)
    assert gather.properties["dim"].text == "1 : si32"
    assert _shape(ops[3].results[0]) == (3,)


SCATTER = """func.func @f(%x: tensor<1000x32xf32>, %i: tensor<10x32xi64>, %s: tensor<10x32xf32>) -> tensor<1000x32xf32> {
  %0 = "ttir.scatter"(%x, %i, %s) <{dim = 0 : i32, scatter_reduce_type = #ttcore.reduce_type<invalid>}> : (tensor<1000x32xf32>, tensor<10x32xi64>, tensor<10x32xf32>) -> tensor<1000x32xf32>
  return %0 : tensor<1000x32xf32>
}
"""


def test_scatter_runs_row_major_and_tiles_its_result() -> None:
    from ttopt.optimizer.analyses import current_layout

    ops = _ops(_lower(SCATTER))
    assert [op.name for op in ops] == ["ttnn.to_layout"] * 3 + ["ttnn.scatter", "ttnn.to_layout"]
    scatter = ops[3]
    assert all(not current_layout(v.type).is_tiled for v in [*scatter.operands, *scatter.results])
    assert current_layout(ops[4].results[0].type).is_tiled


def test_with_the_optimizer_a_data_type_that_only_serves_a_page_layout_goes_with_it() -> None:
    """HEAD casts a bfp_bf8 conv activation to bf16 only to make it row-major: from optimization
    level 1 (no page-layout workaround for conv) neither happens; a plain data type change stays."""
    from ttopt.dialects.ttcore_attrs import DataType
    from ttopt.lowering.ttnn_workarounds import To, _target

    assert _target(To(DataType.BF16, tiled=False, for_layout=True), layouts=False) == To()
    assert _target(To(DataType.BF16, tiled=False, for_layout=True), layouts=True) == To(DataType.BF16, tiled=False, for_layout=True)
    assert _target(To(DataType.U32, tiled=False), layouts=False) == To(DataType.U32)
    assert _target(DataType.BF16, layouts=False) == To(DataType.BF16)
