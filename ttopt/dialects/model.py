"""The base of every typed dialect attribute model, and how a dialect installs one."""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from pydantic import BaseModel, ConfigDict

from ttopt.dialects.errors import attr_errors
from ttopt.ir.attributes import DIALECT_ATTR_FACTORIES, DialectAttr
from ttopt.parse.attr_body import AttrError


class DialectModel(BaseModel):
    """Base of every typed dialect attribute: frozen, validated, hashable, printable."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attr_name: ClassVar[str] = ""

    def print_body(self) -> str:
        """Text inside the outer `<...>` as tt-mlir / Shardy print it."""
        raise NotImplementedError

    @property
    def text(self) -> str:
        """Full attribute spelling `#name<body>`."""
        return f"#{self.attr_name}<{self.print_body()}>"

    def to_attr(self) -> DialectAttr:
        """This model wrapped as an IR attribute."""
        return DialectAttr.of(self)

    def __str__(self) -> str:
        return self.text


def body_of(attr: Any) -> str:
    """The `<...>` body of a DialectAttr (or OpaqueType), with an AttrError when there is none."""
    body = attr.body
    if body is None:
        raise AttrError(f"#{attr.name} needs a <...> body")
    return body




def register_attr(name: str, parse: Callable[..., Any], scoped: bool = False) -> None:
    """Install the typed-view factory for `#name<...>` (parse takes the body [and the alias scope])."""

    def factory(attr: DialectAttr) -> Any:
        body = body_of(attr)
        # A safety net: whatever slips past the parser's own checks still surfaces as an AttrError.
        with attr_errors(f"#{name}"):
            return parse(body, attr.scope) if scoped else parse(body)

    DIALECT_ATTR_FACTORIES[name] = factory
