"""The contextual lexer behind both Lark grammars.

Lark's LALR parser hands this lexer its current state; the lexer looks up which terminals the
state accepts and only then decides what the next characters are. That is what lets one
character start different tokens in different places (`(` is an operand list after a generic
op name, a function type after `:`, a plain parenthesis elsewhere) and lets bracketed bodies
come out as single tokens, so the grammar stays small and the parser does little work per op.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from lark import Token
from lark.lexer import Lexer, PatternStr

from ttopt.ir.opdef import OP_FAMILIES
from ttopt.parse import scan
from ttopt.parse.line_readers import loc_alias_run, manual_head_parts, op_run, reduce_head_parts
from ttopt.parse.scan import ScanError

_PUNCT = {
    "=": "EQUAL",
    ",": "COMMA",
    ":": "COLON",
    "(": "LPAR",
    ")": "RPAR",
    "[": "LSQB",
    "]": "RSQB",
    "{": "LBRACE",
    "}": "RBRACE",
    "<": "LESSTHAN",
    ">": "MORETHAN",
    "?": "QMARK",
    "*": "STAR",
    "+": "PLUS",
}
_WORD_ALTERNATION = re.compile(r"^\(\?:((?:[A-Za-z_]\w*\|?)+)\)$")
# `4x8x` of `tensor<4x8xf32>`; MLIR reads the dimensions and `x`s as tokens, so blanks may sit
# between them (`4 x 8 x f32`).
_SHAPE = re.compile(rf"(?:(?:\d+|\?|\*){scan.BLANK}*x{scan.BLANK}*)+", re.ASCII)
_BODY_KINDS = {
    w: w.upper() + "_BODY"
    for w in ("dense", "sparse", "dense_resource", "array", "affine_map", "affine_set", "strided")
}
_DICT_START = re.compile(rf"\{{{scan.BLANK}*(?:\}}|(?:[A-Za-z_][\w$.]*|{scan.STR}){scan.BLANK}*(?:=|,|\}}))", re.ASCII)
_ID_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_DIGITS = frozenset("0123456789")
# MLIR's errors for a `#` or `!` not followed by a suffix-id (Lexer::lexPrefixedIdentifier; `%` and
# `^` give "invalid SSA name" and "invalid block name").
_PREFIX_ERRORS = {"#": "invalid attribute name", "!": "invalid type identifier"}


# Tokens whose parts (offsets of their pieces) ride on the token for the builder.
_PARTS_TOKENS = frozenset({"OP_RUN", "LOC_ALIASES", "REDUCE_HEAD", "MANUAL_HEAD"})
# Tokens the lexer builds itself: those, and a builtin keyword's body written after blanks
# (`dense <...>`, `loc (...)`), whose text drops the blanks (see `_gap`).
_SPECIAL_TOKENS = _PARTS_TOKENS | {"GAP"}


class MlirLexer(Lexer):
    """Contextual lexer for grammars/mlir.lark and grammars/attributes.lark."""

    __future_interface__ = 2  # receive (lexer_state, parser_state): we need the parser state

    def __init__(self, lexer_conf: Any) -> None:
        # Keyword spellings come from the grammar's own string terminals, so the grammar file
        # stays the single place where `applies`, `x`, `cond`, ... are declared.
        self.keywords: dict[str, str] = {}
        self.punct: dict[str, str] = {}
        self.parts: Any = None  # the items of the last OP_RUN token (see `op_run`)
        # Where the last OP_RUN stopped at an op op_run does not read: the lexer does not ask again there.
        self.no_run_at = -1
        for t in lexer_conf.terminals:
            p = t.pattern
            if isinstance(p, PatternStr):
                if re.fullmatch(r"[A-Za-z_]\w*", p.value):
                    self.keywords[p.value] = t.name
                else:
                    self.punct[p.value] = t.name
            else:
                m = _WORD_ALTERNATION.match(p.value)
                if m:
                    for w in m.group(1).split("|"):
                        self.keywords[w] = t.name
        self.arrow = self.punct.get("->", "ARROW")

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:
        text = lexer_state.text
        if not isinstance(text, str):
            text = text.text
        n = len(text)
        states = parser_state.parse_conf.states
        stack = parser_state.state_stack  # mutated in place by the parser: top = current state
        keywords = self.keywords
        punct = self.punct
        skip = scan.WS.match
        nxt = self._next
        # Whether a line may end with '\r' (op_run bounds each line at the first of '\n' or '\r').
        self.cr = "\r" in text
        self.fast = FAST_LINES if FAST_LINES is not None else n >= FAST_MIN_CHARS
        self.no_run_at = -1
        pos = 0
        while True:
            m = skip(text, pos)
            if m:
                pos = m.end()
            if pos >= n:
                return
            acc = states[stack[-1]]
            c = text[pos]
            start = pos
            try:
                kind, pos = nxt(text, pos, c, acc, keywords, punct)
            except ScanError as e:
                raise LexFailure(e.pos, e.message) from None
            if kind in _SPECIAL_TOKENS:
                yield self._special(kind, text, start, pos)
            else:
                yield FastToken(kind, text[start:pos], start)

    def _special(self, kind: str, text: str, start: int, end: int) -> Token:
        """A token whose text or parts the lexer sets itself (`_SPECIAL_TOKENS`)."""
        if kind == "GAP":
            a, b = self.gap
            return FastToken(self.gap_kind, text[start:a] + text[b:end], start)
        tok = FastToken(kind, text[start:end], start)
        tok.end_pos = self.parts  # type: ignore[assignment]  # the items ride on an unused Token slot
        self.parts = None  # the lexer outlives the parse: it must not keep the text alive
        return tok

    def _gap(self, kind: str, word_end: int, body: int, end: int) -> tuple[str, int]:
        """A token made of a builtin keyword ending at `word_end` and its body from `body` to `end`;
        blanks between the two are dropped from its text (MLIR reads `dense <1>` as `dense<1>`), so
        what reads the token sees one spelling."""
        if body == word_end or end <= body:
            return kind, end
        self.gap = (word_end, body)
        self.gap_kind = kind
        return "GAP", end

    def _next(self, text: str, pos: int, c: str, acc: dict, keywords: dict, punct: dict) -> tuple[str, int]:
        if (c == "%" or c == '"') and "OP_RUN" in acc and pos != self.no_run_at:
            run = op_run(text, pos, self.cr) if self.fast else None
            if run is not None:
                self.parts, end, self.no_run_at = run
                return "OP_RUN", end
        if c == "%":
            if "RESULTS" in acc:
                m = scan.RESULTS.match(text, pos)
                if m:
                    return "RESULTS", m.end()
            m = scan.VALUE.match(text, pos)
            if m is None:
                raise ScanError(pos, "invalid SSA name")
            return "VALUE", m.end()
        if c == "(":
            if "FNTYPE" in acc:
                return "FNTYPE", scan.scan_fntype(text, pos)
            if "OPERANDS" in acc:
                m = scan.OPERANDS.match(text, pos)
                if m:
                    return "OPERANDS", m.end()
            if "TYPE" in acc and "LPAR" not in acc:
                return "TYPE", scan.scan_type(text, pos)
            if "ATTR" in acc and "LPAR" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            return "LPAR", pos + 1
        if c == "{":
            if "FILE_METADATA" in acc and text.startswith("{-#", pos):
                return "FILE_METADATA", scan.scan_file_metadata(text, pos)
            if "ATTR_DICT" in acc and ("LBRACE" not in acc or _DICT_START.match(text, pos)):
                return "ATTR_DICT", scan.scan_balanced(text, pos)
            if "AXIS_LIST" in acc:
                return "AXIS_LIST", scan.scan_balanced(text, pos)
            if "ATTR" in acc and "LBRACE" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            return "LBRACE", pos + 1
        if c == "<":
            if "PROPS" in acc:
                # `<{...}>`; MLIR's `<` and `{` are two tokens, so blanks may sit between them
                p = pos + 1 if text.startswith("{", pos + 1) else scan.skip_ws(text, pos + 1)
                if text.startswith("{", p):
                    return "PROPS", scan.scan_balanced(text, pos)
            if "ANGLE" in acc:
                return "ANGLE", scan.scan_balanced(text, pos)
            if "FUSED_META" in acc:
                return "FUSED_META", scan.scan_balanced(text, pos)
            return "LESSTHAN", pos + 1
        if c == "[":
            if "CONV_DIMS" in acc:
                m = scan.CONV_DIMS.match(text, pos)
                if m:
                    return "CONV_DIMS", m.end()
            if "BRACKET" in acc:
                return "BRACKET", scan.scan_balanced(text, pos)
            if "ATTR" in acc and "LSQB" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            return "LSQB", pos + 1
        if c == "#":
            if "LOC_ALIASES" in acc:
                aliases = loc_alias_run(text, pos)
                if aliases is not None:
                    self.parts, end = aliases
                    return "LOC_ALIASES", end
            if "ATTR_ALIAS" in acc:
                m = scan.ALIAS_DEF.match(text, pos)
                if m is None:
                    _prefixed_id(text, pos)
                    raise ScanError(pos, "expected an alias definition '#name = <attribute>'")
                return "ATTR_ALIAS", scan.scan_attr(text, m.end())
            if "ATTR" in acc:
                return "ATTR", scan.scan_attr(text, pos)
            if "DIALECT_ATTR" in acc:
                return "DIALECT_ATTR", scan.scan_attr(text, pos)
            return "HASH_NAME", _prefixed_id(text, pos)
        if c == "!":
            if "TYPE_ALIAS" in acc:
                m = scan.ALIAS_DEF.match(text, pos)
                if m is None:
                    _prefixed_id(text, pos)
                    raise ScanError(pos, "expected an alias definition '!name = <type>'")
                return "TYPE_ALIAS", scan.scan_type(text, m.end())
            if "TYPE" in acc:
                return "TYPE", scan.scan_type(text, pos)
            if "ATTR" in acc:
                return "ATTR", scan.scan_attr(text, pos)
            if "DIALECT_TYPE" in acc:
                return "DIALECT_TYPE", scan.scan_type(text, pos)
            return "BANG_NAME", _prefixed_id(text, pos)
        if c == '"':
            if "GENERIC_HEAD" in acc:
                m = scan.GENERIC_HEAD.match(text, pos)
                if m:
                    return "GENERIC_HEAD", m.end()
                m = scan.STRING.match(text, pos)
                if m is None:
                    raise scan.string_error(text, pos)
                raise ScanError(m.end(), "expected the operand list '(%a, ...)' after the operation name")
            if "ATTR" in acc and "STRING" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            m = scan.STRING.match(text, pos)
            if m is None:
                raise scan.string_error(text, pos)
            return "STRING", m.end()
        if c == "@":
            if "ATTR" in acc and "SYMBOL" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            return "SYMBOL", scan.symbol(text, pos)
        if c == "^":
            m = scan.BLOCK_LABEL.match(text, pos)
            if m is None:
                raise ScanError(pos, "invalid block name")
            return "BLOCK_LABEL", m.end()
        if c == "-" and text.startswith("->", pos):
            return self.arrow, pos + 2
        if "SHAPE" in acc and (c in _DIGITS or c == "?" or c == "*"):
            m = _SHAPE.match(text, pos)
            if m:
                return "SHAPE", m.end()
        if c in _DIGITS or c == "-" or c == "+":
            if "ATTR" in acc and "INT" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            m = scan.NUMBER.match(text, pos)
            if m is None:
                return punct.get(c, "PLUS"), pos + 1
            tok = m.group()
            if "x" in tok and tok.lstrip("-+ \t\n\r").startswith("0x"):
                kind = "HEX" if "HEX" in acc else "INT"
            elif "." in tok or "e" in tok or "E" in tok:
                kind = "FLOAT"
            else:
                kind = "INT"
            if c == "-" and tok[1] in " \t\n\r":
                return self._gap(kind, pos + 1, scan.skip_ws(text, pos + 1), m.end())
            return kind, m.end()
        if c in _ID_START:
            return self._word(text, pos, acc, keywords)
        if c == ":":
            if "COLON_FNTYPE" in acc:
                p = scan.skip_ws(text, pos + 1)
                if p < len(text) and text[p] == "(":
                    return "COLON_FNTYPE", scan.scan_fntype(text, p)
                raise ScanError(p, "expected a function type '(...) -> ...' after ':'")
            colons = punct.get("::")
            if colons is not None and colons in acc:  # `@a::@b`; MLIR reads `::` as two `:` tokens
                if text.startswith(":", pos + 1):
                    return colons, pos + 2
                p = scan.skip_ws(text, pos + 1)
                if text.startswith(":", p):
                    return self._gap(colons, pos + 1, p, p + 1)
        name = punct.get(c) or _PUNCT.get(c)
        if name is None:
            raise ScanError(pos, "unexpected character")
        return name, pos + 1

    def _word(self, text: str, pos: int, acc: dict, keywords: dict) -> tuple[str, int]:
        """A token starting with a bare identifier: a keyword, an op name, a type, an attribute, ..."""
        m = scan.BARE_ID.match(text, pos)
        word = m.group()  # type: ignore[union-attr]  # the caller saw a letter or '_'
        end = m.end()  # type: ignore[union-attr]
        # Where the keyword's `<` or `(` is: right after it, or after blanks for the builtin
        # keywords MLIR reads as their own token (`dense <1>`, `loc ("x")`, `tensor <f32>`).
        body = end
        if end < len(text) and text[end] in " \t\n\r" and word in scan.GAP_WORDS:
            body = scan.skip_ws(text, end)
        if word == "loc" and "LOC" in acc and text.startswith("(", body):
            m = scan.SIMPLE_LOC.match(text, pos) if body == end else None
            return ("LOC", m.end()) if m else self._gap("LOC", end, body, scan.scan_balanced(text, body))
        if text.startswith("<", body):
            body_kind = _BODY_KINDS.get(word)
            if body_kind is not None and body_kind in acc:
                e = scan.scan_balanced(text, body)
                return (body_kind, e) if body == end else self._gap(body_kind, end, body, e)
        kw = keywords.get(word)
        if kw is not None and kw in acc:
            return kw, end
        if "OP_RUN" in acc and self.fast and OP_FAMILIES.get(word) == "OP_PRETTY" and pos != self.no_run_at:
            run = op_run(text, pos, self.cr)  # `stablehlo.return %x : T`, then what follows
            if run is not None:
                self.parts, end, self.no_run_at = run
                return "OP_RUN", end
        if "OPNAME_REF" in acc:
            return "OPNAME_REF", end
        fam = OP_FAMILIES.get(word)
        if word in GENERIC_BODY_OPS and "GENERIC_HEAD" in acc and text.startswith("(", end):
            m = scan.OPERANDS.match(text, end)
            if m is not None:
                return "GENERIC_HEAD", m.end()
        if fam == "OP_REDUCE" and "REDUCE_HEAD" in acc and self.fast:
            head = reduce_head_parts(text, pos)
            if head is not None:
                self.parts, end = head
                return "REDUCE_HEAD", end
        if fam == "OP_SDY_MANUAL" and "MANUAL_HEAD" in acc and self.fast:
            head = manual_head_parts(text, pos)
            if head is not None:
                self.parts, end = head
                return "MANUAL_HEAD", end
        if fam is not None and fam in acc:
            return fam, end
        if "TYPE" in acc:
            e = scan.scan_type(text, pos)
            return ("TYPE", e) if body == end else self._gap("TYPE", end, body, e)
        if "ATTR" in acc:
            e = scan.scan_attr(text, pos)
            return ("ATTR", e) if body == end else self._gap("ATTR", end, body, e)
        if "BARE_ID" in acc:
            return "BARE_ID", end
        if "GENERIC_HEAD" in acc:
            raise ScanError(
                pos,
                f"custom assembly format of '{word}' is not known to ttopt; write the op in generic form "
                f'("{word}"(...) : (...) -> ...)',
            )
        return "BARE_ID", end


# Ops whose custom parser also takes the generic body after the bare name
# (`stablehlo.constant() <{value = ...}> : () -> T`, StableHLO's ConstantOp::parse).
GENERIC_BODY_OPS = frozenset({"stablehlo.constant"})


def _prefixed_id(text: str, pos: int) -> int:
    """The end of the `#name` / `!name` at `pos`, or MLIR's error when no suffix-id follows."""
    m = scan.DIALECT_NAME.match(text, pos)
    if m is None:
        raise ScanError(pos, _PREFIX_ERRORS[text[pos]])
    return m.end()


# Whole-op lexing (line_readers.op_run and the reduce / manual-computation heads) reads an op per
# match, but its patterns take about 30 ms to compile: more than it saves on a small file, which
# the piecewise grammar reads instead. None picks by the input's size; tests force it either way
# to compare the two (tests/parse/test_fast_lines.py).
FAST_LINES: bool | None = None
FAST_MIN_CHARS = 32_768


class FastToken(Token):
    """A lark Token built with only what the parser and our diagnostics use (type, text, offset)."""

    __slots__ = ()

    def __new__(cls, type: str, value: str, start_pos: int) -> FastToken:  # type: ignore[override]
        self = str.__new__(cls, value)
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.line = self.column = self.end_line = self.end_column = self.end_pos = None
        return self


class LexFailure(Exception):
    """Raised out of the lexer generator; turned into a Diagnostic by the parse driver."""

    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message
