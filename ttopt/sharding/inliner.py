"""`inliner` (seed 004 step 1; ref §2.1): inline every `func.call` of a private function with a
body, then drop private functions nobody references any more.

Calls are inlined callee-first (a post-order over the call graph), so each callee is copied once
it is itself call-free; a recursive cycle is left as calls. Multi-block callees are kept as calls
(StableHLO functions have one block).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.attributes import SymbolRefAttr
from ttopt.ir.operation import Operation
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass
from ttopt.sharding.func_attrs import func_name, functions, has_body, is_public
from ttopt.sharding.sdy_ir import referenced_symbols

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

CALL = "func.call"


def _calls(func: Operation) -> list[Operation]:
    return [op for op in func.walk() if op.name == CALL]


def _callee(call: Operation) -> str | None:
    c = call.properties.get("callee")
    return c.root if isinstance(c, SymbolRefAttr) else None


def inline_call(call: Operation, callee: Operation) -> None:
    """Replace `call` by a copy of `callee`'s body (arguments mapped to the call's operands)."""
    block = callee.regions[0].blocks[0]
    mapping = {id(a): v for a, v in zip(block.args, call.operands)}
    ret = block.ops[-1]
    parent = call.parent
    assert parent is not None, "the call is in its function's body"
    at = parent.index(call)
    for op in block.ops[:-1]:
        parent.insert(at, op.clone(mapping))
        at += 1
    results = [mapping.get(id(v), v) for v in ret.operands]
    for r, v in zip(call.results, results):
        r.replace_all_uses_with(v)
    call.erase()


@register_pass
@dataclass
class Inliner(Pass):
    """Inline calls of private functions and remove dead private callees."""

    name = "inliner"
    summary = "Inline func.call of private functions and drop private functions left without uses"
    aliases = ("inline",)

    def run(self, module: Module, ctx: PassContext) -> None:
        funcs = {func_name(f): f for f in functions(module)}
        state: dict[str, int] = {}  # 1 = visiting, 2 = done
        inlined = 0

        def visit(name: str) -> None:
            nonlocal inlined
            state[name] = 1
            f = funcs[name]
            for call in _calls(f):
                target = _callee(call)
                callee = funcs.get(target) if target is not None else None
                if target is None or callee is None or is_public(callee) or not has_body(callee):
                    continue
                if len(callee.regions[0].blocks) != 1 or state.get(target) == 1:
                    continue  # multi-block body or recursion: keep the call
                if target not in state:
                    visit(target)
                inline_call(call, callee)
                inlined += 1
            state[name] = 2

        for name, f in funcs.items():
            if name not in state and has_body(f):
                visit(name)

        removed = []
        while True:
            used = referenced_symbols(module)
            dead = [f for f in functions(module) if not is_public(f) and func_name(f) not in used]
            if not dead:
                break
            for f in dead:
                removed.append(func_name(f))
                f.drop_all_references()
                module.body.remove(f)
        ctx.stats.setdefault(self.name, {}).update({"inlined_calls": inlined, "removed_functions": len(removed)})
        if ctx.trace.enabled and (inlined or removed):
            ctx.trace.print(f"[bold]inliner[/bold]: {inlined} call(s) inlined; removed {', '.join('@' + n for n in removed) or 'nothing'}")
