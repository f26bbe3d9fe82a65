"""`--pass-pipeline` text -> pass instances.

Syntax (as mlir-opt): `builtin.module(canonicalize, ttnn-optimizer{max-legal-layouts=4
memory-layout-analysis-enabled}, func.func(pass))`. Options inside `{}` are separated by spaces;
a bare option name means `true`; values may be quoted or brace-enclosed. Op anchors
(`builtin.module(...)`, `func.func(...)`) nest; ttopt's passes run on the whole module and
visit the ops they apply to, so an anchor only groups.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttopt.passes.base import Pass
from ttopt.passes.registry import get_pass

ANCHORS = ("builtin.module", "func.func", "any")
MAX_ANCHOR_NESTING = 100  # like the IR's region nesting limit: deeper is refused, not recursed into


class PipelineError(ValueError):
    """A malformed pipeline string; `pos` is the offending character offset."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.pos = pos


@dataclass
class PassInvocation:
    """One pass with its raw option texts, before instantiation."""

    name: str
    options: dict[str, str]
    pos: int


def parse_pipeline(text: str) -> list[PassInvocation]:
    """Parse the pipeline grammar into a flat list of pass invocations."""
    p = _Parser(text)
    items = p.elements()
    p.skip()
    if p.i != len(text):
        raise PipelineError(f"unexpected '{text[p.i]}' in pass pipeline", p.i)
    return items


def instantiate(invocations: list[PassInvocation], text: str = "", flags: dict[str, str] | None = None) -> list[Pass]:
    """Look up each pass and convert its options; errors name the pass and option.

    `flags` are option texts given once for every pass that declares the option (the CLI's
    `--max-legal-layouts 4`); an option written in the invocation itself wins over them.
    """
    out = []
    for inv in invocations:
        cls = get_pass(inv.name)
        if cls is None:
            from ttopt.passes.registry import all_passes

            known = ", ".join(all_passes())
            raise PipelineError(f"unknown pass '{inv.name}' (known: {known})", inv.pos)
        specs = {s.name: s for s in cls.option_specs()}
        written: dict[str, str] = {}
        for key, raw in inv.options.items():
            spec = specs.get(key) or specs.get(key.replace("_", "-"))
            if spec is None:
                raise PipelineError(
                    f"pass '{inv.name}' has no option '{key}' (options: {', '.join(specs) or 'none'})", inv.pos
                )
            written[spec.name] = raw
        texts = {k: v for k, v in (flags or {}).items() if k in specs} | written
        values = {}
        for key, raw in texts.items():
            try:
                values[key] = specs[key].parse(raw)
            except ValueError as e:
                raise PipelineError(f"option '{key}' of pass '{inv.name}': {e}", inv.pos) from None
        out.append(cls.from_options(values))
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.t = text
        self.i = 0
        self.depth = 0

    def skip(self) -> None:
        while self.i < len(self.t) and self.t[self.i].isspace():
            self.i += 1

    def name(self) -> str:
        self.skip()
        start = self.i
        while self.i < len(self.t) and (self.t[self.i].isalnum() or self.t[self.i] in "-_."):
            self.i += 1
        if start == self.i:
            what = f"'{self.t[self.i]}'" if self.i < len(self.t) else "end of pipeline"
            raise PipelineError(f"expected a pass name, found {what}", self.i)
        return self.t[start : self.i]

    def elements(self) -> list[PassInvocation]:
        items: list[PassInvocation] = []
        while True:
            self.skip()
            pos = self.i
            name = self.name()
            self.skip()
            opts: dict[str, str] = {}
            if self.i < len(self.t) and self.t[self.i] == "{":
                opts = self.options()
                self.skip()
            if self.i < len(self.t) and self.t[self.i] == "(":
                if opts:
                    raise PipelineError(f"op anchor '{name}' takes no options", pos)
                if name not in ANCHORS:
                    raise PipelineError(f"unknown op anchor '{name}' (expected one of {', '.join(ANCHORS)})", pos)
                self.i += 1
                self.skip()
                if self.i < len(self.t) and self.t[self.i] == ")":
                    self.i += 1
                else:
                    self.depth += 1
                    if self.depth > MAX_ANCHOR_NESTING:
                        raise PipelineError(f"op anchors nested more than {MAX_ANCHOR_NESTING} deep", pos)
                    items.extend(self.elements())
                    self.depth -= 1
                    self.skip()
                    if self.i >= len(self.t) or self.t[self.i] != ")":
                        raise PipelineError(f"missing ')' to close '{name}('", pos)
                    self.i += 1
            else:
                items.append(PassInvocation(name, opts, pos))
            self.skip()
            if self.i < len(self.t) and self.t[self.i] == ",":
                self.i += 1
                continue
            return items

    def options(self) -> dict[str, str]:
        start = self.i
        self.i += 1
        opts: dict[str, str] = {}
        while True:
            self.skip()
            if self.i >= len(self.t):
                raise PipelineError("missing '}' to close pass options", start)
            if self.t[self.i] == "}":
                self.i += 1
                return opts
            k0 = self.i
            while self.i < len(self.t) and self.t[self.i] not in "= }":
                self.i += 1
            key = self.t[k0 : self.i]
            if not key:
                raise PipelineError("expected an option name", self.i)
            if self.i < len(self.t) and self.t[self.i] == "=":
                self.i += 1
                opts[key] = self.value()
            else:
                opts[key] = "true"

    def value(self) -> str:
        t = self.t
        if self.i < len(t) and t[self.i] in "\"'":
            q = t[self.i]
            end = t.find(q, self.i + 1)
            if end == -1:
                raise PipelineError("unterminated quoted option value", self.i)
            v = t[self.i + 1 : end]
            self.i = end + 1
            return v
        start = self.i
        depth = 0
        while self.i < len(t):
            ch = t[self.i]
            if ch in "{[(":
                depth += 1
            elif ch in "}])":
                if depth == 0:
                    break
                depth -= 1
            elif ch.isspace() and depth == 0:
                break
            self.i += 1
        v = t[start : self.i]
        if v.startswith("{") and v.endswith("}"):
            v = v[1:-1]
        return v
