"""Low-level scanners over MLIR text: balanced bodies, types, attribute values, names.

Shared by the lexer of both grammars. Every scanner returns the end offset of what it matched
(or raises `ScanError` with the offset to blame) and runs in time linear in what it consumes.
"""

from __future__ import annotations

import re


class ScanError(Exception):
    """A lexical error at character offset `pos`."""

    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


WS = re.compile(r"(?:[ \t\r\n\f\v]+|//[^\n]*)+")
# A blank as the piecewise lexer skips it (`\s` would also take Unicode spaces, which MLIR rejects):
# the fast whole-line patterns use it, so they accept nothing the piecewise path refuses.
BLANK = r"[ \t\r\n\f\v]"
# What skip_ws skips, as a piece of a larger regex: atomic, so the regex around it cannot make it
# give back blanks (it ends exactly where skip_ws would).
WS_PIECE = r"(?>(?:[ \t\r\n\f\v]+|//[^\n]*)*)"
# Things inside a bracketed body that matter for balancing. `->` and `>=` contain '>' but
# close nothing (affine maps, integer sets).
_BODY = re.compile(r'->|>=|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|[<>(){}\[\]]')
_CLOSE = {")": "(", "]": "[", "}": "{", ">": "<"}
_OPEN_TO_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}

BARE_ID = re.compile(r"[A-Za-z_][\w$.]*")
SUFFIX_ID = r"(?:\d+|[A-Za-z_$.\-][\w$.\-]*)"
VALUE = re.compile(rf"%{SUFFIX_ID}(?:#\d+)?")
RESULTS = re.compile(rf"%{SUFFIX_ID}(?::\d+)?(?:\s*,\s*%{SUFFIX_ID}(?::\d+)?)*\s*=(?!=)")
RESULT_GROUP = re.compile(rf"(%{SUFFIX_ID})(?::(\d+))?")
SYMBOL = re.compile(rf'@(?:{SUFFIX_ID}|"[^"\\\n]*(?:\\.[^"\\\n]*)*")')
STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
BLOCK_LABEL = re.compile(rf"\^{SUFFIX_ID}")
ALIAS_NAME = re.compile(r"[#!][A-Za-z_][\w$\-]*(?![\w$.\-<])")
# The location forms front ends print (name, file:line:col, name(child), callsite, fused),
# recognized by one regex so they skip the general attribute parser; rarer forms (ranges, fused
# metadata other than a string, deeper nesting) take the general path.
# Possessive quantifiers (`*+`, `++`) where what follows can never be what was repeated: the
# language is the same and the engine keeps no backtracking state (a single fused or name(file)
# body matches ~40% faster, a whole alias run ~8%; tests/parse/test_location_forms.py checks that
# both spellings agree).
_LOC_STR = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'
_LOC_NAME = r"#[A-Za-z_][\w$\-]*+"
_LOC_LEAF = rf"{_LOC_STR}(?::\d++:\d++)?|{_LOC_NAME}|unknown"
_LOC_NAMED = rf"{_LOC_STR}\((?:{_LOC_LEAF})\)|{_LOC_LEAF}"
_LOC_CALLSITE = rf"callsite\((?:{_LOC_NAMED}){BLANK}++at{BLANK}++(?:{_LOC_NAMED})\)"
_LOC_FUSED = rf"fused(?:<{_LOC_STR}>)?\[(?:{BLANK}*+(?:{_LOC_NAMED})(?:{BLANK}*+,{BLANK}*+(?:{_LOC_NAMED}))*+)?{BLANK}*+\]"
# The same language as `callsite | fused | "s"(callsite | fused) | named`, factored on the leading
# string so the regex engine reads each string once (files end with tens of thousands of these).
_LOC_BODY = (
    rf"loc\((?:{_LOC_STR}(?::\d++:\d++|\((?:{_LOC_CALLSITE}|{_LOC_FUSED}|{_LOC_LEAF})\))?"
    rf"|{_LOC_CALLSITE}|{_LOC_FUSED}|{_LOC_NAME}|unknown)\)"
)
SIMPLE_LOC = re.compile(_LOC_BODY)
# A run of simple location aliases (files end with thousands of them) is one token: its first
# item, then each next one after blanks (line_readers.loc_alias_run).
LOC_ALIAS_ITEM = re.compile(rf"#([A-Za-z_][\w$\-]*)[ \t]*=[ \t]*({_LOC_BODY})")
LOC_ALIAS_NEXT = re.compile(rf"{BLANK}+{LOC_ALIAS_ITEM.pattern}")
# The alias references of a location body with no string in it (with strings: parser._ALIAS_USE).
LOC_REF = re.compile(r"#([A-Za-z_][\w$\-]*)")  # group 1: the alias name
ALIAS_DEF = re.compile(r"[#!][A-Za-z_][\w$\-]*(?![\w$.\-<])\s*=\s*")
GENERIC_HEAD = re.compile(
    rf'"[^"\\\n]*(?:\\.[^"\\\n]*)*"\s*\(\s*(?:%{SUFFIX_ID}(?:#\d+)?(?:\s*,\s*%{SUFFIX_ID}(?:#\d+)?)*)?\s*\)'
)
NUMBER = re.compile(r"[-+]?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)")
DIALECT_NAME = re.compile(r"[#!][A-Za-z_][\w$.\-]*")
OPERANDS = re.compile(rf"\(\s*(?:%{SUFFIX_ID}(?:#\d+)?(?:\s*,\s*%{SUFFIX_ID}(?:#\d+)?)*)?\s*\)")
CONV_DIMS = re.compile(r"\[[\w\s,]*\]\s*x\s*\[[\w\s,]*\]\s*->\s*\[[\w\s,]*\]")
TYPED_LITERAL_PREFIXES = ("dense", "sparse", "dense_resource")


