"""Parsing of types, attributes and locations (grammars/attributes.lark), cached per distinct text."""

from __future__ import annotations

import ast
import re
from typing import Any

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput

from ttopt.ir.attributes import (
    DIALECT_ATTR_CHECKS,
    FLOAT_PARAM_DIALECTS,
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
from ttopt.ir.dense_spelling import float_element_kind
from ttopt.ir.float_spelling import SEMANTICS, literal_text, typed_literals_spelled
from ttopt.ir.location import Location
from ttopt.ir.text_bodies import register_decoder
from ttopt.ir.types import FunctionType, OpaqueType, ScalarType, TensorType, Type, TypeAliasRef
from ttopt.parse.alias_order import LOC_ALIAS_ONLY, UNDEFINED, first_undefined, location_problem
from ttopt.parse.dense_literals import LiteralError, check_dense, read_array
from ttopt.parse.lazy_regex import lazy_compile
from ttopt.parse.lexer import FastToken, LexFailure
from ttopt.parse.literals import (
    FLOAT_BITS,
    MAX_INT_WIDTH,
    OUT_OF_RANGE,
    decode_float_bits,
    hex_float_problem,
    int_fits,
    int_type,
    int_value,
    is_builtin_scalar,
    parse_magnitude,
    split_sign,
)
from ttopt.parse.scan import SIMPLE_LOC, ScanError, scan_attr

_SCALAR = re.compile(r"(?:[su]?i\d+|f\d+\w*|bf16|tf32|index|none)$")
_DIALECT = re.compile(r"#([A-Za-z_][\w$.\-]*)(?:<(.*)>)?$", re.S)
_DIALECT_ENTRY_HEAD = re.compile(r"\{([A-Za-z_][\w$.]*) = (?=#)", re.ASCII)  # `{key = #...`: the key as the lexer's BARE_ID
_DIALECT_TYPE = re.compile(r"!([A-Za-z_][\w$.\-]*)(?:<(.*)>)?$", re.S)
# Fast path for the overwhelmingly common tensor spellings.
_SIMPLE_TENSOR = re.compile(r"tensor<((?:(?:\d+|\?)x)*)([a-z][a-z0-9]*)(?:, (#[A-Za-z_][\w$\-]*))?>$")
# Spellings MLIR accepts but never prints: `tensor<64 x 32 x bf16>` (dimensions are separate
# tokens to its lexer) and per-axis quantization parameters written `{a, b}` (printed `{a,b}`).
_SPACED_SHAPE = re.compile(r"\b(tensor|memref|vector)<(\s*(?:(?:\d+|\?|\*)\s*x\s*)+)")
# `tensor<4xf32,>`: MLIR reads an encoding only when one follows the comma.
_EMPTY_ENCODING = re.compile(r",\s*>$")
_QUANT_PARAMS = re.compile(r"(!quant\.\w+<[^{}>]*)\{([^{}]*)\}")


def _as_printed(text: str) -> str:
    """`text` with the whitespace MLIR's type printer would not write removed (else unchanged)."""
    if " x" in text or "x " in text:
        text = _SPACED_SHAPE.sub(lambda m: m.group(1) + "<" + "".join(m.group(2).split()), text)
    if text.endswith(">") and text.startswith("tensor"):
        m = _EMPTY_ENCODING.search(text)
        if m is not None:
            text = text[: m.start()] + ">"
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
    """Inline transformer: builds Type / Attribute objects; `scope` is set per parse.

    Floats are given the spelling MLIR prints (a FloatAttr, a float dense or array literal, a
    FloatAttr parameter of a dialect attribute); `respelled` records that a parse did so, and the
    parsed text is then not kept as the attribute's spelling."""

    scope: Any = None
    text = ""  # the text being parsed (for positions past a token)
    respelled = False

    def attribute_start(self, c: list) -> Any:
        return c[0]

    def type_start(self, c: list) -> Any:
        return c[0]

    # -- types --
    def tensor_type(self, c: list) -> TensorType:
        shape, elem, enc = c
        if shape is not None and str(shape).startswith("*"):
            _check_tensor_element(elem, self.text, shape)
            return TensorType(None, elem, enc)  # unranked `tensor<*xf32>`
        dims = _shape(shape)
        _check_tensor_element(elem, self.text, shape)
        return TensorType(dims, elem, enc)

    def memref_type(self, c: list) -> OpaqueType:
        shape, elem, *rest = c
        rest = [a for a in rest if a is not None]
        dims = shape.value if shape is not None else ""
        params = "".join(", " + a.text for a in rest)
        t = OpaqueType(f"memref<{dims}{elem.text}{params}>", "memref", f"{dims}{elem.text}{params}")
        t._typed = (_shape(shape), elem, tuple(rest))
        return t

    def named_type(self, c: list) -> Type:
        tok = c[0]
        t = named_type(str(tok), self.scope)
        if isinstance(t, TypeAliasRef):
            self._defined("type", t.name, tok)
        else:
            _check_named_type(t, str(tok), tok.start_pos or 0)
        return t

    def _defined(self, kind: str, name: str, tok: Token) -> None:
        """An alias must be defined before it is used (MLIR resolves aliases as it reads them)."""
        scope = self.scope
        if scope is not None and (kind, name) not in scope.defs:
            raise AttrSyntaxError((tok.start_pos or 0) + len(tok), UNDEFINED.format(name))

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
    def _number(self, tok: Token) -> tuple[bool, str, int]:
        """(negative, the literal after its sign, its offset) of a number token, refusing what
        MLIR's lexer reads otherwise: a leading `+`, an exponent with no `.` (`1e5` is `1`, `e5`)."""
        text = str(tok)
        pos = tok.start_pos or 0
        if text[0] == "+":
            # MLIR reports a wrong token just past the previous one when blanks come between.
            raise AttrSyntaxError(len(self.text[:pos].rstrip(" \t\r\n")) if self.text else pos, "expected attribute value")
        negative, body = split_sign(text)
        at = pos + len(text) - len(body)
        if body[:2] != "0x" and "." not in body:
            e = max(body.find("e"), body.find("E"))
            if e > 0:
                raise AttrSyntaxError(
                    at + e, f"unexpected '{body[e:]}' after the integer {body[:e]} (a float literal needs a '.': {body[:e]}.0{body[e:]})"
                )
        return negative, body, at

    def int_attr(self, c: list) -> Attribute:
        tok, ty = c
        negative, body, at = self._number(tok)
        return self._integer(negative, parse_magnitude(body), body, at, tok, ty)

    def _integer(self, negative: bool, magnitude: int, body: str, at: int, tok: Token, ty: Type | None) -> Attribute:
        if ty is None:  # MLIR has no untyped integer attribute: `1` means `1 : i64`
            if not int_fits(magnitude, negative, 64, ""):
                raise AttrSyntaxError(at, OUT_OF_RANGE)
            v = int_value(magnitude, negative, 64, "")
            return IntegerAttr(v, _I64, f"{v} : i64")
        target = ty.resolve()
        name = target.text if isinstance(target, ScalarType) else ""
        if name in FLOAT_BITS:
            problem = hex_float_problem(body, negative, name)
            if problem is not None:
                raise AttrSyntaxError(at, problem)
            return self._float(decode_float_bits(parse_magnitude(body), name), body, name, tok, ty)
        kind = int_type(name)
        if kind is None:
            raise AttrSyntaxError(at, "integer literal not valid for specified type")
        width, sign = kind
        if negative and sign == "u":
            raise AttrSyntaxError(at, "negative integer literal not valid for unsigned integer type")
        if not int_fits(magnitude, negative, width, sign):
            raise AttrSyntaxError(at, OUT_OF_RANGE)
        v = int_value(magnitude, negative, width, sign)
        if width == 1 and sign == "":  # MLIR prints i1 integers as booleans
            return BoolAttr(bool(v), "true" if v else "false")
        return IntegerAttr(v, ty, f"{v} : {ty.text}")  # MLIR's spelling: decimal, signed unless unsigned

    hex_attr = int_attr  # `0x3F800000 : f32` is a float's bits; untyped or integer-typed, an integer

    def float_attr(self, c: list) -> FloatAttr:
        tok, ty = c
        negative, body, at = self._number(tok)
        if ty is None:  # likewise `1.5` means `1.500000e+00 : f64`
            self.respelled = True
            return FloatAttr(float(str(tok)), _F64, None)
        target = ty.resolve()
        if not (isinstance(target, ScalarType) and target.text in FLOAT_BITS):
            # MLIR reports this past the type.
            raise AttrSyntaxError(self._past_type(tok), "floating point value not valid for specified type")
        return self._float(float(str(tok)), "-" + body if negative else body, target.text, tok, ty)

    def _float(self, value: float, literal: str, kind: str, tok: Token, ty: Type) -> FloatAttr:
        """A FloatAttr of type `ty` (`kind`) read from `literal`, spelled as MLIR prints it."""
        spelled = literal_text(literal, kind)
        if spelled is None:  # a type ttopt has no semantics for (f8E4M3FN, ...): as written
            return FloatAttr(value, ty, _typed_text(tok, ty))
        if spelled != str(tok):
            self.respelled = True
        return FloatAttr(value, ty, f"{spelled} : {ty.text}")

    def _past_type(self, tok: Token) -> int:
        """Where the `: type` after the literal `tok` ends in the text being parsed."""
        from ttopt.parse.scan import ScanError, scan_type, skip_ws

        text = self.text
        p = skip_ws(text, (tok.start_pos or 0) + len(tok))
        try:
            return skip_ws(text, scan_type(text, skip_ws(text, p + 1)))
        except ScanError:
            return p

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
        text = str(body)
        inner = text[6:-1]
        at = body.start_pos or 0
        shape, elem = _shaped(ty)
        if shape is not _UNCHECKED:
            try:
                check_dense(inner, ty.resolve().canonical(), shape, elem)
            except LiteralError as e:
                raise AttrSyntaxError(at if e.offset is None else at + 6 + e.offset, e.message) from None
        if shape is not _UNCHECKED and shape is not None and isinstance(ty.resolve(), TensorType) and float_element_kind(elem) is not None:
            self.respelled = True  # spelled as MLIR prints it when first printed (constants can be huge)
            return DenseElementsAttr(inner, ty)
        return DenseElementsAttr(inner, ty, f"{body} : {ty.text}")

    def typed_opaque_attr(self, c: list) -> OpaqueAttr:
        body, ty = c
        text = str(body)
        if text.startswith("dense_resource"):
            lt = text.index("<")
            key = text[lt + 1 : -1].strip()
            if not key or not (key[0] == '"' or key[0].isalpha() or key[0] == "_"):
                raise AttrSyntaxError((body.start_pos or 0) + lt + 1 + len(text[lt + 1 : -1]) - len(text[lt + 1 : -1].lstrip()),
                                      "expected identifier key for 'resource' entry")  # fmt: skip
        cls = DenseResourceAttr if text.startswith("dense_resource<") else TypedOpaqueAttr
        return cls(f"{body} : {ty.text}", ty)

    def dense_array_attr(self, c: list) -> DenseArrayAttr:
        tok = c[0]
        text = str(tok)
        try:
            elem, values = read_array(text[6:-1])
        except LiteralError as e:
            raise AttrSyntaxError((tok.start_pos or 0) + 6 + (e.offset or 0), e.message) from None
        if elem in SEMANTICS:
            self.respelled = True
            return DenseArrayAttr(elem, values)  # floats spelled as MLIR prints them
        return DenseArrayAttr(elem, values, text)

    def opaque_attr(self, c: list) -> OpaqueAttr:
        return OpaqueAttr(str(c[0]))

    def dialect_attr(self, c: list) -> Attribute:
        tok = c[0]
        a = dialect_attr(str(tok), self.scope)
        if isinstance(a, DialectAttr) and a.text != str(tok):
            self.respelled = True
        if isinstance(a, AliasRef):
            self._defined("attr", a.name, tok)
        elif isinstance(a, DialectAttr):
            check = DIALECT_ATTR_CHECKS.get(a.name.partition(".")[0])
            problem = check(a.name, a.body) if check is not None else None
            if problem is not None:
                raise AttrSyntaxError((tok.start_pos or 0) + problem[0], problem[1])
        return a

    def symbol_attr(self, c: list) -> SymbolRefAttr:
        names = [_symbol_name(str(t)) for t in c]
        return SymbolRefAttr(names[0], tuple(names[1:]), "::".join(str(t) for t in c))

    def loc_attr(self, c: list) -> LocationAttr:
        tok = c[0]
        text = str(tok)
        loc = Location(text, self.scope)
        if self.scope is not None:
            defs = self.scope.defs
            problem = location_problem(text, defs.__contains__, defs.__getitem__)
            if problem is not None:
                raise AttrSyntaxError((tok.start_pos or 0) + problem[0], problem[1])
        if not SIMPLE_LOC.fullmatch(text):
            try:
                loc._parsed = _parse(text[4:-1], "loc_body", self.scope)
            except AttrSyntaxError as e:
                raise AttrSyntaxError((tok.start_pos or 0) + 4 + e.offset, e.message) from None
        return LocationAttr(loc, text)

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
        path, *nums = c
        names = ("line", "column", "line", "column")
        values: list[int | None] = []
        for tok, what in zip(nums, names):
            if tok is None:
                values.append(None)
                continue
            v = _unsigned32(str(tok))
            if v is None:
                raise AttrSyntaxError(tok.start_pos or 0, f"expected integer {what} number in FileLineColRange")
            values.append(v)
        line, col, *rng = values + [None] * (2 - len(values))
        if col is None:  # `"f":3` is line 3 (MLIR prints it `"f":3:0`)
            col = 0
        return ("file", unquote(str(path)), line, col, *rng)

    def loc_callsite(self, c: list) -> tuple:
        return ("callsite", c[0], c[1])

    def loc_fused(self, c: list) -> tuple:
        meta, *locs = c
        return ("fused", str(meta) if meta is not None else None, [x for x in locs if x is not None])

    def loc_alias(self, c: list) -> tuple:
        return ("alias", str(c[0])[1:])


def _unsigned32(text: str) -> int | None:
    """A location's line or column: an unsigned 32-bit integer literal (None when it is not one)."""
    if text[:1] in "+-":
        return None
    try:
        v = parse_magnitude(text)
    except ValueError:
        return None
    return v if v < 1 << 32 else None


_UNCHECKED: Any = object()  # a shaped type whose literal is not checked (scalable vectors)
_VECTOR = re.compile(r"\s*((?:\d+\s*x\s*)*)(.*?)\s*")


def _shaped(ty: Type) -> tuple[Any, str]:
    """(shape, element type text) of a dense literal's type: shape None when it is not a shaped
    type, a None dimension for a dynamic one (an unranked tensor has one)."""
    t = ty.resolve()
    if isinstance(t, TensorType):
        return (t.shape if t.shape is not None else (None,)), t.element_type.resolve().canonical()
    if isinstance(t, OpaqueType) and t.name == "memref" and t._typed is not None:
        shape, elem, _ = t._typed
        return shape, elem.resolve().canonical()
    if isinstance(t, OpaqueType) and t.name == "vector" and t.body is not None:
        if "[" in t.body:
            return _UNCHECKED, ""
        m = _VECTOR.fullmatch(t.body)
        if m is not None:
            return tuple(int(d) for d in re.findall(r"\d+", m.group(1))), m.group(2)
    return None, ""


def _typed_text(tok: Token, ty: Type | None) -> str:
    return f"{tok} : {ty.text}" if ty is not None else str(tok)


def _symbol_name(tok: str) -> str:
    body = tok[1:]
    return unquote(body) if body.startswith('"') else body


_MAX_DIM = (1 << 63) - 1


def _shape(tok: Token | None) -> tuple[int | None, ...]:
    if tok is None:
        return ()
    dims = tuple(None if d in ("?", "*") else int(d) for d in str(tok).split("x")[:-1])
    if any(d is not None and d > _MAX_DIM for d in dims):
        bad = next(m for m in re.finditer(r"\d+", str(tok)) if int(m.group()) > _MAX_DIM)
        raise AttrSyntaxError((tok.start_pos or 0) + bad.start(), "invalid dimension")
    return dims


# Builtin types that may not be tensor elements (MLIR's TensorType::isValidElementType).
_NOT_TENSOR_ELEMENT = re.compile(r"(?:none|tensor<.*|memref<.*|tuple<.*|\(.*)$", re.S)
# Registered dialects (in the MLIR ttopt follows) that define no types, and StableHLO's types.
_TYPELESS_DIALECTS = frozenset({"builtin", "func", "chlo", "sdy", "arith", "tensor"})
_STABLEHLO_TYPES = frozenset({"token", "future"})
_BUILTIN_WORDS = frozenset({"vector", "complex", "tuple"})


def _check_tensor_element(elem: Type, text: str, after: Token | None) -> None:
    """A tensor's element type must be one MLIR allows (not none, a tensor, memref, tuple or function)."""
    t = elem.resolve() if not isinstance(elem, TypeAliasRef) else elem
    if isinstance(t, FunctionType) or _NOT_TENSOR_ELEMENT.match(t.text):
        pos = text.find(t.text, (after.start_pos or 0) + len(after)) if after is not None else text.find(t.text)
        raise AttrSyntaxError(max(pos, 0), "invalid tensor element type")


def _check_named_type(t: Type, text: str, pos: int) -> None:
    """Refuse what MLIR's type parser refuses of a one-word or dialect type (MLIR's words)."""
    if isinstance(t, ScalarType):
        if not is_builtin_scalar(t.text):
            kind = int_type(t.text)
            if kind is not None:
                raise AttrSyntaxError(pos, f"integer bitwidth is limited to {MAX_INT_WIDTH} bits")
            raise AttrSyntaxError(pos, "expected non-function type")
        return
    if not isinstance(t, OpaqueType):
        return
    if text.startswith("!"):
        dialect, _, mnemonic = t.name.partition(".")
        at = pos + 2 + len(dialect)
        if dialect in _TYPELESS_DIALECTS:
            raise AttrSyntaxError(at, f"dialect '{dialect}' provides no type parsing hook")
        if dialect == "stablehlo" and mnemonic not in _STABLEHLO_TYPES:
            raise AttrSyntaxError(at, f"unknown stablehlo type: {mnemonic}")
        return
    if t.name not in _BUILTIN_WORDS or t.body is None:
        raise AttrSyntaxError(pos, "expected non-function type")
    if t.name == "vector":
        _check_vector(t.body, pos + len("vector<"))
    elif t.name == "complex":
        inner = t.body.strip()
        if (int_type(inner) is None or inner == "index") and inner not in FLOAT_BITS:
            raise AttrSyntaxError(pos + len("complex<") + len(t.body) - len(t.body.lstrip()), "invalid element type for complex")


_VECTOR_DIMS = re.compile(r"\s*((?:(?:\[\s*\d+\s*\]|\d+|\?)\s*x\s*)*)(.*?)\s*", re.S)


def _check_vector(body: str, at: int) -> None:
    m = _VECTOR_DIMS.fullmatch(body)
    if m is None:
        return
    dims = re.findall(r"\d+|\?", m.group(1))
    if "?" in dims:
        raise AttrSyntaxError(at + m.group(1).index("?"), "expected non-function type")
    if "0" in [d.lstrip("0") or "0" for d in dims]:
        raise AttrSyntaxError(at - len("vector<"), "vector types must have positive constant sizes but got 0")
    elem = m.group(2)
    if int_type(elem) is None and elem not in FLOAT_BITS:
        raise AttrSyntaxError(at - len("vector<"), "failed to verify 'elementType': VectorElementTypeInterface instance")


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
    if body is not None and ":" in body and name.partition(".")[0] in FLOAT_PARAM_DIALECTS:
        spelled = typed_literals_spelled(body)
        if spelled != body:
            return DialectAttr(name, spelled, f"#{name}<{spelled}>", scope=scope)
    return DialectAttr(name, body, text, scope=scope)


_BUILDER = _AttrBuilder()
_STARTS = ("attribute_start", "type_start", "fn_sig", "type_list", "attr_dict", "loc_body")


def _lark():
    from ttopt.parse.grammar import load

    return load("attributes.lark", _STARTS, _BUILDER)


def _parse(text: str, start: str, scope: Any) -> Any:
    return _parse_spelled(text, start, scope)[0]


def _parse_spelled(text: str, start: str, scope: Any) -> tuple[Any, bool]:
    """The parse of `text`, and whether a float in it was given MLIR's spelling (see _AttrBuilder)."""
    lark = _lark()
    prev, prev_text, prev_respelled = _BUILDER.scope, _BUILDER.text, _BUILDER.respelled
    _BUILDER.scope, _BUILDER.text, _BUILDER.respelled = scope, text, False
    try:
        result = lark.parse(text, start=start)
        return result, _BUILDER.respelled
    except LexFailure as e:
        raise AttrSyntaxError(e.pos, e.message) from None
    except UnexpectedInput as e:
        tok = getattr(e, "token", None)
        pos = len(text.rstrip()) if tok is not None and tok.type == "$END" else _token_pos(e)
        raise AttrSyntaxError(pos, _describe(e)) from None
    finally:
        _BUILDER.scope, _BUILDER.text, _BUILDER.respelled = prev, prev_text, prev_respelled


def _token_pos(e: Any) -> int:
    tok = getattr(e, "token", None)
    return getattr(tok, "start_pos", 0) or 0


def _describe(e: Any) -> str:
    from ttopt.parse.errors import describe_unexpected

    return describe_unexpected(e)


class AttrParser:
    """Per-file parser of type / attribute / location texts, caching every distinct text.

    Each text is checked when first seen: the aliases it names must be defined by then."""

    def __init__(self, scope: Any) -> None:
        self.scope = scope
        self.types: dict[str, Type] = {}
        self.attrs: dict[str, Attribute] = {}
        self.dicts: dict[str, DictAttr] = {}
        self.sigs: dict[str, tuple[tuple[Type, ...], tuple[Type, ...]]] = {}
        # The locations that name aliases, each once, with how many aliases were defined when it
        # was first read: one that names an alias anywhere but as the whole location (`loc(#name)`,
        # which an op may write before the alias is defined) must name aliases defined before it,
        # which `deferred_problem` checks at the end of the parse (the fast op paths record their
        # locations here without a call of ours).
        self.loc_texts: dict[str, int] = {}

    def _check_refs(self, text: str) -> None:
        """The aliases `text` names (in dialect bodies too) must be defined by now."""
        if self.scope is not None and ("#" in text or "!" in text):
            bad = first_undefined(text, self.scope.defs.__contains__)
            if bad is not None:
                raise AttrSyntaxError(bad[0], UNDEFINED.format(bad[1]))

    def type(self, text: str) -> Type:
        """The Type spelled `text` (exact spelling kept for printing)."""
        t = self.types.get(text)
        if t is None:
            m = _SIMPLE_TENSOR.match(text)
            if m:
                dims, elem, enc = m.groups()
                if enc and self.scope is not None and ("attr", enc[1:]) not in self.scope.defs:
                    raise AttrSyntaxError(m.end(3), UNDEFINED.format(enc[1:]))
                try:
                    elem_t = self.type(elem)
                except AttrSyntaxError as e:
                    raise AttrSyntaxError(m.start(2) + e.offset, e.message) from None
                _check_tensor_element(elem_t, text, None)
                t = TensorType(
                    tuple(None if d == "?" else int(d) for d in dims.split("x")[:-1]),
                    elem_t,
                    AliasRef(enc[1:], self.scope) if enc else None,
                    text,
                )
                if len(dims) > 18:
                    _shape(FastToken("SHAPE", dims, m.start(1)))
            elif _SCALAR.match(text):
                t = ScalarType(text)
                _check_named_type(t, text, 0)
            else:
                spelled = _as_printed(text)
                t = _parse(spelled, "type_start", self.scope)
                t._text = spelled
                self._check_refs(text)
            self.types[text] = t
        return t

    def attribute(self, text: str) -> Attribute:
        """The Attribute spelled `text`."""
        a = self.attrs.get(text)
        if a is None:
            a, respelled = _parse_spelled(text, "attribute_start", self.scope)
            if not respelled:  # else its text is MLIR's spelling, from its parts
                a._text = text
            self._check_refs(text)
            self.attrs[text] = a
        return a

    def attr_dict(self, text: str) -> DictAttr:
        """A `{...}` dictionary (callers copy `.entries` before mutating)."""
        d = self.dicts.get(text)
        if d is None:
            read = self._dialect_entry(text) or self._dict_by_entries(text) or _parse_spelled(text, "attr_dict", self.scope)
            d, respelled = read
            if not respelled:  # else its text is MLIR's spelling, from its entries
                d._text = text
            self._check_refs(text)
            self.dicts[text] = d
        return d

    def _dialect_entry(self, text: str) -> tuple[DictAttr, bool] | None:
        """`{key = #dialect.name<body>}`, one entry whose value is a dialect attribute, built as the
        grammar's builder would without running the grammar: each op's channel handle or sharding
        is such a dictionary, most of them distinct. None for anything else, or when the dialect's
        check of the body finds a problem (the grammar then reads the text and reports it). With
        it, whether a float in the value was given MLIR's spelling."""
        m = _DIALECT_ENTRY_HEAD.match(text)
        if m is None:
            return None
        start = m.end()
        try:
            end = scan_attr(text, start)
        except ScanError:
            return None
        if end != len(text) - 1 or text[end] != "}":
            return None
        value = text[start:end]
        a = dialect_attr(value, self.scope)
        if type(a) is not DialectAttr:  # an alias reference is checked against the aliases by the grammar
            return None
        check = DIALECT_ATTR_CHECKS.get(a.name.partition(".")[0])
        if check is not None and check(a.name, a.body) is not None:
            return None
        return DictAttr({m.group(1): a}), a.text != value

    def _dict_by_entries(self, text: str) -> tuple[DictAttr, bool] | None:
        """The dictionary `text` from its entries, each read (and cached) as a one-entry
        dictionary: ops' dictionaries differ in one entry and repeat the others (an all_reduce's
        channel handle beside its replica groups), and reading a dictionary costs per character.
        None when it does not split into two or more entries that each read alone (a comma the
        split took for a separator, a syntax error, a repeated key): the whole text is then read
        at once, which also reports any error where it is. With it, whether a float in it was
        given MLIR's spelling (a piece's dictionary then has no text of its own)."""
        if len(text) < 2 or text[0] != "{" or text[-1] != "}" or "//" in text:
            return None
        pieces = split_top_level(text[1:-1])
        if len(pieces) < 2 or not all(pieces):
            return None
        entries: list[tuple[str, Attribute]] = []
        respelled = False
        try:
            for piece in pieces:
                one = self.attr_dict("{" + piece + "}")
                entries += one.entries.items()
                respelled = respelled or one._text is None
        except AttrSyntaxError:
            return None
        d = dict(entries)
        if len(d) != len(entries):
            return None
        keys = list(d)
        if keys != sorted(keys):
            d = {k: d[k] for k in sorted(keys)}  # as _AttrBuilder.attr_dict: MLIR sorts on construction
        return DictAttr(d), respelled

    def signature(self, text: str) -> tuple[tuple[Type, ...], tuple[Type, ...]]:
        """`(A, B) -> R` as (inputs, results), with each type interned through `type()`."""
        s = self.sigs.get(text)
        if s is None:
            ins_text, outs_text = split_signature(text)
            ins = tuple(self._types_in(text, ins_text, 0))
            outs = tuple(self._types_in(text, outs_text, text.find("->")))
            s = self.sigs[text] = (ins, outs)
        return s

    def type_list(self, text: str) -> list[Type]:
        """A comma-separated type list (no parentheses)."""
        return self._types_in(text, split_top_level(text), 0) if text.strip() else []

    def _types_in(self, text: str, pieces: list[str], start: int) -> list[Type]:
        """The types of `pieces`, cut in order from `text` after `start` (error offsets in `text`)."""
        try:
            return [self.type(t) for t in pieces]
        except AttrSyntaxError as e:
            at = start
            for t in pieces:
                at = text.find(t, at)
                try:
                    self.type(t)
                except AttrSyntaxError as e2:
                    raise AttrSyntaxError(max(at, 0) + e2.offset, e2.message) from None
                at += len(t)
            raise e

    def location(self, text: str, defining: bool = False) -> Location:
        """A `loc(...)` token; anything beyond the common forms is syntax-checked now. As an alias's
        definition (`defining`) it may name only location aliases defined before it; as an op's
        location, see LocTexts. Error offsets are relative to the text inside `loc(...)`."""
        if not SIMPLE_LOC.fullmatch(text):
            only = LOC_ALIAS_ONLY.fullmatch(text)
            if only is not None:  # `loc( #name )`: the same location as `loc(#name)`, printed so
                text = f"loc(#{only.group(1)})"
        loc = Location(text, self.scope)
        if not SIMPLE_LOC.fullmatch(text):
            loc._parsed = _parse(text[4:-1], "loc_body", self.scope)
        if "#" in text:
            if defining:
                if self.scope is not None:
                    defs = self.scope.defs
                    problem = location_problem(text, defs.__contains__, defs.__getitem__)
                    if problem is not None:
                        raise AttrSyntaxError(problem[0] - 4, problem[1])
            else:
                self.loc_texts.setdefault(text, len(self.scope.defs) if self.scope is not None else 0)
        return loc

    def deferred_problem(self) -> tuple[str, int, str] | None:
        """(location text, offset in it, MLIR's message) for the first op location, in the order
        they were read, that names an alias not defined before it or one that is not a location."""
        texts = self.loc_texts
        if self.scope is None:
            return None
        defs = self.scope.defs
        order = {k: i for i, k in enumerate(defs)}
        for text, limit in texts.items():
            if LOC_ALIAS_ONLY.fullmatch(text):
                continue
            problem = location_problem(text, lambda k: order.get(k, limit) < limit, defs.__getitem__)
            if problem is not None:
                return text, problem[0], problem[1]
        return None


def split_top_level(text: str) -> list[str]:
    """Split at commas that are not nested in brackets or strings; pieces are stripped."""
    # Piece by piece, each one regex match taking whole bracket groups; a text whose brackets do
    # not balance within a piece, or nest deeper, is split token by token.
    parts = []
    n = len(text)
    pos = 0
    piece = _SPLIT_PIECE.match
    while True:
        e = piece(text, pos).end()  # it matches the empty string
        if e == n:
            parts.append(text[pos:].strip())
            return parts
        if text[e] != ",":
            return _split_top_level(text)
        parts.append(text[pos:e].strip())
        pos = e + 1


def _split_piece(depth: int) -> str:
    """A piece split_top_level's tokens leave whole: other characters, `->`, `>=`, strings (a `"`
    that starts none is another character) and bracket groups nested up to `depth` deep, commas
    inside them (any closer closes any opener: the token split counts depth only)."""
    unit = r'[^<>(){}\[\],"\-]++|->?|>=|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|"'
    group = rf"[<({{\[](?:{unit}|,)*+[>)}}\]]"
    for _ in range(depth - 1):
        group = rf"[<({{\[](?:{unit}|,|{group})*+[>)}}\]]"
    return rf"(?:{unit}|{group})*+"


_SPLIT_PIECE = lazy_compile(_split_piece(6))


def _split_top_level(text: str) -> list[str]:
    """split_top_level one token at a time (any text)."""
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
_LEADING_ZERO = re.compile(r"(?<![\w.])0\d")
_DECIMAL_INT = re.compile(r"(?<![\w.])\d+(?![\w.])")


def parse_dense_body(body: str) -> Any:
    """Decode a dense literal body into nested lists (hex blobs are returned as the hex string)."""
    b = body.strip()
    if b.startswith('"'):
        return unquote(b)
    if not b:  # `dense<> : tensor<0x2xi64>`: no elements (e.g. a collective_permute without pairs)
        return []
    b = _DENSE_WORD.sub(lambda m: "True" if m.group() == "true" else "False", b)
    b = re.sub(r"\b0x[0-9A-Fa-f]+\b", lambda m: str(int(m.group(), 16)), b)
    if _LEADING_ZERO.search(b):  # MLIR reads `06` as 6; Python refuses it
        b = _DECIMAL_INT.sub(lambda m: str(int(m.group())), b)
    return ast.literal_eval(b)


register_decoder("dense", parse_dense_body)
register_decoder("location", parse_location_body)
