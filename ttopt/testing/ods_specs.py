"""A dialect's op definitions (ODS) as tt-mlir declares them: read from a tt-mlir checkout or git
mirror with the project's own TableGen reader, turned into one `OpSpec` per op.

An op is a record that derives from MLIR's `Op<Dialect, "mnemonic", traits>`; its `arguments`
DAG lists operands (type constraints, possibly `Optional<>`/`Variadic<>`/`Arg<>`) and attributes
(attribute constraints, possibly `OptionalAttr<>`/`DefaultValuedAttr<>`/`ConfinedAttr<>`), its
`results` DAG the results. MLIR's own constraint classes (`I32Attr`, `AnyRankedTensor`, ...) live in
LLVM's .td files, which a tt-mlir mirror does not hold, so they are interpreted here by name
(`ATTR_LEAVES`, `TYPE_LEAVES`); names the table does not know are listed in
`OdsSet.unknown_constraints` and accept anything.
"""

from __future__ import annotations

import functools
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ttopt.testing.tablegen import Dag, Inst, Opaque, Record, Records, Ref, TableGenError, read_records

DEFAULT_MIRROR = Path("/work/.mirror/tenstorrent+tt-mlir/repo")
TTNN_OPS_TD = "ttmlir/Dialect/TTNN/IR/TTNNOps.td"  # under include/


@dataclass(frozen=True)
class AttrConstraint:
    """What an attribute value must be. `ods` is the constraint as ODS spells it; `kind` and
    `param` are what the checker tests (`int`/`si32`, `dialect`/`ttnn.shape`, `any_of`, ...)."""

    ods: str
    kind: str
    param: str = ""
    options: tuple[AttrConstraint, ...] = ()  # any_of alternatives; array_of: the element


@dataclass(frozen=True)
class TypeConstraint:
    """What an operand or result type must be (`ranked_tensor`, `dialect_type` `ttnn.device`, ...)."""

    ods: str
    kind: str
    param: str = ""
    options: tuple[TypeConstraint, ...] = ()


@dataclass(frozen=True)
class ValueSpec:
    """One ODS operand or result: its name, type constraint and arity."""

    name: str
    type: TypeConstraint
    arity: str = "single"  # single | optional | variadic

    def text(self) -> str:
        """`bias?`, `inputs*` or `input`."""
        return self.name + {"single": "", "optional": "?", "variadic": "*"}[self.arity]


@dataclass(frozen=True)
class AttrSpec:
    """One ODS attribute: name, constraint, whether the IR must carry it, and its ODS default."""

    name: str
    constraint: AttrConstraint
    required: bool = True
    default: str | None = None


@dataclass(frozen=True)
class OpSpec:
    """One op as ODS declares it."""

    name: str  # "ttnn.add"
    record: str  # "TTNN_AddOp"
    loc: tuple[str, int]
    operands: tuple[ValueSpec, ...]
    results: tuple[ValueSpec, ...]
    attributes: tuple[AttrSpec, ...]
    traits: tuple[str, ...]

    @property
    def attr_sized_operands(self) -> bool:
        """The op carries `operandSegmentSizes` (AttrSizedOperandSegments)."""
        return "AttrSizedOperandSegments" in self.traits

    @property
    def attr_sized_results(self) -> bool:
        """The op carries `resultSegmentSizes` (AttrSizedResultSegments)."""
        return "AttrSizedResultSegments" in self.traits

    def attribute(self, name: str) -> AttrSpec | None:
        """The declared attribute `name`, or None."""
        return next((a for a in self.attributes if a.name == name), None)


@dataclass(frozen=True)
class OdsSet:
    """Every op of one dialect at one revision."""

    dialect: str
    revision: str
    source: str
    ops: dict[str, OpSpec]
    unknown_constraints: tuple[str, ...] = ()
    missing_includes: tuple[str, ...] = ()


class OdsUnavailable(Exception):
    """The tt-mlir sources cannot be read (no mirror, unknown revision, unreadable .td)."""


