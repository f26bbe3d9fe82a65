"""`canonicalize`: simplifications applied to a fixed point, as rewrite patterns.

Each pattern matches ops by name (ttopt/passes/patterns.py) and may rewrite one; the greedy
driver (ttopt/passes/greedy.py) tries only the patterns of each op's name and revisits the ops a
rewrite touched (worklist), so the cost stays proportional to what changes. Its own patterns come
first, then the registered dialect canonicalizations: sdy's (ttopt/sharding/canonicalize_sdy.py)
and TTIR's (ttopt/lowering/ttir_canonicalize/: tt-mlir's TTIR op folders and canonicalization
patterns, tried per op as MLIR's greedy driver does, folds first). `--trace` lists what fired.

Unlike MLIR's driver, constants a fold creates are built where the folded op stood, not hoisted
to the top of the function and merged with equal ones (`cse` merges them).

Its own patterns: dead side-effect-free ops go; a TTNN layout conversion (`to_layout`,
`to_memory_config`, `to_tensor_spec`, `typecast`) to its input's type is its input; a `to_layout`
or `to_tensor_spec` of one of the same kind reads that one's input (tt-mlir's
foldConsecutiveToLayoutOp, which keeps a DRAM staging between ops unless only the data type
changes); a `typecast` of a single-reader `typecast` casts once (foldConsecutiveDataCastOps, which
drops the intermediate type whatever it is: f32 -> si32 -> f32 no longer truncates); a
`reshape` of a `reshape` reshapes the first one's input, and `permute`s compose (an identity
permute goes); a `permute` that moves only size-1 dims is a `reshape`, a `slice_static` taking one
whole input of a `concat` is that input, and a rank-4 `matmul` reads a B repeated along batch dim
1 unrepeated (tt-mlir's TTNN canonicalizations).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable

from ttopt.dialects.ttnn import IN_PLACE_WRITERS, shape_values
from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.rewriter import create
from ttopt.ir.types import ScalarType
from ttopt.ir.values import OpResult, Value
from ttopt.passes.base import Pass, option
from ttopt.passes.greedy import Erase, apply_greedily, dead_op_pattern
from ttopt.passes.patterns import Pattern, PatternSet, canonicalizations, pattern_set
from ttopt.passes.registry import register_pass

I32 = ScalarType("i32")

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


def _fold_identity_conversion(op: Operation, erase: Callable[[Operation], None] = Operation.erase) -> list[Operation] | None:
    """A layout/sharding conversion whose result type equals its input type is a no-op."""
    if len(op.operands) != 1 or len(op.results) != 1:
        return None
    src, res = op.operands[0], op.results[0]
    if src.type != res.type or op.attributes:
        return None
    users = res.users
    res.replace_all_uses_with(src)
    erase(op)
    return users


def _memory(v: Value) -> tuple[str | None, object, object]:
    """(buffer type, memory layout, tiled) of a TTNN value's layout (Nones without one)."""
    enc = getattr(v.type.resolve(), "encoding", None)
    lay = getattr(enc.resolve(), "typed", None) if enc is not None else None
    buffer = getattr(lay, "buffer_type", None)
    return getattr(buffer, "value", None), getattr(lay, "memory_layout", None), getattr(lay, "is_tiled", None)


def _fold_consecutive_conversion(op: Operation) -> list[Operation] | None:
    """A conversion of a conversion of the same kind reads the first one's input: the second
    one's result type carries the whole effect (tt-mlir's foldConsecutiveToLayoutOp). A DRAM
    staging the first one wrote for ops in between stays when the second one moves to L1, unless
    the pair changes only the data type."""
    if len(op.operands) != 1 or op.attributes or not isinstance(src := op.operands[0], OpResult):
        return None
    first = src.op
    if first.name != op.name or len(first.operands) != 1 or first.attributes:
        return None
    out = _memory(op.results[0])
    if _memory(src)[0] == "dram" and out[0] == "l1" and _memory(first.operands[0]) != out:
        block = first.parent
        if block is None or op.parent is not block or block.ops.index(op) != block.ops.index(first) + 1:
            return None
    op.set_operand(0, first.operands[0])
    return [op, first]


def _fold_consecutive_typecast(op: Operation, erase: Callable[[Operation], None] = Operation.erase) -> list[Operation] | None:
    """A typecast of a typecast read by nothing else casts the first one's input once (tt-mlir's
    foldConsecutiveDataCastOps: the intermediate data type is dropped, as there)."""
    if len(op.operands) != 1 or not isinstance(src := op.operands[0], OpResult):
        return None
    first = src.op
    if first.name != op.name or len(first.operands) != 1 or len(src.uses) != 1:
        return None
    op.set_operand(0, first.operands[0])
    erase(first)
    return [op]


