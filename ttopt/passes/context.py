"""What a pass run can use besides the module: trace output, statistics, options of the run."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class Trace:
    """Decision traces for `--trace`: rich renderables on stderr, never on stdout.

    Passes call `ctx.trace.enabled` before building anything expensive to show.
    """

    def __init__(self, enabled: bool = False, console: Any = None) -> None:
        self.enabled = enabled
        self._console = console

    @property
    def console(self) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=True, highlight=False, soft_wrap=True)
        return self._console

    def print(self, *renderables: Any) -> None:
        """Show renderables (strings with rich markup, tables, trees) if tracing is on."""
        if self.enabled:
            self.console.print(*renderables)

    def rule(self, title: str) -> None:
        if self.enabled:
            self.console.rule(title)


@dataclass
class PassContext:
    """Shared by all passes of one `ttopt opt` run."""

    trace: Trace = field(default_factory=Trace)
    stats: dict[str, Any] = field(default_factory=dict)
    device: str | None = None
    # False when nothing reads `stats` (`ttopt opt` without `--stats`): passes may then skip
    # statistics that cost real time to gather (the ttnn-optimizer re-validates every op for its).
    stats_requested: bool = True
