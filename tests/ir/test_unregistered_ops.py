"""Unknown op names follow mlir-opt: an op a registered dialect does not define is an error at the
op, flag or no flag; an op of an unregistered dialect needs --allow-unregistered-dialect."""

from __future__ import annotations

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.dialect_registry import UNREGISTERED_DIALECT, unknown_custom_op_message, unregistered_op_message
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module

T = "tensor<4xf32>"


def _error(text: str, allow: bool = True) -> str | None:
    """The rendered verifier error for `text` (None when it verifies)."""
    module = parse_module(text, "in.mlir")
    try:
        verify(module, allow_unregistered_dialect=allow)
    except Diagnostic as d:
        return d.render().splitlines()[0]
    return None


@pytest.mark.parametrize(
    "name",
    ["ttnn.relux", "ttir.addd", "ttcore.no_such_op", "stablehlo.no_such_op", "chlo.no_such_op", "sdy.no_such_op",
     "func.no_such_op", "arith.no_such_op", "emitc.no_such_op", "builtin.no_such_op"],
)  # fmt: skip
def test_an_unknown_op_of_a_registered_dialect_is_an_error_at_the_op(name: str) -> None:
    dialect = name.split(".")[0]
    want = f"in.mlir:2:8: error: unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
    text = f'func.func @f(%a: {T}) -> {T} {{\n  %0 = "{name}"(%a) : ({T}) -> {T}\n  return %0 : {T}\n}}\n'
    assert _error(text) == want
    assert _error(text, allow=False) == want  # --allow-unregistered-dialect admits dialects, not ops


def test_every_parse_path_is_checked() -> None:
    # Top level, a fast one-line op in a function, a line repeated (the template path), a nested region.
    assert _error('"ttnn.relux"() : () -> ()\n') == (
        "in.mlir:1:1: error: unregistered operation 'ttnn.relux' found in dialect ('ttnn') that does not allow unknown operations"
    )
    lines = "\n".join(f'  %{i} = "ttnn.relu"(%a) : ({T}) -> {T}' for i in range(3))
    text = f'func.func @f(%a: {T}) -> {T} {{\n{lines}\n  %9 = "ttnn.relux"(%a) : ({T}) -> {T}\n  return %a : {T}\n}}\n'
    assert _error(text).startswith("in.mlir:5:8: error: unregistered operation 'ttnn.relux'")
    nested = '"x.wrap"() ({\n  "stablehlo.no_such_op"() : () -> ()\n}) : () -> ()\n'
    assert _error(nested).startswith("in.mlir:2:3: error: unregistered operation 'stablehlo.no_such_op'")


def test_known_ops_of_registered_dialects_pass_even_when_ttopt_does_not_define_them() -> None:
    # ttnn.tt_lang_op and stablehlo.set_dimension_size have no OpDef in ttopt, but upstream defines them.
    assert _error('"ttnn.tt_lang_op"() : () -> ()\n"stablehlo.set_dimension_size"() : () -> ()\n', allow=False) is None


def test_an_unregistered_dialect_needs_the_flag() -> None:
    text = f'func.func @f(%a: {T}) -> {T} {{\n  %0 = "foo.bar"  (%a) : ({T}) -> {T}\n  return %0 : {T}\n}}\n'
    assert _error(text) is None
    # As MLIR: reported at the token after the op name, where the parser finds out.
    assert _error(text, allow=False) == f"in.mlir:2:19: error: {UNREGISTERED_DIALECT}"
    assert _error('"nodot"() : () -> ()\n', allow=False) == f"in.mlir:1:8: error: {UNREGISTERED_DIALECT}"


def test_an_unregistered_dialect_is_reported_before_a_verifier_error_of_an_earlier_op() -> None:
    text = '"ttnn.relu"() : () -> ()\n"foo.bar"() : () -> ()\n'
    assert _error(text).startswith("in.mlir:1:1: error: 'ttnn.relu' op requires a single operand")
    assert _error(text, allow=False) == f"in.mlir:2:10: error: {UNREGISTERED_DIALECT}"


def test_messages() -> None:
    assert unregistered_op_message("ttnn.relu") is None
    assert unregistered_op_message("foo.bar") is None  # not a registered dialect: a different rule
    assert unknown_custom_op_message("stablehlo.no_such_op") == "custom op 'stablehlo.no_such_op' is unknown"
    assert unknown_custom_op_message("foo.bar") == "Dialect `foo' not found for custom op 'foo.bar'"
    assert unknown_custom_op_message("stablehlo.add") is None and unknown_custom_op_message("bare") is None
    assert unknown_custom_op_message("ttnn.embedding_bw") is None


CASES = [
    '"stablehlo.no_such_op"() : () -> ()',
    '"func.no_such_op"() : () -> ()',
    '"arith.no_such_op"() : () -> ()',
    '"chlo.no_such_op"() : () -> ()',
    '"sdy.no_such_op"() : () -> ()',
    '"builtin.no_such_op"() : () -> ()',
    '"foo.bar"() : () -> ()',
    '"nodot"() : () -> ()',
    '%0 = "foo.bar" () : () -> f32',
    f'func.func @f(%a: {T}) -> {T} {{\n  %0 = "stablehlo.abs"(%a) : ({T}) -> {T}\n  "foo.use"(%0) : ({T}) -> ()\n  return %0 : {T}\n}}',
]


@pytest.mark.oracle
@pytest.mark.parametrize("allow", [False, True])
@pytest.mark.parametrize("text", CASES)
def test_accepts_and_rejects_as_jaxlib_does(text: str, allow: bool) -> None:
    """jaxlib's MLIR (which registers these dialects too) agrees on accept/reject and on the words."""
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = allow
    try:
        ir.Module.parse(text, context=ctx)
        theirs = None
    except ir.MLIRError as e:
        theirs = str(e)
    ours = _error(text + "\n", allow)
    assert (ours is None) == (theirs is None), (ours, theirs)
    if ours is not None:
        line_col, _, message = ours.partition(": error: ")
        assert f'"-":{line_col.split(":", 1)[1]}: {message}' in theirs
