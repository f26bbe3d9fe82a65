"""ttcore attributes and the tile type: enums, data types, grid, meshes, system desc, device."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttcore_attrs import (
    Arch,
    ArgumentType,
    ArgumentTypeAttr,
    ChipDesc,
    CpuDesc,
    DataType,
    DataTypeAttr,
    DeviceAttr,
    GridAttr,
    MeshesAttr,
    MeshShardDirectionAttr,
    MeshShardTypeAttr,
    ReduceTypeAttr,
    ShardStatus,
    ShardStatusAttr,
    SystemDescAttr,
    TileType,
)
from ttopt.ir.attributes import DialectAttr
from ttopt.parse.attr_body import split_params
from ttopt.parse.attr_parser import AttrParser

TESTDATA = Path(__file__).resolve().parents[2] / "testdata" / "ttnn"


def _body(path: Path, prefix: str) -> str:
    line = next(x for x in path.read_text().splitlines() if x.startswith(prefix))
    text = line[len(prefix) :]
    m = re.match(r"#[\w.]+<", text)
    return text[m.end() : -1]


SYSTEM_DESC = _body(TESTDATA / "l1_sharded_chain.mlir", "#system_desc = ")


# ---------------------------------------------------------------------------------------------
# Tile type and data types.


@pytest.mark.parametrize(
    "text, shape, dtype, printed",
    [
        ("!ttcore.tile<32x32, bf16>", (32, 32), DataType.BF16, None),
        ("!ttcore.tile<32 x 32, f32>", (32, 32), DataType.F32, "!ttcore.tile<32x32, f32>"),
        ("!ttcore.tile<16x32, bfp_bf8>", (16, 32), DataType.BFP_BF8, None),
        ("!ttcore.tile<32x32, u16>", (32, 32), DataType.U16, None),
    ],
)
def test_tile_type(text: str, shape, dtype, printed) -> None:
    t = AttrParser(None).type(text)
    tile = t.typed
    assert isinstance(tile, TileType) and tile.shape == shape and tile.dtype is dtype
    assert tile.text == (printed or text)
    assert tile.to_type().typed is tile and tile.to_type().text == tile.text


@pytest.mark.parametrize(
    "dtype, element_bytes, tile_bytes, builtin",
    [
        (DataType.BF16, 2, 2048, "bf16"), (DataType.F16, 2, 2048, "f16"), (DataType.F32, 4, 4096, "f32"),
        (DataType.SI32, 4, 4096, "si32"), (DataType.U32, 4, 4096, "ui32"), (DataType.U16, 2, 2048, "ui16"),
        (DataType.U8, 1, 1024, "ui8"), (DataType.BFP_BF8, 1, 1088, None), (DataType.BFP_F8, 1, 1088, None),
        (DataType.BFP_BF4, 1, 576, None), (DataType.BFP_F4, 1, 576, None), (DataType.BFP_BF2, 1, 320, None),
        (DataType.BFP_F2, 1, 320, None),
    ],
)  # fmt: skip
def test_data_type_sizes(dtype: DataType, element_bytes: int, tile_bytes: int, builtin: str | None) -> None:
    assert dtype.element_bytes == element_bytes
    assert dtype.tile_bytes() == tile_bytes == TileType(dtype=dtype).size_bytes
    assert dtype.builtin == builtin
    if builtin:
        assert DataType.of(builtin) is dtype
    assert DataType.of(dtype.value) is dtype


def test_data_type_of_builtin_aliases() -> None:
    assert DataType.of("i32") is DataType.SI32
    with pytest.raises(AttrError, match="no ttcore data type for 'i1'"):
        DataType.of("i1")


@pytest.mark.parametrize("body, message", [("32x32", "HxW, dtype"), ("32x32, q8", "not a valid DataType"), ("32, bf16", "2-D"),
                                           ("0x32, bf16", "positive"), ("axb, bf16", "tile shape")])  # fmt: skip
def test_tile_type_errors(body: str, message: str) -> None:
    with pytest.raises(AttrError, match=message):
        TileType.parse(body)


# ---------------------------------------------------------------------------------------------
# Enum attributes.

ENUMS = [
    (ArgumentTypeAttr, ["input", "parameter", "constant", "default"]),
    (ShardStatusAttr, ["sharded", "unsharded", "presharded"]),
    (MeshShardTypeAttr, ["identity", "replicate", "maximal", "devices"]),
    (MeshShardDirectionAttr, ["full_to_shard", "shard_to_full"]),
    (ReduceTypeAttr, ["sum", "mean", "max", "min", "std", "var"]),
    (DataTypeAttr, ["bf16", "f32", "bfp_bf8"]),
]


@pytest.mark.parametrize("cls, value", [(c, v) for c, vs in ENUMS for v in vs])
def test_enum_attrs_round_trip(attr, cls, value: str) -> None:
    text = f"#{cls.attr_name}<{value}>"
    model = attr(text).typed
    assert isinstance(model, cls) and model.value.value == value
    assert DialectAttr.of(model).text == text


@pytest.mark.parametrize("cls", [c for c, _ in ENUMS])
def test_enum_attr_rejects_unknown_value(attr, cls) -> None:
    with pytest.raises(AttrError, match=rf"invalid #{re.escape(cls.attr_name)}: value: Input should be"):
        attr(f"#{cls.attr_name}<bogus>").typed


def test_shard_status_presharded_is_sharded_and_printed_as_written() -> None:
    pre = ShardStatusAttr.parse("presharded")
    assert pre.is_sharded and pre.print_body() == "presharded"
    assert ShardStatusAttr(value=ShardStatus.SHARDED).is_sharded
    assert not ShardStatusAttr.parse("unsharded").is_sharded
    assert ArgumentTypeAttr(value=ArgumentType.CONSTANT).text == "#ttcore.argument_type<constant>"


# ---------------------------------------------------------------------------------------------
# Grid and meshes.


def test_grid() -> None:
    g = GridAttr.parse("8x8, virt_to_physical_map = (d0, d1) -> (0, d0, d1), physical_to_virt_map = (d0, d1, d2) -> (d1, d2)")
    assert g.shape == (8, 8) and g.volume == 64 and len(g.mapping) == 2
    assert g.print_body().startswith("8x8, virt_to_physical_map = (d0, d1) -> (0, d0, d1), ")
    assert GridAttr(shape=(1, 12)).text == "#ttcore.grid<1x12>"
    with pytest.raises(AttrError, match="positive"):
        GridAttr.parse("0x8")
    with pytest.raises(AttrError, match="grid shape"):
        GridAttr.parse("eight")


@pytest.mark.parametrize(
    "body, meshes",
    [
        ('[<"mesh" = 1x8>]', [("mesh", (1, 8))]),
        ("[]", []),
        ('[<"mesh" = 2x4>, <"other" = 8>]', [("mesh", (2, 4)), ("other", (8,))]),
    ],
)
def test_meshes(attr, body: str, meshes) -> None:
    model = attr(f"#ttcore.meshes<{body}>").typed
    assert [(m.name, m.shape) for m in model.meshes] == meshes
    assert model.print_body() == body
    assert MeshesAttr.of(meshes) == model == MeshesAttr.of(dict(meshes))


def test_meshes_builder_text_and_lookup() -> None:
    m = MeshesAttr.of({"mesh": (1, 8)})
    assert DialectAttr.of(m).text == '#ttcore.meshes<[<"mesh" = 1x8>]>'
    assert m.get("mesh").shape == (1, 8) and m.get("nope") is None


@pytest.mark.parametrize(
    "body, message",
    [
        ('[<"a" = 1x8>, <"a" = 2>]', "duplicate mesh name"),
        ('[<mesh = 1x8>]', "expected <\"name\" = RxC>"),
        ('<"mesh" = 1x8>', "mesh list"),
        ('[<"m" = 0x8>]', "positive"),
    ],
)
def test_meshes_errors(body: str, message: str) -> None:
    with pytest.raises(AttrError, match=message):
        MeshesAttr.parse(body)


# ---------------------------------------------------------------------------------------------
# System desc (ref §1.4).


def test_system_desc_from_testdata_round_trips_exactly() -> None:
    sd = SystemDescAttr.parse(SYSTEM_DESC)
    assert sd.print_body() == SYSTEM_DESC
    chip = sd.chip(0)
    assert chip.arch is Arch.WORMHOLE_B0 and chip.worker_grid == (8, 8)
    assert (chip.l1_size, chip.l1_unreserved_base, chip.num_dram_channels, chip.dram_channel_size) == (
        1499136, 1024, 12, 1073741824,
    )  # fmt: skip
    assert chip.dram_grid == (1, 12) and chip.num_cbs == 32 and chip.dst_physical_size_tiles == 16
    assert chip.supported_tile_sizes[0] == (4, 16) and DataType.BFP_BF2 in chip.supported_data_types
    assert chip.dram_bank_to_logical_worker_noc0[0] == (7, 3) and len(chip.dram_bank_to_logical_worker_noc1) == 12
    assert sd.cpu_descs == (CpuDesc(role="host", target_triple="x86_64-pc-linux-gnu"),)
    assert sd.chip_desc_indices == (0,) and sd.chip_capabilities == ("1 : i32",) and sd.chip_coords == ((0, 0, 0, 0),)
    # Rebuilding from typed fields gives tt-mlir's text back, quirky spacing included.
    rebuilt = SystemDescAttr(chip_descs=(ChipDesc(**chip.model_dump()),))
    assert rebuilt.print_body() == SYSTEM_DESC
    assert DialectAttr.of(sd).text == f"#ttcore.system_desc<{SYSTEM_DESC}>"


def test_system_desc_minimal_multichip_and_unknown_fields() -> None:
    body = (
        '[{role = host, target_triple = "x86_64-pc-linux-gnu"}], '
        "[{arch = <blackhole>, grid = 10x13, l1_size = 1572864, num_dram_channels = 8, dram_channel_size = 4278190080, "
        "l1_unreserved_base = 98304, future_knob = [1, 2]}, "
        "{arch = <wormhole_b0>, grid = 8x8, l1_size = 1499136, num_dram_channels = 12, dram_channel_size = 1073741824, "
        "l1_unreserved_base = 1024}], [0, 1], [1 : i32, 0 : i32], [ 0x0x0x0,  0x1x0x0], [<channel>]"
    )
    sd = SystemDescAttr.parse(body)
    assert sd.print_body() == body
    assert sd.chip(0).worker_grid == (10, 13) and sd.chip(0).extra == (("future_knob", "[1, 2]"),)
    assert sd.chip(1).arch is Arch.WORMHOLE_B0 and sd.chip_channels == "[<channel>]"


@pytest.mark.parametrize("field", ["arch", "grid", "l1_size", "num_dram_channels", "dram_channel_size", "l1_unreserved_base"])
def test_system_desc_missing_required_field_is_named(field: str) -> None:
    body = re.sub(rf"\b{field} = [^,]+, ", "", SYSTEM_DESC, count=1)
    assert body != SYSTEM_DESC
    with pytest.raises(AttrError, match=f"missing required field '{field}'"):
        SystemDescAttr.parse(body)


@pytest.mark.parametrize(
    "change, message",
    [
        (("<wormhole_b0>", "<wormhole_c9>"), "unknown arch 'wormhole_c9'"),
        (("l1_size = 1499136", "l1_size = big"), "integer for l1_size"),
        (("l1_size = 1499136", "l1_size = 100"), "exceeds l1_size"),
        (("<bfp_bf2>", "<bfp_bf1>"), "unknown data type"),
        (("(7, 3)", "(7 3)"), "coordinate"),
        (("grid = 8x8", "grid = 8x8x8"), "2-D"),
        (("[0], [1 : i32]", "[5], [1 : i32]"), "out of range"),
        (("num_cbs = 32", "num_cbs = 32, num_cbs = 64"), "duplicate chip descriptor field 'num_cbs'"),
        (("role = host, ", ""), "missing required field 'role'"),
        ((", [ 0x0x0x0]", ""), "5 or 6 lists"),
        (("{arch", "{arch arch"), "key = value"),
    ],
)
def test_system_desc_errors(change: tuple[str, str], message: str) -> None:
    body = SYSTEM_DESC.replace(*change, 1)
    with pytest.raises(AttrError, match=re.escape(message)):
        SystemDescAttr.parse(body)


def test_system_desc_through_the_ir(attr) -> None:
    model = attr(f"#ttcore.system_desc<{SYSTEM_DESC}>").typed
    assert isinstance(model, SystemDescAttr) and model.chip().l1_size == 1499136


# ---------------------------------------------------------------------------------------------
# Device.

def _device_body() -> str:
    text = next(x for x in (TESTDATA / "device_module_generic_form.mlir").read_text().splitlines() if '"ttcore.device"()' in x)
    start = text.index("#ttcore.device<") + len("#ttcore.device<")
    end = text.index(", sym_name = ", start)
    return text[start : end - 1]


def test_device_from_testdata() -> None:
    body = _device_body()
    dev = DeviceAttr.parse(body)
    assert dev.print_body() == body
    assert dev.worker_grid.shape == (8, 8) and dev.dram_grid.shape == (1, 12)
    assert dev.get("meshShape") == "" and dev.get("chipIds") == "[0]"
    assert "meshShape = , chipIds = [0]" in dev.print_body()


def test_device_errors() -> None:
    with pytest.raises(AttrError, match="missing required field 'workerGrid'"):
        DeviceAttr.parse("dramGrid = #ttcore.grid<1x12>, chipIds = [0]")
    with pytest.raises(AttrError, match="workerGrid"):
        DeviceAttr.parse("workerGrid = #ttcore.grid<axb>")
    with pytest.raises(AttrError, match="key = value"):
        DeviceAttr.parse("workerGrid")


# ---------------------------------------------------------------------------------------------
# The body splitter.


@pytest.mark.parametrize(
    "body, parts",
    [
        ("a, b", ["a", "b"]),
        ("(d0, d1) -> (d0, d1), <1x1>", ["(d0, d1) -> (d0, d1)", "<1x1>"]),
        ('x = "a, <b", y = [1, 2]', ['x = "a, <b"', "y = [1, 2]"]),
        ("k = , j = 1", ["k =", "j = 1"]),
        ("", []),
    ],
)
def test_split_params(body: str, parts: list[str]) -> None:
    got = split_params(body)
    assert [p.text for p in got] == parts
    for p in got:
        assert body[p.offset :].startswith(p.text)


@pytest.mark.parametrize("body, message", [("a, (b", "unclosed '('"), ("a], b", "unbalanced ']'"), ('a, "b', "unterminated"),
                                           ("<a)>", "unbalanced ')'")])  # fmt: skip
def test_split_params_errors(body: str, message: str) -> None:
    with pytest.raises(AttrError, match=re.escape(message)):
        split_params(body)
