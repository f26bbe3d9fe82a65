"""GSPMD strings: parsing, the tt mesh tt-mlir derives for them, and translation to sdy dimension axes."""

from __future__ import annotations

import pytest

from ttopt.sharding.gspmd import GspmdError, mesh_for, parse_gspmd, to_dim_axes, tt_mesh_shape

MESH = [("x", 2), ("y", 4)]


@pytest.mark.parametrize(("text", "kind", "tile", "devices"), [
    ("{replicated}", "replicated", (), ()),
    ("{maximal device=3}", "maximal", (), (3,)),
    ("{manual}", "manual", (), ()),
    ("{devices=[2,4]<=[8]}", "tiled", (2, 4), tuple(range(8))),
    ("{devices=[2,4]0,1,2,3,4,5,6,7}", "tiled", (2, 4), tuple(range(8))),
    ("{devices=[2,2]<=[2,2]T(1,0)}", "tiled", (2, 2), (0, 2, 1, 3)),
    ("{devices=[1,2,4]<=[8] last_tile_dim_replicate}", "tiled", (1, 2, 4), tuple(range(8))),
])
def test_parse(text: str, kind: str, tile: tuple, devices: tuple) -> None:
    g = parse_gspmd(text)
    assert (g.kind, g.tile, g.devices) == (kind, tile, devices)


@pytest.mark.parametrize("text", ["{{replicated}, {replicated}}", "{devices=[2,4]<=[4]}", "{devices=[2]0,1 last_tile_dims={manual}}", "nope"])
def test_parse_errors(text: str) -> None:
    with pytest.raises(GspmdError):
        parse_gspmd(text)


def test_mesh_and_dims() -> None:
    gs = [parse_gspmd("{replicated}"), parse_gspmd("{devices=[8,1]<=[8]}")]
    assert mesh_for(gs) == (1, 8)
    assert mesh_for([parse_gspmd("{devices=[2,1,4]<=[8]}")]) == (2, 4)
    assert mesh_for([parse_gspmd("{manual}")]) == (1, 1)
    assert to_dim_axes(parse_gspmd("{devices=[2,4]<=[8]}"), 2, MESH) == [["x"], ["y"]]
    assert to_dim_axes(parse_gspmd("{devices=[8,1]<=[8]}"), 2, MESH) == [["x", "y"], []]
    assert to_dim_axes(parse_gspmd("{devices=[1,2,4]<=[8] last_tile_dim_replicate}"), 2, MESH) == [[], ["x"]]
    with pytest.raises(GspmdError, match="does not match the mesh axes"):
        to_dim_axes(parse_gspmd("{devices=[2,2,2]<=[8]}"), 3, [("x", 4), ("y", 2)])
    with pytest.raises(GspmdError, match="no layout of the mesh axes"):
        to_dim_axes(parse_gspmd("{devices=[4,2]<=[8]}"), 2, MESH)


@pytest.mark.parametrize(("text", "mesh"), [
    ("{devices=[8,1]0,1,2,3,4,5,6,7}", (1, 8)),          # one tile dim takes every device: a line, 1xN
    ("{devices=[1,1,1,32]<=[32]}", (1, 32)),
    ("{devices=[2,1,1,4]<=[8]}", (2, 4)),                # the tile's non-1 dims
    ("{devices=[1,1,8,4]<=[32]}", (8, 4)),
    ("{devices=[1,1,4,8]<=[8,4]T(1,0)}", (8, 4)),        # a reshaped iota: its reshape dims
    ("{devices=[1,1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}", (2, 4)),
    ("{devices=[4,1,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}", (2, 4)),  # ids not consecutive: reversed
    ("{replicated}", None),
])  # fmt: skip
def test_tt_mesh_shape_follows_tt_mlir(text: str, mesh: tuple | None) -> None:
    """GSPMDMeshSharding::generate's mesh (tt-mlir analyze_mesh/gspmd.mlir, device_parallel_gspmd.mlir)."""
    assert tt_mesh_shape(parse_gspmd(text)) == mesh


def test_tt_mesh_shape_errors() -> None:
    with pytest.raises(GspmdError, match="3-D mesh"):
        tt_mesh_shape(parse_gspmd("{devices=[2,2,2]<=[8]}"))
    with pytest.raises(GspmdError, match="maximal"):
        tt_mesh_shape(parse_gspmd("{maximal device=1}"))


@pytest.mark.parametrize(("text", "mesh", "dims"), [
    # transposed iota: tile dim 0 walks the minor axis "y", tile dim 1 the major axis "x"
    ("{devices=[4,2]<=[2,4]T(1,0)}", [("x", 2), ("y", 4)], [["y"], ["x"]]),
    ("{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}", [("x", 2), ("y", 4)], [["y"], []]),
    ("{devices=[4,1,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}", [("x", 2), ("y", 4)], [["y"], []]),
    ("{devices=[8,4]<=[4,8]T(1,0)}", [("x", 4), ("y", 8)], [["y"], ["x"]]),
    ("{devices=[1,1,4,8]<=[8,4]T(1,0)}", [("x", 8), ("y", 4)], [[], [], ["y"], ["x"]]),
    ("{devices=[2,4]0,1,2,3,4,5,6,7}", [("x", 2), ("y", 4)], [["x"], ["y"]]),
    ("{devices=[8,1]<=[8]}", [("x", 1), ("y", 8)], [["y"], []]),
])  # fmt: skip
def test_device_orders_map_to_mesh_axes(text: str, mesh: list, dims: list) -> None:
    g = parse_gspmd(text)
    assert to_dim_axes(g, len(g.data_tile), mesh) == dims
