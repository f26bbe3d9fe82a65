"""Low-level scanners over MLIR text: balanced bodies, types, attribute values, names.

Shared by the lexer of both grammars. Every scanner returns the end offset of what it matched
(or raises `ScanError` with the offset to blame) and runs in time linear in what it consumes.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ttopt.parse.lazy_regex import lazy_compile


class ScanError(Exception):
    """A lexical error at character offset `pos`."""

    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


# MLIR's token grammar (mlir/lib/AsmParser/Lexer.cpp) is ASCII: blanks are exactly ' ', '\t', '\n'
# and '\r'; identifiers are ASCII letters, digits and `_$.-`. Every pattern here is compiled with
# re.ASCII (so `\w` and `\d` are ASCII too), and the patterns that skip "anything but" list what
# they take rather than what they refuse, so no pattern reads past a character MLIR's lexer rejects.
#
# Comments (`//` to the next '\n' or '\r') and NUL characters (MLIR skips them like blanks) are not
# skipped here: a text holding either fails to parse at the first one, and the parser parses it again
# with both replaced by spaces (`blank_comments`), which keeps every offset.
BLANK = r"[ \t\n\r]"
WS = lazy_compile(rf"{BLANK}+")
# A string literal as MLIR's lexer takes it: no raw '\n', '\v' or '\f', and only the escapes
# `\\`, `\"`, `\n`, `\t` and `\XX` (two hex digits).
_STR_CHARS = r'[^"\\\n-\x0c]'
_ESCAPE = r'\\(?:[nt"\\]|[0-9a-fA-F]{2})'
STR = rf'"{_STR_CHARS}*(?:{_ESCAPE}{_STR_CHARS}*)*"'
# The ASCII characters that can never be part of a token outside a string ('/' only starts a comment).
_NEVER = "/`~&';\\"


def token_chars(exclude: str) -> str:
    """A regex class of the characters that may appear in MLIR text outside strings and comments
    (blanks and printable ASCII but `_NEVER`), less `exclude`: for the patterns that skip runs of
    "other" characters. Written as ranges: a long class costs compile time at every start."""
    keep = [c for c in map(chr, range(0x20, 0x7F)) if c not in _NEVER and c not in exclude]
    parts = ["\\t\\n\\r"]
    i = 0
    while i < len(keep):
        j = i
        while j + 1 < len(keep) and ord(keep[j + 1]) == ord(keep[j]) + 1:
            j += 1
        parts.append(re.escape(keep[i]) if j == i else f"{re.escape(keep[i])}-{re.escape(keep[j])}")
        i = j + 1
    return "[" + "".join(parts) + "]"


# A string as the whole-line readers and the location shortcuts take it: one without any escape
# (always a valid one). They decline a string with an escape, which the piecewise path reads with
# STR: one short pattern in every fast regex, where STR made them twice as slow to compile.
FAST_STR = r'"[^"\\\n-\x0c]*+"'


# Things inside a bracketed body that matter for balancing. `->` and `>=` contain '>' but
# close nothing (affine maps, integer sets). A `"` that does not start a valid string, and any
# character MLIR's lexer refuses outside strings (a comment's `/` among them), are errors.
_BODY = lazy_compile(rf'->|>=|{STR}|(")|[<>(){{}}\[\]]|([^\t\n\r -~]|[{re.escape(_NEVER)}])', re.ASCII)
_CLOSE = {")": "(", "]": "[", "}": "{", ">": "<"}
_OPEN_TO_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}


# bare-id ::= (letter|[_]) (letter|digit|[_$.])*     suffix-id ::= digit+ | (letter|[$._-]) (letter|digit|[$._-])*
BARE_ID = lazy_compile(r"[A-Za-z_][\w$.]*", re.ASCII)
SUFFIX_ID = r"(?:\d+|[A-Za-z_$.\-][\w$.\-]*)"
# An alias name: a suffix-id without '.', which marks dialect names.
ALIAS_ID = r"(?:\d+|[A-Za-z_$\-][\w$\-]*)"
VALUE = lazy_compile(rf"%{SUFFIX_ID}(?:#\d+)?", re.ASCII)
# `%a, %b:2 =` (a result count is an integer token: decimal or hexadecimal)
_COUNT = r"(?:0x[0-9a-fA-F]+|\d+)"
RESULTS = lazy_compile(
    rf"%{SUFFIX_ID}(?:{BLANK}*:{BLANK}*{_COUNT})?(?:{BLANK}*,{BLANK}*%{SUFFIX_ID}(?:{BLANK}*:{BLANK}*{_COUNT})?)*{BLANK}*=(?!=)", re.ASCII
)
RESULT_GROUP = lazy_compile(rf"(%{SUFFIX_ID})(?:{BLANK}*:{BLANK}*({_COUNT}))?", re.ASCII)
# symbol-ref-id ::= `@` (bare-id | string-literal)
SYMBOL = lazy_compile(rf"@(?:[A-Za-z_][\w$.]*|{STR})", re.ASCII)
STRING = lazy_compile(STR, re.ASCII)
BLOCK_LABEL = lazy_compile(rf"\^{SUFFIX_ID}", re.ASCII)
# The location forms front ends print (name, file:line:col, name(child), callsite, fused),
# recognized by one regex so they skip the general attribute parser; rarer forms (ranges, fused
# metadata other than a string, deeper nesting) take the general path.
# Possessive quantifiers (`*+`, `++`) where what follows can never be what was repeated: the
# language is the same and the engine keeps no backtracking state (a single fused or name(file)
# body matches ~40% faster, a whole alias run ~8%; tests/parse/test_location_forms.py checks that
# both spellings agree).
_LOC_STR = FAST_STR
_ALIAS_ID_POSSESSIVE = r"(?:\d++|[A-Za-z_$\-][\w$\-]*+)(?![.])"
_LOC_NAME = rf"#{_ALIAS_ID_POSSESSIVE}"
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
SIMPLE_LOC = lazy_compile(_LOC_BODY, re.ASCII)
# `loc`, blanks and `(`: a location whatever its spacing (MLIR's `loc` and `(` are two tokens).
LOC_AHEAD = lazy_compile(rf"loc{BLANK}*\(")
# A run of simple location aliases (files end with thousands of them) is one token: its first
# item, then each next one after blanks (line_readers.loc_alias_run).
LOC_ALIAS_ITEM = lazy_compile(rf"#({_ALIAS_ID_POSSESSIVE})[ \t]*=[ \t]*({_LOC_BODY})", re.ASCII)
LOC_ALIAS_NEXT = lazy_compile(rf"{BLANK}+{LOC_ALIAS_ITEM.pattern}", re.ASCII)
# The alias references of a location body with no string in it (with strings: parser._ALIAS_USE).
LOC_REF = lazy_compile(rf"#({ALIAS_ID})", re.ASCII)  # group 1: the alias name
ALIAS_DEF = lazy_compile(rf"[#!]{ALIAS_ID}(?![\w$.\-<]){BLANK}*={BLANK}*", re.ASCII)
_OPERAND_LIST = rf"\({BLANK}*(?:%{SUFFIX_ID}(?:#\d+)?(?:{BLANK}*,{BLANK}*%{SUFFIX_ID}(?:#\d+)?)*)?{BLANK}*\)"
GENERIC_HEAD = lazy_compile(rf"{STR}{BLANK}*{_OPERAND_LIST}", re.ASCII)
# A number; MLIR's `-` is a token of its own, so blanks may follow it (`- 1`: the lexer drops them).
NUMBER = lazy_compile(rf"(?:-{BLANK}*|\+)?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)", re.ASCII)
# `#` / `!` and a suffix-id: a dialect attribute or type name (with a '.') or an alias.
DIALECT_NAME = lazy_compile(rf"[#!]{SUFFIX_ID}", re.ASCII)
OPERANDS = lazy_compile(_OPERAND_LIST, re.ASCII)
_CONV_LIST = r"\[[\w \t\n\r,]*\]"
CONV_DIMS = lazy_compile(rf"{_CONV_LIST}{BLANK}*x{BLANK}*{_CONV_LIST}{BLANK}*->{BLANK}*{_CONV_LIST}", re.ASCII)
TYPED_LITERAL_PREFIXES = ("dense", "sparse", "dense_resource")
# Builtin keywords MLIR reads as a keyword token then `<`: blanks may sit between the two.
GAP_TYPES = frozenset({"tensor", "memref", "vector", "complex", "tuple"})
GAP_WORDS = GAP_TYPES | frozenset({"dense", "sparse", "dense_resource", "array", "affine_map", "affine_set", "strided", "distinct", "loc"})


def skip_ws(text: str, pos: int) -> int:
    """Offset of the next non-blank character."""
    m = WS.match(text, pos)
    return m.end() if m else pos


# The longest prefix of a string literal that MLIR's lexer reads without error (string_error).
_STRING_PREFIX = lazy_compile(rf'"{_STR_CHARS}*(?:{_ESCAPE}{_STR_CHARS}*)*', re.ASCII)


def string_error(text: str, pos: int) -> ScanError:
    """The error MLIR's lexer reports for the string literal starting at `text[pos]` (`"`), which
    STRING does not match: an escape it does not know, or a line end, '\v', '\f' or the end of the
    input before the closing quote."""
    end = _STRING_PREFIX.match(text, pos).end()  # type: ignore[union-attr]  # matches at least `"`
    if end < len(text) and text[end] == "\\":
        return ScanError(end, "unknown escape in string literal")
    return ScanError(end, "expected '\"' in string literal")


MAX_NESTING = 100  # deeper brackets or regions are refused (printing and walking recurse)


def _bracket_step(depth: int) -> str:
    """What `_BODY` skips (other characters, `->`, `>=`, valid strings) and whole bracket groups
    nested up to `depth` deep, then one bracket: group 1 an opening one, group 2 a closing one.
    Every repetition is possessive: each position is read once, as `_BODY` reads it."""
    other = token_chars('<>(){}[]"->')
    unit = rf"(?:{other}++|->?|>=|{STR})"
    inner = f"{unit}*+"
    for _ in range(depth):
        group = rf"<{inner}>|\({inner}\)|\[{inner}\]|\{{{inner}\}}"
        inner = rf"(?:{unit}|{group})*+"
    return rf"{inner}(?:([<(\[{{])|([>)\]}}]))"


_STEP_GROUP_DEPTH = 2  # deeper makes the pattern four times longer (and slower to compile) per level
_BRACKET_STEP = lazy_compile(_bracket_step(_STEP_GROUP_DEPTH), re.ASCII)
# Groups a step skips are not counted: past this depth the full scan checks MAX_NESTING.
_STEP_MAX_DEPTH = MAX_NESTING - _STEP_GROUP_DEPTH


def scan_balanced(text: str, pos: int) -> int:
    """`text[pos]` opens a bracket; return the offset just past its matching close."""
    closer = _OPEN_TO_CLOSE.get(text[pos])
    if closer is None:
        return _scan_balanced(text, pos)
    # Bracket by bracket, each step skipping what `_BODY` skips and whole groups `_BRACKET_STEP`
    # takes in one match; anything else (an error, deeper nesting) is left to the full scan,
    # which reports it where it is.
    expected = [closer]
    step = _BRACKET_STEP.match
    p = pos + 1
    while True:
        m = step(text, p)
        if m is None:
            return _scan_balanced(text, pos)
        p = m.end()
        if m.lastindex == 1:
            expected.append(_OPEN_TO_CLOSE[text[p - 1]])
            if len(expected) > _STEP_MAX_DEPTH:
                return _scan_balanced(text, pos)
        elif expected.pop() != text[p - 1]:
            return _scan_balanced(text, pos)
        elif not expected:
            return p


def _scan_balanced(text: str, pos: int) -> int:
    """scan_balanced one token of `_BODY` at a time (it reports errors)."""
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
        elif m.lastindex == 1:
            raise string_error(text, m.start())
        elif m.lastindex == 2:
            raise ScanError(m.start(), "unexpected character")
    opener, at = stack[-1]
    raise ScanError(at, f"unbalanced '{opener}': no matching '{_OPEN_TO_CLOSE[opener]}' before end of input")


def keyword_body(text: str, end: int, opener: str) -> int:
    """Where the `<` (or `(`, as `opener`) of a builtin keyword ending at `end` is, blanks between
    allowed (MLIR reads `tensor <f32>` as `tensor<f32>`), or -1 when none follows."""
    if text.startswith(opener, end):
        return end
    p = skip_ws(text, end)
    return p if p > end and text.startswith(opener, p) else -1


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
        raise ScanError(pos, "invalid type identifier" if c == "!" else "expected a type")
    end = m.end()
    if end < len(text) and text[end] == "<":
        return scan_balanced(text, end)
    if c != "!" and m.group() in GAP_TYPES:  # a dialect type's `<` must follow its name directly
        p = keyword_body(text, end, "<")
        if p > 0:
            return scan_balanced(text, p)
    return end


# A type without nested brackets or strings (`tensor<4x8xbf16, #layout>`, `f32`, `!alias`).
_FLAT_TYPE_BODY = token_chars('<>()"')
_SIMPLE_T = rf"(?:(?:tensor|memref|vector|complex|tuple)<{_FLAT_TYPE_BODY}*>|!(?>{SUFFIX_ID})(?!<)|[A-Za-z_][\w$.]*(?![\w$.]|{BLANK}*<))"
_SIMPLE_TS = rf"(?:{_SIMPLE_T}(?:{BLANK}*,{BLANK}*{_SIMPLE_T})*)?"
# Function types whose types have no nested brackets (aliased encodings): the common case.
SIMPLE_FNTYPE = lazy_compile(
    rf"\({BLANK}*{_SIMPLE_TS}{BLANK}*\){BLANK}*->{BLANK}*(?:\({BLANK}*{_SIMPLE_TS}{BLANK}*\)|{_SIMPLE_T})", re.ASCII
)
# One type of such a function type (they contain no parentheses: line_readers.simple_fntype_types).
SIMPLE_TYPE = lazy_compile(_SIMPLE_T, re.ASCII)


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


def symbol(text: str, pos: int) -> int:
    """The end of the `@name` / `@"name"` at `pos`, with MLIR's errors."""
    m = SYMBOL.match(text, pos)
    if m is not None:
        return m.end()
    if text.startswith('"', pos + 1):
        raise string_error(text, pos + 1)
    raise ScanError(pos + 1, "@ identifier expected to start with letter or '_'")