# -- MLIR's constraint vocabulary (from LLVM's CommonAttrConstraints.td / CommonTypeConstraints.td)
def _ints() -> dict[str, AttrConstraint]:
    out = {}
    for w in (1, 8, 16, 32, 64):
        for prefix, t in (("I", "i"), ("SI", "si"), ("UI", "ui")):
            out[f"{prefix}{w}Attr"] = AttrConstraint(f"{prefix}{w}Attr", "int", f"{t}{w}")
    return out


ATTR_LEAVES: dict[str, AttrConstraint] = {
    **_ints(),
    "IndexAttr": AttrConstraint("IndexAttr", "int", "index"),
    "BoolAttr": AttrConstraint("BoolAttr", "bool"),
    "F16Attr": AttrConstraint("F16Attr", "float", "f16"),
    "F32Attr": AttrConstraint("F32Attr", "float", "f32"),
    "F64Attr": AttrConstraint("F64Attr", "float", "f64"),
    "StrAttr": AttrConstraint("StrAttr", "str"),
    "UnitAttr": AttrConstraint("UnitAttr", "unit"),
    "TypeAttr": AttrConstraint("TypeAttr", "type"),
    "AnyAttr": AttrConstraint("AnyAttr", "any"),
    "ElementsAttr": AttrConstraint("ElementsAttr", "elements"),
    "AnyElementsAttr": AttrConstraint("AnyElementsAttr", "elements"),
    "DenseElementsAttr": AttrConstraint("DenseElementsAttr", "elements"),
    "FlatSymbolRefAttr": AttrConstraint("FlatSymbolRefAttr", "symbol", "flat"),
    "SymbolRefAttr": AttrConstraint("SymbolRefAttr", "symbol"),
    "ArrayAttr": AttrConstraint("ArrayAttr", "array"),
    "DictionaryAttr": AttrConstraint("DictionaryAttr", "dict"),
    **{
        f"{p}ArrayAttr": AttrConstraint(f"{p}ArrayAttr", "array_of", options=(AttrConstraint(f"{p}Attr", k, t),))
        for p, k, t in (("I32", "int", "i32"), ("I64", "int", "i64"), ("I16", "int", "i16"), ("I8", "int", "i8"),
                        ("F32", "float", "f32"), ("F64", "float", "f64"), ("Str", "str", ""), ("Bool", "bool", ""))
    },
    **{f"Dense{p}ArrayAttr": AttrConstraint(f"Dense{p}ArrayAttr", "dense_array", e)
       for p, e in (("I8", "i8"), ("I16", "i16"), ("I32", "i32"), ("I64", "i64"), ("F32", "f32"), ("F64", "f64"),
                    ("Bool", "i1"))},
}
# Attributes whose absence means "false"/"unset": ODS marks them optional without a wrapper.
OPTIONAL_BY_NATURE = frozenset({"UnitAttr"})

TYPE_LEAVES: dict[str, TypeConstraint] = {
    "AnyRankedTensor": TypeConstraint("AnyRankedTensor", "ranked_tensor"),
    "AnyTensor": TypeConstraint("AnyTensor", "tensor"),
    "AnyType": TypeConstraint("AnyType", "any"),
    "AnyMemRef": TypeConstraint("AnyMemRef", "memref"),
    "Index": TypeConstraint("Index", "scalar", "index"),
    **{n: TypeConstraint(n, "scalar", n.lower()) for n in ("I1", "I8", "I16", "I32", "I64", "F16", "BF16", "F32", "F64")},
}
_ATTR_WRAPPERS = frozenset({"OptionalAttr", "DefaultValuedAttr", "DefaultValuedOptionalAttr", "DefaultValuedStrAttr",
                            "ConfinedAttr", "AnyAttrOf", "TypedArrayAttrBase", "EnumAttr", "AttrDef"})
_TYPE_WRAPPERS = frozenset({"Variadic", "Optional", "AnyTypeOf", "TypeDef", "TypedValue"})


