"""ttopt's lexer reads exactly MLIR's token grammar: blanks, comments, identifiers, string escapes.

Each case is an input and what MLIR's parser (mlir/lib/AsmParser/Lexer.cpp) does with it: accept,
or reject with an error at a line and column. The table is checked against ttopt always, and
against MLIR's C++ parser through jaxlib when jax is installed (the table is what jaxlib says):
for an accepted input, MLIR also reads ttopt's output as the module it reads from the input.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module


class Case(NamedTuple):
    name: str
    text: str
    # None: MLIR accepts it. Otherwise "line:col: message" of MLIR's error, or "line:col" alone
    # (or "" alone) where ttopt words the error its own way (a parser error rather than a token
    # error: the message, or also the place, differs from MLIR's).
    error: str | None
    # False where ttopt's printer does not yet write back what it read (not a lexer matter).
    reprinted: bool = True


def _in_func(body: str) -> str:
    return f"func.func @f(%a: tensor<2xf32>) {{\n  {body}\n  return\n}}\n"


OP = '%0 = "test.op"(%a) {x = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>'

CASES = [
    # ---- blanks: exactly ' ', '\t', '\n', '\r' (and NUL, which MLIR skips) --------------------------
    Case("cr-only lines", "func.func @f(%a: tensor<2xf32>) {\r  " + OP + "\r  return\r}\r", None),
    Case("crlf lines", "func.func @f(%a: tensor<2xf32>) {\r\n  " + OP + "\r\n  return\r\n}\r\n", None),
    Case("tabs", "func.func\t@f(%a:\ttensor<2xf32>)\t{\n\t" + OP + "\n\treturn\n}\n", None),
    Case("nul between tokens", _in_func('%0 = "test.op"(%a)\x00: (tensor<2xf32>) -> tensor<2xf32>'), None),
    Case("form feed", _in_func("\x0c" + OP), "2:3: unexpected character"),
    Case("vertical tab", _in_func(OP + "\x0b"), "2:70: unexpected character"),
    Case("no-break space", _in_func(OP.replace(" :", "\xa0:")), "2:28: unexpected character"),
    Case("em space", _in_func("\u2003" + OP), "2:3: unexpected character"),
    Case("control character", _in_func("\x01" + OP), "2:3: unexpected character"),
    # ---- comments: `//` to the next '\n' or '\r', anywhere a blank may be --------------------------
    Case("cr-only with a leading comment", "// c\rfunc.func @f(%a: tensor<2xf32>) {\r  " + OP + "\r  return\r}\r", None),
    Case("code after a cr in a comment", _in_func('// c\r%0 = "test.op"() : () -> i32'), None),
    Case("comment in a dictionary", _in_func('%0 = "test.op"() {a = 1, // c\n b = 2} : () -> i32'), None),
    Case("comment in a dense literal", _in_func('%0 = "test.op"() {a = dense<[1, // c >\n 2]> : tensor<2xi32>} : () -> i32'), None),
    Case("comment in a type", _in_func('%0 = "test.op"() : () -> tensor<2x// c\nf32>'), None),
    Case("comment in a function type", _in_func('%0 = "test.op"(%a) : (tensor<2xf32> // c\n) -> i32'), None),
    Case("comment in an operand list", _in_func('%0 = "test.op"(%a // c\n) : (tensor<2xf32>) -> i32'), None),
    Case("comment before '='", _in_func('%0 // c\n = "test.op"() : () -> i32'), None),
    Case("comment in a location", _in_func('%0 = "test.op"() : () -> i32 loc(// c\n"x")'), None),
    Case("comment in an sdy sharding", 'sdy.mesh @mesh = <["x"=2]>\nfunc.func @f(%a: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{// c\n"x"}]>}) {\n  return\n}\n', None),
    Case("comment with a nul", _in_func('%0 = "test.op"() : () -> i32 // \x00 \u00e9 \x0c'), None),
    Case("comment in a string is text", _in_func('%0 = "test.op"() {s = "a // b"} : () -> i32'), None),
    Case("a lone slash", _in_func('%0 = "test.op"() : () -> i32 / c'), "2:"),  # MLIR: a wrong token after the op
    # ---- identifiers: ASCII; `@` takes a bare-id, the other prefixes a suffix-id -------------------
    Case("suffix-id punctuation", _in_func('%$.-_ = "test.op"() : () -> i32'), None),
    Case("block label with '-'", _in_func('"test.op"() [^bb-1] : () -> ()\n^bb-1:\n  "test.op"() : () -> ()'), None),
    Case("numeric block label", _in_func('"test.op"() [^1] : () -> ()\n^1:\n  "test.op"() : () -> ()'), None),
    Case("alias names are suffix-ids", "#1 = 1 : i32\n!a-b = i32\n#$a = 2 : i32\n" + _in_func('%0 = "test.op"() {a = #1, b = #$a} : () -> !a-b'), None),
    Case("unicode ssa name", _in_func('%\u00e9 = "test.op"() : () -> i32'), "2:3: invalid SSA name"),
    Case("unicode in a bare identifier", _in_func('%0 = "test.op"() {a\u00e9 = 1} : () -> i32'), "2:22: unexpected character"),
    Case("unicode digit", _in_func('%0 = "test.op"() {a = \u0661} : () -> i32'), "2:25: unexpected character"),
    Case("symbol with '-'", _in_func('%0 = "test.op"() {a = @a-b} : () -> i32'), "2:"),
    Case("symbol with a leading digit", _in_func('%0 = "test.op"() {a = @1} : () -> i32'), "2:26: @ identifier expected to start with letter or '_'"),
    Case("quoted symbol with '-'", 'func.func @"a-b"() {\n  return\n}\n', None, reprinted=False),  # printed unquoted
    Case("nested symbol with spaced colons", _in_func('%0 = "test.op"() {a = @a: :@b} : () -> i32'), None),
    Case("'%' alone", _in_func('% 0 = "test.op"() : () -> i32'), "2:3: invalid SSA name"),
    Case("'#' alone", _in_func('%0 = "test.op"() {a = # 1} : () -> i32'), "2:25: invalid attribute name"),
    Case("op name with a space", _in_func('%0 = "test.a b"() : () -> i32'), None),
    Case("empty op name", _in_func('"" () : () -> ()'), "2:3: empty operation name is invalid"),
    # ---- string literals: MLIR's escapes only ----------------------------------------------------
    Case("known escapes", _in_func('%0 = "test.op"() {s = "\\n\\t\\\\\\"\\41\\ab"} : () -> i32'), None),
    Case("unknown escape", _in_func('%0 = "test.op"() {s = "\\q"} : () -> i32'), "2:26: unknown escape in string literal"),
    Case("escape with one hex digit", _in_func('%0 = "test.op"() {s = "\\4"} : () -> i32'), "2:26: unknown escape in string literal"),
    Case("\\r escape", _in_func('%0 = "test.op"() {s = "\\r"} : () -> i32'), "2:26: unknown escape in string literal"),
    Case("escape in a location", _in_func('%0 = "test.op"() : () -> i32 loc("\\z")'), "2:37: unknown escape in string literal"),
    Case("escape in a symbol", _in_func('%0 = "test.op"() {a = @"\\z"} : () -> i32'), "2:27: unknown escape in string literal"),
    Case("escape in a dialect body", _in_func('%0 = "test.op"() {a = #test.x<"\\z">} : () -> i32'), "2:34: unknown escape in string literal"),
    Case("form feed in a string", _in_func('%0 = "test.op"() {s = "a\x0cb"} : () -> i32'), "2:27: expected '\"' in string literal"),
    Case("cr in a string", _in_func('%0 = "test.op"() {s = "a\rb"} : () -> i32'), None),
    Case("unterminated string", _in_func('%0 = "test.op"() {s = "ab} : () -> i32'), "2:41: expected '\"' in string literal"),
    # ---- blanks between tokens MLIR reads separately -----------------------------------------------
    Case("tensor <", "func.func @f(%a: tensor <2xf32>) {\n  " + OP + "\n  return\n}\n", None),
    Case("spaced shape", _in_func('%0 = "test.op"() : () -> tensor <2 x f32>'), None),
    Case("memref vector complex tuple <", _in_func('%0:4 = "test.op"() : () -> (memref <2xf32>, vector <2xf32>, complex <f32>, tuple <i32>)'), None),
    Case("dense <", _in_func('%0 = "test.op"() {a = dense <[1, 2]> : tensor<2xi32>} : () -> i32'), None),
    Case("array < and affine_map <", _in_func('%0 = "test.op"() {a = array <i32: 1, 2>, m = affine_map <(d0) -> (d0)>} : () -> i32'), None),
    Case("loc (", _in_func('%0 = "test.op"() : () -> i32 loc ("x")'), None),
    Case("loc ( in an alias", "#loc1 = loc (\"x\")\n" + _in_func('%0 = "test.op"() : () -> i32 loc(#loc1)'), None),
    Case("< { properties } >", _in_func('%0 = "test.op"() < {a = 1 : i32} > : () -> i32'), None),
    Case("func.func @f (", "func.func @f (%a: tensor<2xf32>) {\n  return\n}\n", None),
    Case("result count with blanks", _in_func('%0 : 2 = "test.op"() : () -> (i32, i32)'), None),
    Case("hexadecimal result count", _in_func('%0:0x2 = "test.op"() : () -> (i32, i32)'), None),
    Case("zero result count", _in_func('%0:0 = "test.op"() : () -> ()'), "2:6: expected named operation to have at least 1 result"),
    Case("minus then blanks", _in_func('%0 = "test.op"() {a = -  1, b = - 2.5} : () -> i32'), None),
    Case("dialect type then '<'", _in_func('%0 = "test.op"() : () -> !test.t <1>'), "2:"),
    Case("dialect attribute then '<'", _in_func('%0 = "test.op"() {a = #test.a <1>} : () -> i32'), "2:"),
    # ---- file metadata ----------------------------------------------------------------------------
    Case(
        "two metadata blocks",
        'module {\n  "test.op"() {a = dense_resource<k> : tensor<1xi32>} : () -> ()\n}\n'
        '{-# dialect_resources: { builtin: { k: "0x0400000001000000" } } #-}\n{-# external_resources: { } #-}\n',
        None,
    ),
]


def _ttopt(text: str) -> str:
    """ttopt's output, or `line:col: message` of its error."""
    try:
        return print_module(parse_module(text, "in.mlir"))
    except Diagnostic as e:
        assert e.pos is not None
        line, col = e.pos.source.line_col(e.pos.offset)
        return f"error {line}:{col}: {e.message}"


