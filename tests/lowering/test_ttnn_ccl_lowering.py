"""Multi-device TTIR -> TTNN as tt-mlir HEAD converts it: mesh_shard to distribute/aggregate_tensor,
collectives without a device operand (folded over a one-device axis, HEAD's reshape and compute
config workarounds), collective_permute / collective_broadcast / all_to_all through point_to_point, on the module's mesh,
through convert-ttir-to-ttnn (layouts) and convert-to-ttnn-ccl (TTIR types) alike. Every output
passes HEAD's ODS when a tt-mlir mirror is there."""

from __future__ import annotations

import re

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.registry import get_pass
from ttopt.sharding.ttnn_collectives import linear_to_coord
from ttopt.sharding.ttnn_mesh_shard import composer_config, mapper_config
from ttopt.testing.ods_check import check_module


def _module(mesh: str, body: str, args: str, results: str) -> str:
    return (f'module attributes {{ttcore.meshes = #ttcore.meshes<[<"mesh" = {mesh}>]>}} {{\n'
            f"  func.func @f({args}) -> {results} {{\n{body}\n  }}\n}}\n")  # fmt: skip


def _run(text: str, passes: tuple[str, ...] = ("ttir-to-ttnn-backend-pipeline",)) -> tuple[str, object]:
    m = parse_module(text)
    ctx = PassContext()
    for name in passes:
        cls = get_pass(name)
        assert cls is not None
        cls().run(m, ctx)
    return print_module(m), m


def _ops(text: str) -> list[str]:
    return re.findall(r'"(ttnn\.[a-z_0-9]+)"', text)


def test_mapper_config_places_each_mesh_axis() -> None:
    assert mapper_config("devices", [0, -1], (2, 4)).print() == (
        "#ttnn.mesh_mapper_config<placements = [<shard, 0 : i32>, <replicate, -1 : i32>], mesh_shape_override = [2 : ui32, 4 : ui32]>")
    assert mapper_config("replicate", [-1], (1, 2)).print() == (
        "#ttnn.mesh_mapper_config<placements = [<replicate, -1 : i32>, <replicate, -1 : i32>], mesh_shape_override = [1 : ui32, 2 : ui32]>")


def test_composer_config_gives_an_unsharded_axis_the_last_free_dimension() -> None:
    # shard_dims [-1, 0] on a 1x2 mesh: axis 0 shards nothing and takes dimension 1 over one device.
    assert composer_config("devices", [-1, 0], 2, (1, 2)).print() == (
        "#ttnn.mesh_composer_config<dims = [1 : i32, 0 : i32], mesh_shape_override = [1 : ui32, 2 : ui32]>")
    assert composer_config("devices", [1, 0], 3, (2, 4)).print() == (
        "#ttnn.mesh_composer_config<dims = [1 : i32, 0 : i32], mesh_shape_override = [2 : ui32, 4 : ui32]>")
    assert composer_config("replicate", [-1], 2, (2, 4)).print() == (
        "#ttnn.mesh_composer_config<dims = [0 : i32], mesh_shape_override = [1 : ui32]>")


def test_linear_device_ids_are_row_major() -> None:
    assert [linear_to_coord(d, (2, 4)) for d in (0, 3, 4, 7)] == [(0, 0), (0, 3), (1, 0), (1, 3)]


def test_mesh_shards_become_distribute_and_aggregate_on_the_one_device(ods) -> None:
    body = ('    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, '
            'shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x64xbf16>) -> tensor<64x32xbf16>\n'
            '    %1 = "ttir.mesh_shard"(%0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, '
            'shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x32xbf16>) -> tensor<64x64xbf16>\n'
            '    return %1 : tensor<64x64xbf16>')  # fmt: skip
    out, m = _run(_module("1x2", body, "%arg0: tensor<64x64xbf16>", "tensor<64x64xbf16>"))
    assert _ops(out).count("ttnn.get_device") == 1
    assert '"ttnn.distribute_tensor"(%arg0, %0) <{mapper_config = #ttnn.mesh_mapper_config<placements = [<replicate, -1 : i32>, <shard, 1 : i32>]' in out
    assert '"ttnn.aggregate_tensor"(%1, %0) <{composer_config = #ttnn.mesh_composer_config<dims = [0 : i32, 1 : i32], mesh_shape_override = [1 : ui32, 2 : ui32]>}>' in out
    # The argument read only by the mesh_shard stays on the host, and so does the aggregated result.
    assert re.search(r"func\.func @f\(%arg0: tensor<64x64xbf16, #ttnn_layout\d*>\) -> tensor<64x64xbf16, #ttnn_layout\d*>", out)
    assert out.count("system_memory>>") >= 1
    assert not check_module(m, ods)


