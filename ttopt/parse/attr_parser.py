"""Parsing of types, attributes and locations (grammars/attributes.lark), cached per distinct text."""

from __future__ import annotations

import ast
import re
from typing import Any

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput

from ttopt.ir.attributes import (
    AliasRef,
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceAttr,
    DialectAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    LocationAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    TypedOpaqueAttr,
    UnitAttr,
    unquote,
)
from ttopt.ir.location import Location
from ttopt.ir.text_bodies import register_decoder
from ttopt.ir.types import FunctionType, OpaqueType, ScalarType, TensorType, Type, TypeAliasRef
from ttopt.parse.lexer import LexFailure
from ttopt.parse.literals import parse_int
from ttopt.parse.scan import SIMPLE_LOC

_SCALAR = re.compile(r"(?:[su]?i\d+|f\d+\w*|bf16|tf32|index|none)$")
_DIALECT = re.compile(r"#([A-Za-z_][\w$.\-]*)(?:<(.*)>)?$", re.S)
_DIALECT_TYPE = re.compile(r"!([A-Za-z_][\w$.\-]*)(?:<(.*)>)?$", re.S)
# Fast path for the overwhelmingly common tensor spellings.
_SIMPLE_TENSOR = re.compile(r"tensor<((?:(?:\d+|\?)x)*)([a-z][a-z0-9]*)(?:, (#[A-Za-z_][\w$\-]*))?>$")
# Spellings MLIR accepts but never prints: `tensor<64 x 32 x bf16>` (dimensions are separate
# tokens to its lexer) and per-axis quantization parameters written `{a, b}` (printed `{a,b}`).
_SPACED_SHAPE = re.compile(r"\b(tensor|memref|vector)<(\s*(?:(?:\d+|\?)\s*x\s*)+)")
_QUANT_PARAMS = re.compile(r"(!quant\.\w+<[^{}>]*)\{([^{}]*)\}")


def _as_printed(text: str) -> str:
    """`text` with the whitespace MLIR's type printer would not write removed (else unchanged)."""
    if " x" in text or "x " in text:
        text = _SPACED_SHAPE.sub(lambda m: m.group(1) + "<" + "".join(m.group(2).split()), text)
    if "quant." in text:
        text = _QUANT_PARAMS.sub(lambda m: m.group(1) + "{" + re.sub(r"\s*,\s*", ",", m.group(2)) + "}", text)
    return text


_I64 = ScalarType("i64")
_F64 = ScalarType("f64")


