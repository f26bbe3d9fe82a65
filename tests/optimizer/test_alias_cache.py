"""`AliasRef.resolve` caches its target per version of the scope's definition table: it
must answer as an uncached lookup would after every kind of change to the table."""

from __future__ import annotations

import pytest

from ttopt.ir.aliases import AliasDef, AliasScope, UndefinedAlias
from ttopt.ir.attributes import AliasRef, StringAttr
from ttopt.parse.parser import parse_module


def _scope() -> tuple[AliasScope, AliasRef]:
    scope = AliasScope()
    scope.define(AliasDef("a", "attr", StringAttr("one")))
    return scope, AliasRef("a", scope)


def test_resolution_follows_a_redefinition() -> None:
    scope, ref = _scope()
    assert ref.resolve().value == "one"
    scope.define(AliasDef("a", "attr", StringAttr("two")))
    assert ref.resolve().value == "two"


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.__setitem__(("attr", "a"), AliasDef("a", "attr", StringAttr("two"))),
        lambda d: d.update({("attr", "a"): AliasDef("a", "attr", StringAttr("two"))}),
        lambda d: d.__ior__({("attr", "a"): AliasDef("a", "attr", StringAttr("two"))}),
    ],
)
def test_resolution_follows_direct_table_writes(change) -> None:
    scope, ref = _scope()
    assert ref.resolve().value == "one"
    change(scope.defs)
    assert ref.resolve().value == "two"


@pytest.mark.parametrize(
    "remove",
    [
        lambda d: d.__delitem__(("attr", "a")),
        lambda d: d.pop(("attr", "a")),
        lambda d: d.popitem(),
        lambda d: d.clear(),
    ],
)
def test_a_removed_alias_is_undefined_again(remove) -> None:
    scope, ref = _scope()
    assert ref.resolve().value == "one"
    remove(scope.defs)
    with pytest.raises(UndefinedAlias):
        ref.resolve()
    scope.define(AliasDef("a", "attr", StringAttr("three")))
    assert ref.resolve().value == "three"


def test_parsed_references_resolve_to_their_definition() -> None:
    m = parse_module('#x = "v1"\nmodule attributes {k = #x} {\n}\n', "t.mlir")
    ref = m.op.attributes["k"]
    assert isinstance(ref, AliasRef)
    assert ref.resolve().value == "v1"
    m.aliases.defs[("attr", "x")] = AliasDef("x", "attr", StringAttr("v2"))
    assert ref.resolve().value == "v2"
