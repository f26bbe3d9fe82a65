"""`stablehlo.composite` ops: straight to a TTIR op when tt-mlir has one, else their decomposition.

`legalize-stablehlo-composite-to-ttir` (tt-mlir's StableHLOLegalizeCompositePass) rewrites the
composites frontends emit for ops TTIR has whole:

| composite | TTIR |
|---|---|
| `tenstorrent.gelu`, `tenstorrent.gelu_tanh` | `ttir.gelu` (the composite's attributes carried along) |
| `tenstorrent.rms_norm`, `tenstorrent.layer_norm` | `ttir.rms_norm` / `ttir.layer_norm` (`normalized_shape`, `epsilon`, operand segments) |
| `tenstorrent.group_norm` | `ttir.group_norm`; rank < 4 inputs reshaped to 4-D around it |
| `tenstorrent.topk`, `topk_values`, `topk_indices` | `ttir.topk` (values and indices; the unused one unread) |
| `tenstorrent.argmax` | `ttir.argmax` |
| `tenstorrent.gather`, `tenstorrent.gather_dim` | [`ttir.typecast` of the index to ui32 +] `ttir.gather` |
| `tenstorrent.scaled_dot_product_attention` | `ttir.scaled_dot_product_attention` (rank-3 operands get a unit head dim) |
| `tenstorrent.uniform` | `ttir.rand` (bounds from the constant operands, seed 0) |
| `tenstorrent.adamw`, `tenstorrent.sdpa_fw`, `tenstorrent.sdpa_bw` | `ttir.adamw` / `ttir.sdpa_fw` / `ttir.sdpa_bw` |
| `sdy.all_slice` with `out_sharding` | one `ttir.mesh_partition` per mesh axis that slices |

The `stablehlo.custom_call`s tt-mlir's sharding pipeline makes of some of these composites (marked
`tt.has_custom_sharding`, attributes in `tt.composite_attributes`) lower the same way; their
distributed topk/argmax form (inside a manual computation) is not implemented and stays.
Attributes the rules build are spelled as MLIR prints them (ttopt/ir/float_spelling.py).

Like tt-mlir's (a partial conversion), a composite whose form a rule does not take is left alone:
`stablehlo-legalize-composite-to-call` then turns every remaining composite into a `func.call` of
its decomposition, which the inliner inlines. `--trace` says which composites stayed and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

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
    StringAttr,
    SymbolRefAttr,
)
from ttopt.ir.float_spelling import float_text, round_to
from ttopt.ir.operation import Operation
from ttopt.ir.types import ScalarType, TensorType
from ttopt.ir.values import OpResult
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

I32, I64, UI32, SI32, F32 = (ScalarType(n) for n in ("i32", "i64", "ui32", "si32", "f32"))
ALL_SLICE = "sdy.all_slice"


class NotApplicable(Exception):
    """The composite is not in a form the rule lowers; it stays for its decomposition."""


@dataclass
class Rewriter:
    """Builds TTIR ops in front of one composite (its location and source position)."""

    module: Module
    anchor: Operation

    def emit(self, name: str, operands: list[Value], results: list[Any], properties: dict[str, Attribute] | None = None,
             attributes: dict[str, Attribute] | None = None) -> Operation:  # fmt: skip
        """A `ttir.<name>` op before the composite."""
        op = Operation(f"ttir.{name}", operands, results, properties=dict(sorted((properties or {}).items())),
                       attributes=dict(sorted((attributes or {}).items())), location=self.anchor.location)  # fmt: skip
        op.pos = self.anchor.pos
        block = self.anchor.parent
        assert block is not None
        block.insert(block.index(self.anchor), op)
        return op

    def reshape(self, v: Value, shape: list[int]) -> Value:
        """`ttir.reshape` of `v` to `shape` (same element type)."""
        t = tensor(v)
        return self.emit("reshape", [v], [TensorType(tuple(shape), t.element_type)], {"shape": i32_array(shape)}).results[0]


def tensor(v: Value) -> TensorType:
    """The ranked tensor type of `v` (a NotApplicable when it is not one with a static shape)."""
    t = v.type.resolve()
    if not isinstance(t, TensorType) or t.shape is None or any(d is None for d in t.shape):
        raise NotApplicable(f"needs static ranked tensors, got {t.text}")
    return t


def dims(v: Value) -> list[int]:
    """The static shape of `v` (a NotApplicable when it has none)."""
    return [int(d) for d in tensor(v).shape or () if d is not None]


def results(op: Operation) -> list[Value]:
    """`op`'s results, as the values that replace a composite's."""
    return [r for r in op.results]


def i32_array(values: list[int]) -> ArrayAttr:
    """`[1 : i32, 2 : i32]`."""
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


def segments(*sizes: int) -> DenseArrayAttr:
    """`operandSegmentSizes = array<i32: ...>` of ops with optional operands."""
    return DenseArrayAttr("i32", tuple(sizes))


def f32_attr(value: float) -> FloatAttr:
    """`value` as an f32 FloatAttr, spelled as MLIR prints it (`0.899999976 : f32`)."""
    v = round_to(float(value), "f32")
    return FloatAttr(v, F32, text=f"{float_text(v, 'f32')} : f32")


def f32(a: Attribute, what: str) -> FloatAttr:
    """A float attribute as f32 (tt-mlir's verifiers take f32 hyper-parameters)."""
    a = a.resolve()
    if isinstance(a, FloatAttr):
        return f32_attr(a.value)
    if isinstance(a, IntegerAttr) and not isinstance(a, BoolAttr):
        return f32_attr(float(a.value))
    raise NotApplicable(f"'{what}' must be a float attribute")


def ints(a: Attribute | None, what: str) -> list[int]:
    """Integers of a dense tensor, array, or `[..]` attribute (tt-mlir accepts each spelling)."""
    a = a.resolve() if a is not None else None
    if isinstance(a, DenseElementsAttr):
        v = a.values
        flat = v if isinstance(v, list) else [v]
        while flat and isinstance(flat[0], list):
            flat = [x for row in flat for x in row]
        if all(isinstance(x, int) and not isinstance(x, bool) for x in flat):
            t = a.type.resolve()
            n = 1
            for d in getattr(t, "shape", None) or ():
                n *= d or 1
            return list(flat) * (n if a.is_splat and len(flat) == 1 else 1)
    if isinstance(a, ArrayAttr) and all(isinstance(x.resolve(), IntegerAttr) for x in a.items):
        return [x.resolve().value for x in a.items]
    if isinstance(a, DenseArrayAttr) and all(isinstance(x, int) for x in a.values):
        return list(a.values)
    raise NotApplicable(f"'{what}' must be a dense tensor or array of integers")


def int_attr(attrs: DictAttr, key: str) -> int | None:
    a = attrs.get(key)
    a = a.resolve() if a is not None else None
    if a is None:
        return None
    if isinstance(a, IntegerAttr):
        return a.value
    if isinstance(a, DenseElementsAttr) and isinstance(a.values, int):
        return a.values
    raise NotApplicable(f"'{key}' must be an integer attribute")


def bool_attr(attrs: DictAttr, key: str) -> bool | None:
    a = attrs.get(key)
    a = a.resolve() if a is not None else None
    if a is None:
        return None
    if isinstance(a, BoolAttr):
        return a.value
    raise NotApplicable(f"'{key}' must be a boolean attribute")


def one_result(op: Operation) -> None:
    if len(op.results) != 1:
        raise NotApplicable("the composite must have exactly one result")


# -- rules --------------------------------------------------------------------------------------
Rule = Callable[[Rewriter, Operation, DictAttr], list["Value"]]
RULES: dict[str, Rule] = {}


def rule(*names: str) -> Callable[[Rule], Rule]:
    """Register the lowering of the composites called `names`."""

    def register(fn: Rule) -> Rule:
        for n in names:
            RULES[n] = fn
        return fn

    return register


@rule("tenstorrent.gelu", "tenstorrent.gelu_tanh")
def _gelu(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    one_result(op)
    # tt-mlir hands the composite's attributes to the op builder: ttir.gelu declares none of them,
    # so they stay discardable attributes (`{approximate = "tanh"}`).
    return results(rw.emit("gelu", list(op.operands), [op.results[0].type], attributes=dict(attrs.entries)))


def _norm(name: str, rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    one_result(op)
    props: dict[str, Attribute] = {"normalized_shape": DenseArrayAttr("i64", tuple(ints(attrs.get("normalized_shape"), "normalized_shape")))}
    if attrs.get("epsilon") is not None:
        props["epsilon"] = attrs.get("epsilon")
    n = len(op.operands)
    props["operandSegmentSizes"] = segments(1, int(n >= 2), int(n >= 3))
    return results(rw.emit(name, list(op.operands), [op.results[0].type], props))


@rule("tenstorrent.rms_norm")
def _rms_norm(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    return _norm("rms_norm", rw, op, attrs)


@rule("tenstorrent.layer_norm")
def _layer_norm(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    return _norm("layer_norm", rw, op, attrs)


@rule("tenstorrent.group_norm")
def _group_norm(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    one_result(op)
    groups = int_attr(attrs, "num_groups")
    if groups is None:
        raise NotApplicable("'num_groups' must be an integer attribute")
    if attrs.get("channel_dim") is None:
        raise NotApplicable("'channel_dim' is required")
    props: dict[str, Attribute] = {"num_groups": IntegerAttr(groups, I64)}
    for key in ("epsilon", "channel_dim"):
        if attrs.get(key) is not None:
            props[key] = attrs.get(key)
    n = len(op.operands)
    # Operands: input, input_mask, weight, bias; frontends pass input[, weight[, bias]].
    props["operandSegmentSizes"] = segments(1, 0, int(n >= 2), int(n >= 3))
    x = op.operands[0]
    shape = dims(x)
    if len(shape) > 5:
        raise NotApplicable("input rank must be <= 5")
    out = op.results[0].type
    if len(shape) >= 4:
        return results(rw.emit("group_norm", list(op.operands), [out], props))
    # ttir.group_norm takes rank >= 4: trailing unit dims keep channel_dim where it is.
    padded = shape + [1] * (4 - len(shape))
    y = rw.emit("group_norm", [rw.reshape(x, padded), *op.operands[1:]], [TensorType(tuple(padded), tensor(x).element_type)], props)
    return [rw.reshape(y.results[0], dims(op.results[0]))]


@rule("tenstorrent.topk", "tenstorrent.topk_values", "tenstorrent.topk_indices")
def _topk(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    name = _name(op)
    if len(op.operands) != 1:
        raise NotApplicable(f"{name} must have exactly one input operand")
    both = name == "tenstorrent.topk"
    if len(op.results) != (2 if both else 1):
        raise NotApplicable(f"{name} must have exactly {'two results' if both else 'one result'}")
    if attrs is NO_ATTRS:
        raise NotApplicable(f"{name} must have composite_attributes")
    k = int_attr(attrs, "k")
    dim = int_attr(attrs, "dim")
    for key, v in (("k", k), ("dim", dim)):
        if v is not None and not -(2**31) <= v < 2**31:
            raise NotApplicable(f"{key} value is too large for i32: {v}")
    largest, sorted_ = bool_attr(attrs, "largest"), bool_attr(attrs, "sorted")
    props = {"k": IntegerAttr(1 if k is None else k, I32), "dim": IntegerAttr(-1 if dim is None else dim, I32),
             "largest": BoolAttr(True if largest is None else largest), "sorted": BoolAttr(bool(sorted_))}  # fmt: skip
    x = tensor(op.operands[0])
    if both:
        types = [op.results[0].type, op.results[1].type]
    elif name == "tenstorrent.topk_values":
        types = [op.results[0].type, TensorType(tensor(op.results[0]).shape, I32)]
    else:
        types = [TensorType(tensor(op.results[0]).shape, x.element_type), op.results[0].type]
    new = rw.emit("topk", [op.operands[0]], types, props)
    if both:
        return results(new)
    return [new.results[0 if name == "tenstorrent.topk_values" else 1]]


@rule("tenstorrent.argmax")
def _argmax(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    if len(op.operands) != 1 or len(op.results) != 1:
        raise NotApplicable("tenstorrent.argmax must have 1 operand and 1 result")
    dim = int_attr(attrs, "dim")
    keep = bool_attr(attrs, "keepdim")
    props = {"dim_arg": i32_array([-1 if dim is None else dim]), "keep_dim": BoolAttr(bool(keep))}
    return results(rw.emit("argmax", [op.operands[0]], [op.results[0].type], props))


@rule("tenstorrent.gather", "tenstorrent.gather_dim")
def _gather(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    name = _name(op)
    if len(op.operands) != 2:
        raise NotApplicable(f"{name} must have exactly 2 operands")
    one_result(op)
    dim = int_attr(attrs, "dim")
    if dim is None:
        raise NotApplicable(f"{name} requires integer 'dim' attribute")
    x, index = op.operands
    it = tensor(index)
    element = it.element_type.resolve().text
    if not element.startswith(("i", "si", "ui")) or element == "index":
        raise NotApplicable("Index tensor must be of an integer type")
    if element not in ("ui32", "ui16"):
        index = rw.emit("typecast", [index], [TensorType(it.shape, UI32)]).results[0]
    if len(dims(x)) != len(dims(index)):
        raise NotApplicable("Index and Input tensors must have same rank")
    if not it.shape:
        raise NotApplicable("0-rank tensors (scalars) are not supported.")
    return results(rw.emit("gather", [x, index], [op.results[0].type], {"dim": IntegerAttr(dim, I32)}))


@rule("tenstorrent.scaled_dot_product_attention")
def _sdpa(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    one_result(op)
    operands = list(op.operands)
    if not 3 <= len(operands) <= 4:
        raise NotApplicable("scaled_dot_product_attention takes query, key, value and an optional attention_mask")
    props: dict[str, Attribute] = {}
    causal = bool_attr(attrs, "is_causal")
    if causal is not None:
        props["is_causal"] = BoolAttr(causal)
    if attrs.get("scale") is not None and isinstance(attrs.get("scale").resolve(), FloatAttr):
        props["scale"] = f32(attrs.get("scale"), "scale")
    causal = True if causal is None else causal
    rank = len(dims(operands[0]))
    if rank not in (3, 4):
        raise NotApplicable("query rank must be 3 or 4")
    head = rank == 3
    if head and any(len(dims(v)) != 3 for v in operands[:3]):
        raise NotApplicable("query, key and value must all have the same rank")

    def with_head(v: Value) -> Value:
        s = dims(v)
        return rw.reshape(v, [s[0], 1, *s[1:]])

    ins = [with_head(v) if head else v for v in operands[:3]]
    masked = not causal and len(operands) == 4
    if masked:
        mask = operands[3]
        ms = dims(mask)
        if len(ms) > 4:
            raise NotApplicable("attention_mask rank must be <= 4")
        if head and len(ms) == 3:
            mask = with_head(mask)
        elif len(ms) < 4:
            mask = rw.reshape(mask, [1] * (4 - len(ms)) + ms)
        ins.append(mask)
    props["operandSegmentSizes"] = segments(1, 1, 1, int(masked), 0)
    out = tensor(op.results[0])
    if not head:
        return results(rw.emit("scaled_dot_product_attention", ins, [op.results[0].type], props))
    s = dims(op.results[0])
    y = rw.emit("scaled_dot_product_attention", ins, [TensorType((s[0], 1, *s[1:]), out.element_type)], props)
    return [rw.reshape(y.results[0], s)]


@rule("tenstorrent.uniform")
def _uniform(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    one_result(op)
    shape = attrs.get("shape")
    if shape is None or not isinstance(shape.resolve(), ArrayAttr) or len(op.operands) < 3:
        raise NotApplicable("tenstorrent.uniform needs a 'shape' array and (seed, low, high) operands")
    bounds = []
    for v, what in ((op.operands[1], "low"), (op.operands[2], "high")):
        src = v.op if isinstance(v, OpResult) else None
        value = src.properties.get("value") if src is not None and src.name == "stablehlo.constant" else None
        got = value.resolve().values if isinstance(value, DenseElementsAttr) else None
        if isinstance(got, list) and len(got) == 1:
            got = got[0]
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            raise NotApplicable(f"the {what} operand must be a scalar float constant")
        bounds.append(f32_attr(float(got)))
    # tt-metal seeds on each run; tt-mlir writes 0 (the StableHLO seed is a tensor, tt-metal's a number).
    props = {"size": shape.resolve(), "low": bounds[0], "high": bounds[1], "seed": IntegerAttr(0, UI32)}
    return results(rw.emit("rand", [], [op.results[0].type], props))


ADAMW_FLOATS = ("lr", "beta1", "beta2", "beta1_pow", "beta2_pow", "epsilon", "weight_decay")


@rule("tenstorrent.adamw")
def _adamw(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    n = len(op.operands)
    if n not in (4, 5):
        raise NotApplicable("tenstorrent.adamw must have 4 or 5 operands (param, grad, exp_avg, exp_avg_sq, [max_exp_avg_sq])")
    if len(op.results) != n - 1:
        raise NotApplicable("tenstorrent.adamw must have one result per updated operand")
    if attrs is NO_ATTRS:
        raise NotApplicable("tenstorrent.adamw must have composite_attributes")
    props: dict[str, Attribute] = {}
    for key in ADAMW_FLOATS:
        a = attrs.get(key)
        if a is None or not isinstance(a.resolve(), FloatAttr):
            raise NotApplicable(f"tenstorrent.adamw requires float '{key}' attribute")
        props[key] = f32(a, key)
    props["stochastic_rounding"] = BoolAttr(bool(bool_attr(attrs, "stochastic_rounding")))
    return results(rw.emit("adamw", list(op.operands), [r.type for r in op.results], props))


MASK_TYPES = ("none", "causal", "arbitrary")


def _mask_type(attrs: DictAttr, default: int, name: str) -> int:
    kind = int_attr(attrs, "mask_type")
    kind = default if kind is None else kind
    if kind not in (0, 1, 2):
        raise NotApplicable(f"{name} mask_type must be 0 (None), 1 (Causal), or 2 (Arbitrary).")
    return kind


def _dropout(attrs: DictAttr) -> FloatAttr:
    a = attrs.get("dropout_probability")
    return f32(a, "dropout_probability") if a is not None and isinstance(a.resolve(), FloatAttr) else f32_attr(0.0)


@rule("tenstorrent.sdpa_fw")
def _sdpa_fw(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    n, r = len(op.operands), len(op.results)
    if n not in (3, 4):
        raise NotApplicable("tenstorrent.sdpa_fw must have 3 or 4 operands (query, key, value, [attention_mask]).")
    if r not in (1, 2):
        raise NotApplicable("tenstorrent.sdpa_fw must have 1 or 2 results (output, [intermediates]).")
    kind = _mask_type(attrs, 1, "tenstorrent.sdpa_fw")
    if (n == 4) != (kind == 2):
        raise NotApplicable("tenstorrent.sdpa_fw attention_mask operand must be present iff mask_type is arbitrary.")
    props = {"mask_type": DialectAttr("ttcore.attention_mask_type", MASK_TYPES[kind]), "dropout_probability": _dropout(attrs),
             "return_intermediates": BoolAttr(r == 2)}  # fmt: skip
    return results(rw.emit("sdpa_fw", list(op.operands), [x.type for x in op.results], props))


@rule("tenstorrent.sdpa_bw")
def _sdpa_bw(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    n = len(op.operands)
    if n not in (6, 7):
        raise NotApplicable("tenstorrent.sdpa_bw must have 6 or 7 operands")
    if len(op.results) != 3:
        raise NotApplicable("tenstorrent.sdpa_bw must have 3 results (grad_query, grad_key, grad_value).")
    kind = _mask_type(attrs, 2, "tenstorrent.sdpa_bw")
    if (n == 7) != (kind == 2):
        raise NotApplicable("tenstorrent.sdpa_bw attention_mask operand must be present iff mask_type is arbitrary.")
    props = {"mask_type": DialectAttr("ttcore.attention_mask_type", MASK_TYPES[kind]), "dropout_probability": _dropout(attrs)}
    return results(rw.emit("sdpa_bw", list(op.operands), [x.type for x in op.results], props))


@rule(ALL_SLICE)
def _all_slice(rw: Rewriter, op: Operation, attrs: DictAttr) -> list[Value]:
    # ttopt's own sharding pipeline writes {axis, dim} (convert-to-ttir lowers that form);
    # tt-mlir's writes the result sharding, which is lowered here as tt-mlir does.
    out = attrs.get("out_sharding")
    if out is None:
        raise NotApplicable("out_sharding attribute is required")
    if len(op.operands) != 1:
        raise NotApplicable("sdy.all_slice composite op must have exactly one input operand")
    from ttopt.sharding.convert_ttir import shard_spec
    from ttopt.sharding.diagnostics import typed
    from ttopt.sharding.mesh import the_mesh

    mesh = the_mesh(rw.module, what="the sdy.all_slice composite")
    spec = shard_spec(rw.module, op, mesh, typed(rw.module, op, out, "out_sharding"), "out_sharding")
    sizes = list(mesh.tt_shape())
    v = op.operands[0]
    for axis, dim in enumerate(spec.dims):
        if dim < 0:
            continue
        t = tensor(v)
        shape = dims(v)
        if dim >= len(shape) or shape[dim] % sizes[axis]:
            raise NotApplicable("Dimension size must be static and divisible by mesh axis size.")
        shape[dim] //= sizes[axis]
        v = rw.emit("mesh_partition", [v], [TensorType(tuple(shape), t.element_type, t.encoding)],
                    {"dim": IntegerAttr(dim, SI32), "cluster_axis": IntegerAttr(axis, UI32)}).results[0]  # fmt: skip
    return [v]


NO_ATTRS = DictAttr({})  # the op has no attribute dictionary at all (some rules require one)

# Composites that tt-mlir's stablehlo-pipeline turns into `stablehlo.custom_call`s (marked
# `tt.has_custom_sharding`, attributes in `tt.composite_attributes`) so Shardy sees one op.
CUSTOM_CALLS = frozenset({"tenstorrent.rms_norm", "tenstorrent.topk", "tenstorrent.topk_values", "tenstorrent.topk_indices",
                          "tenstorrent.argmax", "tenstorrent.scaled_dot_product_attention", "tenstorrent.gather",
                          "tenstorrent.gather_dim"})  # fmt: skip
# Their distributed form (the reduced dimension sharded across devices) needs collectives.
DISTRIBUTED = frozenset({"tenstorrent.topk", "tenstorrent.topk_values", "tenstorrent.topk_indices", "tenstorrent.argmax"})


def _string(a: Attribute | None) -> str:
    a = a.resolve() if a is not None else None
    return a.value if isinstance(a, StringAttr) else ""


def _name(op: Operation) -> str:
    if op.name == "stablehlo.custom_call":
        return _string(op.properties.get("call_target_name") or op.attributes.get("call_target_name"))
    return _string(op.properties.get("name"))


def _attrs(op: Operation) -> DictAttr:
    a = op.properties.get("composite_attributes") if op.name == "stablehlo.composite" else op.attributes.get("tt.composite_attributes")
    a = a.resolve() if a is not None else None
    return a if isinstance(a, DictAttr) else NO_ATTRS


def _candidate(op: Operation) -> bool:
    if op.name == "stablehlo.composite":
        return True
    return op.name == "stablehlo.custom_call" and "tt.has_custom_sharding" in op.attributes and _name(op) in CUSTOM_CALLS


def _on_many_devices(op: Operation) -> bool:
    """Inside a manual computation: the op runs per device on local shards."""
    cur = op.parent_op
    while cur is not None:
        if cur.name == "sdy.manual_computation":
            return True
        cur = cur.parent_op
    return False


@register_pass
@dataclass
class LegalizeStableHLOCompositeToTTIR(Pass):
    """`stablehlo.composite` ops that name a TTIR op become that op; others are left alone."""

    name = "legalize-stablehlo-composite-to-ttir"
    summary = "stablehlo.composite \"tenstorrent.*\" (gelu, norms, topk, argmax, gather, sdpa, uniform, adamw; their tt.has_custom_sharding custom_calls) and sdy.all_slice -> TTIR ops"

    def run(self, module: Module, ctx: PassContext) -> None:
        done: dict[str, int] = {}
        left: list[str] = []
        for op in [o for o in module.walk() if _candidate(o)]:
            name = _name(op)
            fn = RULES.get(name)
            if fn is None:
                continue
            rw = Rewriter(module, op)
            before = len(op.parent.ops) if op.parent is not None else 0
            try:
                attrs = _attrs(op)
                if op.name == "stablehlo.custom_call" and attrs is NO_ATTRS:
                    raise NotApplicable("missing attributes on converted custom_call op")
                if op.name == "stablehlo.custom_call" and name in DISTRIBUTED and _on_many_devices(op):
                    raise NotApplicable("the distributed form (inside a manual computation) is not implemented in ttopt")
                new = fn(rw, op, attrs)
            except NotApplicable as e:
                # Undo what the rule built before it gave up (its ops are unused so far).
                block = op.parent
                assert block is not None
                while len(block.ops) > before:
                    at = block.index(op) - 1
                    block.ops[at].erase()
                left.append(f"{name}: {e}")
                continue
            for r, v in zip(op.results, new):
                r.replace_all_uses_with(v)
            op.erase()
            done[name] = done.get(name, 0) + 1
        ctx.stats.setdefault(self.name, {}).update({"lowered": done, "left": len(left)})
        if ctx.trace.enabled:
            for why in left:
                ctx.trace.print(f"[bold]{self.name}[/bold]: left for its decomposition: {why}")


@register_pass
@dataclass
class LegalizeCompositeToCall(Pass):
    """Each `stablehlo.composite` becomes a `func.call` of its decomposition (StableHLO's pass)."""

    name = "stablehlo-legalize-composite-to-call"
    summary = "stablehlo.composite -> func.call @decomposition (the inliner then inlines it)"

    def run(self, module: Module, ctx: PassContext) -> None:
        n = 0
        for op in [o for o in module.walk() if o.name == "stablehlo.composite"]:
            callee = op.properties.get("decomposition")
            if not isinstance(callee, SymbolRefAttr):
                continue
            call = Operation("func.call", list(op.operands), [r.type for r in op.results], properties={"callee": callee},
                             location=op.location)  # fmt: skip
            call.pos = op.pos
            block = op.parent
            assert block is not None
            block.insert(block.index(op), call)
            for r, v in zip(op.results, call.results):
                r.replace_all_uses_with(v)
            op.erase()
            n += 1
        ctx.stats.setdefault(self.name, {})["calls"] = n