def _fold_consecutive_reshape(op: Operation) -> list[Operation] | None:
    """A reshape of a reshape reshapes the first one's input (tt-mlir's foldConsecutiveReshape),
    unless another reader writes the intermediate in place."""
    if len(op.operands) != 1 or not isinstance(src := op.operands[0], OpResult):
        return None
    first = src.op
    if first.name != op.name or len(first.operands) != 1:
        return None
    if any(u is not op and u.name in IN_PLACE_WRITERS for u in src.uses):
        return None
    op.set_operand(0, first.operands[0])
    return [op, first]


def _fold_permute(op: Operation, erase: Callable[[Operation], None] = Operation.erase) -> list[Operation] | None:
    """An identity permute is its input; a permute of a single-reader permute permutes the first
    one's input by the composed order (tt-mlir's foldIdentityPermute, foldConsecutivePermutes)."""
    order = int_values(op.properties.get("permutation"))
    if order is None or len(op.operands) != 1:
        return None
    src = op.operands[0]
    if list(order) == list(range(len(order))) and src.type == op.results[0].type and not op.attributes:
        users = op.results[0].users
        op.results[0].replace_all_uses_with(src)
        erase(op)
        return users
    first = src.op if isinstance(src, OpResult) else None
    inner = int_values(first.properties.get("permutation")) if first is not None and first.name == op.name else None
    if first is None or inner is None or len(inner) != len(order) or len(src.uses) != 1:
        return None
    attr = op.properties["permutation"].resolve()
    op.properties["permutation"] = DenseArrayAttr(getattr(attr, "element", "i64"), tuple(inner[i] for i in order))
    op.set_operand(0, first.operands[0])
    return [op, first]


def _permute_as_reshape(op: Operation, erase: Callable[[Operation], None] = Operation.erase) -> list[Operation] | None:
    """A permute that moves only size-1 dims (the others keep their order) is a reshape (tt-mlir's
    PermuteOp canonicalization)."""
    order = int_values(op.properties.get("permutation"))
    if order is None or len(op.operands) != 1 or op.attributes:
        return None
    shape = _shape(op.operands[0])
    if shape is None or len(shape) != len(order):
        return None
    kept = [i for i in range(len(shape)) if shape[i] != 1]
    if [i for i in order if shape[i] != 1] != kept:
        return None
    res = op.results[0]
    out = _shape(res) or ()
    shape_attr = ArrayAttr(tuple(IntegerAttr(int(d), I32) for d in out))
    new = create("ttnn.reshape", [op.operands[0]], [res.type], {"shape": shape_attr}, location=op.location, before=op)
    users = res.users
    res.replace_all_uses_with(new.results[0])
    erase(op)
    return [new, *users]


def _fold_slice_of_concat(op: Operation, erase: Callable[[Operation], None] = Operation.erase) -> list[Operation] | None:
    """A slice that takes exactly one input of a concat (all of it, step 1) is that input (tt-mlir's
    foldSliceOfConcat), when the types agree."""
    src = op.operands[0] if len(op.operands) == 1 else None
    cat = src.op if isinstance(src, OpResult) else None
    if cat is None or cat.name != "ttnn.concat":
        return None
    begins, ends, steps = (_ints(op.properties.get(k)) for k in ("begins", "ends", "step"))
    dim_attr = cat.properties.get("dim")
    dim = getattr(dim_attr.resolve(), "value", None) if dim_attr is not None else None
    if begins is None or ends is None or steps is None or not isinstance(dim, int) or not (len(begins) == len(ends) == len(steps)):
        return None
    rank = len(begins)
    dim = dim + rank if dim < 0 else dim
    offset = 0
    for v in cat.operands:
        shape = _shape(v)
        if shape is None or len(shape) != rank or not 0 <= dim < rank:
            return None
        want_b = [offset if d == dim else 0 for d in range(rank)]
        want_e = [offset + shape[d] if d == dim else shape[d] for d in range(rank)]
        if list(begins) == want_b and list(ends) == want_e and all(s == 1 for s in steps):
            if v.type != op.results[0].type:
                return None
            users = op.results[0].users
            op.results[0].replace_all_uses_with(v)
            erase(op)
            return [*users, cat]
        offset += shape[dim]
    return None


def _drop_batch_repeat(op: Operation) -> list[Operation] | None:
    """A rank-4 matmul whose B repeats a single batch along dim 1 to A's reads B unrepeated
    (tt-mlir's MatmulOp canonicalization: TTNN broadcasts B's batch itself)."""
    if len(op.operands) < 2 or not isinstance(b := op.operands[1], OpResult) or b.op.name != "ttnn.repeat":
        return None
    rep = b.op
    dims = _ints(rep.properties.get("repeat_dims"))
    a_shape, b_shape = _shape(op.operands[0]), _shape(b)
    if dims is None or a_shape is None or b_shape is None or len(dims) != 4 or len(a_shape) != 4:
        return None
    src_shape = _shape(rep.operands[0])
    if any((dims[i] != 1) != (i == 1) for i in range(4)) or b_shape[0] != 1 or a_shape[1] != b_shape[1]:
        return None
    if src_shape is None or len(src_shape) != 4 or src_shape[1] != 1:  # TTNN broadcasts a single batch only
        return None
    op.set_operand(1, rep.operands[0])
    return [op, rep]