_NESTED_SYMBOL = lazy_compile(rf"{BLANK}*:{BLANK}*:{BLANK}*@")


def scan_attr(text: str, pos: int) -> int:
    """One attribute value, including a literal's `: type` suffix."""
    n = len(text)
    if pos >= n:
        raise ScanError(pos, "expected an attribute value")
    c = text[pos]
    if c == "#":
        m = DIALECT_NAME.match(text, pos)
        if m is None:
            raise ScanError(pos, "invalid attribute name")
        end = m.end()
        return scan_balanced(text, end) if end < n and text[end] == "<" else end
    if c == "!":
        return scan_type(text, pos)
    if c == '"':
        m = STRING.match(text, pos)
        if m is None:
            raise string_error(text, pos)
        return _typed_suffix(text, m.end())
    if c in "[{":
        return scan_balanced(text, pos)
    if c == "(":
        return scan_type(text, pos)
    if c == "@":
        end = symbol(text, pos)
        while True:  # `@a::@b`; MLIR's `::` is two `:` tokens, so blanks may sit anywhere in it
            m = _NESTED_SYMBOL.match(text, end)
            if m is None:
                return end
            end = symbol(text, m.end() - 1)
    if "0" <= c <= "9" or c in "-+":
        m = NUMBER.match(text, pos)
        if m is None:
            raise ScanError(pos, "expected a number")
        return _typed_suffix(text, m.end())
    m = BARE_ID.match(text, pos)
    if m is None:
        raise ScanError(pos, "unexpected character")
    word = m.group()
    end = m.end()
    if word not in GAP_WORDS:
        return scan_balanced(text, end) if text.startswith("<", end) else end
    if word == "loc":
        p = keyword_body(text, end, "(")
        return scan_balanced(text, p) if p > 0 else end
    if word == "distinct":
        p = keyword_body(text, end, "[")
        if p < 0:
            return end
        return scan_attr(text, skip_ws(text, scan_balanced(text, p)))
    p = keyword_body(text, end, "<")
    if p < 0:
        return end
    end = scan_balanced(text, p)
    return _typed_suffix(text, end) if word in TYPED_LITERAL_PREFIXES else end