def ods_text(v: Any) -> str:
    """A value as ODS spells it: `OptionalAttr<TTNN_MeshShapeAttr>`, `AnyAttrOf<[F32Attr, I32Attr]>`."""
    if isinstance(v, (Ref, Record)):
        return v.name
    if isinstance(v, Inst):
        return f"{v.cls}<{', '.join(ods_text(a) for a in v.args)}>"
    if isinstance(v, tuple):
        return "[" + ", ".join(ods_text(a) for a in v) + "]"
    if isinstance(v, str):
        return '"' + v.replace('"', '\\"') + '"'
    if isinstance(v, Opaque):
        return v.text
    return str(v)


class _Interpreter:
    """Turns records into specs; `unknown` collects constraint names it could not interpret."""

    def __init__(self, records: Records) -> None:
        self.records = records
        self.unknown: set[str] = set()

    def resolve(self, v: Any) -> Any:
        if isinstance(v, Ref):  # a def read after the record that named it
            return self.records.defs.get(v.name, v)
        return v

    def dialect_name(self, v: Any) -> str:
        v = self.resolve(v)
        name = v.fields.get("name") if isinstance(v, Record) else None
        return name if isinstance(name, str) else ods_text(v)

    # an `ins`/`outs` argument
    def argument(self, v: Any) -> tuple[str, Any]:
        """("attr", AttrSpec-parts) or ("value", ValueSpec-parts) for one DAG argument."""
        v = self.resolve(v)
        if isinstance(v, Inst) and v.cls in ("Arg", "Res"):
            return self.argument(v.args[0])
        if self.is_attr(v):
            return ("attr", self.attr_parts(v))
        if isinstance(v, Inst) and v.cls in ("Optional", "Variadic"):
            return ("value", (self.type_of(v.args[0]), "optional" if v.cls == "Optional" else "variadic"))
        return ("value", (self.type_of(v), "single"))

    def is_attr(self, v: Any) -> bool:
        v = self.resolve(v)
        if isinstance(v, Inst):
            return v.cls in _ATTR_WRAPPERS or (v.cls not in _TYPE_WRAPPERS and v.cls.endswith("Attr"))
        if isinstance(v, Record):
            names = [c for c, _ in v.external]
            if any(c in _ATTR_WRAPPERS for c in names):
                return True
            if any(c in _TYPE_WRAPPERS for c in names):
                return False
            return v.name.endswith("Attr")
        if isinstance(v, Ref):
            return v.name in ATTR_LEAVES or (v.name not in TYPE_LEAVES and v.name.endswith("Attr"))
        return False

    def attr_parts(self, v: Any) -> tuple[AttrConstraint, bool, str | None]:
        """(constraint, required, default) of an attribute argument."""
        v = self.resolve(v)
        if isinstance(v, Inst) and v.cls == "OptionalAttr":
            return self.attr_of(v.args[0]), False, None
        if isinstance(v, Inst) and v.cls in ("DefaultValuedAttr", "DefaultValuedOptionalAttr", "DefaultValuedStrAttr"):
            default = v.args[1] if len(v.args) > 1 else None
            return self.attr_of(v.args[0]), False, default if isinstance(default, str) else None
        if isinstance(v, Inst) and v.cls == "ConfinedAttr":
            constraint, required, default = self.attr_parts(v.args[0])
            return AttrConstraint(ods_text(v), constraint.kind, constraint.param, constraint.options), required, default
        c = self.attr_of(v)
        return c, c.ods not in OPTIONAL_BY_NATURE, None

    def attr_of(self, v: Any) -> AttrConstraint:
        v = self.resolve(v)
        if isinstance(v, Ref):
            leaf = ATTR_LEAVES.get(v.name)
            if leaf is None:
                self.unknown.add(v.name)
                return AttrConstraint(v.name, "unknown")
            return leaf
        if isinstance(v, Inst):
            return self.attr_from_class(ods_text(v), v.cls, v.args, None)
        if isinstance(v, Record):
            for cls, args in v.external:
                if cls in _ATTR_WRAPPERS:
                    return self.attr_from_class(v.name, cls, args, v)
            self.unknown.add(v.name)
            return AttrConstraint(v.name, "unknown")
        self.unknown.add(ods_text(v))
        return AttrConstraint(ods_text(v), "unknown")

    def attr_from_class(self, ods: str, cls: str, args: tuple[Any, ...], rec: Record | None) -> AttrConstraint:
        if cls in ("OptionalAttr", "DefaultValuedAttr", "DefaultValuedOptionalAttr", "DefaultValuedStrAttr",
                   "ConfinedAttr"):
            inner = self.attr_of(args[0])
            return AttrConstraint(ods, inner.kind, inner.param, inner.options)
        if cls == "AnyAttrOf":
            options = tuple(self.attr_of(a) for a in (args[0] if args and isinstance(args[0], tuple) else ()))
            return AttrConstraint(ods, "any_of", options=options)
        if cls == "TypedArrayAttrBase":
            return AttrConstraint(ods, "array_of", options=(self.attr_of(args[0]),))
        if cls == "EnumAttr":  # EnumAttr<Dialect, Enum, "mnemonic">
            return AttrConstraint(ods, "dialect", f"{self.dialect_name(args[0])}.{args[2]}")
        if cls == "AttrDef" and rec is not None:  # AttrDef<Dialect, "CppName", ...> with `mnemonic`
            name = rec.fields.get("attrName")
            if not isinstance(name, str):
                name = f"{self.dialect_name(args[0])}.{rec.fields.get('mnemonic')}"
            return AttrConstraint(ods, "dialect", name)
        self.unknown.add(ods)
        return AttrConstraint(ods, "unknown")

    def type_of(self, v: Any) -> TypeConstraint:
        v = self.resolve(v)
        if isinstance(v, Ref):
            leaf = TYPE_LEAVES.get(v.name)
            if leaf is None:
                self.unknown.add(v.name)
                return TypeConstraint(v.name, "unknown")
            return leaf
        if isinstance(v, Inst) and v.cls == "AnyTypeOf":
            options = tuple(self.type_of(a) for a in (v.args[0] if v.args and isinstance(v.args[0], tuple) else ()))
            return TypeConstraint(ods_text(v), "any_of", options=options)
        if isinstance(v, Inst) and v.cls == "TypedValue":
            inner = self.type_of(v.args[0])
            return TypeConstraint(ods_text(v), inner.kind, inner.param, inner.options)
        if isinstance(v, Record):
            args = v.external_args("TypeDef")
            if args is not None:
                return TypeConstraint(v.name, "dialect_type", f"{self.dialect_name(args[0])}.{v.fields.get('mnemonic')}")
            any_of = v.external_args("AnyTypeOf")
            if any_of is not None:
                return TypeConstraint(v.name, "any_of", options=tuple(self.type_of(a) for a in any_of[0]))
        self.unknown.add(ods_text(v))
        return TypeConstraint(ods_text(v), "unknown")

    # ops
    def op(self, rec: Record, dialect: str) -> OpSpec | None:
        args = rec.external_args("Op")
        if args is None or len(args) < 2 or self.dialect_name(args[0]) != dialect:
            return None
        traits = tuple(_trait_name(self.resolve(t)) for t in (args[2] if len(args) > 2 and isinstance(args[2], tuple) else ()))
        operands: list[ValueSpec] = []
        attrs: list[AttrSpec] = []
        for a in _dag(rec.fields.get("arguments")):
            kind, parts = self.argument(a.value)
            if kind == "attr":
                constraint, required, default = parts
                attrs.append(AttrSpec(a.name or "", constraint, required, default))
            else:
                operands.append(ValueSpec(a.name or "", parts[0], parts[1]))
        results = []
        for a in _dag(rec.fields.get("results")):
            v = self.resolve(a.value)
            if isinstance(v, Inst) and v.cls in ("Arg", "Res"):
                v = self.resolve(v.args[0])
            if isinstance(v, Inst) and v.cls in ("Optional", "Variadic"):
                results.append(ValueSpec(a.name or "", self.type_of(v.args[0]), "optional" if v.cls == "Optional" else "variadic"))
            else:
                results.append(ValueSpec(a.name or "", self.type_of(v)))
        return OpSpec(f"{dialect}.{args[1]}", rec.name, rec.loc, tuple(operands), tuple(results), tuple(attrs), traits)