def _shape(v: Value) -> tuple[int, ...] | None:
    shape = getattr(v.type.resolve(), "shape", None)
    return tuple(shape) if shape is not None and all(isinstance(d, int) for d in shape) else None


def _ints(a: Attribute | None) -> tuple[int, ...] | None:
    """The integers of an array attribute (`[1 : i32, ...]`, `array<i64: ...>`, `#ttnn.shape<AxB>`), or None."""
    return int_values(a) if int_values(a) is not None else shape_values(a)


# Ops that are pure data-layout conversions (their result type carries the whole effect).
IDENTITY_WHEN_SAME_TYPE = frozenset({"ttnn.to_layout", "ttnn.to_memory_config", "ttnn.to_tensor_spec", "ttnn.typecast", "ttnn.reshape"})
# Conversions whose chains fold into one (tt-mlir folds to_layout and to_tensor_spec chains).
CONSECUTIVE = frozenset({"ttnn.to_layout", "ttnn.to_tensor_spec"})

CORE = pattern_set(
    Pattern("fold-identity-conversion", _fold_identity_conversion, IDENTITY_WHEN_SAME_TYPE),
    Pattern("fold-consecutive-conversion", _fold_consecutive_conversion, CONSECUTIVE),
    Pattern("fold-consecutive-typecast", _fold_consecutive_typecast, frozenset({"ttnn.typecast"})),
    Pattern("fold-consecutive-reshape", _fold_consecutive_reshape, frozenset({"ttnn.reshape"})),
    Pattern("fold-permute", _fold_permute, frozenset({"ttnn.permute"})),
    Pattern("permute-as-reshape", _permute_as_reshape, frozenset({"ttnn.permute"})),
    Pattern("fold-slice-of-concat", _fold_slice_of_concat, frozenset({"ttnn.slice_static"})),
    Pattern("matmul-drop-batch-repeat", _drop_batch_repeat, frozenset({"ttnn.matmul"})),
    dead_op_pattern(),
)


def _core(erase: Erase) -> PatternSet:
    """CORE with its erasures going through `erase`."""
    return pattern_set(
        Pattern("fold-identity-conversion", partial(_fold_identity_conversion, erase=erase), IDENTITY_WHEN_SAME_TYPE),
        Pattern("fold-consecutive-conversion", _fold_consecutive_conversion, CONSECUTIVE),
        Pattern("fold-consecutive-typecast", partial(_fold_consecutive_typecast, erase=erase), frozenset({"ttnn.typecast"})),
        Pattern("fold-consecutive-reshape", _fold_consecutive_reshape, frozenset({"ttnn.reshape"})),
        Pattern("fold-permute", partial(_fold_permute, erase=erase), frozenset({"ttnn.permute"})),
        Pattern("permute-as-reshape", partial(_permute_as_reshape, erase=erase), frozenset({"ttnn.permute"})),
        Pattern("fold-slice-of-concat", partial(_fold_slice_of_concat, erase=erase), frozenset({"ttnn.slice_static"})),
        Pattern("matmul-drop-batch-repeat", _drop_batch_repeat, frozenset({"ttnn.matmul"})),
        dead_op_pattern(erase),
    )


@register_pass
@dataclass
class Canonicalize(Pass):
    """Canonicalize: remove dead side-effect-free ops, fold conversions, and apply the dialects' folds."""

    name = "canonicalize"
    summary = "Remove dead side-effect-free ops, fold layout conversions and apply TTIR/sdy folds and patterns, to a fixed point"

    max_iterations: int = option(1_000_000, "Upper bound on rule applications (guards against rule cycles)")

    def validate(self) -> None:
        """max-iterations counts rule applications: it cannot be negative."""
        if self.max_iterations < 0:
            raise ValueError(f"max-iterations must be >= 0, got {self.max_iterations}")

    def run(self, module: Module, ctx: PassContext) -> None:
        fired = apply_greedily(module, lambda erase: canonicalizations(_core(erase)), self.max_iterations)
        ctx.stats.setdefault("canonicalize", {}).update(dict(fired))
        if ctx.trace.enabled and fired:
            ctx.trace.print("[bold]canonicalize[/bold]: " + ", ".join(f"{k} x{v}" for k, v in sorted(fired.items())))
