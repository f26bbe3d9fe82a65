"""A small TableGen reader: enough of the language to evaluate MLIR ODS files into records.

It reads `class`, `def`, `defm`/`multiclass`, `foreach`, `let ... in`, `defvar`, `if`, `include`
and the `#ifdef`/`#ifndef`/`#define` preprocessor, and evaluates values: integers, strings and code
blocks, lists, DAGs (`(ins I32Attr:$x)`), class instantiation with template arguments and defaults,
paste (`#`), field access, and the bang operators ODS files use (`!if`, `!eq`, `!empty`, `!filter`,
`!foreach`, `!listconcat`, `!strconcat`, `!con`, ...).

Classes that are not defined in the files read (MLIR's own `Op`, `AttrDef`, `OptionalAttr`, ...,
whose .td files live in LLVM, not in the project being read) are kept symbolically: an anonymous
`OptionalAttr<I32Attr>` evaluates to `Inst("OptionalAttr", (Ref("I32Attr"),))`, and a record that
derives from one lists it in `Record.external` with its evaluated arguments. An identifier that
names nothing read evaluates to `Ref(name)`. So the reader needs no LLVM install, and the ODS layer
above it interprets MLIR's vocabulary by name.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

# -- values ------------------------------------------------------------------------------------
# int (bits and bools too), str (strings and code blocks), None (`?`), tuple (lists) and:


@dataclass(frozen=True)
class Ref:
    """An identifier that names no record, class argument or variable read (e.g. MLIR's `I32Attr`)."""

    name: str


@dataclass(frozen=True)
class Inst:
    """An anonymous instance of a class not defined in the files read (`OptionalAttr<I32Attr>`)."""

    cls: str
    args: tuple[Any, ...]


@dataclass(frozen=True)
class DagArg:
    """One argument of a DAG: a value and/or a `$name`."""

    value: Any
    name: str | None


@dataclass(frozen=True)
class Dag:
    """`(op arg:$name, ...)`."""

    op: Any
    args: tuple[DagArg, ...]

    @property
    def operator(self) -> str:
        """The operator's name (`ins`, `outs`)."""
        return _name_of(self.op)


@dataclass(frozen=True)
class Opaque:
    """A value the reader does not evaluate (an unknown bang operator), kept as a description."""

    text: str


@dataclass(eq=False)
class Record:
    """A `def` (or an anonymous instance of a class read): its fields and where it comes from."""

    name: str
    fields: dict[str, Any] = field(default_factory=dict)
    bases: list[str] = field(default_factory=list)  # every class instantiated, outermost first
    external: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)  # unread classes + args
    loc: tuple[str, int] = ("", 0)

    def is_a(self, cls: str) -> bool:
        """True if the record derives from class `cls` (read or external)."""
        return cls in self.bases

    def external_args(self, cls: str) -> tuple[Any, ...] | None:
        """The arguments this record passed to the unread class `cls`, or None."""
        for name, args in self.external:
            if name == cls:
                return args
        return None

    def __repr__(self) -> str:
        return f"<Record {self.name}>"


def _name_of(v: Any) -> str:
    if isinstance(v, (Ref, Record)):
        return v.name
    if isinstance(v, Inst):
        return v.cls
    return str(v)


class TableGenError(ValueError):
    """A TableGen file that the reader cannot read: `file:line:col: message`."""


# -- lexer -------------------------------------------------------------------------------------
_TOKEN = re.compile(
    r"""
    (?:[ \t\r\n]+|//[^\n]*)*
    (?:
      (?P<block>/\*)
    | (?P<code>\[\{)
    | (?P<str>"(?:[^"\\\n]|\\.)*")
    | (?P<var>\$[A-Za-z_][A-Za-z0-9_]*)
    | (?P<bang>![a-z]+)
    | (?P<num>0x[0-9a-fA-F]+|0b[01]+(?![A-Za-z0-9_])|[+-]?[0-9]+(?![A-Za-z_]))
    | (?P<id>[0-9]*[A-Za-z_][A-Za-z0-9_]*)
    | (?P<hash>\#)
    | (?P<punct>\.\.\.|[<>()\[\]{},;:=.?\-])
    | (?P<end>\Z)
    )
    """,
    re.X,
)
_DIRECTIVE = re.compile(r"[ \t]*#(ifdef|ifndef|define|else|endif|undef)\b[ \t]*([A-Za-z_][A-Za-z0-9_]*)?[^\n]*")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}