def _dag(v: Any) -> tuple:
    return v.args if isinstance(v, Dag) else ()


def _trait_name(t: Any) -> str:
    if isinstance(t, Inst) and t.cls == "DeclareOpInterfaceMethods" and t.args:
        return _trait_name(t.args[0])
    return ods_text(t) if isinstance(t, Inst) else getattr(t, "name", str(t))


def ods_from_records(records: Records, dialect: str, revision: str = "", source: str = "") -> OdsSet:
    """Every op of `dialect` among `records`, keyed by full name (`ttnn.add`)."""
    interp = _Interpreter(records)
    ops: dict[str, OpSpec] = {}
    for rec in records.defs.values():
        spec = interp.op(rec, dialect)
        if spec is not None:
            ops[spec.name] = spec
    return OdsSet(dialect, revision, source, ops, tuple(sorted(interp.unknown)), tuple(records.missing_includes))


# -- reading a tt-mlir checkout or bare git mirror ---------------------------------------------
class MirrorFiles:
    """Files of a tt-mlir source tree at one revision: a bare git mirror (read through one
    `git cat-file --batch` process) or a checkout directory. Use as a context manager."""

    def __init__(self, mirror: str | Path = DEFAULT_MIRROR, rev: str = "HEAD") -> None:
        self.root = Path(mirror)
        self.proc: subprocess.Popen[bytes] | None = None
        if (self.root / "include").is_dir() or (self.root / "test").is_dir():
            self.git = False
            self.revision = "working tree"
        elif (self.root / "objects").is_dir() and (self.root / "HEAD").is_file():
            self.git = True
            r = subprocess.run(["git", "--git-dir", str(self.root), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise OdsUnavailable(f"{mirror}: no commit '{rev}'")
            self.revision = r.stdout.strip()
        else:
            raise OdsUnavailable(f"{mirror}: not a tt-mlir checkout or git mirror")

    def read(self, path: str) -> str | None:
        """The text of `path` (relative to the tree's root), or None when there is no such file."""
        if not self.git:
            p = self.root / path
            return p.read_text(encoding="utf-8", errors="replace") if p.is_file() else None
        if self.proc is None:
            self.proc = subprocess.Popen(["git", "--git-dir", str(self.root), "cat-file", "--batch"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{self.revision}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            return None
        data = self.proc.stdout.read(int(header[2]) + 1)[:-1]
        return data.decode("utf-8", errors="replace")

    def list(self, folder: str) -> list[str]:
        """Every file under `folder` (relative paths from the tree's root), sorted."""
        if not self.git:
            base = self.root / folder
            return sorted(str(p.relative_to(self.root)) for p in base.rglob("*") if p.is_file()) if base.is_dir() else []
        r = subprocess.run(["git", "--git-dir", str(self.root), "ls-tree", "-r", "--name-only", self.revision, "--", folder],
                           capture_output=True, text=True)
        return sorted(r.stdout.split())

    def close(self) -> None:
        """End the git process, if one was started."""
        if self.proc is not None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait()
            self.proc = None

    def __enter__(self) -> MirrorFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@functools.lru_cache(maxsize=4)
def load_ods(mirror: str = str(DEFAULT_MIRROR), rev: str = "HEAD", main: str = TTNN_OPS_TD,
             dialect: str = "ttnn") -> OdsSet:
    """The ODS of `dialect` from `main` (a path under include/) in a tt-mlir bare git mirror at `rev`,
    or in a checkout directory (then `rev` is ignored). Raises OdsUnavailable."""
    with MirrorFiles(mirror, rev) as files:
        try:
            records = read_records(main, lambda path: files.read(f"include/{path}"))
        except TableGenError as e:
            raise OdsUnavailable(str(e)) from None
        return ods_from_records(records, dialect, files.revision, str(files.root))