RESOURCE_KEY = lazy_compile(rf"[A-Za-z_][\w.$\-]*|{STR}", re.ASCII)

# What blank_comments reads: a run of text to keep (strings read whole, loosely: a bad one is
# reported where it is by the lexer, before anything a comment after it could change; a `"` that
# opens none is kept as a character), or (group 1) a comment, to the next '\n' or '\r', or NULs.
_KEEP_OR_BLANK = lazy_compile(r'(?:[^"/\x00]++|"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|/(?!/)|")++|(//[^\n\r]*+|\x00++)')
_BLANKABLE = lazy_compile(r"//|\x00")


def blank_comments(text: str) -> str:
    """`text` with its comments and NUL characters (outside strings) replaced by spaces, so every
    offset stays valid; `text` itself when it has none. MLIR's lexer skips both."""
    m = _BLANKABLE.search(text)
    if m is None:
        return text
    start = text.rfind("\n", 0, m.start()) + 1  # strings end with their line: read it from its start
    out = [text[:start]]
    blanked = False
    for t in _KEEP_OR_BLANK.finditer(text, start):
        if t.lastindex:
            out.append(" " * (t.end() - t.start()))
            blanked = True
        else:
            out.append(t.group())
    return "".join(out) if blanked else text  # else every `//` was inside a string