def test_identity_mesh_shards_are_presharded_arguments_and_results() -> None:
    body = ('    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, '
            'shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<identity>}> : (tensor<32x64xf32>) -> tensor<32x32xf32>\n'
            '    %1 = "ttir.abs"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32>\n'
            '    %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, '
            'shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<identity>}> : (tensor<32x32xf32>) -> tensor<32x64xf32>\n'
            '    return %2 : tensor<32x64xf32>')  # fmt: skip
    out, _ = _run(_module("1x2", body, "%arg0: tensor<32x64xf32>", "tensor<32x64xf32>"), ("convert-to-ttnn-ccl",))
    assert "func.func @f(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32>" in out
    assert '"ttir.abs"(%arg0)' in out and "mesh_shard" not in out and "ttnn.get_device" not in out


def test_collectives_fold_over_one_device_and_take_heads_workarounds(ods) -> None:
    body = ('    %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 0 : si32, cluster_axis = 1 : ui32}> : (tensor<32xbf16>) -> tensor<64xbf16>\n'
            '    %1 = "ttir.all_reduce"(%0) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<64xbf16>) -> tensor<64xbf16>\n'
            '    %2 = "ttir.reduce_scatter"(%1) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 0 : si32}> : (tensor<64xbf16>) -> tensor<32xbf16>\n'
            '    return %2 : tensor<32xbf16>')  # fmt: skip
    out, m = _run(_module("1x2", body, "%arg0: tensor<32xbf16>", "tensor<32xbf16>"))
    # the all_gather's reshape back to rank 1 and the reduce_scatter's to rank 4 are one reshape (canonicalize)
    assert [o for o in _ops(out) if o != "ttnn.deallocate"] == ["ttnn.reshape", "ttnn.all_gather", "ttnn.reshape",
                                                                 "ttnn.reduce_scatter", "ttnn.reshape"]  # fmt: skip
    assert "all_gather_dim = 1 : si32" in out  # rank 1 gathered as [1, n]
    assert "scatter_dim = 3 : si32" in out  # rank 1 scattered as [1, 1, 1, n]
    assert "fp32_dest_acc_en = true" in out and "ttnn.all_reduce" not in out  # axis 0 has one device
    assert "ttnn.get_device" not in out  # no op needs the device
    assert not check_module(m, ods)


def test_collective_permute_on_a_2x2_mesh(ods) -> None:
    body = ('    %0 = "ttir.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 3], [1, 1]]> : tensor<2x2xi64>}> '
            ': (tensor<1x1x32x32xf32>) -> tensor<1x1x32x32xf32>\n    return %0 : tensor<1x1x32x32xf32>')  # fmt: skip
    out, m = _run(_module("2x2", body, "%arg0: tensor<1x1x32x32xf32>", "tensor<1x1x32x32xf32>"))
    coords = re.findall(r"receiver_coord = array<i64: (\d, \d)>, sender_coord = array<i64: (\d, \d)>", out)
    # 0 -> 3 is diagonal: through (0, 1). Devices 0 and 2 get zeros from device 1 and device 0.
    assert coords == [("0, 1", "0, 0"), ("1, 1", "0, 1"), ("0, 0", "0, 1"), ("1, 0", "0, 0")]
    assert [o for o in _ops(out) if o != "ttnn.deallocate"] == ["ttnn.assign", "ttnn.point_to_point", "ttnn.point_to_point", "ttnn.clamp_scalar",
                                                                 "ttnn.point_to_point", "ttnn.point_to_point"]  # fmt: skip
    assert not check_module(m, ods)


def _broadcast(groups: str, shape: str = "2x4") -> str:
    body = (f'    %0 = "ttir.collective_broadcast"(%arg0) <{{replica_groups = dense<{groups}> : tensor<{shape}xi64>}}> '
            ': (tensor<1x1x32x32xf32>) -> tensor<1x1x32x32xf32>\n    return %0 : tensor<1x1x32x32xf32>')  # fmt: skip
    return _module("2x4", body, "%arg0: tensor<1x1x32x32xf32>", "tensor<1x1x32x32xf32>")


@pytest.mark.parametrize("passes", [("ttir-to-ttnn-backend-pipeline",), ("convert-to-ttnn-ccl",)])
def test_collective_broadcast_sends_each_groups_first_device_to_the_others(ods, passes: tuple[str, ...]) -> None:
    out, m = _run(_broadcast("[[0, 5, 2], [4, 1, 3]]", "2x3"), passes)
    coords = re.findall(r"receiver_coord = array<i64: (\d, \d)>, sender_coord = array<i64: (\d, \d)>", out)
    # Device 0 (0,0) -> 5 (1,1) is diagonal: through (0, 1); 0 -> 2 (0,2); 4 (1,0) -> 1 (0,1) diagonal
    # through (1, 1); 4 -> 3 (0,3) diagonal through (1, 3).
    assert coords == [("0, 1", "0, 0"), ("1, 1", "0, 1"), ("0, 2", "0, 0"), ("1, 1", "1, 0"), ("0, 1", "1, 1"),
                      ("1, 3", "1, 0"), ("0, 3", "1, 3")]  # fmt: skip
    ops = [o for o in _ops(out) if o != "ttnn.deallocate"]
    assert ops == ["ttnn.assign"] + ["ttnn.point_to_point"] * 7
    # Every transfer writes into the previous one's result: one chain from the assign.
    writes = re.findall(r'(%\d+) = "ttnn.point_to_point"\(%\w+, (%\d+)\)', out)
    assert [into for _, into in writes] == ["%0"] + [result for result, _ in writes[:-1]]
    assert not check_module(m, ods)


