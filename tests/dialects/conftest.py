"""Shared fixtures: an alias scope like tt-mlir's printer produces (`#dram`, `#l1`, ...) and parsers over it."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import ttopt.dialects  # noqa: F401  (registers the typed attribute factories)
from ttopt.ir.aliases import AliasDef, AliasScope
from ttopt.parse.attr_parser import AttrParser

ALIASES = {
    "dram": "#ttnn.buffer_type<dram>",
    "l1": "#ttnn.buffer_type<l1>",
    "system_memory": "#ttnn.buffer_type<system_memory>",
    "l1_": "#ttnn.buffer_type<l1>",
    "grid": "#ttcore.grid<1x1>",
    "range": "#ttnn.core_range<(0, 0), (1, 1)>",
}


def make_scope(aliases: dict[str, str] = ALIASES) -> AliasScope:
    """A scope holding `aliases` (name -> attribute text)."""
    scope = AliasScope()
    ap = AttrParser(scope)
    for name, text in aliases.items():
        scope.define(AliasDef(name, "attr", ap.attribute(text)))
    return scope


@pytest.fixture(scope="session")
def scope() -> AliasScope:
    return make_scope()


@pytest.fixture(scope="session")
def attr(scope: AliasScope) -> Callable[[str], Any]:
    """Parse an attribute text (e.g. `#ttnn.ttnn_layout<...>`) with the shared aliases in scope."""
    ap = AttrParser(scope)
    return ap.attribute


@pytest.fixture(scope="session")
def typed(attr: Callable[[str], Any]) -> Callable[[str], Any]:
    """The typed model of an attribute text."""
    return lambda text: attr(text).typed
