"""Mesh helpers: replica groups (ref §4.2), local shapes, the 2-D tt view; mesh_shard specs (§4.3)."""

from __future__ import annotations

import pytest

from ttopt.dialects.sdy_attrs import MeshAttr, TensorShardingAttr
from ttopt.sharding.convert_ttir import shard_spec
from ttopt.sharding.mesh import Mesh, ShardingError, coords, device_id, local_shape, replica_groups


def mesh(**axes: int) -> Mesh:
    return Mesh("mesh", MeshAttr.of(axes))


@pytest.mark.parametrize(("axes", "groups"), [
    (["y"], [[0, 1, 2, 3], [4, 5, 6, 7]]),  # A1: rows
    (["x"], [[0, 4], [1, 5], [2, 6], [3, 7]]),  # A0: columns
    (["x", "y"], [[0, 1, 2, 3, 4, 5, 6, 7]]),
    (["y", "x"], [[0, 4, 1, 5, 2, 6, 3, 7]]),
])
def test_replica_groups_2x4(axes: list[str], groups: list[list[int]]) -> None:
    assert replica_groups(mesh(x=2, y=4), axes) == groups


def test_coords_round_trip() -> None:
    m = mesh(a=2, b=3, c=4)
    assert [device_id(m, coords(m, d)) for d in range(24)] == list(range(24))
    assert coords(m, 23) == (1, 2, 3)


def test_local_shape_divides_exactly() -> None:
    m = mesh(x=2, y=4)
    s = TensorShardingAttr.parse('@mesh, [{"x", "y"}, {}, {"y"}]')
    with pytest.raises(ShardingError, match="axis \"y\" is used"):  # noqa: PT012 - validate first
        from ttopt.sharding.mesh import validate_sharding

        validate_sharding(s, m, 3)
    s = TensorShardingAttr.parse('@mesh, [{"x", "y"}, {}]')
    assert local_shape((16, 3), s, m) == (2, 3)
    assert local_shape((16, 3), s, m, keep=frozenset({0})) == (16, 3)
    with pytest.raises(ShardingError, match="dimension 0 of size 12 is not divisible into 8 shards"):
        local_shape((12, 3), s, m)


def test_tt_shape() -> None:
    assert mesh(x=8).tt_shape() == (1, 8) and mesh(x=8).tt_axis_index("x") == 1
    assert Mesh("m", MeshAttr.of({})).tt_shape() == (1, 1)
    with pytest.raises(ValueError, match="3 axes"):
        mesh(a=2, b=2, c=2).tt_shape()


@pytest.mark.parametrize(("m", "sharding", "kind", "shape", "dims"), [
    # ref §4.3 "checked examples" (ccl_ops_shardy@7829)
    ({"x": 1, "y": 2}, '[{"x"}, {"y"}]', "devices", (1, 2), (-1, 1)),
    ({"x": 2, "y": 4}, '[{"x"}, {"y"}]', "devices", (2, 4), (0, 1)),
    ({"x": 2, "y": 4}, '[{"y"}, {}]', "devices", (4, 1), (-1, 0)),
    ({"x": 2, "y": 4}, '[{}, {"x"}, {}, {"y"}]', "devices", (1, 2, 1, 4), (1, 3)),
    ({"x": 1, "y": 8}, '[{"x"}, {}]', "replicate", (1,), (-1,)),
    ({"x": 8}, '[{"x"}, {}]', "devices", (8, 1), (-1, 0)),
    ({"x": 2, "y": 4}, '[{"x", "y"}, {}]', "devices", (8, 1), (0, 0)),
])
def test_shard_spec(m: dict, sharding: str, kind: str, shape: tuple, dims: tuple) -> None:
    spec = shard_spec(None, None, mesh(**m), TensorShardingAttr.parse(f"@mesh, {sharding}"), "test")
    assert (spec.kind, spec.shape, spec.dims) == (kind, shape, dims)