@pytest.mark.parametrize("groups", ["[[0], [1]]", "[]"])
def test_collective_broadcast_within_one_device_groups_is_its_input(groups: str) -> None:
    text = _broadcast(groups, "2x1" if groups != "[]" else "0x2").replace("dense<[]>", "dense<>")
    out, _ = _run(text)
    assert "ttnn.point_to_point" not in out and "ttnn.assign" not in out


@pytest.mark.parametrize(("groups", "message"), [
    ("[[0, 1, 2, -1], [4, 5, 6, -1]]", "replica_groups values must be positive"),
    ("[[0, 1, 2, 3], [0, 5, 6, 7]]", "replica_groups must not contain duplicate values"),
    ("[[1, 2, 3, 4], [5, 6, 7, 8]]", r"replica_groups values must be in the range \[0, 7\], got 8"),
])  # fmt: skip
def test_collective_broadcast_rejects_what_heads_verifier_rejects(groups: str, message: str) -> None:
    with pytest.raises(Diagnostic, match=rf"'ttir.collective_broadcast' op {message}"):  # the TTIR verifier's, before lowering
        _run(_broadcast(groups))


def test_all_to_all_slices_exchanges_and_concatenates(ods) -> None:
    body = ('    %0 = "ttir.all_to_all"(%arg0) <{concat_dim = 1 : si32, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : si32, '
            'split_dim = 0 : si32}> : (tensor<64x32xf32>) -> tensor<32x64xf32>\n    return %0 : tensor<32x64xf32>')  # fmt: skip
    out, m = _run(_module("1x2", body, "%arg0: tensor<64x32xf32>", "tensor<32x64xf32>"))
    ops = [o for o in _ops(out) if o != "ttnn.deallocate"]
    assert ops == ["ttnn.slice_static", "ttnn.slice_static", "ttnn.assign", "ttnn.assign", "ttnn.point_to_point", "ttnn.point_to_point", "ttnn.concat"]
    assert "begins = [32 : i32, 0 : i32], ends = [64 : i32, 32 : i32]" in out and "<{dim = 1 : si32}>" in out
    assert not check_module(m, ods)


def test_convert_to_ttnn_ccl_reaches_device_module_functions() -> None:
    text = ('module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {\n  ttcore.device_module {\n    builtin.module {\n'
            '      func.func @f(%arg0: tensor<1x1x32x32xf32>) -> tensor<1x1x32x32xf32> {\n'
            '        %0 = "ttir.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x32xf32>) -> tensor<1x1x32x32xf32>\n'
            '        return %0 : tensor<1x1x32x32xf32>\n      }\n    }\n  }\n}\n')  # fmt: skip
    out, _ = _run(text, ("convert-to-ttnn-ccl",))
    assert '"ttnn.all_reduce"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x32x32xf32>) -> tensor<1x1x32x32xf32>' in out


def test_a_maximal_mesh_shard_is_an_error_at_the_op() -> None:
    body = ('    %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, '
            'shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<maximal>}> : (tensor<8x8xf32>) -> tensor<8x4xf32>\n'
            '    return %0 : tensor<8x4xf32>')  # fmt: skip
    with pytest.raises(Diagnostic, match="shard_type maximal; HEAD lowers replicate and devices mesh_shards only") as e:
        _run(_module("1x2", body, "%arg0: tensor<8x8xf32>", "tensor<8x4xf32>"))
    assert e.value.pos is not None and e.value.pos.source.line_col(e.value.pos.offset) == (3, 10)


def test_sparse_matmul_program_config_keeps_every_grid_column_busy() -> None:
    from ttopt.lowering.ttnn_moe_ops import sparse_matmul_program_config

    def grid_and_n(n: int, cols: int = 8) -> tuple[str, str]:
        body = sparse_matmul_program_config((1, 64, 128), (1, 128, n), (8, cols)).print()
        return re.findall(r"core_coord<(\d+), (\d+)>", body)[0], re.findall(r"per_core_m = (\d+), per_core_n = (\d+)", body)[0]

    assert grid_and_n(5760) == (("8", "8"), ("2", "23"))  # 180 tiles: 23 per column on 8 columns
    assert grid_and_n(320) == (("5", "8"), ("2", "2"))  # 10 tiles: 2 per column fill 5 columns, not 8 (ceil(10/2) = 5)
    assert grid_and_n(64) == (("2", "8"), ("2", "1"))  # fewer tiles than columns