def skip_ws(text: str, pos: int) -> int:
    """Offset of the next non-blank, non-comment character."""
    m = WS.match(text, pos)
    return m.end() if m else pos


MAX_NESTING = 100  # deeper brackets or regions are refused (printing and walking recurse)


def scan_balanced(text: str, pos: int) -> int:
    """`text[pos]` opens a bracket; return the offset just past its matching close."""
    stack = [(text[pos], pos)]
    for m in _BODY.finditer(text, pos + 1):
        tok = m.group()
        if tok in _OPEN_TO_CLOSE:
            stack.append((tok, m.start()))
            if len(stack) > MAX_NESTING:
                raise ScanError(m.start(), f"brackets nested more than {MAX_NESTING} deep")
        elif tok in _CLOSE:
            opener, at = stack.pop()
            if _CLOSE[tok] != opener:
                raise ScanError(m.start(), f"expected '{_OPEN_TO_CLOSE[opener]}' to close '{opener}', found '{tok}'")
            if not stack:
                return m.end()
    opener, at = stack[-1]
    raise ScanError(at, f"unbalanced '{opener}': no matching '{_OPEN_TO_CLOSE[opener]}' before end of input")


def scan_type(text: str, pos: int) -> int:
    """A type: `f32`, `tensor<...>`, `!dialect.t<...>`, `!alias`, `(A) -> B`."""
    c = text[pos] if pos < len(text) else ""
    if c == "(":
        end = scan_balanced(text, pos)
        p = skip_ws(text, end)
        if not text.startswith("->", p):
            return end  # a parenthesised type list is not a type, let the parser complain
        p = skip_ws(text, p + 2)
        return scan_balanced(text, p) if text.startswith("(", p) else scan_type(text, p)
    m = DIALECT_NAME.match(text, pos) if c == "!" else BARE_ID.match(text, pos)
    if m is None:
        raise ScanError(pos, "expected a type")
    end = m.end()
    if end < len(text) and text[end] == "<":
        end = scan_balanced(text, end)
    return end


_SIMPLE_T = r'(?:(?:tensor|memref|vector|complex|tuple)<[^<>()"]*>|!?[A-Za-z_][\w$.]*(?![\w$.<]))'
_SIMPLE_TS = rf"(?:{_SIMPLE_T}(?:{BLANK}*,{BLANK}*{_SIMPLE_T})*)?"
# Function types whose types have no nested brackets (aliased encodings): the common case.
SIMPLE_FNTYPE = re.compile(rf"\({BLANK}*{_SIMPLE_TS}{BLANK}*\){BLANK}*->{BLANK}*(?:\({BLANK}*{_SIMPLE_TS}{BLANK}*\)|{_SIMPLE_T})")
# One type of such a function type (they contain no parentheses: line_readers.simple_fntype_types).
SIMPLE_TYPE = re.compile(_SIMPLE_T)


