"""Check a module's ops against a dialect's ODS (`ods_specs.OdsSet`): the op exists, operand and
result counts fit the declared operands (with `operandSegmentSizes` for AttrSizedOperandSegments),
operand and result types fit their constraints, every required attribute is there, no attribute is
unknown, and each attribute is of its declared kind (integer width and signedness, bool, float
width, arrays, dialect attributes by name).

Attributes are looked up where MLIR looks them up: an inherent attribute may be written in the
properties (`<{...}>`) or in the attribute dictionary (`{...}`), since MLIR moves the latter into
properties when it builds the op. A discardable attribute that is not inherent must be one that
tt-mlir itself puts on ops of the dialect (`DISCARDABLE`). Beyond ODS, `VERIFIER_RULES` holds the
few checks of HEAD's C++ verifiers that tell two revisions' spellings of one op apart.

Problems are phrased without the values involved (`attribute 'dim' is an i32 integer; HEAD wants
SI32Attr`), so one line of a known-violations list covers every op of that form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ttopt.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DialectAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    TypedOpaqueAttr,
    UnitAttr,
)
from ttopt.ir.diagnostics import op_position
from ttopt.ir.module import Module
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import OpaqueType, ScalarType, TensorType, Type
from ttopt.testing.ods_specs import AttrConstraint, OdsSet, OpSpec, TypeConstraint, ValueSpec

SEGMENTS = "operandSegmentSizes"
RESULT_SEGMENTS = "resultSegmentSizes"

# Discardable attributes tt-mlir HEAD sets on TTNN ops (name -> what the value must be):
DISCARDABLE: dict[str, AttrConstraint] = {
    # include/ttmlir/Dialect/TTNN/Types/Types.h g_TTNNHoistGenericViaD2MAttrName: ops to hoist into D2M
    "ttnn.hoist_generic_via_d2m": AttrConstraint("UnitAttr", "unit"),
    # lib/Conversion/TTIRToTTNN/TTIRToTTNN.cpp copies it from ttir.matmul/linear/sparse_matmul
    "ttcore.weight_dtype": AttrConstraint("StrAttr", "str"),
}


@dataclass(frozen=True, order=True)
class Violation:
    """One problem of one op, at the op's position (line 0 when it has none)."""

    file: str
    line: int
    col: int
    op: str
    problem: str

    def render(self) -> str:
        """`file:line:col: 'ttnn.x' problem` (MLIR's diagnostic prefix)."""
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        return f"{where}: '{self.op}' {self.problem}"

    @property
    def key(self) -> str:
        """`op: problem`, the form of a known-violations line."""
        return f"{self.op}: {self.problem}"


# -- describing IR values without their values -------------------------------------------------
def _type_name(t: Type | None, default: str) -> str:
    return t.resolve().canonical() if t is not None else default


def describe_attr(a: Attribute) -> str:
    """The kind of an attribute: `an i32 integer`, `array<i64>`, `#ttnn.shape`, `a string`."""
    a = a.resolve()
    if isinstance(a, BoolAttr):
        return "a bool"
    if isinstance(a, IntegerAttr):
        return f"an {_type_name(a.type, 'i64')} integer"
    if isinstance(a, FloatAttr):
        return f"an {_type_name(a.type, 'f64')} float"
    if isinstance(a, StringAttr):
        return "a string"
    if isinstance(a, UnitAttr):
        return "a unit attribute"
    if isinstance(a, DenseArrayAttr):
        return f"array<{a.element}>"
    if isinstance(a, ArrayAttr):
        kinds = sorted({_noun(describe_attr(x)) for x in a.items})
        return "an empty array" if not kinds else f"an array of {' and '.join(kinds)} elements"
    if isinstance(a, (DenseElementsAttr, TypedOpaqueAttr)):
        return "an elements attribute"
    if isinstance(a, DialectAttr):
        return f"#{dialect_attr_name(a)}"
    if isinstance(a, SymbolRefAttr):
        return "a nested symbol reference" if a.nested else "a symbol reference"
    if isinstance(a, TypeAttr):
        return "a type"
    if isinstance(a, DictAttr):
        return "a dictionary"
    if isinstance(a, OpaqueAttr):
        return "an opaque attribute"
    return "an attribute"


