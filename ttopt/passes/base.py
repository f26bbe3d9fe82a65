"""The pass base class: a dataclass whose fields are the pass's options.

Options are declared with `option(default, help)` (ttopt/passes/options.py); their CLI spelling
is the field name with `_` replaced by `-` (`max_legal_layouts` -> `--max-legal-layouts`, and
`ttnn-optimizer{max-legal-layouts=4}` in a pipeline).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ttopt.passes.options import OptionSpec, option, option_specs

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


@dataclass
class Pass:
    """Base class of all passes. Subclasses set `name` / `summary` and implement `run`."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    # Options are parsed and validated once (pipeline text or flags); a pass then never changes
    # them, so its spec() is what ran. Subclasses stay plain @dataclass: sealing happens here.
    def __post_init__(self) -> None:
        object.__setattr__(self, "_sealed", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_sealed", False):
            raise dataclasses.FrozenInstanceError(f"pass '{self.name}': option '{name}' is fixed once the pass is built")
        object.__setattr__(self, name, value)

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
        specs = _SPECS.get(cls)
        if specs is None:
            specs = _SPECS[cls] = option_specs(cls)
        return specs

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

    def spec(self) -> str:
        """This pass as pipeline text: its name and every option that differs from the default."""
        opts = [f"{s.name}={s.format(getattr(self, s.attr))}" for s in self.option_specs() if getattr(self, s.attr) != s.default]
        return f"{self.name}{{{' '.join(opts)}}}" if opts else self.name


_SPECS: dict[type, list[OptionSpec]] = {}

__all__ = ["Pass", "OptionSpec", "option"]
