"""Regenerate ttopt/dialects/op_names.py: every op name of each dialect ttopt registers, from upstream.

    python bench/gen/op_names.py [--ttmlir GIT_DIR] [--shardy GIT_DIR] [--emitc-td FILE] [--check]

Where each list comes from (the module's header records the revision):

* ttnn, ttir, ttcore: the ODS of a tt-mlir mirror (`include/ttmlir/Dialect/{TTNN,TTIR,TTCore}/IR/*.td`):
  every `def` whose base class leads to `Op<X_Dialect, mnemonic>`, through any chain of op classes.
* sdy: the ODS of a Shardy mirror (`shardy/dialect/sdy/ir/*.td`), read the same way.
* stablehlo, chlo, func, arith, builtin, llvm: the op classes jaxlib's Python bindings ship
  (`jaxlib/mlir/dialects/_<dialect>_ops_gen.py`, their `OPERATION_NAME`s), each name checked
  against the MLIR context jaxlib builds (`Context.is_registered_operation`).
* emitc: no mirror or binding has EmitC; `--emitc-td` reads MLIR's `EmitC.td` when given, otherwise
  the list already in the module is kept.

`--check` compares instead of writing (exit 1 when the module is out of date). Mirrors:
`fetch github:tenstorrent/tt-mlir` and `fetch github:openxla/shardy`.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "ttopt" / "dialects" / "op_names.py"
TTMLIR_MIRROR = Path("/work/.mirror/tenstorrent+tt-mlir/repo")
SHARDY_MIRROR = Path("/work/.mirror/openxla+shardy/repo")
TTMLIR_DIRS = {
    "ttnn": "include/ttmlir/Dialect/TTNN/IR",
    "ttir": "include/ttmlir/Dialect/TTIR/IR",
    "ttcore": "include/ttmlir/Dialect/TTCore/IR",
}
SHARDY_DIR = "shardy/dialect/sdy/ir"
JAXLIB_DIALECTS = ("stablehlo", "chlo", "func", "arith", "builtin", "llvm")
DIALECTS = ("arith", "builtin", "chlo", "emitc", "func", "llvm", "sdy", "stablehlo", "ttcore", "ttir", "ttnn")


# ---- TableGen ------------------------------------------------------------------------------------
def strip_tablegen(text: str) -> str:
    """`text` with comments and `[{ ... }]` code blocks blanked (strings kept), so the examples in
    op descriptions are not read as definitions."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j == -1 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j == -1 else j + 2
        elif text.startswith("[{", i):
            j = text.find("}]", i + 2)
            i = n if j == -1 else j + 2
            out.append(" ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _skip_angles(text: str, i: int) -> int:
    """The index after the `<...>` group that starts at `text[i] == "<"` (nesting counted)."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "<":
            depth += 1
        elif text[j] == ">":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError("unbalanced '<' in TableGen text")


_CLASS = re.compile(r"\bclass\s+(\w+)\s*<")
_BASE = re.compile(r"\s*:\s*(\w+)\s*<\s*([^,>]+?)\s*(?:,\s*([^,>]+?)\s*)?[,>]")
_DEF = re.compile(r"\bdef\s+(\w+)\s*:\s*(\w+)\s*<\s*([^,>]+?)\s*(?:,\s*([^,>]+?)\s*)?[,>]")
_DIALECT = re.compile(r"\bdef\s+(\w+)\s*:\s*Dialect\s*\{[^}]*?\blet\s+name\s*=\s*\"([^\"]+)\"", re.S)


def td_op_names(texts: list[str], dialects: dict[str, str] | None = None) -> dict[str, set[str]]:
    """Op names by dialect namespace defined in a set of TableGen files (read together).

    `dialects` names dialect records defined in files not given (record -> namespace)."""
    text = "\n".join(strip_tablegen(t) for t in texts)
    if re.search(r"\b(defm|multiclass)\b", text):
        raise ValueError("the ODS uses multiclasses, which this reader does not expand")
    dialects = {**(dialects or {}), **{m.group(1): m.group(2) for m in _DIALECT.finditer(text)}}
    op_class: dict[str, str] = {}  # class -> dialect namespace (its mnemonic parameter is passed on)
    for _ in range(20):  # op classes may be derived from op classes defined later in the text
        before = len(op_class)
        for m in _CLASS.finditer(text):
            base = _BASE.match(text, _skip_angles(text, m.end() - 1))
            if base is None or m.group(1) in op_class:
                continue
            parent, first, second = base.group(1), base.group(2), base.group(3)
            if parent == "Op" and first in dialects and second == "mnemonic":
                op_class[m.group(1)] = dialects[first]
            elif parent in op_class and first == "mnemonic":
                op_class[m.group(1)] = op_class[parent]
        if len(op_class) == before:
            break
    ops: dict[str, set[str]] = {}
    for m in _DEF.finditer(text):
        parent, first, second = m.group(2), m.group(3), m.group(4)
        if parent == "Op" and first in dialects and second and second.startswith('"'):
            ops.setdefault(dialects[first], set()).add(f"{dialects[first]}.{second.strip(chr(34))}")
        elif parent in op_class and first.startswith('"'):
            ops.setdefault(op_class[parent], set()).add(f"{op_class[parent]}.{first.strip(chr(34))}")
    return ops


def _git(mirror: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={mirror}", *args], capture_output=True, text=True, check=True).stdout


def mirror_op_names(mirror: Path, dirs: dict[str, str]) -> dict[str, set[str]]:
    """Op names of each dialect in `dirs` (namespace -> directory of its ODS) at the mirror's HEAD."""
    out: dict[str, set[str]] = {}
    for dialect, folder in dirs.items():
        names = [n for n in _git(mirror, "ls-tree", "--name-only", "HEAD", folder + "/").split() if n.endswith(".td")]
        found = td_op_names([_git(mirror, "show", f"HEAD:{n}") for n in names])
        if not found.get(dialect):
            raise ValueError(f"no {dialect} ops found under {folder} in {mirror}")
        out[dialect] = found[dialect]
    return out


def mirror_revision(mirror: Path) -> str:
    """`<short sha> (<commit date>)` of the mirror's HEAD."""
    return _git(mirror, "log", "-1", "--format=%h (%cs)", "HEAD").strip()


# ---- jaxlib --------------------------------------------------------------------------------------
def jaxlib_op_names(dialect: str) -> set[str]:
    """The op names of jaxlib's generated bindings for `dialect`, each registered in jaxlib's context."""
    from jax._src.interpreters import mlir as jmlir

    gen = importlib.import_module(f"jaxlib.mlir.dialects._{dialect}_ops_gen")
    names = {getattr(c, "OPERATION_NAME") for c in vars(gen).values() if isinstance(getattr(c, "OPERATION_NAME", None), str)}
    ctx = jmlir.make_ir_context()
    missing = sorted(n for n in names if not ctx.is_registered_operation(n))
    if missing:
        raise ValueError(f"jaxlib's bindings name ops its context does not register: {missing}")
    return names


def jaxlib_version() -> str:
    """jaxlib's version string."""
    import jaxlib

    return str(jaxlib.__version__)


# ---- the module ----------------------------------------------------------------------------------
def render(table: dict[str, set[str]], sources: dict[str, str]) -> str:
    """The text of ttopt/dialects/op_names.py."""
    lines = [
        '"""Every op name of each dialect ttopt registers, as upstream defines them. Generated by',
        "bench/gen/op_names.py from the sources below; regenerate it rather than editing it.",
        "",
        "An op of one of these dialects must be named here (or be defined by ttopt itself), as mlir-opt",
        "rejects an unknown op of a registered dialect; ops of any other dialect need",
        "--allow-unregistered-dialect.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "# Where each list was read (upstream revision or package version).",
        "SOURCES: dict[str, str] = {",
    ]
    lines += [f"    {json.dumps(d)}: {json.dumps(sources[d])}," for d in DIALECTS]
    lines += ["}", "", "OP_NAMES: dict[str, frozenset[str]] = {"]
    for d in DIALECTS:
        lines.append(f"    {json.dumps(d)}: frozenset({{")
        lines += [f"        {json.dumps(n)}," for n in sorted(table[d])]
        lines.append("    }),")
    lines += ["}", ""]
    return "\n".join(lines)


def current_module() -> tuple[dict[str, set[str]], dict[str, str]]:
    """The lists and sources in the checked-in module (empty if it does not exist yet)."""
    if not OUT.exists():
        return {}, {}
    sys.path.insert(0, str(ROOT))
    mod = importlib.import_module("ttopt.dialects.op_names")
    return {d: set(v) for d, v in mod.OP_NAMES.items()}, dict(mod.SOURCES)


def collect(ttmlir: Path, shardy: Path, emitc_td: Path | None) -> tuple[dict[str, set[str]], dict[str, str]]:
    """Every list and its source, read from the mirrors, jaxlib and (optionally) EmitC.td."""
    table: dict[str, set[str]] = {}
    sources: dict[str, str] = {}
    rev = mirror_revision(ttmlir)
    for d, names in mirror_op_names(ttmlir, TTMLIR_DIRS).items():
        table[d] = names
        sources[d] = f"tenstorrent/tt-mlir {rev} {TTMLIR_DIRS[d]}/*.td"
    table["sdy"] = mirror_op_names(shardy, {"sdy": SHARDY_DIR})["sdy"]
    sources["sdy"] = f"openxla/shardy {mirror_revision(shardy)} {SHARDY_DIR}/*.td"
    version = jaxlib_version()
    for d in JAXLIB_DIALECTS:
        table[d] = jaxlib_op_names(d)
        sources[d] = f"jaxlib {version} jaxlib/mlir/dialects/_{d}_ops_gen.py"
    if emitc_td is not None:
        table["emitc"] = td_op_names([emitc_td.read_text()], {"EmitC_Dialect": "emitc"}).get("emitc", set())
        sources["emitc"] = f"llvm/llvm-project mlir/include/mlir/Dialect/EmitC/IR/EmitC.td ({emitc_td.name})"
    else:
        old, old_sources = current_module()
        if "emitc" not in old:
            raise click.UsageError("no emitc list yet: pass --emitc-td with MLIR's EmitC.td")
        table["emitc"], sources["emitc"] = old["emitc"], old_sources["emitc"]
    return table, sources


@click.command()
@click.option("--ttmlir", type=click.Path(path_type=Path), default=TTMLIR_MIRROR, show_default=True, help="bare git mirror of tt-mlir")
@click.option("--shardy", type=click.Path(path_type=Path), default=SHARDY_MIRROR, show_default=True, help="bare git mirror of Shardy")
@click.option("--emitc-td", type=click.Path(path_type=Path, exists=True, dir_okay=False), default=None, help="MLIR's EmitC.td")
@click.option("--check", is_flag=True, help="compare with the checked-in module instead of writing it")
def main(ttmlir: Path, shardy: Path, emitc_td: Path | None, check: bool) -> None:
    """Regenerate (or check) ttopt/dialects/op_names.py."""
    for mirror in (ttmlir, shardy):
        if not mirror.is_dir():
            raise click.UsageError(f"no mirror at {mirror}")
    table, sources = collect(ttmlir, shardy, emitc_td)
    text = render(table, sources)
    if check:
        same = OUT.exists() and OUT.read_text() == text
        click.echo(f"{OUT.relative_to(ROOT)} is {'up to date' if same else 'out of date'}")
        sys.exit(0 if same else 1)
    OUT.write_text(text)
    counts = ", ".join(f"{d} {len(table[d])}" for d in DIALECTS)
    click.echo(f"wrote {OUT.relative_to(ROOT)}: {counts}")


if __name__ == "__main__":
    main()
