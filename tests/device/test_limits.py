"""Device limits (docs/device-model.md "Limits"): checked wherever a device comes from."""

from __future__ import annotations

import pytest

from ttopt.device import Device, DeviceError, preset
from ttopt.device.device import from_mapping
from ttopt.device.limits import MAX_GRID_DIM, MAX_L1_SIZE, LimitError, check_limits
from ttopt.device.presets import CHIP_PRESETS


def test_presets_are_within_the_limits() -> None:
    for name in CHIP_PRESETS:
        preset(name)  # raises if a preset broke a limit


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"worker_grid": (MAX_GRID_DIM + 1, 1)}, "grid"),
        ({"worker_grid": (8, 8), "dram_grid": (1, 100000)}, "dram_grid"),
        ({"worker_grid": (8, 8), "l1_size": MAX_L1_SIZE + 1}, "l1_size"),
        ({"worker_grid": (8, 8), "num_dram_channels": 65}, "num_dram_channels"),
        ({"worker_grid": (8, 8), "dram_channel_size": 2**41}, "dram_channel_size"),
        ({"worker_grid": (8, 8), "dst_physical_size_tiles": 10**6}, "dst_physical_size_tiles"),
        ({"worker_grid": (0, 8)}, "grid"),
    ],
)
def test_check_limits_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(LimitError) as e:
        check_limits(**kwargs)
    assert e.value.field == field and field in str(e.value)


def test_limits_are_inclusive() -> None:
    check_limits((MAX_GRID_DIM, MAX_GRID_DIM), (1, 12), MAX_L1_SIZE, 64, 2**40, 1024)


def test_device_and_device_files_enforce_the_limits() -> None:
    with pytest.raises(DeviceError, match="grid 100000x100000 exceeds"):
        Device("big", "wormhole_b0", (100000, 100000), 1499136, 1024, 12, 1 << 30)
    chip = {"arch": "wormhole_b0", "grid": "8x8", "l1_size": 1 << 40, "num_dram_channels": 12,
            "dram_channel_size": 1 << 30, "l1_unreserved_base": 1024}  # fmt: skip
    with pytest.raises(DeviceError, match=r"^dev.yaml: l1_size 1099511627776 exceeds the device model's limit"):
        from_mapping(chip, "dev.yaml")
