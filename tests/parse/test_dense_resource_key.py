"""`dense_resource<key>` needs a key, as MLIR's parser requires (jaxlib: `expected identifier key
for 'resource' entry` at the `>`)."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.parse.parser import parse_module

TEXT = 'func.func @f() -> tensor<1xi32> {{\n  %0 = "x.y"() {{b = dense_resource<{key}> : tensor<1xi32>}} : () -> tensor<1xi32>\n  return %0 : tensor<1xi32>\n}}\n'


def test_a_key_is_read() -> None:
    assert "dense_resource<blob1>" in str(parse_module(TEXT.format(key="blob1"), "m.mlir").op.regions[0].blocks[0].ops[0].regions[0].blocks[0].ops[0].attributes["b"])


@pytest.mark.parametrize("key", ["", " ", "1x"])
def test_no_key_is_an_error(key: str) -> None:
    with pytest.raises(Diagnostic) as e:
        parse_module(TEXT.format(key=key), "m.mlir")
    assert "expected identifier key for 'resource' entry" in e.value.render()
