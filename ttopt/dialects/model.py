"""The base of every typed dialect attribute model."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from ttopt.ir.attributes import DialectAttr


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
