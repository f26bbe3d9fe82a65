"""The pass base class: a dataclass whose fields are the pass's options.

Options are declared with `option(default, help)`; their CLI spelling is the field name with
`_` replaced by `-` (`max_legal_layouts` -> `--max-legal-layouts`, and
`ttnn-optimizer{max-legal-layouts=4}` in a pipeline).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


def option(default: Any, help: str, choices: tuple[str, ...] | None = None, multiple: bool = False) -> Any:
    """Declare a pass option (a dataclass field carrying its help text)."""
    meta = {"help": help, "choices": choices, "multiple": multiple}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda d=default: type(d)(d), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass
class OptionSpec:
    """What the CLI and `ttopt passes` need to know about one option."""

    name: str  # dashed spelling
    attr: str  # dataclass field name
    type: type
    default: Any
    help: str
    choices: tuple[str, ...] | None
    multiple: bool


@dataclass
class Pass:
    """Base class of all passes. Subclasses set `name` / `summary` and implement `run`."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    def run(self, module: Module, ctx: PassContext) -> None:
        """Transform (or analyse) `module` in place."""
        raise NotImplementedError

    def validate(self) -> None:
        """Reject option values the pass cannot honour (ValueError with a one-line reason).

        Called once all options are set, before any input is read, so a bad value is a usage
        error (exit 2) whatever the input; subclasses override it.
        """

    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        """The declared options, in declaration order."""
        out = []
        hints = _resolved_hints(cls)
        for f in dataclasses.fields(cls):
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
            t = hints.get(f.name, type(default))
            out.append(
                OptionSpec(
                    f.name.replace("_", "-"),
                    f.name,
                    _base_type(t, default),
                    default,
                    f.metadata.get("help", ""),
                    f.metadata.get("choices"),
                    f.metadata.get("multiple", False),
                )
            )
        return out

    @classmethod
    def from_options(cls, values: dict[str, Any]) -> Pass:
        """Instantiate from `{dashed-or-underscored name: value}` (values already converted)."""
        known = {s.name: s.attr for s in cls.option_specs()}
        kwargs = {}
        for k, v in values.items():
            attr = known.get(k) or (k if k in known.values() else None)
            if attr is None:
                raise KeyError(k)
            kwargs[attr] = v
        return cls(**kwargs)


def _resolved_hints(cls: type) -> dict[str, Any]:
    import typing

    try:
        return typing.get_type_hints(cls)
    except Exception:
        return {}


def _base_type(t: Any, default: Any) -> type:
    if t in (bool, int, float, str):
        return t
    origin = getattr(t, "__origin__", None)
    if origin in (list, tuple):
        return list
    if default is not None:
        return type(default)
    args = getattr(t, "__args__", ())
    for a in args:
        if a in (bool, int, float, str):
            return a
    return str


def convert_option(spec: OptionSpec, raw: str) -> Any:
    """Text from a pipeline string or flag -> the option's Python value (ValueError if bad)."""
    t = spec.type
    if t is bool:
        low = raw.strip().lower()
        if low in ("", "true", "1", "yes", "on"):
            return True
        if low in ("false", "0", "no", "off"):
            return False
        raise ValueError(f"expected true or false, got '{raw}'")
    if t is int:
        return int(raw)
    if t is float:
        return float(raw)
    if t is list:
        return [p for p in _split_list(raw) if p]
    if spec.choices and raw not in spec.choices:
        raise ValueError(f"expected one of {', '.join(spec.choices)}, got '{raw}'")
    return raw


def _split_list(raw: str) -> list[str]:
    out, depth, cur = [], 0, []
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
