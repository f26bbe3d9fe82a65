"""Override strings (reference §2.14): parsing, errors, fuzzing (errors only as OverrideError)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.optimizer.overrides import (
    OverrideError,
    check_names,
    parse_conv2d_config_overrides,
    parse_mem_reconfig_overrides,
    parse_output_layout_overrides,
)
from ttopt.testing.examples import examples


def test_output_layout_full_and_partial() -> None:
    got = parse_output_layout_overrides(["add_1=4x8:l1:block_sharded:tile:bf16,add_2=dram", "mm=height_sharded"])
    full = got["add_1"]
    assert full.is_full
    assert (full.grid, full.buffer, full.memory_layout, full.tiled, full.dtype) == (
        (4, 8), BufferType.L1, TensorMemoryLayout.BLOCK_SHARDED, True, DataType.BF16,
    )
    assert not got["add_2"].is_full and got["add_2"].buffer is BufferType.DRAM
    assert got["mm"].memory_layout is TensorMemoryLayout.HEIGHT_SHARDED
    assert full.text() == "add_1=4x8:l1:block_sharded:tile:bf16"


@pytest.mark.parametrize(
    "value, message",
    [
        ("a", "expected NAME=VALUE"),
        ("a=", "expected NAME=VALUE"),
        ("a=l1:foo", "unknown part 'foo'"),
        ("a=l1:dram", "gives the buffer twice"),
        ("a=2x2:4x4", "gives the grid twice"),
        ("a=tile:row_major", "gives the tiled twice"),
        ("a=0x2", "grid dimensions must be positive"),
        ("a=l1,a=dram", "overridden twice"),
    ],
)
def test_output_layout_errors(value: str, message: str) -> None:
    with pytest.raises(OverrideError, match=message):
        parse_output_layout_overrides([value])


def test_mem_reconfig_and_conv2d() -> None:
    assert parse_mem_reconfig_overrides(["add_1=0:1", "mm=1"])["add_1"].operands == (0, 1)
    with pytest.raises(OverrideError, match="integers"):
        parse_mem_reconfig_overrides(["a=x"])
    with pytest.raises(OverrideError, match="given twice"):
        parse_mem_reconfig_overrides(["a=1:1"])
    c = parse_conv2d_config_overrides(["conv=act_block_h_override#32:deallocate_activation#false"])["conv"]
    assert c.values == (("act_block_h_override", "32"), ("deallocate_activation", "false"))
    with pytest.raises(OverrideError, match="unknown key"):
        parse_conv2d_config_overrides(["conv=foo#1"])
    with pytest.raises(OverrideError, match="key#value"):
        parse_conv2d_config_overrides(["conv=act_block_h_override"])


def test_unknown_names() -> None:
    check_names("override-output-layout", ["a"], {"a", "b"})
    with pytest.raises(OverrideError, match="no op named 'c'"):
        check_names("override-output-layout", ["c"], {"a", "b"})


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet="ab=:,x0123456789_ltdrmiecsh#", max_size=30))
def test_fuzzed_overrides_fail_only_with_override_errors(text: str) -> None:
    for parse in (parse_output_layout_overrides, parse_mem_reconfig_overrides, parse_conv2d_config_overrides):
        try:
            parse([text])
        except OverrideError:
            pass
