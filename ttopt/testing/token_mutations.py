"""Seeded token-level mutations of MLIR text: the small edits a hand or another tool makes.

The tokenizer follows MLIR's own lexer (mlir/lib/AsmParser/Lexer.cpp): the same token
boundaries, the same trivia (space, tab, LF, CR and `//` comments ending at LF or CR), so
"between two tokens" means what it means to MLIR. Every mutation makes exactly one kind of edit
and describes it in a `detail` that names the edit, not the file position (so equal edits in
different files group together), e.g. `U+00A0 between ',' and '%'` or `i8 max+1 127 -> 128`.

Kinds: blank-insert, blank-remove, comment-insert, line-endings, string-escape, number,
number-range, hex-float, ssa-name, symbol-name, op-name, alias-order, token.
"""

from __future__ import annotations

import random
import re
import struct
from dataclasses import dataclass
from typing import Callable

# ---- tokens ---------------------------------------------------------------------------------------
_ID_PUNCT = "$._-"


@dataclass(frozen=True)
class Token:
    """One MLIR token: its kind and its [start, end) span in the text."""

    kind: str  # bare at percent hash bang caret string integer float punct error
    start: int
    end: int


def _bare_end(text: str, i: int) -> int:
    n = len(text)
    while i < n and (text[i].isascii() and (text[i].isalnum() or text[i] in "_$.")):
        i += 1
    return i


def _suffix_end(text: str, i: int) -> int:
    """End of a `%`/`#`/`!`/`^` identifier's suffix starting at i (i itself if there is none)."""
    n = len(text)
    if i < n and text[i].isascii() and text[i].isdigit():
        while i < n and text[i].isascii() and text[i].isdigit():
            i += 1
        return i
    if i < n and text[i].isascii() and (text[i].isalpha() or text[i] in _ID_PUNCT):
        while i < n and text[i].isascii() and (text[i].isalnum() or text[i] in _ID_PUNCT):
            i += 1
    return i


def _string_end(text: str, i: int) -> tuple[int, bool]:
    """End of the string literal whose opening quote is at i, and whether it is well formed."""
    n = len(text)
    i += 1
    while i < n:
        c = text[i]
        if c == '"':
            return i + 1, True
        if c in "\n\v\f":
            return i, False
        if c == "\\":
            nxt = text[i + 1 : i + 3]
            if nxt[:1] in ('"', "\\", "n", "t"):
                i += 2
                continue
            if len(nxt) == 2 and all(ch in "0123456789abcdefABCDEF" for ch in nxt):
                i += 3
                continue
            return i + 1, False
        i += 1
    return n, False


def _number_end(text: str, i: int) -> tuple[int, str]:
    n = len(text)
    if text[i] == "0" and i + 2 < n + 1 and text[i + 1 : i + 2] == "x":
        if i + 2 < n and text[i + 2] in "0123456789abcdefABCDEF":
            j = i + 2
            while j < n and text[j] in "0123456789abcdefABCDEF":
                j += 1
            return j, "integer"
        return i + 1, "integer"
    j = i
    while j < n and text[j].isascii() and text[j].isdigit():
        j += 1
    if j >= n or text[j] != ".":
        return j, "integer"
    j += 1
    while j < n and text[j].isascii() and text[j].isdigit():
        j += 1
    if j < n and text[j] in "eE":
        if (j + 1 < n and text[j + 1].isascii() and text[j + 1].isdigit()) or (
            j + 2 < n and text[j + 1] in "+-" and text[j + 2].isascii() and text[j + 2].isdigit()
        ):
            j += 2
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
    return j, "float"