class Token(NamedTuple):
    kind: str  # id, num, str, code, var, bang, punct, eof
    text: str  # as written: no two kinds share a spelling (strings keep their quotes)
    value: Any
    file: str
    pos: int


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text))]


def tokenize(text: str, file: str, macros: set[str]) -> list[Token]:
    """The tokens of one file, with preprocessor conditionals applied (`macros` is updated)."""
    out: list[Token] = []
    stack: list[tuple[bool, bool]] = []  # (this branch active, enclosing active)
    active = True
    pos, n = 0, len(text)

    def fail(msg: str, at: int) -> TableGenError:
        line, col = _line_col(text, at)
        return TableGenError(f"{file}:{line}:{col}: {msg}")

    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:
            bad = len(text) - len(text[pos:].lstrip())
            if not active:  # text in a disabled region need not lex
                nl = text.find("\n", bad)
                pos = n if nl < 0 else nl + 1
                continue
            raise fail(f"unexpected character {text[bad]!r}", bad)
        kind = m.lastgroup or ""
        start, end = m.start(kind), m.end()
        if kind == "end":
            break
        if kind == "hash":
            line_start = text.rfind("\n", 0, start) + 1
            d = _DIRECTIVE.match(text, line_start) if not text[line_start:start].strip() else None
            if d:
                word, name = d.group(1), d.group(2)
                if word in ("ifdef", "ifndef", "define", "undef") and not name:
                    raise fail(f"#{word} needs a macro name", start)
                if word in ("ifdef", "ifndef"):
                    cond = (name in macros) == (word == "ifdef")
                    stack.append((cond, active))
                    active = active and cond
                elif word == "else":
                    if not stack:
                        raise fail("#else without #ifdef/#ifndef", start)
                    cond, outer = stack[-1]
                    stack[-1] = (not cond, outer)
                    active = outer and not cond
                elif word == "endif":
                    if not stack:
                        raise fail("#endif without #ifdef/#ifndef", start)
                    active = stack.pop()[1]
                elif active and word == "define":
                    macros.add(name)
                elif active and word == "undef":
                    macros.discard(name)
                pos = d.end()
                continue
            kind = "punct"
        if kind == "block":
            depth, j = 1, end
            while depth:
                opening, closing = text.find("/*", j), text.find("*/", j)
                if closing < 0:
                    raise fail("unterminated /* comment", start)
                if 0 <= opening < closing:  # TableGen's block comments nest
                    depth, j = depth + 1, opening + 2
                else:
                    depth, j = depth - 1, closing + 2
            end = j
        elif kind == "code":
            k = text.find("}]", end)
            if k < 0:
                raise fail("unterminated [{ code block", start)
            if active:
                out.append(Token("code", text[start : k + 2], text[end:k], file, start))
            end = k + 2
        elif active:
            tok = text[start:end]
            if kind == "str":
                value: Any = re.sub(r"\\(.)", lambda e: _ESCAPES.get(e.group(1), e.group(1)), tok[1:-1])
            elif kind == "num":
                value = int(tok, 0) if tok[:2] in ("0x", "0b") else int(tok)
            else:
                value = tok
            out.append(Token(kind, tok, value, file, start))
        pos = end
    if stack:
        raise fail("#ifdef/#ifndef without #endif", n)
    out.append(Token("eof", "", None, file, n))
    return out


# -- parser: tokens -> statement trees ---------------------------------------------------------
# Expressions are tuples tagged by their first item; statements too. Class and multiclass bodies
# stay as trees, evaluated once per instantiation.


