"""Writes ttopt/passes/catalog.py from the registered passes (`python -m ttopt.passes.catalog_render`).

The catalog lets the CLI offer every pass's flags and help without importing the pass modules
(which pull in numpy, pydantic, the device model and the solver); a test keeps it equal to what
the modules register, so a pass added or changed without re-rendering fails there.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ttopt.passes.options import OptionSpec
from ttopt.passes.registry import all_passes

CATALOG = Path(__file__).with_name("catalog.py")

HEADER = '''"""Every registered pass by name, readable without importing the pass modules.

Generated from the registrations by `python -m ttopt.passes.catalog_render` (do not edit by hand);
tests/passes/test_catalog.py keeps it equal to them. The CLI builds its flags and help from it, and
the registry imports a pass's module only when that pass is looked up.
"""

# fmt: off
from ttopt.passes.options import OptionSpec
'''


def _spec(s: OptionSpec) -> str:
    return (f"OptionSpec({s.name!r}, {s.attr!r}, {s.type.__name__}, {s.default!r}, {s.help!r}, {s.choices!r}, "
            f"{s.multiple!r}, {s.optional!r})")  # fmt: skip


def render() -> str:
    """The text of catalog.py for the passes registered now."""
    passes = all_passes()
    aliases: dict[str, str] = {}
    for name, cls in passes.items():  # sorted by name, as the registry resolves an alias
        for alias in getattr(cls, "aliases", ()):
            if alias not in passes:
                aliases.setdefault(alias, name)
    lines = [HEADER, "# pass name -> the module whose import registers it", "MODULES: dict[str, str] = {"]
    lines += [f"    {name!r}: {cls.__module__!r}," for name, cls in passes.items()]
    lines += ["}", "", "# another name a pass answers to -> the pass", "ALIASES: dict[str, str] = {"]
    lines += [f"    {alias!r}: {name!r}," for alias, name in sorted(aliases.items())]
    lines += ["}", "", "SUMMARIES: dict[str, str] = {"]
    lines += [f"    {name!r}: {cls.summary!r}," for name, cls in passes.items()]
    lines += ["}", "", "# the options each pass declares, in declaration order", "OPTIONS: dict[str, tuple[OptionSpec, ...]] = {"]
    for name, cls in passes.items():
        specs = cls.option_specs()
        if not specs:
            lines.append(f"    {name!r}: (),")
            continue
        lines.append(f"    {name!r}: (")
        lines += [f"        {_spec(s)}," for s in specs]
        lines.append("    ),")
    lines += ["}", ""]
    return "\n".join(lines)


def main() -> None:
    """Rewrite catalog.py; exit 1 when it changed (so a check can tell it was stale)."""
    text = render()
    old = CATALOG.read_text() if CATALOG.exists() else ""
    if text != old:
        CATALOG.write_text(text)
        sys.stderr.write(f"rewrote {CATALOG}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