def tokenize(text: str) -> list[Token]:
    """MLIR's tokens of `text`, trivia (blanks, comments) left out; a character MLIR's lexer
    rejects is a one-character `error` token."""
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\n\r":
            i += 1
            continue
        if c == "/" and text[i + 1 : i + 2] == "/":
            while i < n and text[i] not in "\n\r":
                i += 1
            continue
        start = i
        if c.isascii() and (c.isalpha() or c == "_"):
            i, kind = _bare_end(text, i + 1), "bare"
        elif c.isascii() and c.isdigit():
            i, kind = _number_end(text, i)
        elif c == '"':
            i, ok = _string_end(text, i)
            kind = "string" if ok else "error"
        elif c == "@":
            if text[i + 1 : i + 2] == '"':
                i, ok = _string_end(text, i + 1)
                kind = "at" if ok else "error"
            elif i + 1 < n and text[i + 1].isascii() and (text[i + 1].isalpha() or text[i + 1] == "_"):
                i, kind = _bare_end(text, i + 2), "at"
            else:
                i, kind = i + 1, "error"
        elif c == "#" and text[i + 1 : i + 3] == "-}":
            i, kind = i + 3, "punct"
        elif c == "{" and text[i + 1 : i + 3] == "-#":
            i, kind = i + 3, "punct"
        elif c in "%#!^":
            end = _suffix_end(text, i + 1)
            kind = {"%": "percent", "#": "hash", "!": "bang", "^": "caret"}[c] if end > i + 1 else ("punct" if c == "!" else "error")
            i = end if end > i + 1 else i + 1
        elif c == "-" and text[i + 1 : i + 2] == ">":
            i, kind = i + 2, "punct"
        elif c == "." and text[i + 1 : i + 3] == "..":
            i, kind = i + 3, "punct"
        elif c in "()[]{}<>,:=?*+-|":
            i, kind = i + 1, "punct"
        else:
            i, kind = i + 1, "error"
        out.append(Token(kind, start, i))
    return out


def describe(text: str, tok: Token) -> str:
    """A short, position-free label for a token: punctuation and keywords as written, names and
    literals by their kind (`%`, `@`, `#`, `"…"`, `int`, `float`)."""
    s = text[tok.start : tok.end]
    if tok.kind in ("punct", "bare") and len(s) <= 24:
        return repr(s)
    return {"percent": "%", "at": "@", "hash": "#", "bang": "!", "caret": "^", "string": '"…"', "integer": "int",
            "float": "float"}.get(tok.kind, repr(s[:12]))


# ---- mutations ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mutation:
    """A mutated text, the kind of edit and a position-free description of it; `at` is where the
    edit starts in the new text (for showing the site)."""

    kind: str
    detail: str
    text: str
    at: int


Mutator = Callable[[random.Random, str, list[Token]], "Mutation | None"]


def _char_name(c: str) -> str:
    return {" ": "space", "\t": "tab", "\n": "LF", "\r": "CR", "\f": "FF", "\v": "VT"}.get(c, f"U+{ord(c):04X}")


def _insert(text: str, at: int, piece: str) -> str:
    return text[:at] + piece + text[at:]


def _gap(rng: random.Random, toks: list[Token]) -> int | None:
    """Index i of a random gap between toks[i] and toks[i + 1]."""
    return rng.randrange(len(toks) - 1) if len(toks) >= 2 else None


