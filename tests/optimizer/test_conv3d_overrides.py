"""The ttnn-optimizer's conv3d_config: tt-metal's _DEFAULT_BLOCKINGS heuristic and
`override-conv3d-config` (keys checked, override over heuristic per field)."""

from __future__ import annotations

import pytest

from ttopt.optimizer.conv3d_config import CONV3D_KEYS, Conv3dOverride, lookup_blocking, parse_conv3d_config_overrides
from ttopt.optimizer.overrides import OverrideError


def test_lookup_remaps_table_order_to_config_fields() -> None:
    assert lookup_blocking(192, 384, (3, 3, 3)) == {"t_out_block": 1, "w_out_block": 4, "h_out_block": 8, "c_out_block": 128, "c_in_block": 64}
    assert lookup_blocking(384, 192, (1, 3, 3)) == {"t_out_block": 1, "w_out_block": 4, "h_out_block": 32, "c_out_block": 96, "c_in_block": 192}


def test_lookup_misses_on_other_kernel_or_channels() -> None:
    assert lookup_blocking(192, 384, (1, 3, 3)) is None
    assert lookup_blocking(128, 32, (3, 3, 3)) is None


def test_parse_entries_and_keys() -> None:
    got = parse_conv3d_config_overrides(["a=weights_dtype#bf16:c_in_block#64,b=c_out_block#96"])
    assert got == {"a": Conv3dOverride("a", (("weights_dtype", "bf16"), ("c_in_block", "64"))),
                   "b": Conv3dOverride("b", (("c_out_block", "96"),))}  # fmt: skip
    assert set(CONV3D_KEYS) == {"weights_dtype", "t_out_block", "w_out_block", "h_out_block", "c_out_block", "c_in_block"}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("a=c_out#96", "unknown key 'c_out'"),
        ("a=c_out_block#x", "c_out_block must be a positive integer, got 'x'"),
        ("a=c_in_block#0", "c_in_block must be a positive integer, got '0'"),
        ("a=weights_dtype#int4", "unknown weights_dtype 'int4'"),
        ("a=c_in_block#32:c_in_block#64", "key 'c_in_block' given twice"),
        ("a=c_in_block#32,a=t_out_block#1", "op 'a' is overridden twice"),
        ("a=c_in_block", "expected key#value, got 'c_in_block'"),
        ("a", "expected NAME=key#value"),
    ],
)
def test_parse_rejects(value: str, message: str) -> None:
    with pytest.raises(OverrideError, match=message):
        parse_conv3d_config_overrides([value])