# A pretty dialect attribute or type (`#sdy.sharding<`, `!ttnn.x<`, `#sdy<`): the `<` opens its body.
_DIALECT_BODY_START = lazy_compile(rf"{STR}|[#!][A-Za-z_][\w$.]*<", re.ASCII)
# What MLIR's parseDialectSymbolBody looks at in a body it reads raw (comments are plain text there).
_RAW_BODY = lazy_compile(r'->|[<>\[\](){}"]', re.ASCII)
_RAW_CLOSE = {">": "<", "]": "[", ")": "(", "}": "{"}


def _raw_body_end(text: str, lt: int) -> int:
    """Where MLIR's parseDialectSymbolBody ends the body opened by `text[lt]` (`<`), reading it raw."""
    stack = ["<"]
    pos = lt + 1
    while stack:
        m = _RAW_BODY.search(text, pos)
        if m is None:
            raise ScanError(len(text), f"unbalanced '{stack[-1]}' character in pretty dialect name")
        tok = m.group()
        pos = m.end()
        if tok == '"':
            sm = STRING.match(text, m.start())
            if sm is None:
                raise string_error(text, m.start())
            pos = sm.end()
        elif tok in _RAW_CLOSE:
            if stack[-1] != _RAW_CLOSE[tok]:
                raise ScanError(m.start(), f"unbalanced '{stack[-1]}' character in pretty dialect name")
            stack.pop()
        elif tok != "->":
            stack.append(tok)
    return pos