def _matches(got: str, expected: str) -> bool:
    return got.startswith("error ") and got[6:].startswith(expected)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_ttopt_reads_tokens_as_mlir_does(case: Case) -> None:
    got = _ttopt(case.text)
    if case.error is None:
        assert not got.startswith("error "), got
        if case.reprinted:
            assert not _ttopt(got).startswith("error "), "ttopt cannot read its own output"
    else:
        assert _matches(got, case.error), got


def _mlir(text: str) -> str:
    """MLIR's printed module, or `line:col: message` of its error (jaxlib)."""
    import re

    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    try:
        with ctx:
            return str(ir.Module.parse(text))
    except Exception as e:  # jaxlib raises MLIRError (a ValueError subclass in some versions)
        m = re.search(r'error: "-":(\d+):(\d+): (.*)', str(e))
        assert m is not None, str(e)
        return f"error {m.group(1)}:{m.group(2)}: {m.group(3)}"


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_table_is_what_mlir_does(case: Case) -> None:
    theirs = _mlir(case.text)
    if case.error is None:
        assert not theirs.startswith("error "), theirs
        if case.reprinted:
            assert _mlir(_ttopt(case.text)) == theirs, "MLIR reads ttopt's output as another module"
    else:
        assert _matches(theirs, case.error), theirs