class _Parser:
    def __init__(self, tokens: list[Token], text: str) -> None:
        self.toks = tokens
        self.i = 0
        self.text = text
        self.starts = _line_starts(text)

    # token helpers
    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def error(self, msg: str, tok: Token | None = None) -> TableGenError:
        t = tok or self.tok
        line, col = _line_col(self.text, t.pos)
        return TableGenError(f"{t.file}:{line}:{col}: {msg}")

    def at(self, text: str) -> bool:
        return self.toks[self.i].text == text

    def eat(self, text: str) -> bool:
        if self.at(text):
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> Token:
        if not self.at(text):
            shown = self.tok.text or "end of file"
            raise self.error(f"expected '{text}', got '{shown}'")
        t = self.tok
        self.i += 1
        return t

    def ident(self) -> str:
        t = self.tok
        if t.kind != "id":
            raise self.error(f"expected an identifier, got '{t.text or 'end of file'}'")
        self.i += 1
        return t.text

    def loc(self) -> tuple[str, int]:
        t = self.tok
        return t.file, bisect.bisect_right(self.starts, t.pos)

    # statements
    def statements(self, until: str | None = None) -> list[tuple]:
        out = []
        while not (self.tok.kind == "eof" or (until is not None and self.at(until))):
            out.append(self.statement())
        return out

    def block_or_one(self) -> list[tuple]:
        if self.eat("{"):
            body = self.statements("}")
            self.expect("}")
            return body
        return [self.statement()]

    def statement(self) -> tuple:
        t = self.tok
        word = t.text if t.kind == "id" else ""
        if word == "include":
            self.i += 1
            s = self.tok
            if s.kind != "str":
                raise self.error("expected a file name after include")
            self.i += 1
            return ("include", s.value, t)
        if word == "class":
            self.i += 1
            loc = self.loc()
            name = self.ident()
            targs = self.template_params()
            parents, body = self.object_body()
            return ("class", name, targs, parents, body, loc)
        if word == "def":
            self.i += 1
            loc = self.loc()
            def_name = self.name_expr()
            parents, body = self.object_body()
            return ("def", def_name, parents, body, loc)
        if word == "defm":
            self.i += 1
            loc = self.loc()
            defm_name = self.name_expr()
            self.expect(":")
            parents = self.parent_list()
            self.expect(";")
            return ("defm", defm_name, parents, loc)
        if word == "multiclass":
            self.i += 1
            name = self.ident()
            targs = self.template_params()
            parents = self.parent_list() if self.eat(":") else []
            self.expect("{")
            body = self.statements("}")
            self.expect("}")
            return ("multiclass", name, targs, parents, body)
        if word == "let":
            self.i += 1
            binds = [self.let_item()]
            while self.eat(","):
                binds.append(self.let_item())
            self.expect("in")
            return ("let", binds, self.block_or_one())
        if word == "foreach":
            self.i += 1
            var = self.ident()
            self.expect("=")
            it = self.foreach_range()
            self.expect("in")
            return ("foreach", var, it, self.block_or_one())
        if word == "if":
            self.i += 1
            cond = self.value()
            self.expect("then")
            then = self.block_or_one()
            other = self.block_or_one() if self.eat("else") else []
            return ("if", cond, then, other)
        if word == "defvar":
            self.i += 1
            name = self.ident()
            self.expect("=")
            v = self.value()
            self.expect(";")
            return ("defvar", name, v)
        if word == "defset":
            self.i += 1
            self.type_()
            name = self.ident()
            self.expect("=")
            self.expect("{")
            body = self.statements("}")
            self.expect("}")
            return ("defset", name, body)
        if word in ("assert", "dump"):
            self.i += 1
            self.value()
            if word == "assert":
                self.expect(",")
                self.value()
            self.expect(";")
            return ("skip",)
        raise self.error(f"expected a TableGen statement, got '{t.text or 'end of file'}'")

    def foreach_range(self) -> tuple:
        """`{0-3, 5}`, `0...3` (or the older `0-3`), or a list value."""
        if self.eat("{"):
            items = self.ranges("}")
            self.expect("}")
            return ("ints", items)
        first = self.value()
        if self.eat("...") or self.eat("-"):
            return ("range", first, self.value())
        if self.tok.kind == "num" and self.tok.text.startswith("-"):  # `0-3`: the lexer read `-3`
            hi = -self.tok.value
            self.i += 1
            return ("range", first, ("int", hi))
        return ("value", first)

    def ranges(self, close: str) -> list[tuple]:
        out: list[tuple] = []
        while not self.at(close):
            lo = self.value()
            if self.eat("...") or self.eat("-"):
                out.append(("range", lo, self.value()))
            elif self.tok.kind == "num" and self.tok.text.startswith("-"):
                out.append(("range", lo, ("int", -self.tok.value)))
                self.i += 1
            else:
                out.append(("one", lo))
            if not self.eat(","):
                break
        return out

    def let_item(self) -> tuple:
        name = self.ident()
        if self.eat("{"):
            self.ranges("}")
            self.expect("}")
        self.expect("=")
        return (name, self.value())

    def template_params(self) -> list[tuple]:
        out: list[tuple] = []
        if not self.eat("<"):
            return out
        while True:
            self.type_()
            name = self.ident()
            default = self.value() if self.eat("=") else None
            out.append((name, default))
            if not self.eat(","):
                break
        self.expect(">")
        return out

    def type_(self) -> None:
        if self.at("code") or self.at("string") or self.at("int") or self.at("dag") or self.at("bit"):
            self.i += 1
            return
        self.ident()
        if self.eat("<"):
            depth = 1
            while depth:
                if self.tok.kind == "eof":
                    raise self.error("unterminated type")
                depth += 1 if self.at("<") else -1 if self.at(">") else 0
                self.i += 1

    def name_expr(self) -> tuple | None:
        if self.at(":") or self.at("{") or self.at(";"):
            return None
        return self.value(name_context=True)

    def parent_list(self) -> list[tuple]:
        out = [self.class_ref()]
        while self.eat(","):
            out.append(self.class_ref())
        return out

    def class_ref(self) -> tuple:
        tok = self.tok
        name = self.ident()
        return (name, self.arg_list() if self.at("<") else [], tok)

    def object_body(self) -> tuple[list[tuple], list[tuple]]:
        parents = self.parent_list() if self.eat(":") else []
        if self.eat(";"):
            return parents, []
        self.expect("{")
        body = []
        while not self.eat("}"):
            body.append(self.body_item())
        return parents, body

    def body_item(self) -> tuple:
        if self.eat("let"):
            name = self.ident()
            if self.eat("{"):
                self.ranges("}")
                self.expect("}")
            self.expect("=")
            v = self.value()
            self.expect(";")
            return ("let", name, v)
        if self.eat("defvar"):
            name = self.ident()
            self.expect("=")
            v = self.value()
            self.expect(";")
            return ("defvar", name, v)
        if self.at("assert") or self.at("dump"):
            self.statement()
            return ("skip",)
        self.eat("field")
        self.type_()
        name = self.ident()
        init = self.value() if self.eat("=") else None
        self.expect(";")
        return ("field", name, init)

    def arg_list(self) -> list[tuple]:
        """`<a, b, name = c>` -> [(None|name, expr)]."""
        self.expect("<")
        out: list[tuple] = []
        if self.eat(">"):
            return out
        while True:
            if self.tok.kind == "id" and self.toks[self.i + 1].text == "=" and self.toks[self.i + 1].kind == "punct":
                name = self.ident()
                self.i += 1
                out.append((name, self.value()))
            else:
                out.append((None, self.value()))
            if not self.eat(","):
                break
        self.expect(">")
        return out

    # values
    def value(self, name_context: bool = False) -> tuple:
        v = self.simple_value()
        while True:
            if self.at("."):
                self.i += 1
                v = ("field", v, self.ident())
            elif self.at("[") and not name_context:
                self.i += 1
                rng = self.ranges("]")
                self.expect("]")
                v = ("index", v, rng)
            elif self.at("{") and not name_context:
                # `x{3-0}` bit slices: only directly after the value (no space) in practice; the
                # reader has no bits type, so the slice is ignored.
                t = self.tok
                prev = self.toks[self.i - 1]
                if t.pos != prev.pos + len(prev.text):
                    break
                self.i += 1
                self.ranges("}")
                self.expect("}")
            elif self.at("#"):
                self.i += 1
                if self.at(",") or self.at(";") or self.at(">") or self.at("]") or self.at(")") \
                        or self.at(":") or self.at("{"):
                    v = ("paste", v, ("str", ""))
                else:
                    v = ("paste", v, self.simple_value_with_suffix(name_context))
            else:
                break
        return v

    def simple_value_with_suffix(self, name_context: bool) -> tuple:
        v = self.simple_value()
        while self.at("."):
            self.i += 1
            v = ("field", v, self.ident())
        return v

    def simple_value(self) -> tuple:
        t = self.tok
        if t.kind == "num":
            self.i += 1
            return ("int", t.value)
        if t.kind == "str":
            parts = [t.value]
            self.i += 1
            while self.tok.kind == "str":  # adjacent literals concatenate
                parts.append(self.tok.value)
                self.i += 1
            return ("str", "".join(parts))
        if t.kind == "code":
            self.i += 1
            return ("str", t.value)
        if t.kind == "var":
            raise self.error(f"unexpected '{t.text}'")
        if t.kind == "bang":
            return self.bang()
        if t.kind == "id":
            if t.text in ("true", "false"):
                self.i += 1
                return ("int", int(t.text == "true"))
            self.i += 1
            if self.at("<"):
                return ("inst", t.text, self.arg_list(), t)
            return ("id", t.text, t)
        if self.eat("?"):
            return ("unset",)
        if self.eat("["):
            items = []
            while not self.at("]"):
                items.append(self.value())
                if not self.eat(","):
                    break
            self.expect("]")
            if self.at("<"):
                self.type_args()
            return ("list", items)
        if self.eat("{"):
            items = []
            while not self.at("}"):
                items.append(self.value())
                if not self.eat(","):
                    break
            self.expect("}")
            return ("list", items)
        if self.eat("("):
            op = self.value()
            if self.tok.kind == "punct" and self.at(":"):
                self.i += 1
                self.var()
            args: list[tuple] = []
            while not self.at(")"):
                if self.tok.kind == "var":
                    args.append((None, self.var()))
                else:
                    v = self.value()
                    args.append((v, self.var() if self.eat(":") else None))
                if not self.eat(","):
                    break
            self.expect(")")
            return ("dag", op, args)
        raise self.error(f"expected a value, got '{t.text or 'end of file'}'")

    def type_args(self) -> str:
        """Skip `<type>`; returns the type's leading name (`Attr` in `!isa<Attr>`)."""
        self.expect("<")
        head = self.tok.text
        depth = 1
        while depth:
            if self.tok.kind == "eof":
                raise self.error("unterminated type")
            depth += 1 if self.at("<") else -1 if self.at(">") else 0
            self.i += 1
        return head

    def var(self) -> str:
        t = self.tok
        if t.kind != "var":
            raise self.error(f"expected a $name, got '{t.text or 'end of file'}'")
        self.i += 1
        return t.text[1:]

    def bang(self) -> tuple:
        t = self.tok
        self.i += 1
        op = t.text[1:]
        type_name = self.type_args() if self.at("<") else None
        self.expect("(")
        if op == "cond":
            pairs = []
            while not self.at(")"):
                c = self.value()
                self.expect(":")
                pairs.append((c, self.value()))
                if not self.eat(","):
                    break
            self.expect(")")
            return ("cond", pairs, t)
        args = []
        while not self.at(")"):
            args.append(self.value())
            if not self.eat(","):
                break
        self.expect(")")
        return ("bang", op, args, t, type_name)