def raw_dialect_body_problem(text: str, blanked: str) -> ScanError | None:
    """MLIR finds the end of a dialect attribute's or type's body before it skips comments: a
    bracket or quote inside a comment there counts. The first body of `text` (whose comments
    `blanked` has replaced by spaces) that MLIR would end elsewhere or reject, as a ScanError."""
    comments = _comment_starts(text, blanked)
    if not comments:
        return None
    for m in _DIALECT_BODY_START.finditer(blanked):
        if m.group()[0] == '"':
            continue
        lt = m.end() - 1
        try:
            end = scan_balanced(blanked, lt)
        except ScanError:
            return None  # the parse reports it
        k = bisect_left(comments, lt)
        if k == len(comments) or comments[k] >= end:
            continue  # no comment inside: MLIR reads the same body
        try:
            raw_end = _raw_body_end(text, lt)
        except ScanError as e:
            return e
        if raw_end != end:
            return ScanError(
                raw_end - 1,
                f"'{m.group()[:-1]}' ends here, inside a comment: MLIR finds the end of a dialect attribute's body before it skips comments",
            )
    return None


def _comment_starts(text: str, blanked: str) -> list[int]:
    """Offsets of the `//` that blank_comments blanked (not those inside strings), ascending."""
    out = []
    i = text.find("//")
    while i >= 0:
        if blanked[i] == " ":
            out.append(i)
        i = text.find("//", i + 2)
    return out


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
