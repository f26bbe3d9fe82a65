"""Typed TTIR attributes: `#ttir<flattened_compat batch_size = N, input_height = H, input_width = W>`
(TTIROpsAttrs.td's FlattenedCompatInfoAttr), the mark of a sliding-window op (conv2d,
conv_transpose2d, the 2-D pools) that reads and writes its NHWC tensors flattened to
`1x1x(N*H*W)xC`; the attribute keeps the N, H and W the flattening lost.

Other `#ttir<...>` attributes have no typed model (their `.typed` is None)."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import PositiveInt

from ttopt.dialects.errors import AttrError
from ttopt.dialects.model import DialectModel
from ttopt.ir.attributes import DIALECT_ATTR_FACTORIES

FLATTENED_COMPAT = "flattened_compat"
# The op property that holds it (an optional attribute of each sliding-window op).
FLATTENED_COMPAT_INFO = "flattened_compat_info"
# A trailing comma is accepted: tt-mlir's own tests write `input_width = 28,>` and HEAD reads them.
_BODY = re.compile(r"\s*batch_size\s*=\s*(-?\d+)\s*,\s*input_height\s*=\s*(-?\d+)\s*,\s*input_width\s*=\s*(-?\d+)\s*(?:,\s*)?")


class FlattenedCompatInfo(DialectModel):
    """`#ttir<flattened_compat batch_size = 1, input_height = 32, input_width = 32>`."""

    attr_name: ClassVar[str] = "ttir"

    batch_size: PositiveInt
    input_height: PositiveInt
    input_width: PositiveInt

    def print_body(self) -> str:
        """`flattened_compat batch_size = 1, input_height = 32, input_width = 32` (HEAD's assembly format)."""
        return f"{FLATTENED_COMPAT} batch_size = {self.batch_size}, input_height = {self.input_height}, input_width = {self.input_width}"

    @property
    def rows(self) -> int:
        """N*H*W: the extent of the flattened dimension (dimension 2) of the op's input."""
        return self.batch_size * self.input_height * self.input_width

    @classmethod
    def parse(cls, rest: str) -> FlattenedCompatInfo:
        """The model of the body after the `flattened_compat` keyword."""
        m = _BODY.fullmatch(rest)
        if m is None:
            raise AttrError("expected 'batch_size = N, input_height = H, input_width = W'")
        b, h, w = (int(m.group(i)) for i in (1, 2, 3))
        if min(b, h, w) < 1:
            raise AttrError(f"batch_size, input_height and input_width must be positive, got {b}, {h}, {w}")
        return cls(batch_size=b, input_height=h, input_width=w)


def parse_ttir_short(body: str) -> Any:
    """The typed model of a `#ttir<kind ...>` body: FlattenedCompatInfo, or None for other kinds (kept opaque)."""
    kind, _, rest = body.strip().partition(" ")
    if kind != FLATTENED_COMPAT:
        return None
    return FlattenedCompatInfo.parse(rest)


def flattened_compat_info(op: Any) -> FlattenedCompatInfo | None:
    """The op's `flattened_compat_info` (None when it has none: the op is in plain NHWC form).
    Raises AttrError on a malformed body (the verifier reports it first)."""
    a = op.get_attr(FLATTENED_COMPAT_INFO)
    if a is None:
        return None
    typed = getattr(a.resolve(), "typed", None)
    if not isinstance(typed, FlattenedCompatInfo):
        raise AttrError(f"'{FLATTENED_COMPAT_INFO}' must be a #ttir<{FLATTENED_COMPAT} ...> attribute, got {a.text}")
    return typed


DIALECT_ATTR_FACTORIES["ttir"] = lambda a: parse_ttir_short(a.body or "")
