"""A diagnostic at an op shows the op's own `loc(...)` after the text position, the way mlir-opt
shows it (ttopt/ir/diagnostics.py): the file position of a name/callsite/fused location, `called
from` notes for callers, aliases followed, nothing for `loc(unknown)`."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ttopt.cli import cli
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.parse.parser import parse_module


def _error_at(loc: str, prelude: str = "") -> str:
    text = f"""{prelude}func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {{
  %0 = stablehlo.custom_call @foo(%a) : (tensor<4xf32>) -> tensor<4xf32> {loc}
  return %0 : tensor<4xf32>
}}
"""
    r = CliRunner().invoke(cli, ["opt", "-", "--convert-stablehlo-to-ttir"], input=text)
    assert r.exit_code == 1 and r.exception is None or isinstance(r.exception, SystemExit)
    return r.stderr


def test_name_location_with_a_file_position() -> None:
    err = _error_at('loc("jit(f)/foo"("/src/model.py":12:5))')
    lines = err.splitlines()
    assert lines[0].startswith("<stdin>:2:8: error: failed to legalize operation 'stablehlo.custom_call' to TTIR")
    assert lines[3] == '/src/model.py:12:5: note: the op\'s location ("jit(f)/foo")'


def test_call_site_stack() -> None:
    err = _error_at('loc(callsite("/a/inner.py":3:1 at callsite("/a/mid.py":5:6 at "/a/outer.py":9:2)))')
    assert err.splitlines()[3:] == ["/a/inner.py:3:1: note: the op's location", "/a/mid.py:5:6: note: called from",
                                   "/a/outer.py:9:2: note: called from"]  # fmt: skip


def test_aliases_and_fused_locations() -> None:
    prelude = '#loc1 = loc("/src/a.py":7:3)\n#loc2 = loc("step"(#loc1))\n'
    err = _error_at("loc(fused[#loc2, \"/src/b.py\":1:1])", prelude)
    assert err.splitlines()[-1] == '/src/a.py:7:3: note: the op\'s location ("step")'


@pytest.mark.parametrize("loc", ["", "loc(unknown)"])
def test_no_location_adds_nothing(loc: str) -> None:
    assert len(_error_at(loc).splitlines()) == 3  # error, source line, caret


def test_name_only_location_is_shown_at_the_text_position() -> None:
    err = _error_at('loc("just_a_name")')
    assert err.splitlines()[-1] == '<stdin>:2:8: note: the op\'s location is "just_a_name"'


def test_verifier_errors_show_it_too() -> None:
    text = 'func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a : tensor<4xf32> loc("m.py":3:4)\n  return %0 : tensor<4xf32>\n}\n'
    r = CliRunner().invoke(cli, ["opt", "-"], input=text)
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0].startswith("<stdin>:2:8: error: 'stablehlo.add' op expected 2 operands, but found")
    assert r.stderr.splitlines()[-1] == "m.py:3:4: note: the op's location"


def test_op_position_carries_the_location() -> None:
    m = parse_module('func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32> loc("r.py":1:2)\n}\n', "x.mlir")
    ret = next(op for op in m.walk() if op.name == "func.return")
    rendered = Diagnostic("boom", op_position(m.source, ret)).render()
    assert rendered.splitlines()[0] == "x.mlir:2:3: error: boom"
    assert rendered.splitlines()[-1] == "r.py:1:2: note: the op's location"