_BLANKS_MLIR = (" ", "\t", "\n", "\r\n", "\r", " \t\n  ")
_BLANKS_OTHER = ("\f", "\v", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u2028", "\u0085", "\u200b")


def _blank_insert(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    i = _gap(rng, toks)
    if i is None:
        return None
    piece = rng.choice(_BLANKS_MLIR) if rng.random() < 0.5 else rng.choice(_BLANKS_OTHER)
    at = toks[i].end if rng.random() < 0.5 else toks[i + 1].start
    name = "+".join(dict.fromkeys(_char_name(c) for c in piece))
    return Mutation("blank-insert", f"{name} between {describe(text, toks[i])} and {describe(text, toks[i + 1])}",
                    _insert(text, at, piece), at)


def _blank_remove(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    gaps = [i for i in range(len(toks) - 1) if toks[i].end < toks[i + 1].start and "/" not in text[toks[i].end : toks[i + 1].start]]
    rng.shuffle(gaps)
    for i in gaps[:20]:
        a, b = toks[i], toks[i + 1]
        joined = text[a.start : a.end] + text[b.start : b.end]
        again = tokenize(joined)
        if [t.kind for t in again] == [a.kind, b.kind] and again[0].end == a.end - a.start:
            return Mutation("blank-remove", f"between {describe(text, a)} and {describe(text, b)}",
                            text[: a.end] + text[b.start :], a.end)
    return None


_COMMENTS = ("// x\n", "//\n", "// x\r\n", "// x\r", '// "\n', "// {-# #-}\n", "// \u00e9\u4e2d\n", "// -> } >\n")


def _comment_insert(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    i = _gap(rng, toks)
    if i is None:
        return None
    piece = rng.choice(_COMMENTS)
    at = toks[i].end if rng.random() < 0.5 else toks[i + 1].start
    ends = "CR" if piece.endswith("\r") else "CRLF" if piece.endswith("\r\n") else "LF"
    return Mutation("comment-insert", f"{piece[:-1].rstrip(chr(13))!r}+{ends} between {describe(text, toks[i])} and "
                    f"{describe(text, toks[i + 1])}", _insert(text, at, piece), at)


def _line_endings(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    lfs = [m.start() for m in re.finditer("\n", text)]
    if not lfs:
        return None
    how = rng.choice(["crlf-all", "cr-all", "cr-one", "crlf-one", "cr-before-lf", "lfcr-all"])
    if how == "crlf-all":
        return Mutation("line-endings", how, text.replace("\n", "\r\n"), 0)
    if how == "cr-all":
        return Mutation("line-endings", how, text.replace("\n", "\r"), 0)
    if how == "lfcr-all":
        return Mutation("line-endings", how, text.replace("\n", "\n\r"), 0)
    at = rng.choice(lfs)
    piece = {"cr-one": "\r", "crlf-one": "\r\n", "cr-before-lf": "\r\n"}[how]
    if how == "cr-before-lf":
        return Mutation("line-endings", how, text[:at] + "\r" + text[at:], at)
    return Mutation("line-endings", how, text[:at] + piece + text[at + 1 :], at)


_ESCAPES_GOOD = ("\\22", "\\41", "\\5C", "\\\\", "\\n", "\\t", "\\0A", "\\ff", "\\00", '\\"', "\\E9")
_ESCAPES_BAD = ("\\q", "\\x", "\\4", "\\u0041", "\\'", "\\ ", "\\\r\n", "\\0g", "\\a")
_RAW_IN_STRING = ("\t", "\r", "\u00e9", "\u00a0", "\f", "\v", "\u4e2d")


def _string_escape(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    strings = [t for t in toks if t.kind == "string" or (t.kind == "at" and text[t.start + 1 : t.start + 2] == '"')]
    if not strings:
        return None
    t = rng.choice(strings)
    q0 = t.start + (1 if text[t.start] == "@" else 0)
    body_lo, body_hi = q0 + 1, t.end - 1
    at = rng.randint(body_lo, body_hi)
    where = "symbol" if text[t.start] == "@" else "string"
    r = rng.random()
    if r < 0.3 and body_hi > body_lo:
        # The same character, spelled as an escape: the string's value does not change.
        at = rng.randrange(body_lo, body_hi)
        c = text[at]
        if c == "\\" or ord(c) > 0x7F:
            return None
        return Mutation("string-escape", f"{where} same-char \\{ord(c):02X}", text[:at] + f"\\{ord(c):02X}" + text[at + 1 :], at)
    piece = rng.choice(_ESCAPES_GOOD) if r < 0.6 else rng.choice(_ESCAPES_BAD) if r < 0.85 else rng.choice(_RAW_IN_STRING)
    label = piece if piece.startswith("\\") else f"raw {_char_name(piece)}"
    return Mutation("string-escape", f"{where} insert {label!r}", _insert(text, at, piece), at)


_SCALAR = re.compile(r"^(?:(?:i|si|ui)(\d+)|(f16|bf16|f32|f64|tf32|f8E\w+|f4E\w+|f6E\w+)|index)$")


def _element_type(text: str, toks: list[Token], k: int) -> str | None:
    """The scalar type a number literal at toks[k] is read as, found as a human would: the
    `array<T: ...>` it sits in, else the first builtin scalar type after it (`: i32`, `tensor<4xf32>`)."""
    depth = 0
    for j in range(k - 1, max(-1, k - 200), -1):
        s = text[toks[j].start : toks[j].end]
        if s in (">", "]", ")"):
            depth += 1
        elif s in ("<", "[", "("):
            if depth == 0:
                if s == "<" and j > 0 and text[toks[j - 1].start : toks[j - 1].end] == "array":
                    ty = text[toks[j + 1].start : toks[j + 1].end]
                    return ty if _SCALAR.match(ty) else None
                if s == "<":
                    break
            else:
                depth -= 1
    for j in range(k + 1, min(len(toks), k + 60)):
        s = text[toks[j].start : toks[j].end]
        if s in ("{", "}", "loc", "=") or toks[j].kind in ("percent", "at"):
            return None
        if toks[j].kind == "bare":
            m = re.fullmatch(r"(?:\d+x)*((?:i|si|ui)\d+|f16|bf16|f32|f64|index|f8E\w+)", s.lstrip("x"))
            if m and (_SCALAR.match(m.group(1))):
                return m.group(1)
    return None


def _with_sign(text: str, toks: list[Token], k: int) -> tuple[int, bool]:
    """Start of the number at toks[k] including a directly preceding '-', and whether there is one."""
    if k > 0 and toks[k - 1].kind == "punct" and text[toks[k - 1].start : toks[k - 1].end] == "-" and toks[k - 1].end == toks[k].start:
        return toks[k - 1].start, True
    return toks[k].start, False


def _int_forms(rng: random.Random, s: str) -> tuple[str, str]:
    value = int(s, 16) if s.startswith("0x") else int(s)
    how = rng.choice(["digit", "neg", "plus", "hex", "hex-upper-X", "leading-zero", "huge", "as-float", "exponent", "hex-to-dec"])
    if how == "digit":
        i = rng.randrange(len(s))
        if s.startswith("0x") and i < 2:
            i = 2 if len(s) > 2 else i
        digits = "0123456789abcdef" if s.startswith("0x") else "0123456789"
        return how, s[:i] + rng.choice(digits) + s[i + 1 :]
    return how, {
        "neg": "-" + s,
        "plus": "+" + s,
        "hex": hex(value),
        "hex-upper-X": "0X" + format(value, "X"),
        "leading-zero": "00" + s,
        "huge": "1" + "0" * rng.choice([19, 20, 39, 40]),
        "as-float": f"{value}.0",
        "exponent": f"{value}e2",
        "hex-to-dec": str(value),
    }[how]


def _float_forms(rng: random.Random, s: str) -> tuple[str, str]:
    value = float(s)
    how = rng.choice(["exponent", "no-fraction-digits", "upper-E", "plus-exponent", "neg", "as-int", "word", "huge", "tiny", "many-digits"])
    mantissa = s.split("e")[0].split("E")[0]
    if how == "exponent":
        return how, f"{value:.6e}"
    if how == "no-fraction-digits":
        return how, mantissa.split(".")[0] + ".e0"
    if how == "upper-E":
        return how, f"{value:.3E}"
    if how == "plus-exponent":
        return how, mantissa + "e+00"
    if how == "neg":
        return how, "-" + s
    if how == "as-int":
        return how, str(int(value)) if value == value and abs(value) < 1e30 else "1"
    if how == "word":
        return how, rng.choice(["inf", "nan", "-inf", "NaN", "infinity"])
    if how == "huge":
        return how, "1.0e" + rng.choice(["39", "309", "400", "5000"])
    if how == "tiny":
        return how, "1.0e-" + rng.choice(["46", "324", "400"])
    return how, mantissa + "0" * 30 + "1"


def _number(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    nums = [k for k, t in enumerate(toks) if t.kind in ("integer", "float")]
    if not nums:
        return None
    k = rng.choice(nums)
    t = toks[k]
    s = text[t.start : t.end]
    how, new = _int_forms(rng, s) if t.kind == "integer" else _float_forms(rng, s)
    if new == s:
        return None
    ty = _element_type(text, toks, k) or "?"
    return Mutation("number", f"{t.kind} {how} {ty}", text[: t.start] + new + text[t.end :], t.start)


def _int_bounds(ty: str) -> list[tuple[str, int]]:
    m = re.fullmatch(r"(i|si|ui)(\d+)", ty)
    if not m:
        w = 64  # index
        signless = True
        kind = "i"
    else:
        kind, w, signless = m.group(1), int(m.group(2)), m.group(1) == "i"
    lo = 0 if kind == "ui" else -(1 << (w - 1))
    hi = (1 << w) - 1 if kind == "ui" else (1 << (w - 1)) - 1
    out = [("min", lo), ("max", hi), ("min-1", lo - 1), ("max+1", hi + 1), ("2^w", 1 << w)]
    if signless:
        out.append(("umax", (1 << w) - 1))
        if w == 1:
            out += [("2", 2), ("-1", -1)]
    return out


def _number_range(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    nums = [k for k, t in enumerate(toks) if t.kind == "integer" and not text[t.start : t.end].startswith("0x")]
    rng.shuffle(nums)
    for k in nums[:30]:
        ty = _element_type(text, toks, k)
        if ty is None or not re.fullmatch(r"(?:i|si|ui)\d+|index", ty):
            continue
        start, _ = _with_sign(text, toks, k)
        label, value = rng.choice(_int_bounds(ty))
        return Mutation("number-range", f"{ty} {label}", text[:start] + str(value) + text[toks[k].end :], start)
    return None


_FLOAT_BITS = {"f16": ("e", 16), "bf16": (None, 16), "f32": ("f", 32), "f64": ("d", 64)}


def _hex_bits(value: float, ty: str) -> str:
    if ty == "bf16":
        return f"0x{struct.unpack('>I', struct.pack('>f', value))[0] >> 16:04X}"
    code, width = _FLOAT_BITS[ty]
    raw = struct.pack(">" + str(code), value)
    return f"0x{int.from_bytes(raw, 'big'):0{width // 4}X}"


def _hex_float(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    nums = [k for k, t in enumerate(toks) if t.kind == "float"]
    rng.shuffle(nums)
    for k in nums[:30]:
        ty = _element_type(text, toks, k)
        if ty not in _FLOAT_BITS:
            continue
        try:
            value = float(text[toks[k].start : toks[k].end])
        except ValueError:
            continue
        start, neg = _with_sign(text, toks, k)
        value = -value if neg else value
        as_ty = ty if rng.random() < 0.5 else rng.choice(sorted(_FLOAT_BITS))
        try:
            bits = _hex_bits(value, as_ty)
        except (OverflowError, struct.error):
            continue
        width = "same-width" if _FLOAT_BITS[as_ty][1] == _FLOAT_BITS[ty][1] else f"{_FLOAT_BITS[as_ty][1]}-bit"
        return Mutation("hex-float", f"{ty} as {width}", text[:start] + bits + text[toks[k].end :], start)
    return None


_SSA_SUFFIXES = ("-x", "$", ".1", "_", "-", "$.-", "x\u00e9")


def _ssa_name(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    names = sorted({text[t.start : t.end] for t in toks if t.kind == "percent"})
    if not names:
        return None
    name = rng.choice(names)
    how = rng.choice(["suffix", "suffix", "digits-first", "unicode", "only-punct", "one-use"])
    if how == "suffix":
        suffix = rng.choice(_SSA_SUFFIXES)
        new, label = name + suffix, f"suffix {suffix!r}"
        if name[1:].isdigit() and suffix[0] not in "0123456789":
            new = "%v" + name[1:] + suffix  # %0-x is %0 then -x: keep a name that can take the suffix
    elif how == "digits-first":
        new, label = "%1" + name[1:].lstrip("0123456789") + "a", "digits-first"
    elif how == "unicode":
        new, label = "%\u00e9" + name[1:], "unicode"
    elif how == "only-punct":
        new, label = "%" + rng.choice(["$", "-", ".", "_", "$-."]), "only-punct"
    else:
        uses = [t for t in toks if t.kind == "percent" and text[t.start : t.end] == name]
        t = rng.choice(uses)
        return Mutation("ssa-name", "rename one use", text[: t.start] + "%renamed" + text[t.end :], t.start)
    spans = [t for t in toks if t.kind == "percent" and text[t.start : t.end] == name]
    out, last = [], 0
    for t in spans:
        out += [text[last : t.start], new]
        last = t.end
    out.append(text[last:])
    return Mutation("ssa-name", f"rename all {label}", "".join(out), spans[0].start)


def _symbol_value(text: str, tok: Token) -> str:
    s = text[tok.start + 1 : tok.end]
    return s[1:-1] if s.startswith('"') else s


def _symbol_name(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    syms = sorted({_symbol_value(text, t) for t in toks if t.kind == "at"})
    if not syms:
        return None
    name = rng.choice(syms)
    how = rng.choice(["quote", "quoted-dash", "unquoted-dash", "quoted-digits", "unquoted-digits", "quoted-dollar",
                      "quoted-escape", "quoted-unicode", "quoted-space", "quoted-empty"])
    spelled = {
        "quote": f'@"{name}"',
        "quoted-dash": f'@"{name}-x"',
        "unquoted-dash": f"@{name}-x",
        "quoted-digits": '@"123"',
        "unquoted-digits": "@123",
        "quoted-dollar": '@"$a"',
        "quoted-escape": f'@"{name}\\22x"',
        "quoted-unicode": f'@"{name}\u00e9"',
        "quoted-space": f'@"{name} x"',
        "quoted-empty": '@""',
    }[how]
    # The symbol's definition in generic form is the string `sym_name = "name"`: rename it too.
    value = spelled[1:]
    out, last, first = [], 0, None
    for k, t in enumerate(toks):
        hit = t.kind == "at" and _symbol_value(text, t) == name
        prop = (t.kind == "string" and text[t.start + 1 : t.end - 1] == name and k >= 2
                and text[toks[k - 2].start : toks[k - 2].end] == "sym_name")
        if hit or prop:
            first = t.start if first is None else first
            out += [text[last : t.start], spelled if hit else (value if value.startswith('"') else f'"{value}"')]
            last = t.end
    out.append(text[last:])
    return Mutation("symbol-name", how, "".join(out), first or 0)


_OP_DIALECTS = ("stablehlo", "chlo", "sdy", "func", "arith", "mhlo")


def _op_name(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    sites = []
    for k, t in enumerate(toks):
        s = text[t.start : t.end]
        prev = text[toks[k - 1].start : toks[k - 1].end] if k else ""
        if t.kind == "bare" and "." in s and s.split(".")[0] in _OP_DIALECTS and (prev in ("=", "{", "}") or toks[k - 1].kind == "percent"
                                                                                    or (k + 1 < len(toks) and toks[k + 1].kind == "at")):
            sites.append((k, "custom"))
        elif (t.kind == "string" and k + 1 < len(toks) and text[toks[k + 1].start : toks[k + 1].end] == "(" and "." in s
              and prev not in ("(", "[", ",", "at")):  # not a name location `loc("name"(...))`
            sites.append((k, "generic"))
    if not sites:
        return None
    k, form = rng.choice(sites)
    t = toks[k]
    s = text[t.start : t.end]
    core = s[1:-1] if form == "generic" else s
    dialect = core.split(".")[0]
    how = rng.choice(["typo", "suffix-$", "suffix-dot", "unknown-dialect", "quote", "space", "escape-quote", "dash", "uppercase"])
    if how == "typo":
        new = core + "x"
    elif how == "suffix-$":
        new = core + "$"
    elif how == "suffix-dot":
        new = core + ".x"
    elif how == "unknown-dialect":
        new = "nosuchdialect." + core.split(".", 1)[1]
    elif how == "quote":
        if form == "generic":
            return None
        new = core  # the custom form's name written as the generic form's string: a different form
        return Mutation("op-name", f"{dialect} quote-custom", text[: t.start] + f'"{new}"' + text[t.end :], t.start)
    elif how == "space":
        new = core + " x"
    elif how == "escape-quote":
        new = core + "\\22x"
    elif how == "dash":
        new = core + "-x"
    else:
        new = core.upper()
    spelled = f'"{new}"' if form == "generic" or how in ("space", "escape-quote") else new
    return Mutation("op-name", f"{dialect} {form} {how}", text[: t.start] + spelled + text[t.end :], t.start)


_ALIAS_LINE = re.compile(r"^([#!][A-Za-z0-9_$.\-]+)\s*=\s*(.*)$")


def _alias_order(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    lines = text.splitlines(keepends=True)
    defs = []
    for i, line in enumerate(lines):
        m = _ALIAS_LINE.match(line.rstrip("\r\n"))
        if m and line.count("(") == line.count(")") and line.count("<") >= line.count(">") - line.count("->"):
            defs.append((i, m.group(1), m.group(2)))
    if not defs:
        return None
    how = rng.choice(["to-end", "after-first-use", "swap", "duplicate", "to-top"])
    i, name, value = rng.choice(defs)
    what = "loc" if value.startswith("loc(") else "type" if name.startswith("!") else "attr"
    use_re = re.compile(re.escape(name) + r"(?![A-Za-z0-9_$.\-])")
    uses = [j for j, line in enumerate(lines) if j != i and use_re.search(line)]
    by_alias = any(_ALIAS_LINE.match(lines[j]) for j in uses)
    label = f"{how} {what}{' used-by-alias' if by_alias else ''}"
    line = lines[i] if lines[i].endswith(("\n", "\r")) else lines[i] + "\n"
    if how == "to-end":
        rest = lines[:i] + lines[i + 1 :]
        tail = "" if not rest or rest[-1].endswith(("\n", "\r")) else "\n"
        return Mutation("alias-order", label, "".join(rest) + tail + line, len("".join(rest)))
    if how == "to-top":
        if i == 0:
            return None
        rest = lines[:i] + lines[i + 1 :]
        return Mutation("alias-order", label, line + "".join(rest), 0)
    if how == "duplicate":
        return Mutation("alias-order", label, "".join(lines[: i + 1] + [line] + lines[i + 1 :]), len("".join(lines[: i + 1])))
    if how == "after-first-use":
        later = [j for j in uses if j > i]
        if not later:
            return None
        j = later[0]
        new = lines[:i] + lines[i + 1 : j + 1] + [line] + lines[j + 1 :]
        return Mutation("alias-order", label, "".join(new), len("".join(lines[:i] + lines[i + 1 : j + 1])))
    if len(defs) < 2:
        return None
    (a, _, _), (b, _, _) = sorted(rng.sample(defs, 2))
    new = list(lines)
    new[a], new[b] = lines[b], lines[a]
    return Mutation("alias-order", label, "".join(new), len("".join(lines[:a])))


def _token(rng: random.Random, text: str, toks: list[Token]) -> Mutation | None:
    if len(toks) < 2:
        return None
    k = rng.randrange(len(toks) - 1)
    t, u = toks[k], toks[k + 1]
    how = rng.choice(["delete", "duplicate", "swap-adjacent"])
    d = describe(text, t)
    if how == "delete":
        return Mutation("token", f"delete {d}", text[: t.start] + text[t.end :], t.start)
    if how == "duplicate":
        return Mutation("token", f"duplicate {d}", text[: t.end] + " " + text[t.start : t.end] + text[t.end :], t.end)
    return Mutation("token", f"swap {d} {describe(text, u)}",
                    text[: t.start] + text[u.start : u.end] + text[t.end : u.start] + text[t.start : t.end] + text[u.end :], t.start)


MUTATORS: dict[str, Mutator] = {
    "blank-insert": _blank_insert,
    "blank-remove": _blank_remove,
    "comment-insert": _comment_insert,
    "line-endings": _line_endings,
    "string-escape": _string_escape,
    "number": _number,
    "number-range": _number_range,
    "hex-float": _hex_float,
    "ssa-name": _ssa_name,
    "symbol-name": _symbol_name,
    "op-name": _op_name,
    "alias-order": _alias_order,
    "token": _token,
}
# Relative frequency: the lexer-level edits (blanks, comments, numbers, escapes) most often.
WEIGHTS: dict[str, int] = {"blank-insert": 4, "blank-remove": 2, "comment-insert": 3, "line-endings": 1, "string-escape": 3,
                           "number": 3, "number-range": 2, "hex-float": 2, "ssa-name": 1, "symbol-name": 2, "op-name": 2,
                           "alias-order": 2, "token": 2}


def mutate(rng: random.Random, text: str, kind: str | None = None) -> Mutation | None:
    """One edit of `text` (of `kind`, else a kind drawn by WEIGHTS that applies), or None when
    no kind applies to it."""
    toks = tokenize(text)
    kinds = [kind] if kind else sorted(MUTATORS)
    for _ in range(12):
        k = kinds[0] if kind else rng.choices(kinds, weights=[WEIGHTS[n] for n in kinds])[0]
        m = MUTATORS[k](rng, text, toks)
        if m is not None and m.text != text:
            return m
    return None
