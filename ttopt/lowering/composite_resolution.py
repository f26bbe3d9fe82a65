"""`ttcore.composite` ops replaced by a copy of their `decomposition` function's body, and the
private decomposition functions no composite reads any more erased (HEAD's TTNN composite
resolution with `composite-resolution=inline`, its default). Run at the start of
convert-ttir-to-ttnn, the copied TTIR ops convert like any other."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttopt.ir.attributes import SymbolRefAttr

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation


def _decomposition(op: Operation) -> str | None:
    d = op.properties.get("decomposition") or op.attributes.get("decomposition")
    return d.root if isinstance(d, SymbolRefAttr) else None


def _sym_name(func: Operation) -> str | None:
    s = func.properties.get("sym_name") or func.attributes.get("sym_name")
    return getattr(s, "value", None)


def resolve_composites(module: Module) -> int:
    """Inline every `ttcore.composite` whose decomposition function is in `module`; how many."""
    funcs = {_sym_name(f): f for f in module.functions()}
    used: set[str] = set()
    inlined = 0
    for op in [o for o in module.walk() if o.name == "ttcore.composite"]:
        name = _decomposition(op)
        callee = funcs.get(name)
        if name is None or callee is None or not callee.regions or not callee.regions[0].blocks:
            continue
        used.add(name)
        body = callee.regions[0].blocks[0]
        mapping = {id(a): v for a, v in zip(body.args, op.operands)}
        block = op.parent
        assert block is not None, "a composite is in a function body"
        at = block.index(op)
        for inner in body.ops[:-1]:
            block.insert(at, inner.clone(mapping))
            at += 1
        for r, v in zip(op.results, body.ops[-1].operands):
            r.replace_all_uses_with(mapping.get(id(v), v))
        op.erase()
        inlined += 1
    still = {_decomposition(o) for o in module.walk() if o.name == "ttcore.composite"}
    for name in used - still:
        f = funcs[name]
        visibility = f.properties.get("sym_visibility") or f.attributes.get("sym_visibility")
        if getattr(visibility, "value", None) == "private" and f.parent is not None:
            f.drop_all_references()
            f.parent.remove(f)
    return inlined
