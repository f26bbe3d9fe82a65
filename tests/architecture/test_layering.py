"""Dependencies point one way (docs/architecture.md): a module may import only from its own
package or from a lower layer, wherever the import sits (top level, inside a function, or under
TYPE_CHECKING), so the rule is not dodged by deferring an import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "ttopt"

# Lower number = lower layer. `topology` stands alone: it knows nothing of the IR.
LAYER = {
    "ir": 0,
    "parse": 1,
    "dialects": 2,
    "device": 3,
    "passes": 3,
    "optimizer": 4,
    "sharding": 4,
    "lowering": 5,  # StableHLO -> TTIR -> TTNN: uses the sharding pipeline's output and runs the optimizer
    "topology": 1,
    "datafiles": 0,  # strict YAML/JSON/UTF-8 reading, shared by device and topology; imports no ttopt
    "cli": 6,
    "testing": 7,
    "__init__": 8,  # the package root registers parser and dialects (mlir-opt's registerAllDialects)
    "__main__": 8,
}
ISOLATED = {"topology": {"topology", "datafiles"}, "datafiles": {"datafiles"}}


def _package_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported top-level ttopt package) for every ttopt import anywhere in the file."""
    return _imports_in(path.read_text(), path.relative_to(PACKAGE).parts[:-1])


def _imports_in(text: str, rel_pkg: tuple[str, ...]) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = rel_pkg[: len(rel_pkg) - node.level + 1]
                parts = [*base, *(node.module or "").split(".")] if node.module else list(base)
                if parts and parts[0]:
                    out.append((node.lineno, parts[0]))
                elif node.module is None:
                    out.extend((node.lineno, a.name) for a in node.names)
            elif node.module and node.module.split(".")[0] == "ttopt":
                parts = node.module.split(".")
                out.extend((node.lineno, parts[1]) if len(parts) > 1 else (node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[0] == "ttopt" and len(parts) > 1:
                    out.append((node.lineno, parts[1]))
    return out


def upward_imports() -> list[str]:
    """Every import that points from a lower layer to a higher one (or out of an isolated package)."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        src = _package_of(path)
        for line, dst in _imports(path):
            if dst == src or dst not in LAYER:
                continue
            allowed = ISOLATED.get(src)
            if (allowed is not None and dst not in allowed) or LAYER[dst] >= LAYER[src]:
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {src} imports {dst}")
    return bad


def test_every_package_has_a_layer() -> None:
    packages = {_package_of(p) for p in PACKAGE.rglob("*.py")}
    assert packages <= set(LAYER), f"add {sorted(packages - set(LAYER))} to LAYER"


def test_no_import_points_upward() -> None:
    bad = upward_imports()
    assert not bad, "\n".join(bad)


def test_the_rule_sees_deferred_and_relative_imports() -> None:
    text = "def f():\n    from ttopt.parse.parser import parse_module\n    from ..dialects import formats\n    from . import types\n"
    assert [dst for _, dst in _imports_in(text, ("ir",))] == ["parse", "dialects", "ir"]


def _runtime_imports(path: Path) -> set[str]:
    """Modules of ttopt this file imports when it runs (TYPE_CHECKING blocks excluded)."""
    mod_parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    pkg = list(mod_parts[:-1]) if path.name != "__init__.py" else list(mod_parts[:-1])
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkg[: len(pkg) - node.level + 1] + ([node.module] if node.module else []))
            found.update({base, *(f"{base}.{a.name}" for a in node.names)})
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def test_no_import_cycles_between_modules() -> None:
    nx = pytest.importorskip("networkx")
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p for p in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        graph.add_edges_from((name, dst) for dst in _runtime_imports(path) if dst in modules and dst != name and dst != "ttopt")
    cycles = sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)
