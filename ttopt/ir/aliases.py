"""Module-level aliases (`#name = attr`, `!name = type`, `#loc3 = loc(...)`), kept as data."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from itertools import count, repeat
from operator import itemgetter
from typing import Any, Callable

from ttopt.ir.attributes import Attribute, LocationAttr
from ttopt.ir.location import Location


@dataclass(slots=True)
class AliasDef:
    """One alias definition; `after_module` records whether it was written after the ops."""

    name: str
    kind: str  # "attr" | "type"
    value: Any  # Attribute, Type, or LocationAttr
    after_module: bool = False
    pos: Any = None
    # The name prefix a pass gave a created alias (`AliasScope.add_attr`); None for one read from
    # the input. The printer renames created aliases as MLIR numbers them (ir/alias_names.py).
    prefix: str | None = None

    @property
    def is_location(self) -> bool:
        """Is this a location alias (`#loc3 = loc(...)`)?"""
        return isinstance(self.value, LocationAttr)

    @property
    def value_text(self) -> str:
        """The definition's right-hand side as printed."""
        return self.value.text


class LocAliasRun:
    """What the definitions of one run of `#name = loc(...)` lines share: whether the run came
    after the ops, the alias scope, where each definition starts (asked of `locate` only when a
    diagnostic needs it), and their LocationAttrs once built."""

    __slots__ = ("after_module", "scope", "_locate", "_pos", "_values")

    def __init__(self, locate: Callable[[], dict[str, int]], after_module: bool, scope: Any) -> None:
        self.after_module = after_module
        self.scope = scope
        self._locate = locate
        self._pos: dict[str, int] | None = None
        self._values: dict[str, LocationAttr] = {}

    def pos(self, name: str) -> int:
        """Where the definition of `name` starts (for diagnostics)."""
        if self._pos is None:
            self._pos = self._locate()
        return self._pos[name]

    def value(self, name: str, text: str) -> LocationAttr:
        """The LocationAttr of a definition, built on first use."""
        v = self._values.get(name)
        if v is None:
            v = self._values[name] = LocationAttr(Location(text, self.scope), text)
        return v


class LocAliasDef(tuple):
    """A location alias read in a run: `(name, text, run, index in the run)`. A tuple, so a run of
    tens of thousands is made by C-level maps (LocAliasDef.make); its LocationAttr is built only
    when asked for. Reads like an AliasDef."""

    __slots__ = ()
    kind = "attr"
    is_location = True
    prefix = None  # read from the input
    name = property(itemgetter(0))
    value_text = property(itemgetter(1))  # `loc(...)`, already checked by the lexer

    @staticmethod
    def make(names: list[str], texts: list[str], run: LocAliasRun) -> list[LocAliasDef]:
        """One definition per name and text, all in `run`."""
        return list(map(_new_loc_alias_def, zip(names, texts, repeat(run), count())))

    @property
    def value(self) -> LocationAttr:
        """The location as an attribute (built once)."""
        return self[2].value(self[0], self[1])

    @property
    def after_module(self) -> bool:
        """Was this written after the ops?"""
        return self[2].after_module

    @property
    def pos(self) -> int:
        """Offset of the definition in the parsed text."""
        return self[2].pos(self[0])


_new_loc_alias_def = partial(tuple.__new__, LocAliasDef)
AnyAliasDef = AliasDef | LocAliasDef


class UndefinedAlias(KeyError):
    """Raised when resolving an alias that has no definition."""