def _noun(description: str) -> str:
    for article in ("a ", "an "):
        if description.startswith(article):
            return description[len(article):]
    return description


def dialect_attr_name(a: DialectAttr) -> str:
    """`ttnn.mesh_shape` for both `#ttnn.mesh_shape<...>` and the short `#ttnn<mesh_shape ...>`."""
    if "." in a.name or not a.body:
        return a.name
    head = a.body.split(None, 1)[0].split("<", 1)[0]
    return f"{a.name}.{head}"


def describe_type(t: Type) -> str:
    """The kind of a type: `a ranked tensor`, `!ttnn.device`, `f32`."""
    t = t.resolve()
    if isinstance(t, TensorType):
        return "a ranked tensor" if t.is_ranked else "an unranked tensor"
    if isinstance(t, OpaqueType):
        return f"!{t.name}" if t.name else t.text
    return t.text


# -- constraints as predicates ------------------------------------------------------------------
def attr_fits(c: AttrConstraint, a: Attribute) -> bool:
    """True if attribute `a` satisfies constraint `c`."""
    a = a.resolve()
    kind = c.kind
    if kind in ("any", "unknown"):
        return True
    if kind == "int":
        if c.param == "i1" and isinstance(a, BoolAttr):
            return True
        return isinstance(a, IntegerAttr) and _type_name(a.type, "i64") == c.param
    if kind == "bool":
        return isinstance(a, BoolAttr) or (isinstance(a, IntegerAttr) and _type_name(a.type, "i64") == "i1")
    if kind == "float":
        return isinstance(a, FloatAttr) and _type_name(a.type, "f64") == c.param
    if kind == "str":
        return isinstance(a, StringAttr)
    if kind == "unit":
        return isinstance(a, UnitAttr)
    if kind == "type":
        return isinstance(a, TypeAttr)
    if kind == "elements":
        return isinstance(a, (DenseElementsAttr, TypedOpaqueAttr))
    if kind == "symbol":
        return isinstance(a, SymbolRefAttr) and (c.param != "flat" or not a.nested)
    if kind == "array":
        return isinstance(a, ArrayAttr)
    if kind == "array_of":
        return isinstance(a, ArrayAttr) and all(attr_fits(c.options[0], x) for x in a.items)
    if kind == "dense_array":
        return isinstance(a, DenseArrayAttr) and a.element == c.param
    if kind == "dict":
        return isinstance(a, DictAttr)
    if kind == "dialect":
        return isinstance(a, DialectAttr) and dialect_attr_name(a) == c.param
    if kind == "any_of":
        return any(attr_fits(o, a) for o in c.options)
    return False


def type_fits(c: TypeConstraint, t: Type) -> bool:
    """True if type `t` satisfies constraint `c`."""
    t = t.resolve()
    kind = c.kind
    if kind in ("any", "unknown"):
        return True
    if kind == "ranked_tensor":
        return isinstance(t, TensorType) and t.is_ranked
    if kind == "tensor":
        return isinstance(t, TensorType)
    if kind == "memref":
        return isinstance(t, OpaqueType) and t.name == "memref"
    if kind == "scalar":
        return isinstance(t, ScalarType) and t.text == c.param
    if kind == "dialect_type":
        return isinstance(t, OpaqueType) and t.name == c.param
    if kind == "any_of":
        return any(type_fits(o, t) for o in c.options)
    return False


# -- one op ---------------------------------------------------------------------------------------
def _signature(specs: Iterable[ValueSpec]) -> str:
    return ", ".join(s.text() for s in specs)


def _count_problem(what: str, n: int, specs: tuple[ValueSpec, ...]) -> str | None:
    fixed = sum(1 for s in specs if s.arity == "single")
    optional = sum(1 for s in specs if s.arity == "optional")
    variadic = any(s.arity == "variadic" for s in specs)
    hi = None if variadic else fixed + optional
    if n >= fixed and (hi is None or n <= hi):
        return None
    if hi == fixed:
        want = str(fixed)
    elif hi is None:
        want = f"at least {fixed}"
    else:
        want = f"{fixed} to {hi}"
    return f"has {n} {what}{'s' if n != 1 else ''}; HEAD takes {want} ({_signature(specs) or 'none'})"


