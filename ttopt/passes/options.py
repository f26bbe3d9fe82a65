"""Typed pass options: declaration, conversion from pipeline text, and printing back.

A pass's options are the fields of its dataclass, declared with `option(default, help)`. Their
kind comes from the field's annotation (`bool`, `int`, `float`, `str`, `list[str]`, optionally
`| None`, or a `choices` tuple). Every value, from a pipeline string or a CLI flag, goes through
one conversion, `OptionSpec.parse`, and `OptionSpec.format` prints it back so that
`parse(format(v)) == v`: a pass can be spelled back as pipeline text (`Pass.spec()`).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any

TRUE_WORDS = ("true", "1", "yes", "on")
FALSE_WORDS = ("false", "0", "no", "off")
_SCALARS = (bool, int, float, str)


def option(default: Any, help: str, choices: tuple[str, ...] | None = None, multiple: bool = False) -> Any:
    """Declare a pass option (a dataclass field carrying its help text)."""
    meta = {"help": help, "choices": choices, "multiple": multiple}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionSpec:
    """One declared option: its spellings, kind, default and help."""

    name: str  # dashed spelling
    attr: str  # dataclass field name
    type: type  # bool, int, float, str, or list (of str)
    default: Any
    help: str
    choices: tuple[str, ...] | None
    multiple: bool
    optional: bool = False  # None is a value ("not given")

    @property
    def kind(self) -> tuple[Any, ...]:
        """What two passes must agree on to share this option's name (and its CLI flag)."""
        return (self.type, self.choices, self.multiple or self.type is list)

    def parse(self, raw: str) -> Any:
        """Text from a pipeline string or a flag -> the option's value (ValueError if bad)."""
        t = self.type
        text = raw.strip()
        if self.optional and text.lower() in ("", "none"):
            return None
        if t is bool:
            low = text.lower()
            if low in ("",) + TRUE_WORDS:
                return True
            if low in FALSE_WORDS:
                return False
            raise ValueError(f"expected true or false, got '{raw}'")
        if t is int:
            try:
                return int(text, 0) if text.lower().startswith(("0x", "-0x")) else int(text)
            except ValueError:
                raise ValueError(f"expected an integer, got '{raw}'") from None
        if t is float:
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"expected a number, got '{raw}'") from None
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError(f"expected a finite number, got '{raw}'")
            return value
        if t is list:
            items = split_list(raw)
            # ',,,' or 'a,,b' is a typo, not a list: silently dropping items hides it.
            if text and not all(items):
                raise ValueError(f"empty item in the list '{raw}'")
            return items if text else []
        if self.choices and raw not in self.choices:
            raise ValueError(f"expected one of {', '.join(self.choices)}, got '{raw}'")
        return raw

    def format(self, value: Any) -> str:
        """The pipeline-text spelling of `value` (quoted when it would not read back)."""
        if value is None:
            return "none"
        if self.type is bool:
            return "true" if value else "false"
        if self.type is list:
            return _quote(",".join(str(v) for v in value))
        if self.type is float:
            return repr(float(value))
        return _quote(str(value))


def _quote(text: str) -> str:
    if text and not any(c.isspace() or c in "{}[]()\"'" for c in text):
        return text
    return f"'{text}'" if "'" not in text else f'"{text}"'


def split_list(raw: str) -> list[str]:
    """Split a list option at top-level commas (brackets nest)."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in raw:
        if ch in "[{(<":
            depth += 1
        elif ch in "]})>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return out


def option_specs(cls: type) -> list[OptionSpec]:
    """The options a pass class declares, in declaration order."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an unresolvable annotation falls back to the default's type
        hints = {}
    out = []
    for f in dataclasses.fields(cls):
        factory: Any = f.default_factory
        default = f.default if f.default is not dataclasses.MISSING else factory()
        t, optional = _base_type(hints.get(f.name, type(default)), default)
        out.append(
            OptionSpec(
                f.name.replace("_", "-"),
                f.name,
                t,
                default,
                f.metadata.get("help", ""),
                f.metadata.get("choices"),
                f.metadata.get("multiple", False),
                optional,
            )
        )
    return out


def _base_type(t: Any, default: Any) -> tuple[type, bool]:
    if t in _SCALARS:
        return t, False
    origin = typing.get_origin(t)
    if origin in (list, tuple) or t in (list, tuple):
        return list, False
    args = typing.get_args(t)
    if type(None) in args:
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            return _base_type(inner[0], default)[0], True
    if default is not None and type(default) in _SCALARS:
        return type(default), False
    return str, default is None
