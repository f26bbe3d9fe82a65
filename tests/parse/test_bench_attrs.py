"""bench/parse.py's attribute-heavy TTNN modules (`--attrs heavy`): every op with a result states
its output's dtype and memory config, the module parses, and it prints back byte for byte."""

from __future__ import annotations

import re

import pytest

from bench.gen import generate
from bench.gen.ttnn import with_layout_properties
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.parser import parse_module


def test_heavy_ttnn_ops_carry_dtype_and_memory_config() -> None:
    text = generate("ttnn", 300, 3, "heavy")
    module = parse_module(text, "heavy.mlir")
    ops = [op for op in module.walk() if op.name.startswith("ttnn.") and op.results and op.name != "ttnn.get_device"]
    assert ops
    for op in ops:
        assert op.properties["dtype"].text.startswith("#ttcore.supportedDataTypes<"), op.name
        assert re.fullmatch(r"#ttnn\.memory_config<#(dram|l1|system_memory), <\w+>>", op.properties["memory_config"].text), op.name
    assert print_module(module, PrintOptions(debuginfo=True)) == text
    assert generate("ttnn", 300, 3) == generate("ttnn", 300, 3, "default")
    assert "memory_config = #ttnn.memory_config" not in generate("ttnn", 300, 3)


def test_layout_properties_keep_keys_sorted_and_existing_ones() -> None:
    props = with_layout_properties("activation = \"relu\", transpose_a = false, x = #a<b, c>", ((32, 32), "f32", "height"))
    assert props == (
        'activation = "relu", dtype = #ttcore.supportedDataTypes<f32>, '
        "memory_config = #ttnn.memory_config<#l1, <height_sharded>>, transpose_a = false, x = #a<b, c>"
    )
    kept = with_layout_properties("dtype = #ttcore.supportedDataTypes<bf16>", ((32, 32), "f32", "dram"))
    assert kept.startswith("dtype = #ttcore.supportedDataTypes<bf16>, memory_config = #ttnn.memory_config<#dram, <interleaved>>")


def test_unknown_attribute_style_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown attribute style"):
        generate("ttnn", 50, 0, "light")