def _groups_without_segments(n: int, specs: tuple[ValueSpec, ...]) -> list[int] | None:
    """How many values each spec gets, the way ODS splits them when at most one spec is
    optional/variadic (None when the split is ambiguous or the count does not fit)."""
    flexible = [i for i, s in enumerate(specs) if s.arity != "single"]
    fixed = len(specs) - len(flexible)
    if len(flexible) > 1:
        return None
    sizes = [1] * len(specs)
    if flexible:
        sizes[flexible[0]] = n - fixed
        if sizes[flexible[0]] < 0 or (specs[flexible[0]].arity == "optional" and sizes[flexible[0]] > 1):
            return None
    elif n != fixed:
        return None
    return sizes


def _segment_problems(op: Operation, spec: OpSpec) -> tuple[list[str], list[int] | None]:
    problems: list[str] = []
    raw = op.get_attr(SEGMENTS)
    if raw is None:
        problems.append(f"is missing required attribute '{SEGMENTS}' (AttrSizedOperandSegments)")
        return problems, None
    sizes = int_values(raw)
    dense = raw.resolve()
    if sizes is None or not (isinstance(dense, DenseArrayAttr) and dense.element == "i32"):
        problems.append(f"attribute '{SEGMENTS}' is {describe_attr(raw)}; HEAD wants DenseI32ArrayAttr")
        if sizes is None:
            return problems, None
    if len(sizes) != len(spec.operands):
        problems.append(f"attribute '{SEGMENTS}' has {len(sizes)} entries; HEAD has {len(spec.operands)} operand "
                        f"groups ({_signature(spec.operands)})")
        return problems, None
    for size, s in zip(sizes, spec.operands):
        if size < 0 or (s.arity == "single" and size != 1) or (s.arity == "optional" and size > 1):
            problems.append(f"attribute '{SEGMENTS}' gives {s.arity} operand '{s.name}' {size} values")
    if sum(sizes) != len(op.operands):
        problems.append(f"attribute '{SEGMENTS}' adds up to {sum(sizes)}, not the op's {len(op.operands)} operands")
        return problems, None
    return problems, list(sizes)


def _value_problems(what: str, values: list[Any], specs: tuple[ValueSpec, ...], sizes: list[int] | None) -> list[str]:
    problems: list[str] = []
    if sizes is None:
        return problems
    i = 0
    for s, size in zip(specs, sizes):
        for v in values[i : i + size]:
            if not type_fits(s.type, v.type):
                problems.append(f"{what} '{s.name}' is {describe_type(v.type)}; HEAD wants {s.type.ods}")
        i += size
    return problems


def _attribute_problems(op: Operation, spec: OpSpec) -> list[str]:
    problems = []
    declared = {a.name for a in spec.attributes}
    if spec.attr_sized_operands:
        declared.add(SEGMENTS)
    if spec.attr_sized_results:
        declared.add(RESULT_SEGMENTS)
    for name in op.properties:
        if name not in declared:
            problems.append(f"has unknown attribute '{name}'")
    for name, value in op.attributes.items():
        if name in declared:
            continue
        legit = DISCARDABLE.get(name)
        if legit is None:
            problems.append(f"has unknown discardable attribute '{name}'")
        elif not attr_fits(legit, value):
            problems.append(f"discardable attribute '{name}' is {describe_attr(value)}; HEAD wants {legit.ods}")
    for a in spec.attributes:
        given = op.get_attr(a.name)
        if given is None:
            if a.required:
                problems.append(f"is missing required attribute '{a.name}' ({a.constraint.ods})")
        elif not attr_fits(a.constraint, given):
            problems.append(f"attribute '{a.name}' is {describe_attr(given)}; HEAD wants {a.constraint.ods}")
    return problems