ALIAS_USE = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|([#!])([A-Za-z_][\w$\-]*)(?![\w$.\-<])')


class AliasDefs(dict[tuple[str, str], AnyAliasDef]):
    """The definition table: a dict whose every change bumps `version`, so a resolution cached
    against a version (`AliasRef.resolve`) is never used after the table changed (the parser
    fills it directly and `strip-debuginfo` deletes from it)."""

    version = 0

    def __setitem__(self, key: Any, value: Any) -> None:
        self.version += 1
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        self.version += 1
        super().__delitem__(key)

    def _changed(self, method: str, *args: Any, **kwargs: Any) -> Any:
        self.version += 1
        return getattr(super(), method)(*args, **kwargs)

    def pop(self, *args: Any) -> Any:
        """`dict.pop`, bumping the version."""
        return self._changed("pop", *args)

    def popitem(self) -> Any:
        """`dict.popitem`, bumping the version."""
        return self._changed("popitem")

    def clear(self) -> None:
        """`dict.clear`, bumping the version."""
        self._changed("clear")

    def update(self, *args: Any, **kwargs: Any) -> None:
        """`dict.update`, bumping the version."""
        self._changed("update", *args, **kwargs)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        """`dict.setdefault`, bumping the version."""
        return self._changed("setdefault", key, default)

    def __ior__(self, other: Any) -> AliasDefs:  # type: ignore[override,misc]
        self.version += 1
        super().update(other)
        return self


class AliasScope:
    """The aliases of one module, in definition order; lookups resolve forward references."""

    def __init__(self) -> None:
        self.defs: AliasDefs = AliasDefs()
        self._expanded: dict[str, str] = {}
        self._by_text: dict[str, str] | None = None  # attribute text -> alias name (add_attr)
        # The definitions add_attr made, in order (a dropped one stays listed: readers check it
        # is still the table's), so the printer finds them without a scan of the table.
        self.created: list[AliasDef] = []

    def expand(self, text: str) -> str:
        """`text` with every alias reference replaced by its definition (recursively)."""
        if "#" not in text and "!" not in text:
            return text
        r = self._expanded.get(text)
        if r is None:
            r = self._expanded[text] = ALIAS_USE.sub(self._expand_one, text)
        return r

    def _expand_one(self, m: re.Match) -> str:
        sigil = m.group(1)
        if sigil is None:
            return m.group(0)
        d = self.defs.get(("attr" if sigil == "#" else "type", m.group(2)))
        if d is None:
            return m.group(0)
        if d.is_location:
            # Location aliases are referenced inside `loc(...)`: substitute the body.
            return self.expand(d.value_text[4:-1])
        return self.expand(d.value.text)

    def define(self, d: AnyAliasDef) -> AnyAliasDef | None:
        """Add a definition; returns the previous one with the same name (a redefinition)."""
        key = (d.kind, d.name)
        prev = self.defs.get(key)
        self.defs[key] = d
        self._expanded.clear()
        if self._by_text is not None and d.kind == "attr" and not d.is_location:
            self._by_text.setdefault(d.value.text, d.name)
        return prev

    def attr(self, name: str) -> Attribute:
        d = self.defs.get(("attr", name))
        if d is None:
            raise UndefinedAlias(name)
        return d.value

    def type(self, name: str) -> Any:
        d = self.defs.get(("type", name))
        if d is None:
            raise UndefinedAlias(name)
        return d.value

    def location(self, name: str) -> Any:
        """The Location an alias names, or None if it is not a location alias."""
        d = self.defs.get(("attr", name))
        if d is None or not d.is_location:
            return None
        return d.value.location

    def has(self, kind: str, name: str) -> bool:
        return (kind, name) in self.defs

    def __iter__(self):
        return iter(self.defs.values())

    def __len__(self) -> int:
        return len(self.defs)

    def drop_since(self, count: int) -> set[str]:
        """Remove the definitions made after the first `count` (the caller has removed their uses); their names."""
        dropped = list(self.defs)[count:]
        for key in dropped:
            d = self.defs.pop(key)
            if self._by_text is not None and d.kind == "attr" and not d.is_location:
                if self._by_text.get(d.value.text) == d.name:
                    del self._by_text[d.value.text]
        if dropped:
            self._expanded.clear()
            # The dropped are the last definitions, so the created among them end `created`.
            created = self.created
            while created and self.defs.get(("attr", created[-1].name)) is not created[-1]:
                created.pop()
        return {name for _, name in dropped}

    def fresh_name(self, prefix: str) -> str:
        """An unused alias name `prefix`, `prefix1`, `prefix2`, ... (tt-mlir's scheme)."""
        if not self.has("attr", prefix):
            return prefix
        i = 1
        while self.has("attr", f"{prefix}{i}"):
            i += 1
        return f"{prefix}{i}"

    def add_attr(self, prefix: str, value: Attribute) -> Attribute:
        """Give `value` an alias (reusing an existing alias with the same text); return a reference."""
        from ttopt.ir.attributes import AliasRef

        text = value.text
        if self._by_text is None:
            self._by_text = {
                d.value.text: d.name for d in self.defs.values() if d.kind == "attr" and not d.is_location
            }
        existing = self._by_text.get(text)
        if existing is not None:
            return AliasRef(existing, self)
        name = self.fresh_name(prefix)
        self._by_text[text] = name
        d = AliasDef(name, "attr", value, prefix=prefix)
        self.define(d)
        self.created.append(d)
        return AliasRef(name, self)