# -- evaluation --------------------------------------------------------------------------------
FileReader = Callable[[str], "str | None"]


@dataclass
class _Class:
    name: str
    targs: list[tuple]  # (name, default expr or None)
    parents: list[tuple]
    body: list[tuple]


@dataclass
class _Multiclass:
    name: str
    targs: list[tuple]
    parents: list[tuple]
    body: list[tuple]


@dataclass
class Records:
    """Everything one read defined: records in definition order, classes, and the includes that
    were not found (MLIR's own files, when reading a project that includes them)."""

    defs: dict[str, Record] = field(default_factory=dict)
    classes: dict[str, Any] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    missing_includes: list[str] = field(default_factory=list)


class _Evaluator:
    def __init__(self, read: FileReader) -> None:
        self.read = read
        self.out = Records()
        self.globals: dict[str, Any] = {}
        self.macros: set[str] = set()
        self.seen: set[str] = set()
        self.let_stack: list[list[tuple[str, Any]]] = []
        self.texts: dict[str, str] = {}
        self.anon = 0

    def error(self, msg: str, tok: Token | None) -> TableGenError:
        if tok is None:
            return TableGenError(msg)
        line, col = _line_col(self.texts.get(tok.file, ""), tok.pos)
        return TableGenError(f"{tok.file}:{line}:{col}: {msg}")

    # files
    def include(self, path: str, tok: Token | None = None) -> None:
        if path in self.seen:  # ODS files carry include guards: reading each once is the same
            return
        self.seen.add(path)
        text = self.read(path)
        if text is None:
            if tok is None:
                raise TableGenError(f"{path}: file not found")
            self.out.missing_includes.append(path)
            return
        self.texts[path] = text
        self.out.files.append(path)
        stmts = _Parser(tokenize(text, path, self.macros), text).statements()
        self.run(stmts, {}, None)

    def run(self, stmts: list[tuple], env: dict[str, Any], multi: dict[str, Any] | None) -> None:
        for s in stmts:
            self.stmt(s, env, multi)

    def stmt(self, s: tuple, env: dict[str, Any], multi: dict[str, Any] | None) -> None:
        kind = s[0]
        if kind == "include":
            self.include(s[1], s[2])
        elif kind == "class":
            _, name, targs, parents, body, _loc = s
            self.out.classes[name] = _Class(name, targs, parents, body)
        elif kind == "multiclass":
            _, name, targs, parents, body = s
            self.out.classes[name] = _Multiclass(name, targs, parents, body)
        elif kind == "def":
            self.define(s, env, multi)
        elif kind == "defm":
            self.defm(s, env, multi)
        elif kind == "let":
            binds = [(n, self.eval(v, env, None)) for n, v in s[1]]
            self.let_stack.append(binds)
            try:
                self.run(s[2], env, multi)
            finally:
                self.let_stack.pop()
        elif kind == "foreach":
            _, var, it, body = s
            for x in self.iterate(it, env):
                self.run(body, {**env, var: x}, multi)
        elif kind == "if":
            _, cond, then, other = s
            self.run(then if _truthy(self.eval(cond, env, None)) else other, env, multi)
        elif kind == "defvar":
            target = env if (env or multi is not None) else self.globals
            target[s[1]] = self.eval(s[2], env, None)
        elif kind == "defset":
            self.run(s[2], env, multi)

    def iterate(self, it: tuple, env: dict[str, Any]) -> list[Any]:
        if it[0] == "ints":
            return self.range_values(it[1], env)
        if it[0] == "range":
            lo, hi = self.eval(it[1], env, None), self.eval(it[2], env, None)
            step = 1 if hi >= lo else -1
            return list(range(lo, hi + step, step))
        v = self.eval(it[1], env, None)
        return list(v) if isinstance(v, tuple) else [v]

    def range_values(self, ranges: list[tuple], env: dict[str, Any]) -> list[Any]:
        out: list[Any] = []
        for r in ranges:
            if r[0] == "one":
                out.append(self.eval(r[1], env, None))
            else:
                lo, hi = self.eval(r[1], env, None), self.eval(r[2], env, None)
                step = 1 if hi >= lo else -1
                out.extend(range(lo, hi + step, step))
        return out

    # records
    def def_name(self, expr: tuple | None, env: dict[str, Any], multi: dict[str, Any] | None) -> str:
        if expr is None:
            self.anon += 1
            name = f"anonymous_{self.anon}"
        else:
            name = self.name_text(expr, env)
        if multi is not None and "NAME" not in _ids(expr):
            name = str(multi["NAME"]) + name
        return name

    def name_text(self, expr: tuple, env: dict[str, Any]) -> str:
        """A def name: identifiers bound in `env` are substituted, others are their own text."""
        if expr[0] == "id":
            v = env.get(expr[1], expr[1])
            return _name_of(v) if not isinstance(v, (str, int)) else str(v)
        if expr[0] == "paste":
            return self.name_text(expr[1], env) + self.name_text(expr[2], env)
        v = self.eval(expr, env, None)
        return _name_of(v) if not isinstance(v, (str, int)) else str(v)

    def define(self, s: tuple, env: dict[str, Any], multi: dict[str, Any] | None) -> Record:
        _, name_expr, parents, body, loc = s
        rec = Record(self.def_name(name_expr, env, multi), loc=loc)
        for cname, args, tok in parents:
            self.instantiate(rec, cname, [(n, self.eval(a, env, rec)) for n, a in args], tok)
        for binds in self.let_stack:
            rec.fields.update(binds)
        self.body(rec, body, dict(env))
        self.out.defs[rec.name] = rec
        return rec

    def defm(self, s: tuple, env: dict[str, Any], multi: dict[str, Any] | None) -> None:
        _, name_expr, parents, _loc = s
        prefix = self.def_name(name_expr, env, multi) if name_expr is not None else ""
        for cname, args, tok in parents:
            mc = self.out.classes.get(cname)
            if not isinstance(mc, _Multiclass):
                raise self.error(f"'{cname}' is not a multiclass", tok)
            values = [(n, self.eval(a, env, None)) for n, a in args]
            menv = self.bind(mc.targs, values, cname, tok)
            menv["NAME"] = prefix
            for pname, pargs, ptok in mc.parents:  # a multiclass's parents are multiclasses too
                self.defm(("defm", ("str", prefix), [(pname, pargs, ptok)], None), {**env, **menv}, None)
            self.run(mc.body, menv, menv)

    def bind(self, targs: list[tuple], values: list[tuple], cname: str, tok: Token | None) -> dict[str, Any]:
        env: dict[str, Any] = {}
        positional = [v for n, v in values if n is None]
        named = {n: v for n, v in values if n is not None}
        if len(positional) > len(targs):
            raise self.error(f"too many template arguments for '{cname}'", tok)
        for i, (name, default) in enumerate(targs):
            if i < len(positional):
                env[name] = positional[i]
            elif name in named:
                env[name] = named[name]
            elif default is not None:
                env[name] = self.eval(default, env, None)
            else:
                env[name] = None
        return env

    def instantiate(self, rec: Record, cname: str, values: list[tuple], tok: Token | None) -> None:
        cls = self.out.classes.get(cname)
        rec.bases.append(cname)
        if cls is None:  # a class from a file not read (MLIR's Op, AttrDef, ...)
            rec.external.append((cname, tuple(v for _, v in values)))
            return
        if isinstance(cls, _Multiclass):
            raise self.error(f"'{cname}' is a multiclass; use defm", tok)
        env = self.bind(cls.targs, values, cname, tok)
        for pname, pargs, ptok in cls.parents:
            self.instantiate(rec, pname, [(n, self.eval(a, env, rec)) for n, a in pargs], ptok)
        self.body(rec, cls.body, env)

    def body(self, rec: Record, items: list[tuple], env: dict[str, Any]) -> None:
        for item in items:
            if item[0] == "field":
                if item[2] is not None or item[1] not in rec.fields:
                    rec.fields[item[1]] = self.eval(item[2], env, rec) if item[2] is not None else None
            elif item[0] == "let":
                rec.fields[item[1]] = self.eval(item[2], env, rec)
            elif item[0] == "defvar":
                env[item[1]] = self.eval(item[2], env, rec)

    # expressions
    def eval(self, e: tuple, env: dict[str, Any], rec: Record | None) -> Any:
        kind = e[0]
        if kind in ("int", "str"):
            return e[1]
        if kind == "unset":
            return None
        if kind == "id":
            return self.lookup(e[1], env, rec)
        if kind == "list":
            return tuple(self.eval(x, env, rec) for x in e[1])
        if kind == "dag":
            op = self.eval(e[1], env, rec)
            return Dag(op, tuple(DagArg(self.eval(v, env, rec) if v is not None else None, n) for v, n in e[2]))
        if kind == "inst":
            _, name, args, tok = e
            values = [(n, self.eval(a, env, rec)) for n, a in args]
            if name in self.out.classes:
                anon = Record(f"{name}<...>")
                self.instantiate(anon, name, values, tok)
                return anon
            return Inst(name, tuple(v for _, v in values))
        if kind == "field":
            base = self.eval(e[1], env, rec)
            if isinstance(base, Record):
                return base.fields.get(e[2])
            return Opaque(f"{_name_of(base)}.{e[2]}")
        if kind == "index":
            base = self.eval(e[1], env, rec)
            idx = self.range_values(e[2], env)
            if isinstance(base, tuple) and all(isinstance(i, int) for i in idx):
                picked = tuple(base[i] for i in idx)
                return picked[0] if len(e[2]) == 1 and e[2][0][0] == "one" else picked
            return Opaque("index")
        if kind == "paste":
            return _paste(self.eval(e[1], env, rec), self.eval(e[2], env, rec))
        if kind == "cond":
            for c, v in e[1]:
                if _truthy(self.eval(c, env, rec)):
                    return self.eval(v, env, rec)
            raise self.error("!cond: no condition is true", e[2])
        if kind == "bang":
            return self.bang(e, env, rec)
        raise AssertionError(kind)

    def lookup(self, name: str, env: dict[str, Any], rec: Record | None) -> Any:
        if name in env:
            return env[name]
        if rec is not None and name in rec.fields:
            return rec.fields[name]
        if name in self.globals:
            return self.globals[name]
        r = self.out.defs.get(name)
        return r if r is not None else Ref(name)

    def bang(self, e: tuple, env: dict[str, Any], rec: Record | None) -> Any:
        _, op, args, tok, type_name = e
        if op in ("isa", "cast") and type_name is not None:
            if len(args) != 1:
                raise self.error(f"!{op} takes one value", tok)
            v = self.eval(args[0], env, rec)
            if op == "cast" and isinstance(v, str):
                v = self.out.defs.get(v, Ref(v))
            if op == "isa":
                return int(isinstance(v, Record) and v.is_a(type_name))
            return v
        if op in ("foreach", "filter"):
            if len(args) != 3 or args[0][0] != "id":
                raise self.error(f"!{op} takes (var, list, expr)", tok)
            var = args[0][1]
            seq = self.eval(args[1], env, rec)
            if not isinstance(seq, tuple):
                return Opaque(f"!{op}")
            out = []
            for x in seq:
                r = self.eval(args[2], {**env, var: x}, rec)
                if op == "foreach":
                    out.append(r)
                elif _truthy(r):
                    out.append(x)
            return tuple(out)
        if op == "foldl":
            if len(args) != 5 or args[2][0] != "id" or args[3][0] != "id":
                raise self.error("!foldl takes (init, list, acc, var, expr)", tok)
            acc = self.eval(args[0], env, rec)
            for x in self.eval(args[1], env, rec) or ():
                acc = self.eval(args[4], {**env, args[2][1]: acc, args[3][1]: x}, rec)
            return acc
        if op == "if":
            if len(args) != 3:
                raise self.error("!if takes (cond, then, else)", tok)
            return self.eval(args[1] if _truthy(self.eval(args[0], env, rec)) else args[2], env, rec)
        vals = [self.eval(a, env, rec) for a in args]
        fn = _BANGS.get(op)
        if fn is None:
            return Opaque(f"!{op}")
        try:
            return fn(self, *vals)
        except (TypeError, ValueError, IndexError) as err:
            raise self.error(f"!{op}: {err}", tok) from None


