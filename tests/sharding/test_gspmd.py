"""GSPMD strings: parsing, the tt mesh for them, and translation to sdy dimension axes."""

from __future__ import annotations

import pytest

from ttopt.sharding.gspmd import GspmdError, mesh_for, parse_gspmd, to_dim_axes

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
    assert to_dim_axes(parse_gspmd("{devices=[2,4]<=[8]}"), 2, MESH) == [["x"], ["y"]]
    assert to_dim_axes(parse_gspmd("{devices=[8,1]<=[8]}"), 2, MESH) == [["x", "y"], []]
    assert to_dim_axes(parse_gspmd("{devices=[1,2,4]<=[8] last_tile_dim_replicate}"), 2, MESH) == [[], ["x"]]
    with pytest.raises(GspmdError, match="does not match the mesh axes"):
        to_dim_axes(parse_gspmd("{devices=[4,2]<=[8]}"), 2, MESH)
    with pytest.raises(GspmdError, match="row-major"):
        to_dim_axes(parse_gspmd("{devices=[2,4]<=[4,2]T(1,0)}"), 2, MESH)
