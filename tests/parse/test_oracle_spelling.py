"""Names and strings print exactly as MLIR's printer (jaxlib) writes them: escapes, quoted
symbols, quoted dictionary keys, op names, canonical type text."""

from __future__ import annotations

import pytest

from ttopt.ir.printer import PrintOptions, print_module
from ttopt.ir.spelled import quote, symbol_ref
from ttopt.parse.parser import parse_module

NAMES = ["main", "_a.b$c", "a-b", "123", "$a", ".a", "x y", 'q"uote', "back\\slash", "nl\nx", "tab\tx", "é", "\x7f"]


def _jaxlib(text: str, generic: bool) -> str:
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    module = ir.Module.parse(text, context=ctx)
    assert module.operation.verify()
    return module.operation.get_asm(print_generic_op_form=generic)


@pytest.mark.oracle
@pytest.mark.parametrize("generic", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_symbols_keys_strings_and_op_names_as_jaxlib_prints(name: str, generic: bool) -> None:
    sym = symbol_ref(name)
    op_name = "x." + name.replace(" ", "_")  # ttopt's parser does not take a space in an op name yet
    text = (
        f"func.func private {sym}(tensor<f32>) -> tensor<f32>\n"
        "func.func @caller(%arg0: tensor<f32>) -> tensor<f32> {\n"
        f"  %0 = func.call {sym}(%arg0) : (tensor<f32>) -> tensor<f32>\n"
        f"  {quote(op_name)}() {{{quote(name)} = {quote(name)}, ref = {sym}::{sym}}} : () -> ()\n"
        "  return %0 : tensor<f32>\n"
        "}\n"
    )
    ours = print_module(parse_module(text), PrintOptions(generic=generic))
    assert ours == _jaxlib(text, generic)


@pytest.mark.oracle
@pytest.mark.parametrize("generic", [False, True])
def test_spaced_types_print_as_jaxlib_prints(generic: bool) -> None:
    text = (
        '%0 = "x.op"() : () -> (tensor <f32>)\n'
        '%1 = "x.op"(%0) {t = (tensor<2xi32>) -> complex< f32>} : (tensor <f32>) -> (tuple<i32 , f32>)\n'
    )
    ours = print_module(parse_module(text), PrintOptions(generic=generic))
    assert ours == _jaxlib(text, generic)