class AttrSyntaxError(Exception):
    """A syntax error at `offset` within the parsed text."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


class _AttrBuilder(Transformer):
    """Inline transformer: builds Type / Attribute objects; `scope` is set per parse."""

    scope: Any = None

    def attribute_start(self, c: list) -> Any:
        return c[0]

    def type_start(self, c: list) -> Any:
        return c[0]

    # -- types --
    def tensor_type(self, c: list) -> TensorType:
        shape, elem, enc = c
        if shape is not None and str(shape).startswith("*"):
            return TensorType(None, elem, enc)  # unranked `tensor<*xf32>`
        return TensorType(_shape(shape), elem, enc)

    def memref_type(self, c: list) -> OpaqueType:
        shape, elem, *rest = c
        dims = shape.value if shape is not None else ""
        params = "".join(", " + a.text for a in rest)
        t = OpaqueType(f"memref<{dims}{elem.text}{params}>", "memref", f"{dims}{elem.text}{params}")
        t._typed = (_shape(shape), elem, tuple(rest))
        return t

    def named_type(self, c: list) -> Type:
        return named_type(str(c[0]), self.scope)

    def function_type(self, c: list) -> FunctionType:
        *ins, res = c
        inputs = tuple(t for t in ins if t is not None)
        results = tuple(res) if isinstance(res, list) else (res,)
        return FunctionType(inputs, results)

    def result_list(self, c: list) -> list:
        return [t for t in c if t is not None]

    def type_list(self, c: list) -> list:
        return [t for t in c if t is not None]

    # -- attributes --
    def int_attr(self, c: list) -> Attribute:
        tok, ty = c
        if ty is None:  # MLIR has no untyped integer attribute: `1` means `1 : i64`
            return IntegerAttr(int(tok), _I64, f"{int(tok)} : i64")
        if isinstance(ty, ScalarType) and ty.name == "i1":  # MLIR prints i1 integers as booleans
            return BoolAttr(bool(int(tok)), "true" if int(tok) else "false")
        return IntegerAttr(int(tok), ty, _typed_text(tok, ty))

    def hex_attr(self, c: list) -> Attribute:
        tok, ty = c
        if ty is not None and isinstance(ty, ScalarType) and ty.is_float:
            # MLIR writes non-finite and bit-exact floats as their IEEE bits, e.g. 0xFF800000 = -inf.
            return FloatAttr(decode_float_bits(int(tok, 16), ty.name), ty, _typed_text(tok, ty))
        return self.int_attr([Token("INT", str(int(tok, 16))), ty])

    def float_attr(self, c: list) -> FloatAttr:
        tok, ty = c
        if ty is None:  # likewise `1.5` means `1.500000e+00 : f64`
            return FloatAttr(float(tok), _F64, None)
        return FloatAttr(float(tok), ty, _typed_text(tok, ty))

    def string_attr(self, c: list) -> StringAttr:
        tok, ty = c
        return StringAttr(unquote(str(tok)), ty, _typed_text(tok, ty))

    def true_attr(self, c: list) -> BoolAttr:
        return BoolAttr(True, "true")

    def false_attr(self, c: list) -> BoolAttr:
        return BoolAttr(False, "false")

    def unit_attr(self, c: list) -> UnitAttr:
        return UnitAttr("unit")

    def array_attr(self, c: list) -> ArrayAttr:
        return ArrayAttr(tuple(a for a in c if a is not None))

    def attr_dict(self, c: list) -> DictAttr:
        entries = [e for e in c if e is not None]
        d = dict(entries)
        if len(d) != len(entries):
            seen: set[str] = set()
            dup = next(k for k, _ in entries if k in seen or seen.add(k))  # type: ignore[func-returns-value]
            raise AttrSyntaxError(0, f"duplicate key '{dup}' in attribute dictionary")
        keys = list(d)
        if keys != sorted(keys):
            d = {k: d[k] for k in sorted(keys)}  # MLIR's DictionaryAttr is sorted on construction
        return DictAttr(d)

    def dict_entry(self, c: list) -> tuple[str, Attribute]:
        key, value = c
        k = unquote(str(key)) if key.type == "STRING" else str(key)
        return k, value if value is not None else UnitAttr("unit")

    def dense_attr(self, c: list) -> DenseElementsAttr:
        body, ty = c
        return DenseElementsAttr(str(body)[6:-1], ty, f"{body} : {ty.text}")

    def typed_opaque_attr(self, c: list) -> OpaqueAttr:
        body, ty = c
        cls = DenseResourceAttr if str(body).startswith("dense_resource<") else TypedOpaqueAttr
        return cls(f"{body} : {ty.text}", ty)

    def dense_array_attr(self, c: list) -> DenseArrayAttr:
        text = str(c[0])
        inner = text[6:-1]
        elem, _, vals = inner.partition(":")
        elem = elem.strip()
        vals = vals.strip()
        if not vals:
            values: tuple = ()
        elif elem == "i1":
            values = tuple(v.strip() == "true" for v in vals.split(","))
        elif elem.startswith(("f", "bf")):
            try:
                values = tuple(float(v) for v in vals.split(","))
            except ValueError:
                raise AttrSyntaxError(0, f"invalid float literal in '{text}'") from None
        else:
            try:
                values = tuple(parse_int(v) for v in vals.split(","))
            except ValueError as e:
                raise AttrSyntaxError(0, str(e)) from None
        return DenseArrayAttr(elem, values, text)

    def opaque_attr(self, c: list) -> OpaqueAttr:
        return OpaqueAttr(str(c[0]))

    def dialect_attr(self, c: list) -> Attribute:
        return dialect_attr(str(c[0]), self.scope)

    def symbol_attr(self, c: list) -> SymbolRefAttr:
        names = [_symbol_name(str(t)) for t in c]
        return SymbolRefAttr(names[0], tuple(names[1:]), "::".join(str(t) for t in c))

    def loc_attr(self, c: list) -> LocationAttr:
        return LocationAttr(Location(str(c[0]), self.scope), str(c[0]))

    def type_attr(self, c: list) -> TypeAttr:
        return TypeAttr(c[0], c[0].text)

    # -- locations --
    def loc_unknown(self, c: list) -> tuple:
        return ("unknown",)

    def loc_name(self, c: list) -> tuple:
        return ("name", unquote(str(c[0])), None)

    def loc_name_child(self, c: list) -> tuple:
        return ("name", unquote(str(c[0])), c[1])

    def loc_file(self, c: list) -> tuple:
        path, line, col, *rng = c
        try:
            rng = [parse_int(x) if x is not None else None for x in rng]
            return ("file", unquote(str(path)), parse_int(line), parse_int(col), *rng)
        except ValueError as e:
            raise AttrSyntaxError(getattr(line, "start_pos", 0) or 0, str(e)) from None

    def loc_callsite(self, c: list) -> tuple:
        return ("callsite", c[0], c[1])

    def loc_fused(self, c: list) -> tuple:
        meta, *locs = c
        return ("fused", str(meta) if meta is not None else None, [x for x in locs if x is not None])

    def loc_alias(self, c: list) -> tuple:
        return ("alias", str(c[0])[1:])


def decode_float_bits(bits: int, name: str) -> float:
    """The value of IEEE bits written as a hex float literal of type `name`."""
    import struct

    if name == "f64":
        return struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    if name == "f32":
        return struct.unpack("<f", bits.to_bytes(4, "little"))[0]
    if name == "f16":
        return struct.unpack("<e", bits.to_bytes(2, "little"))[0]
    if name == "bf16":
        return struct.unpack("<f", (bits << 16).to_bytes(4, "little"))[0]
    return float("nan")


def _typed_text(tok: Token, ty: Type | None) -> str:
    return f"{tok} : {ty.text}" if ty is not None else str(tok)


def _symbol_name(tok: str) -> str:
    body = tok[1:]
    return unquote(body) if body.startswith('"') else body


def _shape(tok: Token | None) -> tuple[int | None, ...]:
    if tok is None:
        return ()
    return tuple(None if d in ("?", "*") else int(d) for d in str(tok).split("x")[:-1])


def named_type(text: str, scope: Any) -> Type:
    """A type written as one word or dialect type: scalar, `!alias`, `!dialect.t<...>`, vector, ..."""
    if _SCALAR.match(text):
        return ScalarType(text)
    if text.startswith("!"):
        m = _DIALECT_TYPE.match(text)
        name = m.group(1) if m else text[1:]
        if "." not in name and (m is None or m.group(2) is None):
            return TypeAliasRef(name, scope)
        return OpaqueType(text, name, m.group(2) if m else None, scope)
    word, _, _ = text.partition("<")
    return OpaqueType(text, word, text[len(word) + 1 : -1] if "<" in text else None, scope)


def dialect_attr(text: str, scope: Any) -> Attribute:
    """`#dialect.name<body>`, `#dialect<body>` or an alias reference `#name`."""
    m = _DIALECT.match(text)
    if m is None:
        return OpaqueAttr(text)
    name, body = m.group(1), m.group(2)
    if "." not in name and body is None:
        return AliasRef(name, scope)
    return DialectAttr(name, body, text, scope=scope)


_BUILDER = _AttrBuilder()
_STARTS = ("attribute_start", "type_start", "fn_sig", "type_list", "attr_dict", "loc_body")


def _lark():
    from ttopt.parse.grammar import load

    return load("attributes.lark", _STARTS, _BUILDER)


def _parse(text: str, start: str, scope: Any) -> Any:
    lark = _lark()
    prev = _BUILDER.scope
    _BUILDER.scope = scope
    try:
        return lark.parse(text, start=start)
    except LexFailure as e:
        raise AttrSyntaxError(e.pos, e.message) from None
    except UnexpectedInput as e:
        tok = getattr(e, "token", None)
        pos = len(text.rstrip()) if tok is not None and tok.type == "$END" else _token_pos(e)
        raise AttrSyntaxError(pos, _describe(e)) from None
    finally:
        _BUILDER.scope = prev


def _token_pos(e: Any) -> int:
    tok = getattr(e, "token", None)
    return getattr(tok, "start_pos", 0) or 0


def _describe(e: Any) -> str:
    from ttopt.parse.errors import describe_unexpected

    return describe_unexpected(e)


class AttrParser:
    """Per-file parser of type / attribute / location texts, caching every distinct text."""

    def __init__(self, scope: Any) -> None:
        self.scope = scope
        self.types: dict[str, Type] = {}
        self.attrs: dict[str, Attribute] = {}
        self.dicts: dict[str, DictAttr] = {}
        self.sigs: dict[str, tuple[tuple[Type, ...], tuple[Type, ...]]] = {}
        self.loc_texts: set[str] = set()  # locations that reference aliases

    def type(self, text: str) -> Type:
        """The Type spelled `text` (exact spelling kept for printing)."""
        t = self.types.get(text)
        if t is None:
            m = _SIMPLE_TENSOR.match(text)
            if m:
                dims, elem, enc = m.groups()
                t = TensorType(
                    tuple(None if d == "?" else int(d) for d in dims.split("x")[:-1]),
                    self.type(elem),
                    AliasRef(enc[1:], self.scope) if enc else None,
                    text,
                )
            elif _SCALAR.match(text):
                t = ScalarType(text)
            else:
                spelled = _as_printed(text)
                t = _parse(spelled, "type_start", self.scope)
                t._text = spelled
            self.types[text] = t
        return t

    def attribute(self, text: str) -> Attribute:
        """The Attribute spelled `text`."""
        a = self.attrs.get(text)
        if a is None:
            a = _parse(text, "attribute_start", self.scope)
            a._text = text
            self.attrs[text] = a
        return a

    def attr_dict(self, text: str) -> DictAttr:
        """A `{...}` dictionary (callers copy `.entries` before mutating)."""
        d = self.dicts.get(text)
        if d is None:
            d = _parse(text, "attr_dict", self.scope)
            d._text = text
            self.dicts[text] = d
        return d

    def signature(self, text: str) -> tuple[tuple[Type, ...], tuple[Type, ...]]:
        """`(A, B) -> R` as (inputs, results), with each type interned through `type()`."""
        s = self.sigs.get(text)
        if s is None:
            ins_text, outs_text = split_signature(text)
            ins = tuple(self.type(t) for t in ins_text)
            outs = tuple(self.type(t) for t in outs_text)
            s = self.sigs[text] = (ins, outs)
        return s

    def type_list(self, text: str) -> list[Type]:
        """A comma-separated type list (no parentheses)."""
        return [self.type(t) for t in split_top_level(text)] if text.strip() else []

    def location(self, text: str) -> Location:
        """A `loc(...)` token; anything beyond the common forms is syntax-checked now."""
        loc = Location(text, self.scope)
        if "#" in text:
            self.loc_texts.add(text)
        if not SIMPLE_LOC.fullmatch(text):
            loc._parsed = _parse(text[4:-1], "loc_body", self.scope)
        return loc


def split_top_level(text: str) -> list[str]:
    """Split at commas that are not nested in brackets or strings; pieces are stripped."""
    parts = []
    depth = 0
    start = 0
    for m in re.finditer(r'->|>=|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|[<>(){}\[\],]', text):
        tok = m.group()
        if tok in "<({[":
            depth += 1
        elif tok in ">)}]":
            depth -= 1
        elif tok == "," and depth == 0:
            parts.append(text[start : m.start()].strip())
            start = m.end()
    parts.append(text[start:].strip())
    return parts


def split_signature(text: str) -> tuple[list[str], list[str]]:
    """`(A, B) -> R` into (["A", "B"], ["R"]) at top level."""
    from ttopt.parse.scan import scan_balanced, skip_ws

    end = scan_balanced(text, 0)
    ins = text[1 : end - 1]
    p = skip_ws(text, end)
    p = skip_ws(text, p + 2)  # past '->'
    rest = text[p:].strip()
    if rest.startswith("(") and scan_balanced(rest, 0) == len(rest):
        # `-> (A, B)` is a result list unless it is itself a function type `(A) -> B`.
        outs = split_top_level(rest[1:-1]) if rest[1:-1].strip() else []
    else:
        outs = [rest]
    return (split_top_level(ins) if ins.strip() else []), outs


_LOC_NAME = re.compile(r'"([^"\\\n]*)"')
_LOC_FILE = re.compile(r'"([^"\\\n]*)":(\d+):(\d+)')
_LOC_ALIAS = re.compile(r"#([A-Za-z_][\w$.-]*)")


def parse_location_body(body: str) -> tuple:
    """Decode the inside of `loc(...)` (used lazily by Location); the common one-part forms
    (a plain name, file:line:col, an alias, unknown) skip the general grammar."""
    m = _LOC_NAME.fullmatch(body)
    if m is not None:
        return ("name", m.group(1), None)
    m = _LOC_FILE.fullmatch(body)
    if m is not None:
        return ("file", m.group(1), int(m.group(2)), int(m.group(3)))
    m = _LOC_ALIAS.fullmatch(body)
    if m is not None:
        return ("alias", m.group(1))
    if body == "unknown":
        return ("unknown",)
    return _parse(body, "loc_body", None)


_DENSE_WORD = re.compile(r"\btrue\b|\bfalse\b")


def parse_dense_body(body: str) -> Any:
    """Decode a dense literal body into nested lists (hex blobs are returned as the hex string)."""
    b = body.strip()
    if b.startswith('"'):
        return unquote(b)
    b = _DENSE_WORD.sub(lambda m: "True" if m.group() == "true" else "False", b)
    b = re.sub(r"\b0x[0-9A-Fa-f]+\b", lambda m: str(int(m.group(), 16)), b)
    return ast.literal_eval(b)


register_decoder("dense", parse_dense_body)
register_decoder("location", parse_location_body)
