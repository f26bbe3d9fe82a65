"""`convert-stablehlo-to-ttir`: StableHLO compute ops to TTIR ops.

Ops are written in generic form with upstream tt-mlir's property spellings and without DPS output
operands. Elementwise ops map one to one; a `reduce` with one add/max/min/multiply/and/or body
becomes sum/max/min/prod/reduce_and/reduce_or (its init folded in unless it is the identity);
`broadcast_in_dim` becomes [permute +] reshape + `ttir.broadcast` (repeat factors per dim). Any other
StableHLO or CHLO op is a diagnostic at its position, never left behind silently, unless
`enable-partial-conversion` (tt-mlir's, for the CPU fallback of `stablehlo-to-ttir-pipeline`) leaves
it, and the fallback's allow-listed ops, as they are. The op families
in `stablehlo_ops/` (convolution, dot_general, gather/scatter, reduce_window, pad and slices, ...) register their
own lowerings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, cast

from ttopt.dialects.format_base import enum_value
from ttopt.ir.attributes import ArrayAttr, Attribute, BoolAttr, DenseArrayAttr, DenseElementsAttr, IntegerAttr
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.float_spelling import round_to
from ttopt.ir.operation import Operation
from ttopt.ir.properties import props
from ttopt.ir.types import ScalarType, TensorType
from ttopt.ir.values import OpResult
from ttopt.lowering.cpu_hoist_shlo import CPU_FALLBACK_OPS
from ttopt.lowering.dense_values import DenseValueError, flat_values, nested_text, splat_value, wrap_int
from ttopt.lowering.stablehlo_handlers import HANDLERS, Unsupported, lowers
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.diagnostics import where
from ttopt.sharding.ir_views import StaticTensorType, static_tensor

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

PASS = "convert-stablehlo-to-ttir"
__all__ = ["HANDLERS", "Lowering", "Unsupported", "lowers", "splat_value"]
I32, SI32, SI64, I64 = (ScalarType(n) for n in ("i32", "si32", "si64", "i64"))

UNARY = {
    "abs": "abs", "negate": "neg", "exponential": "exp", "log": "log", "tanh": "tanh", "sqrt": "sqrt",
    "rsqrt": "rsqrt", "logistic": "sigmoid", "ceil": "ceil", "floor": "floor", "sine": "sin", "cosine": "cos",
    "tan": "tan", "cbrt": "cbrt", "sign": "sign", "exponential_minus_one": "expm1", "log_plus_one": "log1p",
    "is_finite": "isfinite", "convert": "typecast", "bitcast_convert": "bitcast_convert",
}  # fmt: skip
CHLO_UNARY = {"erf": "erf", "square": "square"}
BINARY = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "div", "maximum": "maximum",
    "minimum": "minimum", "power": "pow", "remainder": "remainder", "atan2": "atan2",
}  # fmt: skip
LOGICAL = ("and", "or", "xor")
COMPARE = {"EQ": "eq", "NE": "ne", "GT": "gt", "GE": "ge", "LT": "lt", "LE": "le"}
CONSTANTS = ("stablehlo.constant", "ttir.constant")
REDUCE = {"add": "sum", "maximum": "max", "minimum": "min", "multiply": "prod", "and": "reduce_and", "or": "reduce_or"}


def _i32s(values: Any) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


def _i64s(values: Any) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(int(v) for v in values))


def _static(t: Any) -> StaticTensorType:
    t = t.resolve()
    if not isinstance(t, TensorType) or not t.is_ranked or any(d is None for d in t.shape or ()):
        raise Unsupported(f"TTIR needs static shapes, got {t.text}")
    return static_tensor(t)


def _element(v: Value) -> str:
    return _static(v.type).element_type.resolve().text


def _identity(kind: str, element: str) -> tuple[Any, ...]:
    """Values of the init that leave a reduction unchanged."""
    inf = float("inf")
    if element == "i1":
        return {"reduce_and": (True,), "reduce_or": (False,)}.get(kind, ())
    if element.startswith(("i", "si", "ui")):
        bits = int(element.lstrip("sui"))
        lo = 0 if element.startswith("ui") else -(1 << (bits - 1))
        hi = (1 << bits) - 1 if element.startswith("ui") else (1 << (bits - 1)) - 1
        return {"sum": (0,), "prod": (1,), "max": (lo,), "min": (hi,)}.get(kind, ())
    return {"sum": (0.0,), "prod": (1.0,), "max": (-inf,), "min": (inf,)}.get(kind, ())


def _wrapped_splat(value: Attribute) -> Attribute:
    """A splat integer constant wrapped to its type's range, as MLIR reprints it
    (`dense<9223372036854775808> : tensor<i64>` is -9223372036854775808). Floats need nothing
    here: a dense literal prints in MLIR's spelling whatever it was written as."""
    a = value.resolve()
    if not isinstance(a, DenseElementsAttr) or a.body.lstrip().startswith('"') or not a.is_splat:
        return value
    t = a.type.resolve()
    element = t.element_type.resolve().text if isinstance(t, TensorType) else ""
    if element[:1] not in ("i", "s", "u") or element == "i1":
        return value
    v = splat_value(a, element)
    spelled = a.body.strip()
    if isinstance(v, int) and not isinstance(v, bool) and spelled.lstrip("-").isdigit() and str(wrap_int(v, element)) != spelled:
        return DenseElementsAttr(str(wrap_int(v, element)), a.type)
    return value