def _ids(expr: tuple | None) -> set[str]:
    if expr is None:
        return set()
    if expr[0] == "id":
        return {expr[1]}
    return set().union(*(_ids(x) for x in expr[1:] if isinstance(x, tuple) and x and isinstance(x[0], str)))


def _truthy(v: Any) -> bool:
    if isinstance(v, int):
        return v != 0
    raise ValueError(f"not a condition: {v!r}")


def _paste(a: Any, b: Any) -> Any:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return a + b
    if isinstance(a, (Opaque, tuple)) or isinstance(b, (Opaque, tuple)):
        return Opaque("paste")
    return _text(a) + _text(b)


def _text(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, (str, int)):
        return str(v)
    return _name_of(v)


def _eq(_: _Evaluator, a: Any, b: Any) -> int:
    if isinstance(a, (Ref, Record)) and isinstance(b, (Ref, Record)):
        return int(a.name == b.name)
    return int(a == b)


def _con(_: _Evaluator, *dags: Any) -> Any:
    if not all(isinstance(d, Dag) for d in dags):
        return Opaque("!con")
    return Dag(dags[0].op, tuple(a for d in dags for a in d.args))


_BANGS: dict[str, Callable[..., Any]] = {
    "eq": _eq,
    "ne": lambda ev, a, b: 1 - _eq(ev, a, b),
    "not": lambda _, a: int(not _truthy(a)),
    "and": lambda _, *a: int(all(_truthy(x) for x in a)),
    "or": lambda _, *a: int(any(_truthy(x) for x in a)),
    "empty": lambda _, a: int(len(a) == 0),
    "size": lambda _, a: len(a),
    "head": lambda _, a: a[0],
    "tail": lambda _, a: a[1:],
    "listconcat": lambda _, *a: tuple(x for lst in a for x in lst),
    "strconcat": lambda _, *a: "".join(_text(x) for x in a),
    "interleave": lambda _, lst, sep: _text(sep).join(_text(x) for x in lst),
    "add": lambda _, *a: sum(a),
    "sub": lambda _, a, b: a - b,
    "mul": lambda _, a, b: a * b,
    "gt": lambda _, a, b: int(a > b),
    "ge": lambda _, a, b: int(a >= b),
    "lt": lambda _, a, b: int(a < b),
    "le": lambda _, a, b: int(a <= b),
    "con": _con,
    "tolower": lambda _, a: a.lower(),
    "toupper": lambda _, a: a.upper(),
    "subst": lambda _, old, new, s: s.replace(old, new) if isinstance(s, str) else s,
}


def read_records(main: str, read: FileReader) -> Records:
    """Evaluate `main` and the files it includes (as `read(path)` returns them; a None is an include
    the reader skips, e.g. MLIR's own .td files) into records. Raises TableGenError."""
    ev = _Evaluator(read)
    ev.include(main)
    return ev.out
