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
_SHAPE = re.compile(r"(?:(?:\d+|\?|\*)x)+")
_BODY_KINDS = {
    w: w.upper() + "_BODY"
    for w in ("dense", "sparse", "dense_resource", "array", "affine_map", "affine_set", "strided")
}
_DICT_START = re.compile(r'\{\s*(?:\}|(?:[A-Za-z_][\w$.]*|"[^"\\\n]*(?:\\.[^"\\\n]*)*")\s*(?:=|,|\}))')


# Tokens whose parts (offsets of their pieces) ride on the token for the builder.
_PARTS_TOKENS = frozenset({"OP_RUN", "LOC_ALIASES", "REDUCE_HEAD", "MANUAL_HEAD"})


class MlirLexer(Lexer):
    """Contextual lexer for grammars/mlir.lark and grammars/attributes.lark."""

    __future_interface__ = 2  # receive (lexer_state, parser_state): we need the parser state

    def __init__(self, lexer_conf: Any) -> None:
        # Keyword spellings come from the grammar's own string terminals, so the grammar file
        # stays the single place where `applies`, `x`, `cond`, ... are declared.
        self.keywords: dict[str, str] = {}
        self.punct: dict[str, str] = {}
        self.parts: Any = None  # the items of the last OP_RUN token (see `op_run`)
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
            tok = FastToken(kind, text[start:pos], start)
            if kind in _PARTS_TOKENS:
                tok.end_pos = self.parts  # type: ignore[assignment]  # the items ride on an unused Token slot
                self.parts = None  # the lexer outlives the parse: it must not keep the text alive
            yield tok

    def _next(self, text: str, pos: int, c: str, acc: dict, keywords: dict, punct: dict) -> tuple[str, int]:
        if (c == "%" or c == '"') and "OP_RUN" in acc:
            run = op_run(text, pos) if FAST_LINES else None
            if run is not None:
                self.parts, end = run
                return "OP_RUN", end
        if c == "%":
            if "RESULTS" in acc:
                m = scan.RESULTS.match(text, pos)
                if m:
                    return "RESULTS", m.end()
            m = scan.VALUE.match(text, pos)
            if m is None:
                raise ScanError(pos, "expected an SSA value name after '%'")
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
            if "PROPS" in acc and text.startswith("<{", pos):
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
                    raise ScanError(pos, "expected an alias definition '#name = <attribute>'")
                return "ATTR_ALIAS", scan.scan_attr(text, m.end())
            if "ATTR" in acc:
                return "ATTR", scan.scan_attr(text, pos)
            if "DIALECT_ATTR" in acc:
                return "DIALECT_ATTR", scan.scan_attr(text, pos)
            m = scan.DIALECT_NAME.match(text, pos)
            return "HASH_NAME", m.end() if m else pos + 1
        if c == "!":
            if "TYPE_ALIAS" in acc:
                m = scan.ALIAS_DEF.match(text, pos)
                if m is None:
                    raise ScanError(pos, "expected an alias definition '!name = <type>'")
                return "TYPE_ALIAS", scan.scan_type(text, m.end())
            if "TYPE" in acc:
                return "TYPE", scan.scan_type(text, pos)
            if "ATTR" in acc:
                return "ATTR", scan.scan_attr(text, pos)
            if "DIALECT_TYPE" in acc:
                return "DIALECT_TYPE", scan.scan_type(text, pos)
            m = scan.DIALECT_NAME.match(text, pos)
            return "BANG_NAME", m.end() if m else pos + 1
        if c == '"':
            if "GENERIC_HEAD" in acc:
                m = scan.GENERIC_HEAD.match(text, pos)
                if m:
                    return "GENERIC_HEAD", m.end()
                m = scan.STRING.match(text, pos)
                if m is None:
                    raise ScanError(pos, "unterminated string literal")
                raise ScanError(m.end(), "expected the operand list '(%a, ...)' after the operation name")
            if "ATTR" in acc and "STRING" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            m = scan.STRING.match(text, pos)
            if m is None:
                raise ScanError(pos, "unterminated string literal")
            return "STRING", m.end()
        if c == "@":
            if "ATTR" in acc and "SYMBOL" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            m = scan.SYMBOL.match(text, pos)
            if m is None:
                raise ScanError(pos, "expected a symbol name after '@'")
            return "SYMBOL", m.end()
        if c == "^":
            m = scan.BLOCK_LABEL.match(text, pos)
            if m is None:
                raise ScanError(pos, "expected a block label after '^'")
            return "BLOCK_LABEL", m.end()
        if c == "-" and text.startswith("->", pos):
            return self.arrow, pos + 2
        if "SHAPE" in acc and (c.isdigit() or c in "?*"):
            m = _SHAPE.match(text, pos)
            if m:
                return "SHAPE", m.end()
        if c.isdigit() or c == "-" or c == "+":
            if "ATTR" in acc and "INT" not in acc:
                return "ATTR", scan.scan_attr(text, pos)
            m = scan.NUMBER.match(text, pos)
            if m is None:
                return punct.get(c, "PLUS"), pos + 1
            tok = m.group()
            if "x" in tok and tok.startswith(("0x", "-0x", "+0x")):
                return ("HEX" if "HEX" in acc else "INT"), m.end()
            if "." in tok or "e" in tok or "E" in tok:
                return "FLOAT", m.end()
            return "INT", m.end()
        if c.isalpha() or c == "_":
            m = scan.BARE_ID.match(text, pos)
            if m is None:  # a non-ASCII letter
                raise ScanError(pos, f"unexpected character {c!r}")
            word = m.group()
            end = m.end()
            if word == "loc" and "LOC" in acc and text.startswith("(", end):
                m = scan.SIMPLE_LOC.match(text, pos)
                return "LOC", m.end() if m else scan.scan_balanced(text, end)
            if end < len(text) and text[end] == "<":
                body_kind = _BODY_KINDS.get(word)
                if body_kind is not None and body_kind in acc:
                    return body_kind, scan.scan_balanced(text, end)
            kw = keywords.get(word)
            if kw is not None and kw in acc:
                return kw, end
            if "OP_RUN" in acc and FAST_LINES and OP_FAMILIES.get(word) == "OP_PRETTY":
                run = op_run(text, pos)  # `stablehlo.return %x : T`, then what follows
                if run is not None:
                    self.parts, end = run
                    return "OP_RUN", end
            if "OPNAME_REF" in acc:
                return "OPNAME_REF", end
            fam = OP_FAMILIES.get(word)
            if fam == "OP_REDUCE" and "REDUCE_HEAD" in acc and FAST_LINES:
                head = reduce_head_parts(text, pos)
                if head is not None:
                    self.parts, end = head
                    return "REDUCE_HEAD", end
            if fam == "OP_SDY_MANUAL" and "MANUAL_HEAD" in acc and FAST_LINES:
                head = manual_head_parts(text, pos)
                if head is not None:
                    self.parts, end = head
                    return "MANUAL_HEAD", end
            if fam is not None and fam in acc:
                return fam, end
            if "TYPE" in acc:
                return "TYPE", scan.scan_type(text, pos)
            if "ATTR" in acc:
                return "ATTR", scan.scan_attr(text, pos)
            if "BARE_ID" in acc:
                return "BARE_ID", end
            if "GENERIC_HEAD" in acc:
                raise ScanError(
                    pos,
                    f"custom assembly format of '{word}' is not known to ttopt; write the op in generic form "
                    f'("{word}"(...) : (...) -> ...)',
                )
            return "BARE_ID", end
        if c == ":":
            if "COLON_FNTYPE" in acc:
                p = scan.skip_ws(text, pos + 1)
                if p < len(text) and text[p] == "(":
                    return "COLON_FNTYPE", scan.scan_fntype(text, p)
                raise ScanError(p, "expected a function type '(...) -> ...' after ':'")
            if text.startswith("::", pos) and "::" in punct:
                return punct["::"], pos + 2
        name = punct.get(c) or _PUNCT.get(c)
        if name is None:
            raise ScanError(pos, f"unexpected character {c!r}")
        return name, pos + 1


# Whole-op lexing is on unless a test turns it off to compare with the piecewise grammar.
FAST_LINES = True


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