@dataclass
class Lowering:
    """Rewrites one module's StableHLO compute ops; `counts` are the TTIR ops it created."""

    module: Module
    # MLIR's partial conversion (tt-mlir's enable-partial-conversion): an op the conversion cannot
    # take stays as it is instead of being an error, and so do the CPU fallback's allow-listed ops.
    partial: bool = False

    def __post_init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.anchor: Operation | None = None
        # The block being rebuilt and its new op list: ops emitted before an anchor in it are
        # appended here (the block's list is replaced once, not inserted into per op).
        self._block: Any = None
        self._out: list[Operation] = []

    def place(self, op: Operation) -> Operation:
        """Put `op` (a new op) before the op being lowered, at its position."""
        anchor = self.anchor
        assert anchor is not None and anchor.parent is not None
        op.pos = anchor.pos
        if anchor.parent is self._block:
            op.parent = self._block
            self._out.append(op)
        else:
            block = anchor.parent
            block.insert(block.index(anchor), op)
        self.counts[op.name] = self.counts.get(op.name, 0) + 1
        return op

    # -- building ----------------------------------------------------------------------------
    def emit(self, name: str, operands: list[Value], result: Any, **properties: Attribute) -> Value:
        """A `ttir.<name>` op before the op being lowered; its result."""
        return self.emit_op(f"ttir.{name}", operands, result, **properties)

    def emit_op(self, name: str, operands: list[Value], result: Any, **properties: Attribute) -> Value:
        """An op of full name `name` (one result) before the op being lowered; its result."""
        anchor = self.anchor
        assert anchor is not None
        op = Operation(name, operands, [result], properties=dict(sorted(properties.items())), location=anchor.location)
        return self.place(op).results[0]

    def reshape(self, v: Value, shape: tuple[int, ...]) -> Value:
        t = _static(v.type)
        return v if tuple(t.shape) == tuple(shape) else self.emit("reshape", [v], t.with_shape(shape), shape=_i32s(shape))

    def permute(self, v: Value, perm: list[int]) -> Value:
        t = _static(v.type)
        if perm == list(range(len(perm))):
            return v
        return self.emit("permute", [v], t.with_shape(tuple(t.shape[p] for p in perm)), permutation=_i64s(perm))

    def broadcast(self, v: Value, result: StaticTensorType, dims: list[int], always: bool = False) -> Value:
        """StableHLO broadcast_in_dim semantics: operand dim i becomes result dim dims[i]; the
        `ttir.broadcast` is left out when every factor is 1 unless `always` (HEAD's
        broadcast_in_dim lowering writes one even then)."""
        if sorted(dims) != dims:
            order = sorted(range(len(dims)), key=lambda i: dims[i])
            v, dims = self.permute(v, order), sorted(dims)
        src = _static(v.type).shape
        shape = [1] * len(result.shape)
        for i, d in enumerate(dims):
            shape[d] = src[i]
        v = self.reshape(v, tuple(shape))
        factors = [r // s if s == 1 else 1 for r, s in zip(result.shape, shape)]
        if always or any(f != 1 for f in factors):
            v = self.emit("broadcast", [v], cast(TensorType, result), broadcast_dimensions=_i64s(factors))
        return v

    def broadcast_to(self, v: Value, like: Value) -> Value:
        """`v` (a scalar or same-shaped tensor) broadcast to the shape of `like`."""
        t, want = _static(v.type), _static(like.type)
        if tuple(t.shape) == tuple(want.shape):
            return v
        if t.shape:
            raise Unsupported(f"cannot broadcast {v.type.text} to {like.type.text}")
        return self.broadcast(v, static_tensor(TensorType(want.shape, t.element_type, t.encoding)), [])

    # -- ops -----------------------------------------------------------------------------------
    def lower(self, op: Operation) -> list[Value] | None:
        """TTIR values replacing `op`'s results, or None when `op` is not a StableHLO/CHLO op."""
        dialect, _, name = op.name.partition(".")
        if op.name == "tensor.empty" and not op.operands:
            _static(op.results[0].type)
            return [self.emit("empty", [], op.results[0].type)]  # HEAD's EmptyOp conversion
        if dialect not in ("stablehlo", "chlo"):
            return None
        for v in [*op.operands, *op.results]:
            _static(v.type)
        registered = HANDLERS.get(op.name)
        if registered is not None:
            return registered(self, op)
        res = op.results[0].type if op.results else None
        ins = list(op.operands)
        if dialect == "chlo":
            if name in CHLO_UNARY:
                return [self.emit(CHLO_UNARY[name], ins, res)]
            raise Unsupported("")
        if name in UNARY:
            return [self.emit(UNARY[name], ins, res)]
        if name in BINARY:
            return [self.emit(BINARY[name], ins, res)]
        if name in LOGICAL:
            folded = self._boolean_bitwise(op, name)
            if folded is not None:
                return [folded]
        if name in LOGICAL or name == "not":
            kind = "logical" if _element(ins[0]) == "i1" else "bitwise"
            return [self.emit(f"{kind}_{name}", ins, res)]
        handler: Callable[[Operation], Value] | None = getattr(self, f"_{name}", None)
        if handler is None:
            raise Unsupported("")
        return [handler(op)]

    def _boolean_bitwise(self, op: Operation, name: str) -> Value | None:
        """XLA writes a boolean and/or/xor as the integer op on converted i1 values, then `!= 0`;
        HEAD lowers it to the logical op on the i1 values, its sole `compare NE` user folded away
        (else the logical result converted back to the integer type)."""
        sources = []
        for v in op.operands:
            d = v.op if isinstance(v, OpResult) else None
            if _element(v) == "i1" or d is None or d.name != "ttir.typecast" or _element(d.operands[0]) != "i1":
                return None
            sources.append(d.operands[0])
        res = _static(op.results[0].type)
        logical = self.emit(f"logical_{name}", sources, TensorType(res.shape, ScalarType("i1"), res.encoding))
        users = op.results[0].uses
        user = users[0] if len(users) == 1 else None
        if user is not None and user.name == "stablehlo.compare" and enum_value(user.properties.get("comparison_direction")) == "NE":
            user.results[0].replace_all_uses_with(logical)
            user.erase()
            return logical
        return self.emit("typecast", [logical], op.results[0].type)

    def _compare(self, op: Operation) -> Value:
        direction = enum_value(op.properties.get("comparison_direction"))
        if direction not in COMPARE:
            raise Unsupported(f"comparison direction {direction}")
        a, b = op.operands
        peeled = self._peel_upcast(a, b) or self._peel_upcast(b, a)
        if peeled is not None:
            a, b = peeled if isinstance(a, OpResult) and a.op.name == "ttir.typecast" else peeled[::-1]
        return self.emit(COMPARE[direction], [a, b], op.results[0].type)

    def _peel_upcast(self, wide: Value, const: Value) -> tuple[Value, Value] | None:
        """(narrow input, narrowed constant) when `wide` is a float upcast (`bf16 -> f64`) and
        `const` a float constant every element of which the narrow type holds: HEAD compares in
        the narrow type, as the frontend's eager semantics do (PyTorch/XLA upcasts `bf16 < 0.99`)."""
        cvt = wide.op if isinstance(wide, OpResult) else None
        cst = const.op if isinstance(const, OpResult) else None
        if cvt is None or cst is None or cvt.name != "ttir.typecast" or cst.name not in CONSTANTS:
            return None
        narrow, wider = _element(cvt.operands[0]), _element(wide)
        bits = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
        if narrow not in bits or wider not in bits or bits[narrow] >= bits[wider]:
            return None
        attr = cst.properties.get("value") or cst.attributes.get("value")
        a = attr.resolve() if attr is not None else None
        if not isinstance(a, DenseElementsAttr):
            return None
        t = _static(const.type)
        shape = () if a.is_splat else tuple(t.shape)
        try:
            values = flat_values(a, wider, shape)
        except DenseValueError:
            return None
        rounded = [round_to(float(v), narrow) for v in values]
        if any(abs(r) == float("inf") and abs(float(v)) != float("inf") for r, v in zip(rounded, values)):
            return None  # overflows the narrow type (APFloat's conversion fails)
        narrow_t = TensorType(t.shape, cvt.operands[0].type.resolve().element_type, t.encoding)
        body = nested_text(rounded, shape, narrow)
        return cvt.operands[0], self.emit("constant", [], narrow_t, value=DenseElementsAttr(body, narrow_t))

    def _select(self, op: Operation) -> Value:
        pred, a, b = op.operands
        return self.emit("where", [self.broadcast_to(pred, a), a, b], op.results[0].type)

    def _clamp(self, op: Operation) -> Value:
        lo, x, hi = op.operands
        # Rank-0 bounds stay rank 0, as HEAD writes them (ttir.clamp_tensor broadcasts its operands).
        return self.emit("clamp_tensor", [x, lo, hi], op.results[0].type)

    def _constant(self, op: Operation) -> Value:
        return self.emit("constant", [], op.results[0].type, value=_wrapped_splat(op.properties["value"]))

    def _iota(self, op: Operation) -> Value:
        t = _static(op.results[0].type)
        dim = props(op).iota_dimension
        return self.emit("arange", [], t, start=IntegerAttr(0, SI64), end=IntegerAttr(t.shape[dim], SI64),
                         step=IntegerAttr(1, SI64), arange_dimension=IntegerAttr(dim, I64))  # fmt: skip

    def _dynamic_iota(self, op: Operation) -> Value:
        """Its result type is static here, so its shape operand adds nothing (HEAD lowers both iotas alike)."""
        t = _static(op.results[0].type)
        a = op.properties.get("iota_dimension") or op.attributes.get("iota_dimension")
        dim = getattr(a.resolve(), "value", None) if a is not None else None
        if not isinstance(dim, int) or not 0 <= dim < len(t.shape):
            raise Unsupported(f"iota_dimension {dim} of a rank-{len(t.shape)} result")
        return self.emit("arange", [], t, start=IntegerAttr(0, SI64), end=IntegerAttr(t.shape[dim], SI64),
                         step=IntegerAttr(1, SI64), arange_dimension=IntegerAttr(dim, I64))  # fmt: skip

    def _reshape(self, op: Operation) -> Value:
        t = _static(op.results[0].type)
        return self.emit("reshape", [op.operands[0]], t, shape=_i32s(t.shape))

    def _transpose(self, op: Operation) -> Value:
        return self.emit("permute", [op.operands[0]], op.results[0].type, permutation=_i64s(props(op).permutation))

    def _broadcast_in_dim(self, op: Operation) -> Value:
        return self.broadcast(op.operands[0], _static(op.results[0].type), list(props(op).broadcast_dimensions), always=True)

    def _slice(self, op: Operation) -> Value:
        p = props(op)
        return self.emit("slice_static", [op.operands[0]], op.results[0].type, begins=_i32s(p.start_indices),
                         ends=_i32s(p.limit_indices), step=_i32s(p.strides))  # fmt: skip

    def _concatenate(self, op: Operation) -> Value:
        return self.emit("concat", list(op.operands), op.results[0].type, dim=IntegerAttr(props(op).dimension, SI32))

    def _reverse(self, op: Operation) -> Value:
        return self.emit("reverse", [op.operands[0]], op.results[0].type, dimensions=_i64s(props(op).dimensions))

    def _reduce(self, op: Operation) -> Value:
        if len(op.operands) != 2:
            raise Unsupported("a multi-operand reduce")
        x, init = op.operands
        body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        inner = body.ops if body is not None else []
        ok = (body is not None and len(inner) == 2 and inner[-1].name == "stablehlo.return" and inner[0].name.startswith("stablehlo.")
              and inner[0].name[10:] in REDUCE and list(inner[0].operands) in (body.args, body.args[::-1])
              and list(inner[1].operands) == [inner[0].results[0]])  # fmt: skip
        if not ok:
            raise Unsupported("its body is not one add/maximum/minimum/multiply/and/or")
        combiner = inner[0].name[10:]
        kind = REDUCE[combiner]
        element = _element(x)
        if kind.startswith("reduce_") and element != "i1":
            raise Unsupported(f"'{combiner}' reduction over {element} (reduce_and/reduce_or take i1)")
        res = op.results[0].type
        y = self.emit(kind, [x], res, keep_dim=BoolAttr(False), dim_arg=_i32s(props(op).dimensions))
        src = init.op if isinstance(init, OpResult) else None
        value = splat_value(src.properties["value"], element) if src is not None and src.name in CONSTANTS else None
        if value is not None and value in _identity(kind, element):
            return y
        tt = {"add": "add", "maximum": "maximum", "minimum": "minimum", "multiply": "multiply"}
        name = tt.get(combiner) or f"logical_{combiner}"
        return self.emit(name, [y, self.broadcast_to(init, y)], res)

    # -- driving -------------------------------------------------------------------------------
    def fail(self, op: Operation, reason: str) -> Diagnostic:
        # MLIR's conversion framework words it so; tt-mlir's negative tests check these words.
        why = f": {reason}" if reason else ""
        return Diagnostic(f"failed to legalize operation '{op.name}' to TTIR{why}", where(self.module, op))

    def convert_block(self, block: Any) -> None:
        """Lower every StableHLO op of `block` (and of regions of other ops inside it). The block's
        op list is rebuilt in one pass: inserting before each lowered op and erasing it would
        cost a scan of the block per op."""
        old = list(block.ops)
        out: list[Operation] = []
        saved = self._block, self._out
        self._block, self._out = block, out
        i = 0
        try:
            for i, op in enumerate(old):  # noqa: B007 (i: where a failure stopped)
                if op.parent is not block:
                    continue  # erased by the lowering of an earlier op that absorbed it
                self.anchor = op
                if self.partial and op.name in CPU_FALLBACK_OPS:
                    out.append(op)  # tt-mlir has no pattern for them: left for the CPU fallback's hoist
                    continue
                emitted, counts = (len(out), dict(self.counts)) if self.partial else (0, self.counts)  # a rollback's state
                try:
                    new = self.lower(op)
                except Unsupported as e:
                    if not self.partial:
                        raise self.fail(op, str(e)) from None
                    # A partial conversion leaves the op as it was (its region too): what its lowering
                    # emitted before it gave up goes.
                    for dropped in out[emitted:]:
                        dropped.drop_all_references()
                        dropped.parent = None
                    del out[emitted:]
                    self.counts = counts
                    out.append(op)
                    continue
                if new is None:
                    out.append(op)
                    for region in op.regions:
                        for b in region.blocks:
                            self.convert_block(b)
                    continue
                for r, v in zip(op.results, new):
                    r.replace_all_uses_with(v)
                op.drop_all_references()
                op.parent = None
            i = len(old)
        finally:
            self._block, self._out = saved
            block.ops = out + [o for o in old[i:] if o.parent is block]


@register_pass
@dataclass
class ConvertStablehloToTTIR(Pass):
    """StableHLO compute ops to TTIR ops (generic form, no DPS operands); others are diagnostics."""

    name = PASS
    summary = "StableHLO/CHLO compute ops -> TTIR (elementwise, matmul/dot_general, conv2d, reductions, data movement)"

    enable_partial_conversion: bool = option(False, "Leave the ops the conversion cannot take (and the CPU fallback's allow-listed ops) as they are instead of failing (tt-mlir's partial conversion, for enable-cpu-fallback)")

    def run(self, module: Module, ctx: PassContext) -> None:
        low = Lowering(module, partial=self.enable_partial_conversion)
        for f in module.functions():
            for region in f.regions:
                for b in region.blocks:
                    low.convert_block(b)
        ctx.stats.setdefault(self.name, {}).update(low.counts)
