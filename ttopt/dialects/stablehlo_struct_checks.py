"""The struct-like StableHLO attributes (`#stablehlo.gather<offset_dims = [0], ...>`) read as
StableHLO's `parseStruct` reads them: known keys, each at most once, `key = value` separated by
commas (a trailing comma allowed), values of the key's kind. Registered as the `stablehlo`
DIALECT_ATTR_CHECKS; attributes ttopt does not model here are not checked."""

from __future__ import annotations

import re

from ttopt.ir.attributes import DIALECT_ATTR_CHECKS

INT, DIMS, BOUNDS = "int", "dims", "bounds"

STRUCTS: dict[str, dict[str, str]] = {
    "channel_handle": {"handle": INT, "type": INT},
    "gather": {
        "offset_dims": DIMS, "collapsed_slice_dims": DIMS, "operand_batching_dims": DIMS,
        "start_indices_batching_dims": DIMS, "start_index_map": DIMS, "index_vector_dim": INT,
    },
    "scatter": {
        "update_window_dims": DIMS, "inserted_window_dims": DIMS, "input_batching_dims": DIMS,
        "scatter_indices_batching_dims": DIMS, "scatter_dims_to_operand_dims": DIMS, "index_vector_dim": INT,
    },
    "dot": {
        "lhs_batching_dimensions": DIMS, "rhs_batching_dimensions": DIMS,
        "lhs_contracting_dimensions": DIMS, "rhs_contracting_dimensions": DIMS,
    },
    "output_operand_alias": {"output_tuple_indices": DIMS, "operand_index": INT, "operand_tuple_indices": DIMS},
    "type_extensions": {"bounds": BOUNDS},
}  # fmt: skip

# Declared with ODS's `struct` directive (the others parse with StableHLO's hand-written parseStruct).
ODS_STRUCTS = frozenset({"channel_handle"})

_TOKEN = re.compile(r"\s*(?:(0x[0-9a-fA-F]+|\d+)|([A-Za-z_][\w$.]*)|(->|[-\[\],=?>])|(\S))", re.ASCII)
_INT64 = 1 << 63


class _Fail(Exception):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


class _Tokens:
    def __init__(self, body: str) -> None:
        self.toks: list[tuple[str, str, int]] = []  # (kind, text, offset)
        for m in _TOKEN.finditer(body):
            kind = "int" if m.group(1) else "id" if m.group(2) else "punct" if m.group(3) else "other"
            self.toks.append((kind, m.group(m.lastindex or 0), m.start(m.lastindex or 0)))
        self.toks.append(("end", ">", len(body)))  # the body's closing `>`
        self.i = 0

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        if tok[0] != "end":
            self.i += 1
        return tok

    def accept(self, text: str) -> bool:
        if self.peek()[1] == text and self.peek()[0] in ("punct", "end"):
            self.take()
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            raise _Fail(self.peek()[2], f"expected '{text}'")


def _integer(t: _Tokens) -> None:
    neg = t.accept("-")
    kind, text, at = t.take()
    if kind != "int":
        raise _Fail(at, "expected integer value")
    value = int(text, 0)
    if value > _INT64 - (0 if neg else 1):
        raise _Fail(at, "integer value too large")


def _list(t: _Tokens, bounds: bool) -> None:
    t.expect("[")
    if t.accept("]"):
        return
    while True:
        if not (bounds and t.accept("?")):
            _integer(t)
        if t.accept("]"):
            return
        t.expect(",")


def _struct(t: _Tokens, keys: dict[str, str]) -> None:
    seen: set[str] = set()
    while not t.accept(">"):
        kind, text, at = t.peek()
        if kind != "id" or text not in keys:
            raise _Fail(at, "expected one of: " + ", ".join(f"`{k}`" for k in keys))
        t.take()
        if text in seen:
            raise _Fail(t.peek()[2], f"duplicated `{text}` entry")
        t.expect("=")
        if keys[text] == INT:
            _integer(t)
        else:
            _list(t, keys[text] == BOUNDS)
        seen.add(text)
        if not t.accept(","):
            t.expect(">")
            return


def _ods_struct(t: _Tokens, keys: dict[str, str]) -> None:
    """An ODS `struct(...)` body: every key once, in any order, comma separated, no trailing comma."""
    left = dict(keys)
    while True:
        kind, text, at = t.peek()
        if kind != "id":
            raise _Fail(at, "expected valid keyword")
        if text not in left:
            raise _Fail(at + len(text), f"duplicate or unknown struct parameter name: {text}")
        t.take()
        t.expect("=")
        if left.pop(text) == INT:
            _integer(t)
        else:
            _list(t, keys[text] == BOUNDS)
        if not left:
            return
        t.expect(",")


def check_stablehlo_attr(name: str, body: str | None) -> tuple[int, str] | None:
    """What StableHLO's struct parser refuses in `#name<body>`: (offset in the text, message)."""
    mnemonic = name[len("stablehlo.") :]
    keys = STRUCTS.get(mnemonic)
    if keys is None or body is None:
        return None
    t = _Tokens(body)
    try:
        (_ods_struct if mnemonic in ODS_STRUCTS else _struct)(t, keys)
        if t.peek()[0] != "end":
            raise _Fail(t.peek()[2], "expected '>'")
    except _Fail as e:
        return len(name) + 2 + e.offset, e.message
    return None


DIALECT_ATTR_CHECKS["stablehlo"] = check_stablehlo_attr
