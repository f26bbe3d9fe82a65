"""Forms added for real-tool output print exactly as MLIR's own printer does (jaxlib)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.parser import parse_module

DATA = Path(__file__).resolve().parents[2] / "testdata" / "opt"


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["stablehlo_forms.mlir", "sdy_forms.mlir"])
def test_printed_exactly_as_jaxlib_prints(name: str) -> None:
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    text = (DATA / name).read_text()
    module_text = text[text.index("\nmodule {") + 1 :]
    theirs = str(ir.Module.parse(module_text, context=jmlir.make_ir_context()))
    assert print_module(parse_module(module_text)) == theirs == module_text


PARSE_DATA = Path(__file__).resolve().parents[2] / "testdata" / "parse"


@pytest.mark.oracle
def test_custom_call_and_arith_constant_as_jaxlib_prints() -> None:
    """jaxlib reads the front-end-style input and prints exactly what ttopt prints from it (and
    from ttopt's own output): default-valued custom_call properties elided, arith.constant names."""
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    source = (PARSE_DATA / "jax_forms_input.mlir").read_text()
    ours = print_module(parse_module(source))
    theirs = str(ir.Module.parse(source, context=jmlir.make_ir_context()))
    assert ours == theirs
    assert str(ir.Module.parse(ours, context=jmlir.make_ir_context())) == ours
    generic = print_module(parse_module(source), PrintOptions(generic=True))
    assert str(ir.Module.parse(generic, context=jmlir.make_ir_context())) == theirs