def op_problems(op: Operation, spec: OpSpec) -> list[str]:
    """Every way `op` departs from `spec` (empty when it conforms)."""
    problems: list[str] = []
    if spec.attr_sized_operands:
        seg_problems, sizes = _segment_problems(op, spec)
        problems += seg_problems
        if sizes is None:
            count = _count_problem("operand", len(op.operands), spec.operands)
            problems += [count] if count else []
    else:
        count = _count_problem("operand", len(op.operands), spec.operands)
        problems += [count] if count else []
        sizes = _groups_without_segments(len(op.operands), spec.operands)
    problems += _value_problems("operand", op.operands, spec.operands, sizes)
    count = _count_problem("result", len(op.results), spec.results)
    problems += [count] if count else []
    problems += _value_problems("result", op.results, spec.results, _groups_without_segments(len(op.results), spec.results))
    problems += _attribute_problems(op, spec)
    rule = VERIFIER_RULES.get(spec.name)
    if rule is not None:
        problems += rule(op)
    return problems


# -- HEAD verifier rules beyond ODS -------------------------------------------------------------
_MALFORMED = object()


def _layout(t: Type) -> Any:
    """The typed #ttnn.ttnn_layout of a tensor type; None without one, _MALFORMED when its body
    does not parse (the ttopt verifier reports that)."""
    t = t.resolve()
    enc = getattr(t, "encoding", None)
    if enc is None:
        return None
    try:
        typed = getattr(enc.resolve(), "typed", None)
    except ValueError:
        return _MALFORMED
    return typed if getattr(typed, "attr_name", "") == "ttnn.ttnn_layout" else None


def _to_layout_rule(op: Operation) -> list[str]:
    """HEAD's ToLayoutOp::verify: ttnn.to_layout changes only the page layout (tile / row-major)
    and the data type; buffer type, memory layout and grid belong to ttnn.to_memory_config /
    ttnn.to_tensor_spec."""
    if len(op.operands) != 1 or len(op.results) != 1:
        return []
    src, dst = _layout(op.operands[0].type), _layout(op.results[0].type)
    if src is _MALFORMED or dst is _MALFORMED:
        return []
    if src is None or dst is None:
        return [f"{'input' if src is None else 'result'} has no #ttnn.ttnn_layout encoding; HEAD's verifier requires one"]
    out = []
    if src.buffer_type != dst.buffer_type:
        out.append("changes the buffer type; HEAD's verifier allows only page-layout and dtype changes")
    if src.memory_layout != dst.memory_layout:
        out.append("changes the tensor memory layout; HEAD's verifier allows only page-layout and dtype changes")
    if tuple(src.grid) != tuple(dst.grid):
        out.append("changes the grid; HEAD's verifier allows only page-layout and dtype changes")
    return out


VERIFIER_RULES: dict[str, Callable[[Operation], list[str]]] = {
    "ttnn.to_layout": _to_layout_rule,
}


# -- a module -------------------------------------------------------------------------------------
def check_module(module: Module, ods: OdsSet, filename: str | None = None) -> list[Violation]:
    """Every violation of `ods` by the ops of its dialect in `module`, in op order."""
    prefix = ods.dialect + "."
    source = module.source
    name = filename or (source.name if source is not None else "<module>")
    out = []
    for op in module.walk():
        if not op.name.startswith(prefix):
            continue
        spec = ods.ops.get(op.name)
        problems = ["is not an op at tt-mlir HEAD"] if spec is None else op_problems(op, spec)
        if not problems:
            continue
        pos = op_position(source, op)
        line, col = pos.source.line_col(pos.offset) if pos is not None else (0, 0)
        out += [Violation(name, line, col, op.name, p) for p in problems]
    return out


# -- known-violations lists -----------------------------------------------------------------------
def read_known(text: str) -> dict[str, str]:
    """`op: problem  # reason` lines -> {`op: problem`: reason}; blank lines and lines starting with
    `#` are skipped. ValueError names a line without a reason or a repeated entry."""
    out: dict[str, str] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, reason = line.partition("  # ")  # problems never hold "  # "; reasons may
        if not sep or ": " not in key or not reason.strip():
            raise ValueError(f"line {n}: expected 'op: problem  # reason'")
        key = key.strip()
        if key in out:
            raise ValueError(f"line {n}: '{key}' is listed twice")
        out[key] = reason.strip()
    return out
