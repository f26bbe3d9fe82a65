"""The element lists of `dense<...>` and `array<...>` attributes, checked as MLIR checks them.

`check_dense` follows MLIR's TensorLiteralParser: the literal is read first (a hex string, a
nested list, or one splat element), its inferred shape must be the type's, and each element must
be a value of the element type (integers in range, floats as decimal floats or hex bit patterns
no wider than the type, `true`/`false` only for i1, strings for other element types).
`read_array` does the same for `array<T: ...>` and returns the values. Errors carry the offset of
the problem in the text after `dense<` / `array<` (None: at the attribute's start) and MLIR's words.
"""

from __future__ import annotations

import re
from typing import Any

from ttopt.parse.literals import (
    FLOAT_BITS,
    decode_float_bits,
    hex_float_problem,
    int_fits,
    int_type,
    int_value,
    parse_magnitude,
)


class LiteralError(Exception):
    """A refused literal: MLIR's message and the offset of the problem (None: the attribute's start)."""

    def __init__(self, offset: int | None, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


# MLIR's tokens inside an elements literal: whitespace and `//` comments between them, a number
# (`0x` hex or decimal integer, or a float with a dot), `true`/`false`, a string, punctuation.
# Anything else is one token to be refused where it stands (an identifier whole: `e5` in `1e5`).
_TOKEN = re.compile(
    r'(?:[ \t\r\n]|//[^\n\r]*)*+(?:'
    r"(0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?)"  # 1 number
    r"|((?:true|false)(?![\w$.]))"  # 2 boolean keyword
    r'|("[^"\\\n]*(?:\\.[^"\\\n]*)*")'  # 3 string
    r"|([\[\](),:-])"  # 4 punctuation
    r"|([A-Za-z_][\w$.]*|\S)"  # 5 anything else
    r")"
)
_NUM, _BOOL, _STR, _PUNCT = 1, 2, 3, 4


def past_previous(text: str, offset: int) -> int:
    """Where MLIR reports a wrong token at `offset`: just past the previous token when blanks come between."""
    return len(text[:offset].rstrip(" \t\r\n"))
_MAX_DEPTH = 100


def _tokens(text: str) -> list[tuple[int, str, int]]:
    """(kind, text, offset) of each token; the end is (0, '', len(text))."""
    out = [(m.lastindex or 0, m.group(m.lastindex or 0), m.start(m.lastindex or 0)) for m in _TOKEN.finditer(text)]
    out.append((0, "", len(text)))
    return out


# ---- element types ------------------------------------------------------------------------------


def element_kind(text: str) -> tuple:
    """How a dense literal reads elements of the type spelled `text`: ('int', width, signedness),
    ('float', name), ('complex', kind of its element) or ('other',)."""
    text = text.replace(" ", "")
    t = int_type(text)
    if t is not None:
        return ("int", *t)
    if text in FLOAT_BITS:
        return ("float", text)
    if text.startswith("complex<") and text.endswith(">"):
        inner = element_kind(text[8:-1])
        if inner[0] in ("int", "float"):
            return ("complex", inner)
    return ("other",)


def _storage_bits(kind: tuple) -> int:
    """Bits one element takes in a hex literal (MLIR's dense storage width; i1 takes a byte)."""
    if kind[0] == "int":
        return 64 if kind[2] == "index" else -(-max(kind[1], 1) // 8) * 8
    if kind[0] == "float":
        return -(-FLOAT_BITS[kind[1]] // 8) * 8
    return 2 * _storage_bits(kind[1])


# ---- dense<...> ----------------------------------------------------------------------------------


class _Reader:
    """MLIR's TensorLiteralParser.parse over the tokens of a dense body."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.storage: list[tuple[bool, int, str, int]] = []  # (negative, kind, text, offset)

    def fail(self, message: str) -> LiteralError:
        return LiteralError(self.toks[self.i][2], message)

    def wrong_token(self, message: str) -> LiteralError:
        """MLIR's emitWrongTokenError: reported just past the previous token when blanks come between."""
        return LiteralError(past_previous(self.text, self.toks[self.i][2]), message)

    def is_punct(self, ch: str) -> bool:
        kind, text, _ = self.toks[self.i]
        return kind == _PUNCT and text == ch

    def element(self, depth: int = 0) -> None:
        kind, text, pos = self.toks[self.i]
        if kind in (_NUM, _BOOL, _STR):
            self.storage.append((False, kind, text, pos))
            self.i += 1
        elif kind == _PUNCT and text == "-":
            self.i += 1
            kind, text, pos = self.toks[self.i]
            if kind != _NUM:
                raise self.fail("expected integer or floating point literal")
            self.storage.append((True, kind, text, pos))
            self.i += 1
        elif kind == _PUNCT and text == "(" and depth < _MAX_DEPTH:
            self.i += 1
            self.element(depth + 1)
            if not self.is_punct(","):
                raise self.wrong_token("expected ',' between complex elements")
            self.i += 1
            self.element(depth + 1)
            if not self.is_punct(")"):
                raise self.wrong_token("expected ')' after complex elements")
            self.i += 1
        else:
            raise self.fail("expected element literal of primitive type")

    def nested_list(self) -> tuple[int, ...]:
        """A `[...]` list (the current token is `[`): its inferred shape."""
        frames: list[list[Any]] = []  # per open list: [element count, the first element's dims]
        self.i += 1
        frames.append([0, None])
        opened = True
        while True:
            if opened and self.is_punct("]"):
                dims: tuple[int, ...] = (0,)
                self.i += 1
                frames.pop()
            elif self.is_punct("["):
                if len(frames) >= _MAX_DEPTH:
                    raise self.fail("expected element literal of primitive type")
                self.i += 1
                frames.append([0, None])
                opened = True
                continue
            else:
                self.element()
                dims = ()
            # One element of the innermost open list is complete; close lists as they end.
            while True:
                if not frames:
                    return dims
                frame = frames[-1]
                frame[0] += 1
                if frame[1] is None:
                    frame[1] = dims
                elif frame[1] != dims:
                    raise self.fail("tensor literal is invalid; ranks are not consistent between elements")
                if self.is_punct(","):
                    self.i += 1
                    opened = False
                    break
                if not self.is_punct("]"):
                    raise self.wrong_token("expected ']'")
                self.i += 1
                frames.pop()
                dims = (frame[0], *frame[1])


def check_dense(body: str, type_text: str, shape: tuple[int | None, ...] | None, elem_text: str) -> None:
    """Check the literal `body` (the text inside `dense<...>`) against a shaped type: `shape` is the
    type's shape (None: not a shaped type; a None dimension is dynamic) and `elem_text` its
    element type. LiteralError otherwise."""
    if _flat_list_fits(body, shape, elem_text):
        return
    r = _Reader(body)
    hex_tok = None
    list_shape: tuple[int, ...] = ()
    kind0, text0, pos0 = r.toks[0]
    if kind0 == _STR:
        hex_tok = (text0, pos0)
        r.i = 1
    elif kind0 == _PUNCT and text0 == "[":
        list_shape = r.nested_list()
    elif kind0 != 0:
        r.element()
    if r.toks[r.i][0] != 0:
        raise r.wrong_token("expected '>'")
    if shape is None:
        raise LiteralError(None, "elements literal must be a shaped type")
    if any(d is None for d in shape):
        raise LiteralError(None, "elements literal type must have static shape")
    n = 1
    for d in shape:
        n *= d  # type: ignore[operator]
    kind = element_kind(elem_text)
    if hex_tok is not None and kind[0] != "other":
        _check_hex(hex_tok, kind, n, type_text)
        return
    if list_shape and list_shape != shape:
        raise LiteralError(
            None,
            f"inferred shape of elements literal ([{', '.join(map(str, list_shape))}]) does not match type "
            f"([{', '.join(map(str, shape))}])",
        )
    storage = r.storage
    if hex_tok is None and not storage and n:
        raise LiteralError(None, f"parsed zero elements, but type ('{type_text}') expected at least 1")
    if kind[0] == "complex":
        if not list_shape and n and len(storage) != 2:
            raise LiteralError(None, f"parsed {len(storage)} elements, but type ('{elem_text}') expected 2 elements")
        if list_shape and len(storage) != 2 * n:
            raise LiteralError(None, f"parsed {len(storage)} elements, but type ('{type_text}') expected {2 * n} elements")
        kind = kind[1]
    if kind[0] == "int":
        _check_ints(storage, kind)
    elif kind[0] == "float":
        _check_floats(storage, kind[1])
    elif hex_tok is None:
        for _, k, text, _ in storage:
            if k != _STR:
                raise LiteralError(None, f"expected string token, got {text}")


_W = r"[ \t\r\n]*"
_FLOAT = r"-?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?"
_DEC = r"-?[0-9]+"
_FLAT_FLOATS = re.compile(rf"\[{_W}{_FLOAT}(?:{_W},{_W}{_FLOAT})*{_W}\]")
_FLAT_INTS = re.compile(rf"\[{_W}{_DEC}(?:{_W},{_W}{_DEC})*{_W}\]")
_SIGNED_DEC = re.compile(_DEC)
_MINUS_ZERO = re.compile(r"-0+(?![0-9])")


def _flat_list_fits(body: str, shape: tuple[int | None, ...] | None, elem_text: str) -> bool:
    """The common large literal, a flat list of decimal floats (or integers) of a float (integer)
    tensor of that many elements, checked by a few C-level passes; False sends it to the reader."""
    if shape is None or len(shape) != 1 or shape[0] is None or len(body) < 64:
        return False
    kind = element_kind(elem_text)
    if kind[0] == "float":
        return _FLAT_FLOATS.fullmatch(body) is not None and body.count(",") + 1 == shape[0]
    if (
        kind[0] == "int" and kind[1] > 1 and _FLAT_INTS.fullmatch(body) is not None
        and body.count(",") + 1 == shape[0] and not _MINUS_ZERO.search(body)  # `-0` is refused
    ):  # fmt: skip
        values = list(map(int, _SIGNED_DEC.findall(body)))
        lo, hi = min(values), max(values)
        return (hi < 0 or int_fits(hi, False, kind[1], kind[2])) and (lo >= 0 or (kind[2] != "u" and int_fits(-lo, True, kind[1], kind[2])))
    return False


def _check_hex(tok: tuple[str, int], kind: tuple, n: int, type_text: str) -> None:
    text, pos = tok
    digits = text[1:-1]
    if not digits.startswith("0x") or len(digits) % 2 or not re.fullmatch(r"[0-9a-fA-F]*", digits[2:]):
        raise LiteralError(pos, "expected string containing hex digits starting with `0x`")
    bits = (len(digits) - 2) * 4
    width = _storage_bits(kind)
    # i1 elements take a byte each in the MLIR jaxlib carries, one bit each (packed) in the MLIR
    # tt-mlir builds with: both spellings are read.
    packed_i1 = kind[0] == "int" and kind[1] == 1 and bits == -(-n // 8) * 8
    if bits != width and bits != width * n and not packed_i1:
        raise LiteralError(None, f"elements hex data size is invalid for provided type: '{type_text}'")


def _check_ints(storage: list[tuple[bool, int, str, int]], kind: tuple) -> None:
    _, width, sign = kind
    for negative, k, text, pos in storage:
        if negative and sign == "u":
            raise LiteralError(pos, "expected unsigned integer elements, but parsed negative value")
        if k == _NUM and "." in text:
            raise LiteralError(pos, "expected integer elements, but parsed floating-point")
        if k == _BOOL:
            if width != 1 or sign == "index":
                raise LiteralError(pos, "expected i1 type for 'true' or 'false' values")
            continue
        if k != _NUM or not int_fits(parse_magnitude(text), negative, width, sign):
            raise LiteralError(pos, "integer constant out of range for type")


def _check_floats(storage: list[tuple[bool, int, str, int]], name: str) -> None:
    for negative, k, text, pos in storage:
        if k != _NUM:
            raise LiteralError(pos, "expected floating point literal")
        if "." not in text:
            problem = hex_float_problem(text, negative, name)
            if problem is not None:
                raise LiteralError(pos, problem)


# ---- array<T: ...> -------------------------------------------------------------------------------

_ARRAY_TYPE = re.compile(r"[ \t\r\n]*([^:>]*?)[ \t\r\n]*(?=:|$)")


def read_array(body: str) -> tuple[str, tuple]:
    """The element type and values of `array<body>` (MLIR's DenseArrayElementParser); LiteralError otherwise."""
    m = _ARRAY_TYPE.match(body)
    elem, tpos, shift = (m.group(1), m.start(1), m.end()) if m else ("", 0, 0)
    kind = element_kind(elem)
    if kind[0] not in ("int", "float") or (kind[0] == "int" and kind[2] == "index"):
        raise LiteralError(tpos, f"expected integer or float type, got: '{elem}'")
    bits = kind[1] if kind[0] == "int" else FLOAT_BITS[kind[1]]
    if bits != 1 and bits % 8:
        raise LiteralError(tpos, "element type bitwidth must be a multiple of 8")
    toks = _tokens(body[shift:])
    if toks[0][0] == 0:
        return elem, ()
    if not (toks[0][0] == _PUNCT and toks[0][1] == ":"):
        raise LiteralError(past_previous(body, shift + toks[0][2]), "expected ':' after dense array type")
    values: list[Any] = []
    i = 1
    while True:
        negative = toks[i][0] == _PUNCT and toks[i][1] == "-"
        if negative:
            i += 1
        k, text, pos = toks[i]
        try:
            values.append(_array_int(kind, negative, k, text) if kind[0] == "int" else _array_float(kind[1], negative, k, text))
        except LiteralError as e:
            # MLIR reports a value out of range past the literal (at the next token).
            raise LiteralError(shift + (toks[i + 1][2] if e.offset == _PAST else pos), e.message) from None
        i += 1
        if toks[i][0] == _PUNCT and toks[i][1] == ",":
            i += 1
            continue
        if toks[i][0] != 0:
            raise LiteralError(past_previous(body, shift + toks[i][2]), "expected '>' to close an array attribute")
        return elem, tuple(values)


_PAST = -1  # LiteralError.offset of an element error reported at the token after the element


def _array_int(kind: tuple, negative: bool, k: int, text: str) -> Any:
    _, width, sign = kind
    if width == 1 and k != _BOOL:
        raise LiteralError(_PAST, "expected 'true' or 'false' values for i1 type")
    if k == _BOOL:
        if width != 1:
            raise LiteralError(0, "expected i1 type for 'true' or 'false' values")
        return text == "true"
    if k != _NUM or "." in text:
        raise LiteralError(0, "expected integer literal")
    magnitude = parse_magnitude(text)
    if not int_fits(magnitude, negative, width, sign):
        raise LiteralError(_PAST, "integer constant out of range")
    return int_value(magnitude, negative, width, sign)


def _array_float(name: str, negative: bool, k: int, text: str) -> float:
    if k != _NUM:
        raise LiteralError(0, "expected floating point literal")
    if "." in text:
        v = float(text)
        return -v if negative else v
    problem = hex_float_problem(text, negative, name)
    if problem is not None:
        raise LiteralError(0, problem)
    return decode_float_bits(int(text[2:], 16), name)