def scan_fntype(text: str, pos: int) -> int:
    """A function type `(A, B) -> R` / `(A) -> (R1, R2)` starting at `(`."""
    m = SIMPLE_FNTYPE.match(text, pos)
    if m is not None:
        return m.end()
    end = scan_balanced(text, pos)
    p = skip_ws(text, end)
    if not text.startswith("->", p):
        raise ScanError(p, "expected '->' in function type")
    p = skip_ws(text, p + 2)
    if p >= len(text):
        raise ScanError(p, "expected result type after '->'")
    return scan_balanced(text, p) if text[p] == "(" else scan_type(text, p)


def _typed_suffix(text: str, end: int) -> int:
    """Absorb a trailing `: type` (number and dense literals carry their type)."""
    p = skip_ws(text, end)
    if p < len(text) and text[p] == ":" and not text.startswith("::", p):
        q = skip_ws(text, p + 1)
        if q < len(text):
            return scan_type(text, q)
    return end


def scan_attr(text: str, pos: int) -> int:
    """One attribute value, including a literal's `: type` suffix."""
    n = len(text)
    if pos >= n:
        raise ScanError(pos, "expected an attribute value")
    c = text[pos]
    if c == "#":
        m = DIALECT_NAME.match(text, pos)
        if m is None:
            raise ScanError(pos, "expected an attribute name after '#'")
        end = m.end()
        return scan_balanced(text, end) if end < n and text[end] == "<" else end
    if c == "!":
        return scan_type(text, pos)
    if c == '"':
        m = STRING.match(text, pos)
        if m is None:
            raise ScanError(pos, "unterminated string literal")
        return _typed_suffix(text, m.end())
    if c in "[{":
        return scan_balanced(text, pos)
    if c == "(":
        return scan_type(text, pos)
    if c == "@":
        m = SYMBOL.match(text, pos)
        if m is None:
            raise ScanError(pos, "expected a symbol name after '@'")
        end = m.end()
        while text.startswith("::@", end):
            m = SYMBOL.match(text, end + 2)
            if m is None:
                raise ScanError(end + 2, "expected a nested symbol name")
            end = m.end()
        return end
    if c.isdigit() or c in "-+":
        m = NUMBER.match(text, pos)
        if m is None:
            raise ScanError(pos, "expected a number")
        return _typed_suffix(text, m.end())
    m = BARE_ID.match(text, pos)
    if m is None:
        raise ScanError(pos, f"unexpected character {c!r} where an attribute was expected")
    word = m.group()
    end = m.end()
    if word == "loc" and end < n and text[end] == "(":
        return scan_balanced(text, end)
    if end < n and text[end] in "<[" and word in ("distinct",):
        end = scan_balanced(text, end)
        p = skip_ws(text, end)
        return scan_attr(text, p)
    if end < n and text[end] == "<":
        end = scan_balanced(text, end)
        if word in TYPED_LITERAL_PREFIXES:
            end = _typed_suffix(text, end)
    return end


RESOURCE_KEY = re.compile(r'[A-Za-z_][\w.$\-]*|"[^"\\\n]*(?:\\.[^"\\\n]*)*"')


def scan_file_metadata(text: str, pos: int) -> int:
    """`text[pos:]` starts with `{-#`; the offset just past the matching `#-}`."""
    p = pos + 3
    while True:
        p = skip_ws(text, p)
        if text.startswith("#-}", p):
            return p + 3
        p = _expect_key(text, p, "a section name ('dialect_resources' or 'external_resources')")
        if not text.startswith("{", p):
            raise ScanError(p, "expected '{' to open a file-metadata section")
        p = skip_ws(text, scan_balanced(text, p))
        if text.startswith(",", p):
            p += 1
        elif not text.startswith("#-}", p):
            raise ScanError(p, "expected ',' or '#-}' after a file-metadata section")


def _expect_key(text: str, p: int, what: str) -> int:
    m = RESOURCE_KEY.match(text, p)
    if m is None:
        raise ScanError(p, f"expected {what}")
    p = skip_ws(text, m.end())
    if not text.startswith(":", p):
        raise ScanError(p, f"expected ':' after '{m.group()}'")
    return skip_ws(text, p + 1)
