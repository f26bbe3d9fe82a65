"""Device presets, system descs and the usable-L1 budget (OP-MODEL.md §1, reference §2.13, §4.4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ttopt.device import DeviceError, load_device, preset
from ttopt.device.device import from_mapping
from ttopt.parse.parser import parse_module

ROOT = Path(__file__).resolve().parents[2]
CHAIN = ROOT / "testdata" / "ttnn" / "l1_sharded_chain.mlir"


def chip_desc(**override: object) -> str:
    """A wormhole chip descriptor body with fields replaced (value None drops the field)."""
    fields = {
        "arch": "<wormhole_b0>", "grid": "8x8", "l1_size": "1499136", "num_dram_channels": "12",
        "dram_channel_size": "1073741824", "l1_unreserved_base": "1024", "dram_grid": "1x12",
    }  # fmt: skip
    fields.update({k: v for k, v in override.items() if v is not None})
    for k, v in override.items():
        if v is None:
            fields.pop(k)
    return "{" + ", ".join(f"{k} = {v}" for k, v in fields.items()) + "}"


def module_with(attrs: str) -> object:
    return parse_module(f"module attributes {{{attrs}}} {{\n}}\n", "m.mlir")


def sysdesc(**override: object) -> str:
    return f'ttcore.system_desc = #ttcore.system_desc<[{{role = host, target_triple = "x86_64"}}], [{chip_desc(**override)}], [0], [1 : i32], [ 0x0x0x0]>'


@pytest.mark.parametrize(
    "name, grid, l1_size, base, channels, channel_size, dram_grid",
    [
        ("wormhole_b0", (8, 8), 1499136, 1024, 12, 1073741824, (1, 12)),
        ("n150", (8, 8), 1499136, 101152, 12, 1073741824, (1, 12)),
        ("blackhole", (10, 13), 1572864, 98304, 8, 4278190080, (1, 8)),
    ],
)
def test_presets(name, grid, l1_size, base, channels, channel_size, dram_grid) -> None:
    d = preset(name)
    assert (d.worker_grid, d.l1_size, d.l1_unreserved_base) == (grid, l1_size, base)
    assert (d.num_dram_channels, d.dram_channel_size, d.dram_grid) == (channels, channel_size, dram_grid)
    assert d.l1_usage_cap == 1.0 and d.usable_l1 == l1_size - base  # seed default cap 1.0


def test_usable_l1_of_the_mock_wormhole_desc_at_cap_095() -> None:
    # Reference §2.13: 1498112 * 0.95 = 1423206 bytes; the module carries cap 0.95 as an f32
    # attribute, which MLIR prints `0.949999988 : f32`.
    module = parse_module(CHAIN.read_text(), str(CHAIN))
    d = load_device(module=module)
    assert d.l1_usage_cap == 0.949999988 and d.usable_l1 == 1423206
    assert d.source.startswith("system desc")


@pytest.mark.parametrize(
    "spec, cap, reserved, usable",
    [
        ("wormhole_b0", 0.95, 0, 1423206),
        ("n150", 0.95, 0, 1328084),  # reference §2.13: real n150 desc
        ("n150", 1.0, 0, 1397984),  # the docs' "~1364 KB" uncapped
        ("wormhole_b0", 1.0, 311000, 1498112 - 311000),  # const-eval reservation subtracts
        ("blackhole", 0.5, 0, (1572864 - 98304) // 2),
    ],
)
def test_usable_l1_formula(spec: str, cap: float, reserved: int, usable: int) -> None:
    assert load_device(spec, cap=cap, reserved=reserved).usable_l1 == usable


def test_cap_precedence_flag_then_module_attribute_then_default() -> None:
    m = module_with("ttnn.tensor_l1_usage_cap = 5.000000e-01 : f32, ttnn.l1_const_eval_usage = 1000 : i64")
    assert load_device(module=m).usable_l1 == 1498112 // 2 - 1000
    assert load_device(module=m, cap=1.0).usable_l1 == 1498112 - 1000
    assert load_device(module=module_with("foo = 1")).usable_l1 == 1498112


def test_module_system_desc_wins_over_the_preset() -> None:
    m = module_with(sysdesc(grid="4x4", l1_size="1000000", l1_unreserved_base="0"))
    d = load_device("blackhole", module=m)
    assert d.worker_grid == (4, 4) and d.usable_l1 == 1000000 and d.arch == "wormhole_b0"


@pytest.mark.parametrize("cap", [0, 0.0, 1.5, -0.1, float("nan")])
def test_bad_cap_flag_is_a_usage_error(cap: float) -> None:
    with pytest.raises(DeviceError, match=r"must be in \(0, 1\]") as e:
        load_device(cap=cap)
    assert e.value.usage


def test_bad_cap_module_attribute_is_an_input_error() -> None:
    with pytest.raises(DeviceError, match=r"ttnn.tensor_l1_usage_cap must be in \(0, 1\], got 1.5") as e:
        load_device(module=module_with("ttnn.tensor_l1_usage_cap = 1.5 : f32"))
    assert not e.value.usage


def test_unknown_preset() -> None:
    with pytest.raises(DeviceError, match="unknown device preset 'grayskull_e150'"):
        load_device("grayskull_e150")


@pytest.mark.parametrize("field", ["l1_size", "grid", "l1_unreserved_base", "arch"])
def test_system_desc_missing_field_is_named(field: str) -> None:
    m = module_with(sysdesc(**{field: None}))
    with pytest.raises(DeviceError, match=f"missing required field '{field}'") as e:
        load_device(module=m)
    assert not e.value.usage


def test_device_from_yaml_json_and_mlir_files(tmp_path: Path) -> None:
    y = tmp_path / "chip.yaml"
    y.write_text("arch: blackhole\ngrid: 10x13\nl1_size: 1572864\nl1_unreserved_base: 98304\n"
                 "num_dram_channels: 8\ndram_channel_size: 4278190080\n")  # fmt: skip
    assert load_device(str(y)).worker_grid == (10, 13)
    j = tmp_path / "chip.json"
    j.write_text(json.dumps({"chip_descs": [{"arch": "wormhole_b0", "grid": [8, 8], "l1_size": 1499136,
                                             "l1_unreserved_base": 101152, "num_dram_channels": 12,
                                             "dram_channel_size": 1073741824}]}))  # fmt: skip
    assert load_device(str(j), cap=0.95).usable_l1 == 1328084
    assert load_device(str(CHAIN)).usable_l1 == 1498112  # the file's desc; cap flag/attr not from a device file


@pytest.mark.parametrize(
    "data, message",
    [
        ({"arch": "wormhole_b0", "grid": "8x8"}, "missing required field(s) 'l1_size'"),
        ({"arch": "wormhole_b0", "grid": "8", "l1_size": 1, "l1_unreserved_base": 0, "num_dram_channels": 1,
          "dram_channel_size": 1}, "grid must be RxC"),  # fmt: skip
        ({"arch": "quasar", "grid": "8x8", "l1_size": 1, "l1_unreserved_base": 0, "num_dram_channels": 1,
          "dram_channel_size": 1}, "unknown arch 'quasar'"),  # fmt: skip
        ({"arch": "wormhole_b0", "grid": "8x8", "l1_size": 10, "l1_unreserved_base": 20, "num_dram_channels": 1,
          "dram_channel_size": 1}, "must be below l1_size"),  # fmt: skip
        ([1, 2], "expected a mapping"),
    ],
)
def test_bad_device_files(data: object, message: str) -> None:
    with pytest.raises(DeviceError) as e:
        from_mapping(data, "chip.yaml")  # type: ignore[arg-type]
    assert message in e.value.message


def test_device_file_without_system_desc(tmp_path: Path) -> None:
    p = tmp_path / "empty.mlir"
    p.write_text("module {\n}\n")
    with pytest.raises(DeviceError, match="has no ttcore.system_desc"):
        load_device(str(p))


def test_device_is_hashable_and_budget_variants_differ() -> None:
    a = preset("wormhole_b0")
    assert hash(a) == hash(preset("wormhole_b0")) and a == preset("wormhole_b0")
    assert a.with_budget(cap=0.5) != a and a.with_budget(cap=0.5).usable_l1 == 749056
    assert a.max_subblock == 8 and a.num_cores == 64


def test_missing_device_file_is_named() -> None:
    with pytest.raises(DeviceError, match="device file 'configs/chip.yaml' does not exist"):
        load_device("configs/chip.yaml")
