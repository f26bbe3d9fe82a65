"""`convert-ttir-to-ttnn`: TTIR compute ops to TTNN ops, every tensor in a tiled DRAM-interleaved
`#ttnn.ttnn_layout` but input arguments (row-major) and conv weights (on the host), as tt-mlir's
TTNNLayout pass leaves a program before the optimizer.

* Types: every ranked tensor of a function (arguments, results, op results) gets the layout of its
  shape and element type: tile, DRAM, interleaved, printed through `#ttnn_layoutN` aliases. Function
  arguments and results stay on the device in DRAM, as tt-mlir's pipeline leaves them, except
  arguments read only as conv weights or biases: those stay on the host, row-major. An argument
  typed `#ttcore.argument_type<input>` (not a KV cache, nor read by a mesh_shard or tt_lang_op) arrives
  row-major in DRAM and is tiled by a `ttnn.to_tensor_spec` before its first reader, as tt-mlir's
  TTNNLayout does; `ttnn-decompose-layouts` makes that a `ttnn.to_layout`.
* Ops: one TTNN op per TTIR op (conversion table below) with tt-mlir's attribute spellings, and one
  `ttnn.get_device` per function for the ops that take a device (conv2d, creation ops): the one
  convert-to-ttnn-ccl put there, else one with the module's mesh. A TTIR
  `broadcast` read only by elementwise ops becomes their implicit broadcast (no op); otherwise a
  `ttnn.repeat`. Ops TTNN has no counterpart for (`dot_general`, negative `pad`) are first rewritten
  by `ttir-to-ttir-decomposition` (ttir_decomposition.py).
  `conv2d` / pooling read and write the flattened NHWC form TTNN expects (`1x1x(N*H*W)xC`): an op
  `ttir-flatten-sliding-window` flattened is in that form already (N, H, W from its
  `flattened_compat_info`), a plain NHWC one is flattened and unflattened by `ttnn.reshape`s
  (ttnn_sliding_window.py). Destination-passing `ttir.empty` outputs are dropped.
  A splat `ttir.constant` becomes `ttnn.full` (tt-mlir canonicalizes it to `ttir.full` first).
  Element types are normalized as tt-mlir's ElementTypeNormalization (i1 -> bf16, f64 -> f32,
  32/64-bit integers -> si32 or ui32, 16-bit -> ui16, 8-bit -> ui8); float attributes of the ops
  built print as MLIR prints them (`3.000000e+00 : f32`).
* Anything else is an error at the op (`'ttir.foo' has no TTNN lowering`), never left behind; the
  ops HEAD compiles only through D2M (its ttir-to-ttmetal path: `D2M_ONLY`) say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable

from ttopt.device.tensor import element_dtype
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttir import BINARY, UNARY, inputs
from ttopt.dialects.ttnn_device import DEVICE_TYPE as DEVICE
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import ArrayAttr, BoolAttr, DenseArrayAttr, DenseElementsAttr, DialectAttr, FloatAttr, IntegerAttr, mlir_float_attr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.opdef import OP_DEFS
from ttopt.ir.operation import Block, Operation
from ttopt.ir.properties import int_values, props
from ttopt.ir.types import ScalarType, TensorType, static_shape
from ttopt.lowering.dense_values import DenseValueError, narrow_value, narrowed_body, splat_fill_value
from ttopt.lowering.function_types import is_cpu_declaration, is_hoisted_call, through_const_eval
from ttopt.lowering.op_error import OpError
from ttopt.lowering.quant_types import respelled
from ttopt.lowering.ttir_decomposition import TTIRToTTIRDecomposition, decompose
from ttopt.lowering.ttnn_adamw import ADAMW_RULES
from ttopt.lowering.ttnn_adamw import MULTI_RESULT as ADAMW_MULTI_RESULT
from ttopt.lowering.ttnn_batch_norm import BATCH_NORM_RULES
from ttopt.lowering.ttnn_batch_norm import MULTI_RESULT as BATCH_NORM_MULTI_RESULT
from ttopt.lowering.ttnn_cache import CACHE_RULES
from ttopt.lowering.ttnn_cache import NO_RESULT as CACHE_NO_RESULT
from ttopt.lowering.ttnn_canonicalized import CANONICALIZED_RULES
from ttopt.lowering.ttnn_ccl_ops import CCL_MULTI_RESULT, CCL_RULES
from ttopt.lowering.ttnn_conv1d import CONV1D_RULES
from ttopt.lowering.ttnn_conv3d import CONV3D_RULES
from ttopt.lowering.ttnn_conv_transpose import CONV_TRANSPOSE_RULES
from ttopt.lowering.ttnn_cpu_calls import around_hoisted_call, convert_call, host_declaration
from ttopt.lowering.ttnn_cpu_calls import to_layout as cpu_to_layout
from ttopt.lowering.ttnn_direct import DIRECT_MULTI_RESULT, DIRECT_RULES
from ttopt.lowering.ttnn_fused import FUSED_RULES
from ttopt.lowering.ttnn_group_norm import GROUP_NORM_RULES
from ttopt.lowering.ttnn_indexing import INDEXING_RULES
from ttopt.lowering.ttnn_indexing import MULTI_RESULT as INDEXING_MULTI_RESULT
from ttopt.lowering.ttnn_linear import LINEAR_RULES
from ttopt.lowering.ttnn_quantization import QUANTIZATION_RULES, quant_storage
from ttopt.lowering.ttnn_sdpa_training import MULTI_RESULT as SDPA_TRAINING_MULTI_RESULT
from ttopt.lowering.ttnn_sdpa_training import SDPA_TRAINING_RULES
from ttopt.lowering.ttnn_sliding_window import flat_input, flat_result_type, result_value, window
from ttopt.lowering.ttnn_transformer import TRANSFORMER_RULES
from ttopt.lowering.ttnn_tt_lang import MULTI_RESULT as TT_LANG_MULTI_RESULT
from ttopt.lowering.ttnn_tt_lang import TT_LANG_RULES
from ttopt.lowering.ttnn_upsample import UPSAMPLE_RULES
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.ttnn_collectives import module_mesh

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

SI32, I32, SI64, F32 = ScalarType("si32"), ScalarType("i32"), ScalarType("si64"), ScalarType("f32")
SI8 = ScalarType("si8")
RENAMED = {"div": "divide", "pow": "pow_tensor"}
# TTIR ops HEAD's TTIRToTTNN has no pattern for and its TTNN dialect no op: TTIRToD2M alone lowers them.
D2M_ONLY = frozenset({"exp2", "frac", "trunc", "signbit", "softsign", "selu", "right_shift", "rearrange"})
ELEMENTWISE = frozenset({*(f"ttir.{n}" for n in (*UNARY, *BINARY)), "ttir.where"})


# Element types TTNN has no data type for, and what tt-mlir's element-type normalization makes them.
# As HEAD's toTTMLIRSupportedDataType: signless and signed 32/64-bit integers are Int32 (si32),
# unsigned ones UInt32, 16-bit ones UInt16, 8-bit ones UInt8.
NORMALIZED = {"i1": "bf16", "f64": "f32", "i32": "si32", "i64": "si32", "si64": "si32", "ui64": "ui32", "i16": "ui16",
              "si16": "ui16", "i8": "ui8", "si8": "ui8"}  # fmt: skip


def normalized(t: TensorType) -> TensorType:
    """`t` as TTNN holds it: booleans, f64 and 64-bit integers take the type tt-mlir normalizes them to
    (rank-0 tensors stay rank 0, with HEAD's one-element `() -> (0, 0)` layout)."""
    elem = t.element_type.resolve()
    name = NORMALIZED.get(elem.text)
    return TensorType(tuple(t.shape or ()), ScalarType(name) if name is not None else respelled(elem))


def normalized_dense(a: Any, t: TensorType) -> Any:
    """A dense constant re-typed to `t` (its normalized type), its values converted as tt-mlir's
    element-type normalization converts them (`dense_values.narrowed_body`)."""
    at = a.type.resolve()
    src = at.element_type.resolve().text if isinstance(at, TensorType) else ""
    dst = t.element_type.resolve().text
    if not isinstance(a, DenseElementsAttr):
        # dense_resource: its values are not text ttopt can re-spell; other kinds (sparse, opaque)
        # are not values tt-mlir's ttir.constant takes.
        if not a.text.startswith("dense_resource<"):
            raise ValueError("value must be a dense<...> or dense_resource<...> attribute (as tt-mlir's ttir.constant verifies)")
        # HEAD's ElementTypeNormalization leaves a dense_resource value as it is (its type too),
        # even when the result's element type is normalized.
        return a
    if not src or src == dst:
        return DenseElementsAttr(a.body, t)
    try:
        return DenseElementsAttr(narrowed_body(a, src, dst, static_shape(t)), t)
    except DenseValueError as e:
        raise ValueError(f"has a constant of element type {src} that cannot be converted to {dst}: {e}") from None


class LoweringError(Diagnostic):
    """An op the lowering cannot convert (reported at the op)."""


def _i32s(values: Any) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


def _pair(a: Any, n: int = 2) -> tuple[int, ...]:
    """An `I32Attr` or `array<i32: ...>` attribute as n integers (one integer repeated)."""
    vals = int_values(a)
    if vals is None:
        v = getattr(a.resolve(), "value", None) if a is not None else None
        if not isinstance(v, int):
            raise ValueError(f"expected an integer or integer array, got {a.text if a is not None else 'nothing'}")
        vals = (v,)
    if len(vals) == 1:
        return vals * n
    return tuple(vals)


def _shape_attr(shape: tuple[int, ...]) -> DialectAttr:
    return DialectAttr("ttnn.shape", "x".join(map(str, shape)))


@lru_cache(maxsize=4096)
def _default_layout(shape: tuple[int, ...], dtype: str, host: bool, tiled: bool = True) -> TTNNLayoutAttr:
    """The layout a converted tensor gets: row-major in system memory on the host, else DRAM
    interleaved (tiles, or row-major for an input argument). Layouts are immutable and a function of
    these, and a 10k-op module has a few hundred distinct ones, so each is built once (raises
    AttrError, never cached)."""
    if host:
        return TTNNLayoutAttr.build(shape, dtype, tiled=False, buffer_type="system_memory")
    return TTNNLayoutAttr.build(shape, dtype, tiled=tiled, buffer_type="dram", memory_layout="interleaved")


def default_layout_type(t: Any, aliaser: LayoutAliaser, host: bool = False, tiled: bool = True) -> Any:
    """`t` normalized (`normalized`) with its DRAM-interleaved tile (or row-major) layout, or its
    row-major host layout (non-tensors unchanged); ValueError names what has no layout."""
    t = t.resolve() if hasattr(t, "resolve") else t
    if not isinstance(t, TensorType):
        return t
    if t.shape is None or any(not isinstance(d, int) for d in t.shape):
        raise ValueError(f"has a tensor of unknown shape ({t.text}); TTNN layouts need static shapes")
    t = normalized(t)
    shape = tuple(d for d in t.shape if isinstance(d, int))
    storage = quant_storage(t.element_type.resolve().text)
    # A quantized tensor's layout holds its storage type (HEAD's TTNNLayout), normalized.
    dt = element_dtype(TensorType(shape, ScalarType(NORMALIZED.get(storage, storage)))) if storage else element_dtype(t)
    if dt is None:
        raise ValueError(f"has element type {t.element_type.text}, which has no TTNN data type")
    try:
        lay = _default_layout(shape, dt.value, host, tiled)
    except AttrError as e:
        raise ValueError(e.message) from None
    return aliaser.tensor_type(t, lay)


class _Lowering:
    """One function's conversion."""

    def __init__(self, module: Any, func: Any, aliaser: LayoutAliaser, fold_broadcasts: bool = True, group_norm_decomposition: str = "none") -> None:
        self.module = module
        self.fold_broadcasts = fold_broadcasts
        self.group_norm_decomposition = group_norm_decomposition
        self.func = func
        self.aliaser = aliaser
        self.block = func.regions[0].entry if func.regions and func.regions[0].blocks else Block()  # a declaration has none
        self.device: Any = None
        self.out: list[Operation] = []
        # Host results of CPU-hoisted calls: moved to the device in front of their first device
        # reader (as tt-mlir's layout pass converts an operand at its reader), keyed by the value.
        self.host_results: dict[Any, Callable[[], None]] = {}

    # -- helpers --------------------------------------------------------------------------------
    def fail(self, op: Any, message: str) -> LoweringError:
        return LoweringError(f"convert-ttir-to-ttnn: '{op.name}' {message}", op_position(self.module.source, op))

    def layout_type(self, t: Any, op: Any, host: bool = False, tiled: bool = True) -> Any:
        """`t` normalized (`normalized`) with its DRAM-interleaved tile (or row-major) layout, or its
        row-major host layout (non-tensors unchanged)."""
        try:
            return default_layout_type(t, self.aliaser, host, tiled)
        except ValueError as e:
            raise self.fail(op, str(e)) from None

    def get_device(self) -> Any:
        """The function's one device: the `ttnn.get_device` already there (convert-to-ttnn-ccl's,
        with the program's mesh), else a new one with the module's mesh (1x1 without one)."""
        if self.device is None:
            op = next((o for o in self.block.ops if o.name == "ttnn.get_device" and not o.operands), None)
            if op is None:
                mesh = "x".join(map(str, _module_mesh(self.module)))
                op = Operation("ttnn.get_device", [], [DEVICE], properties={"mesh_shape": DialectAttr("ttnn", f"mesh_shape {mesh}")})
                self.out.insert(0, op)
            self.device = op.results[0]
        return self.device

    def emit(self, name: str, operands: list[Any], result_type: Any, properties: dict[str, Any] | None = None,
             location: Any = None) -> Any:  # fmt: skip
        # Float attributes print as MLIR prints them (`3.000000e+00 : f32`), not as the input spelled them.
        spelled = {k: mlir_float_attr(v) for k, v in (properties or {}).items()}
        op = Operation(name, operands, [result_type], properties=spelled, location=location)
        self.out.append(op)
        return op.results[0]

    def reshape(self, v: Any, shape: tuple[int, ...], like: Any, loc: Any) -> Any:
        t = v.type.resolve()
        if tuple(t.shape) == tuple(shape):
            return v
        rt = self.layout_type(TensorType(tuple(shape), t.element_type), like)
        return self.emit("ttnn.reshape", [v], rt, {"shape": _i32s(shape)}, loc)

    # -- driver ---------------------------------------------------------------------------------
    def tile_input(self, arg: Any, user: Any) -> None:
        """Read a row-major input argument through a `ttnn.to_tensor_spec` to its tiled DRAM layout,
        placed before its first reader `user` (tt-mlir's TTNNLayout puts one before each reader;
        its CSE keeps the first)."""
        spec = Operation("ttnn.to_tensor_spec", [], [self.layout_type(arg.type, user)])
        spec.pos = user.pos
        arg.replace_all_uses_with(spec.results[0])
        spec.set_operands([arg])
        self.out.append(spec)

    def run(self) -> int:
        row_major = _row_major_inputs(self.func)
        for a in self.block.args:
            a.type = self.layout_type(a.type, self.func, host=_conv_weight(a), tiled=a not in row_major)
        pending = set(row_major)
        count = 0
        for op in list(self.block.ops):
            for v in list(op.operands) if pending or self.host_results else ():
                if v in pending:
                    pending.discard(v)
                    self.tile_input(v, op)
                if v in self.host_results and op.name != "ttir.to_layout" and not is_hoisted_call(op):
                    self.host_results.pop(v)()
            if op.name == "ttir.empty" and not _read_as_input(op):
                continue  # a destination-passing output buffer: TTNN ops allocate their results
            if op.name == "ttcore.optimization_barrier":
                for r, v in zip(op.results, op.operands):  # folded away, as tt-mlir's backend pipeline does
                    r.replace_all_uses_with(v)
                op.drop_all_references()
                continue
            if is_hoisted_call(op):
                convert_call(self, op)
                continue
            if not op.name.startswith("ttir."):
                for r in op.results:
                    r.type = self.layout_type(r.type, op)
                if op.regions and op.name != "func.return":
                    raise self.fail(op, "has regions; convert-ttir-to-ttnn lowers straight-line functions")
                self.out.append(op)
                continue
            first = len(self.out)
            new = self.convert(op)
            for emitted in self.out[first:]:
                if emitted.pos is None:  # diagnostics on what an op lowered to point at the op, as MLIR's locs do
                    emitted.pos = op.pos
            _keep_weight_dtype(op, self.out[first:])
            for r, v in zip(op.results, new if isinstance(new, list) else [new]):
                r.replace_all_uses_with(v)
            op.drop_all_references()
            count += 1
        for op in self.out:
            op.parent = self.block
        self.block.ops = self.out
        update_function_type(self.func)
        return count

    def convert(self, op: Any) -> Any:
        short = op.name[5:]
        if short in D2M_ONLY:
            raise self.fail(op, "has no TTNN lowering (tt-mlir HEAD compiles it only through D2M, its ttir-to-ttmetal path)")
        rule = RULES.get(short)
        if rule is None and op.name in ELEMENTWISE:
            rule = _elementwise
        if rule is None:
            raise self.fail(op, "has no TTNN lowering")
        if len(op.results) != 1 and short not in MULTI_RESULT:
            raise self.fail(op, f"has {len(op.results)} results; its TTNN lowering is not implemented")
        try:
            return rule(self, op)
        except OpError as e:
            raise LoweringError(f"'{op.name}' op {e}", op_position(self.module.source, op)) from None
        except ValueError as e:
            raise self.fail(op, str(e)) from None


Rule = Callable[[_Lowering, Any], Any]


def _module_mesh(module: Any) -> tuple[int, ...]:
    """The program's mesh, as the multi-device ops read it (ttcore.meshes, else the registered
    ttcore.device's meshShape, else 1x1): one device per program."""
    return module_mesh(module)


def _conv_weight(arg: Any) -> bool:
    """An argument read only as a conv's weight or bias stays on the host, row-major (as tt-mlir
    leaves conv weights for the op to prepare on the device)."""
    users = arg.users
    def weight_of(u: Any) -> bool:
        if u.name == "ttir.conv3d":  # only the weight: HEAD prepares it; the bias is reshaped on the device
            return inputs(u)[1] is arg and arg not in (inputs(u)[:1] + inputs(u)[2:])
        return u.name in ("ttir.conv2d", "ttir.conv_transpose2d") and arg not in inputs(u)[:1]

    return bool(users) and all(weight_of(u) for u in users)


def _row_major_inputs(func: Any) -> list[Any]:
    """Arguments typed `#ttcore.argument_type<input>` that tt-mlir's TTNNLayout keeps row-major in
    DRAM (tiled in the function): not KV caches, nor read by a mesh_shard or tt_lang op, nor conv
    weights (those stay on the host)."""
    from ttopt.sharding.func_attrs import arg_attrs, argument_kinds

    out = []
    for arg, attrs, kind in zip(func.regions[0].entry.args, arg_attrs(func), argument_kinds(func)):
        if kind != "input" or "ttcore.kv_cache" in attrs or not isinstance(arg.type.resolve(), TensorType):
            continue
        if _conv_weight(arg) or any(u.name in ("ttir.mesh_shard", "ttir.tt_lang_op") for u in arg.users):
            continue
        out.append(arg)
    return out


def _read_as_input(empty: Any) -> bool:
    """A `ttir.empty` some op reads as a tensor input (not as its destination), or that is returned."""
    v = empty.results[0]
    return any(not u.name.startswith("ttir.") or v in inputs(u) for u in v.users)


def _result_type(lw: _Lowering, op: Any) -> Any:
    return lw.layout_type(op.results[0].type, op)


def _elementwise(lw: _Lowering, op: Any) -> Any:
    short = op.name[5:]
    name = "ttnn." + RENAMED.get(short, short)
    if name not in OP_DEFS:
        raise ValueError("has no TTNN lowering (no TTNN elementwise op of that name)")
    ins = [_implicit(lw, v) for v in inputs(op)]
    if short == "pow":
        exponent = _constant_fill(ins[1])
        if exponent is not None:
            return _broadcastable(lw, op, "ttnn.pow_scalar", ins[:1], {"rhs": exponent})
    return _broadcastable(lw, op, name, ins, {})  # typecast's dtype is its result layout's


def _broadcastable(lw: _Lowering, op: Any, name: str, ins: list[Any], properties: dict[str, Any]) -> Any:
    """The op on its operands. When their implicit broadcast is smaller than the result (every
    operand that broadcast was a folded `ttir.broadcast`), the op computes that shape and a `ttnn.repeat` brings
    it to the result's, as HEAD's TTIRImplicitBroadcastFold adds a broadcast on the output."""
    out_t = op.results[0].type.resolve()
    result = tuple(out_t.shape) if out_t.shape is not None else None
    implicit = _implicit_shape([v.type.resolve().shape for v in ins])
    # Only a result its operands broadcast to is repeated; other shapes are the op's own (bitcast_convert).
    if (result is None or implicit is None or implicit == result or len(implicit) != len(result)
            or any(i != r and i != 1 for i, r in zip(implicit, result))):  # fmt: skip
        return lw.emit(name, ins, _result_type(lw, op), properties, op.location)
    narrow = lw.emit(name, ins, lw.layout_type(TensorType(implicit, out_t.element_type), op), properties, op.location)
    dims = tuple(r if i != r else 1 for i, r in zip(implicit, result))
    return lw.emit("ttnn.repeat", [narrow], _result_type(lw, op), {"repeat_dims": _shape_attr(dims)}, op.location)


def _implicit_shape(shapes: list[Any]) -> tuple[int, ...] | None:
    """Numpy broadcasting of static shapes (None when a shape is dynamic or they do not broadcast)."""
    out: list[int] = []
    for shape in shapes:
        if shape is None or any(not isinstance(d, int) or d < 0 for d in shape):
            return None
        a, b = [1] * (len(shape) - len(out)) + out, [1] * (len(out) - len(shape)) + list(shape)
        merged = []
        for x, y in zip(a, b):
            if x != y and 1 not in (x, y):
                return None
            merged.append(y if x == 1 else x)
        out = merged
    return tuple(out)


def _leaky_relu(lw: _Lowering, op: Any) -> Any:
    return lw.emit("ttnn.leaky_relu", [_implicit(lw, v) for v in inputs(op)], _result_type(lw, op), {"parameter": op.properties["parameter"]},
                   op.location)  # fmt: skip


def _constant_fill(v: Any) -> Any:
    """The non-negative fill value of a `full` (TTIR, or TTNN once converted) behind reshapes and
    typecasts, and behind a const-eval function's return, else None (HEAD lowers pow by such a constant to `pow_scalar`, which takes no
    negative exponent)."""
    p = getattr(through_const_eval(v), "op", None)
    while p is not None and p.name in ("ttir.reshape", "ttir.typecast", "ttnn.reshape", "ttnn.typecast"):
        p = getattr(p.operands[0], "op", None)
    if p is None or p.name not in ("ttir.full", "ttnn.full"):
        return None
    fill = p.properties.get("fill_value")
    value = getattr(fill.resolve(), "value", None) if fill is not None else None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
        return None
    return fill


def _implicit(lw: _Lowering, v: Any) -> Any:
    """A broadcast read only by elementwise ops is their implicit broadcast: read its input (unless
    implicit-broadcast folding is off)."""
    p = getattr(v, "op", None)
    if lw.fold_broadcasts and p is not None and p.name == "ttir.broadcast" and all(u.name in ELEMENTWISE for u in v.users):
        return inputs(p)[0]
    return v


def _same(name: str, keys: tuple[str, ...] = ()) -> Rule:
    """TTIR op -> TTNN op of the same operands, copying the listed properties."""

    def rule(lw: _Lowering, op: Any) -> Any:
        properties = {k: op.properties[k] for k in keys if k in op.properties}
        return lw.emit(name, inputs(op), _result_type(lw, op), properties, op.location)

    return rule


def _embedding(lw: _Lowering, op: Any) -> Any:
    """A weight of rank above 4 (all but its last two dimensions 1) reshaped to (1, 1, R, C), as
    HEAD's EmbeddingOpSqueezeWeightRewritePattern workaround does."""
    idx, weight = inputs(op)[:2]
    shape = tuple(weight.type.resolve().shape)
    if len(shape) > 4:
        if any(d != 1 for d in shape[:-2]):
            raise ValueError(f"weight {list(shape)} must be effectively 2-D (every dimension but the last two 1)")
        weight = lw.reshape(weight, (1, 1, *shape[-2:]), op, op.location)
    return lw.emit("ttnn.embedding", [idx, weight], _result_type(lw, op), {}, op.location)


def _reshape(lw: _Lowering, op: Any) -> Any:
    rt = _result_type(lw, op)
    # HEAD passes ttir.reshape's shape on as written (a -1 entry stays -1); squeeze and unsqueeze
    # have none and take the result's.
    given = int_values(op.properties.get("shape")) if op.name == "ttir.reshape" else None
    shape = tuple(given) if given is not None else tuple(rt.resolve().shape)
    return lw.emit("ttnn.reshape", inputs(op), rt, {"shape": _i32s(shape)}, op.location)


def _permute(lw: _Lowering, op: Any) -> Any:
    perm = tuple(props(op).permutation)
    return lw.emit("ttnn.permute", inputs(op), _result_type(lw, op), {"permutation": DenseArrayAttr("i64", perm)}, op.location)


def _transpose(lw: _Lowering, op: Any) -> Any:
    """A permute swapping the two dimensions (HEAD canonicalizes ttir.transpose to ttir.permute)."""
    p = props(op)
    rank = len(inputs(op)[0].type.resolve().shape)
    perm = list(range(rank))
    a, b = p.dim0 % rank, p.dim1 % rank
    perm[a], perm[b] = perm[b], perm[a]
    return lw.emit("ttnn.permute", inputs(op), _result_type(lw, op), {"permutation": DenseArrayAttr("i64", tuple(perm))},
                   op.location)  # fmt: skip


def _broadcast(lw: _Lowering, op: Any) -> Any:
    if lw.fold_broadcasts and all(u.name in ELEMENTWISE for u in op.results[0].users):
        return inputs(op)[0]  # the readers broadcast implicitly; the value is unused once they convert
    dims = tuple(props(op).broadcast_dimensions)
    return lw.emit("ttnn.repeat", inputs(op), _result_type(lw, op), {"repeat_dims": _shape_attr(dims)}, op.location)


def _reduce(lw: _Lowering, op: Any) -> Any:
    p = props(op)
    short = op.name[5:]
    if short in ("reduce_and", "reduce_or"):
        # As HEAD's TTIR decomposition: booleans are bf16 0/1 in TTNN, so `and` is their product
        # and `or` their sum (non-zero is true).
        short = "prod" if short == "reduce_and" else "sum"
    if short == "argmax":
        dims = p.dim_arg
        if dims is not None and len(dims) != 1:  # ttir-to-ttir-decomposition has folded them into one
            raise ValueError("lowers to ttnn.argmax, which reduces one dimension or all of them")
        # Without dim_arg HEAD's ttnn.argmax reduces every dimension and has no `dim` attribute.
        attrs = {"keep_dim": BoolAttr(p.keep_dim)} if dims is None else {"dim": IntegerAttr(dims[0], SI32), "keep_dim": BoolAttr(p.keep_dim)}
        return lw.emit("ttnn.argmax", inputs(op), _result_type(lw, op), attrs, op.location)
    properties: dict[str, Any] = {"keep_dim": BoolAttr(p.keep_dim)}
    if short == "prod":  # one si64 dimension, or none for all of them (HEAD's ProdOp)
        rank = len(inputs(op)[0].type.resolve().shape)
        if p.dim_arg is not None and 1 < len(p.dim_arg) < rank:
            raise ValueError("lowers to ttnn.prod, which reduces one dimension or all of them")
        if p.dim_arg is not None and len(p.dim_arg) == 1:
            properties["dim_arg"] = IntegerAttr(p.dim_arg[0], SI64)
    elif p.dim_arg is not None:
        properties["dim_arg"] = _i32s(p.dim_arg)
    return lw.emit(f"ttnn.{short}", inputs(op), _result_type(lw, op), properties, op.location)


# The TTIR ops whose conversion keeps `ttcore.weight_dtype` (ttir-propagate-weight-dtype's, read by
# ttnn-weight-dtype-conversion), as HEAD's patterns copy it; a linear lowered to a matmul + add hands
# it to the matmul, as HEAD's LinearOpRewritePattern does.
WEIGHT_DTYPE_OPS = frozenset({"ttir.matmul", "ttir.linear", "ttir.sparse_matmul"})


def _keep_weight_dtype(op: Any, emitted: list[Operation]) -> None:
    """Copy `op`'s `ttcore.weight_dtype` onto the matmul / linear / sparse_matmul it lowered to."""
    dtype = op.attributes.get("ttcore.weight_dtype") if op.name in WEIGHT_DTYPE_OPS else None
    if dtype is None:
        return
    for new in emitted:
        if new.name in ("ttnn.matmul", "ttnn.linear", "ttnn.sparse_matmul"):
            new.attributes["ttcore.weight_dtype"] = dtype


def _matmul(lw: _Lowering, op: Any) -> Any:
    p = props(op)
    name = "ttnn.linear" if op.name == "ttir.linear" else "ttnn.matmul"
    return lw.emit(name, inputs(op), _result_type(lw, op),
                   {"transpose_a": BoolAttr(p.transpose_a), "transpose_b": BoolAttr(p.transpose_b)}, op.location)  # fmt: skip


def _padding4(a: Any) -> tuple[int, ...]:
    pad = _pair(a, 2)
    if len(pad) == 2:
        return (pad[0], pad[0], pad[1], pad[1])
    if len(pad) == 4:  # TTIR (top, left, bottom, right) -> TTNN (top, bottom, left, right)
        return (pad[0], pad[2], pad[1], pad[3])
    raise ValueError(f"padding has {len(pad)} values; expected 1, 2 or 4")


def _conv2d(lw: _Lowering, op: Any) -> Any:
    win = window(op)
    ins = inputs(op)
    p = props(op)
    wt = tuple(ins[1].type.resolve().shape)
    oc = op.results[0].type.resolve().shape[-1]
    properties = {
        "in_channels": IntegerAttr(win.c, I32), "out_channels": IntegerAttr(oc, I32), "batch_size": IntegerAttr(win.n, I32),
        "input_height": IntegerAttr(win.h, I32), "input_width": IntegerAttr(win.w, I32),
        "kernel_size": DenseArrayAttr("i32", tuple(wt[2:4])), "stride": DenseArrayAttr("i32", _pair(p.stride)),
        "padding": DenseArrayAttr("i32", _padding4(p.padding)), "dilation": DenseArrayAttr("i32", _pair(p.dilation)),
        "groups": IntegerAttr(p.groups, I32),
    }  # fmt: skip
    y = lw.emit("ttnn.conv2d", [flat_input(lw, op, win), *ins[1:], lw.get_device()], flat_result_type(lw, op, win), properties, op.location)
    return result_value(lw, op, win, y)


def _softmax(lw: _Lowering, op: Any) -> Any:
    p = props(op)
    return lw.emit("ttnn.softmax", inputs(op), _result_type(lw, op),
                   {"dimension": IntegerAttr(p.dimension, SI32), "numericStable": BoolAttr(p.numericStable)}, op.location)  # fmt: skip


def _norm(lw: _Lowering, op: Any) -> Any:
    p = props(op)
    x = inputs(op)[0]
    if tuple(p.normalized_shape) != tuple(x.type.resolve().shape[-len(p.normalized_shape):]):
        raise ValueError(f"normalized_shape {list(p.normalized_shape)} is not the input's trailing dimensions")
    if len(p.normalized_shape) != 1:
        raise ValueError("lowers to a TTNN norm over the last dimension only")
    # HEAD's norms have optional weight and bias (AttrSizedOperandSegments): the TTIR op's segments
    # carry over, and its epsilon attribute keeps MLIR's spelling of the f32 value.
    ins = inputs(op)
    segments = op.properties.get("operandSegmentSizes") or DenseArrayAttr("i32", (1, int(len(ins) >= 2), int(len(ins) >= 3)))
    epsilon = op.properties.get("epsilon") or FloatAttr(p.epsilon, F32)
    return lw.emit("ttnn." + op.name[5:], ins, _result_type(lw, op), {"epsilon": epsilon, "operandSegmentSizes": segments}, op.location)


def _creation(lw: _Lowering, op: Any) -> Any:
    t = normalized(op.results[0].type.resolve())
    short = op.name[5:]
    properties: dict[str, Any] = {}  # dtype and page layout are the result layout's (HEAD's creation ops)
    if short == "constant":
        fill = _splat_fill(op)
        if fill is not None:  # tt-mlir canonicalizes a splat ttir.constant to ttir.full
            return lw.emit("ttnn.full", [lw.get_device()], _result_type(lw, op), {"shape": _shape_attr(static_shape(t)), "fill_value": fill},
                           op.location)  # fmt: skip
        # The value keeps its own element type, normalized (HEAD's ElementTypeNormalization rebuilds
        # the attribute from its type, which may differ from the result's: dense<[1, 2]> : si32 for
        # an f32 result stays si32).
        raw = op.properties["value"]
        vt = raw.type.resolve() if isinstance(raw, DenseElementsAttr) else None
        value = normalized_dense(raw, normalized(vt) if isinstance(vt, TensorType) else t)
        return lw.emit("ttnn.constant", [lw.get_device()], _result_type(lw, op), {"value": value}, op.location)
    if short == "arange":
        return _arange(lw, op, t, properties)
    properties["shape"] = _shape_attr(static_shape(t))
    if short == "full":
        properties["fill_value"] = op.properties["fill_value"]
    return lw.emit(f"ttnn.{short}", [lw.get_device()], _result_type(lw, op), properties, op.location)


def _splat_fill(op: Any) -> Any:
    """The fill value of a splat `ttir.constant` as tt-mlir's splatToFillValue makes it: an i32
    integer (booleans 0/1, wider integers truncated to 32 bits) or an f32 float; None otherwise."""
    value = op.properties["value"]
    at = value.type.resolve() if isinstance(value, DenseElementsAttr) else None
    if not isinstance(at, TensorType):
        return None
    element = at.element_type.resolve().text
    v = splat_fill_value(value, element)
    if v is None or isinstance(v, complex):
        return None
    if element.startswith("f") or element in ("bf16", "i1"):  # i1 is bf16 once element types are normalized
        return FloatAttr(float(v), F32)
    n = int(v)
    narrow = NORMALIZED.get(element)
    if narrow is not None:  # element-type normalization runs first: an i64 value saturates to si32
        n = int(narrow_value(n, element, narrow))
    n &= 0xFFFFFFFF
    return IntegerAttr(n - (1 << 32) if n >= 1 << 31 else n, I32)


def _arange(lw: _Lowering, op: Any, t: TensorType, properties: dict[str, Any]) -> Any:
    """A 1-D `ttnn.arange` along the op's dimension, reshaped and repeated to its full shape."""
    p = props(op)
    shape = static_shape(t)
    d = p.arange_dimension % len(shape)
    properties.update(start=IntegerAttr(p.start, SI64), end=IntegerAttr(p.end, SI64), step=IntegerAttr(p.step, SI64))
    line = lw.emit("ttnn.arange", [lw.get_device()], lw.layout_type(TensorType((shape[d],), t.element_type), op), properties,
                   op.location)  # fmt: skip
    if len(shape) == 1:
        return line
    column = tuple(shape[d] if i == d else 1 for i in range(len(shape)))
    v = lw.reshape(line, column, op, op.location)
    repeats = tuple(1 if i == d else s for i, s in enumerate(shape))
    return lw.emit("ttnn.repeat", [v], _result_type(lw, op), {"repeat_dims": _shape_attr(repeats)}, op.location)


def _concat(lw: _Lowering, op: Any) -> Any:
    return lw.emit("ttnn.concat", inputs(op), _result_type(lw, op), {"dim": IntegerAttr(props(op).dim, SI32)}, op.location)


# -- sort / top-k / rand (the StableHLO lowering's sort, top-k and RNG families) -------------------
def _emit_results(lw: _Lowering, name: str, op: Any, properties: dict[str, Any]) -> list[Any]:
    """A TTNN op with one result per TTIR result (types laid out); its results."""
    spelled = {k: mlir_float_attr(v) for k, v in properties.items()}
    new = Operation(name, inputs(op), [lw.layout_type(r.type, op) for r in op.results], properties=spelled,
                    location=op.location)  # fmt: skip
    lw.out.append(new)
    return list(new.results)


def _sort(lw: _Lowering, op: Any) -> list[Any]:
    p = props(op)
    return _emit_results(lw, "ttnn.sort", op, {"descending": BoolAttr(p.descending), "dim": IntegerAttr(p.dim, SI8),
                                               "stable": BoolAttr(p.stable)})  # fmt: skip


def _topk(lw: _Lowering, op: Any) -> list[Any]:
    p = props(op)
    return _emit_results(lw, "ttnn.topk", op, {"dim": IntegerAttr(p.dim, SI32), "k": IntegerAttr(p.k, I32),
                                               "largest": BoolAttr(p.largest), "sorted": BoolAttr(p.sorted)})  # fmt: skip


def _rand(lw: _Lowering, op: Any) -> Any:
    t = normalized(op.results[0].type.resolve())
    properties = {"size": _shape_attr(static_shape(t))}
    # HEAD's ttnn.rand holds low, high and seed as default-valued attributes: they are always printed.
    defaults = {"low": FloatAttr(0.0, F32), "high": FloatAttr(1.0, F32), "seed": IntegerAttr(0, ScalarType("ui32"))}
    for key, default in defaults.items():
        properties[key] = op.properties.get(key, default)
    return lw.emit("ttnn.rand", [lw.get_device()], _result_type(lw, op), properties, op.location)


MULTI_RESULT = frozenset({"sort", "topk"}) | BATCH_NORM_MULTI_RESULT | TT_LANG_MULTI_RESULT | SDPA_TRAINING_MULTI_RESULT | INDEXING_MULTI_RESULT | CACHE_NO_RESULT | DIRECT_MULTI_RESULT | CCL_MULTI_RESULT | ADAMW_MULTI_RESULT
RULES: dict[str, Rule] = {
    "reshape": _reshape, "squeeze": _reshape, "unsqueeze": _reshape, "permute": _permute, "transpose": _transpose,
    "broadcast": _broadcast,
    "slice_static": _same("ttnn.slice_static", ("begins", "ends", "step")), "concat": _concat,
    "sum": _reduce, "mean": _reduce, "max": _reduce, "min": _reduce, "prod": _reduce, "argmax": _reduce,
    "reduce_and": _reduce, "reduce_or": _reduce,
    "matmul": _matmul, "linear": _matmul, "conv2d": _conv2d,
    "softmax": _softmax, "rms_norm": _norm, "layer_norm": _norm,
    "square": lambda lw, op: lw.emit("ttnn.multiply", [inputs(op)[0], inputs(op)[0]], _result_type(lw, op), {}, op.location),
    "embedding": _embedding, "constant": _creation, "full": _creation, "zeros": _creation,
    "ones": _creation, "arange": _creation, "empty": _creation,
    **INDEXING_RULES,
    **FUSED_RULES,
}  # fmt: skip
RULES.update({"sort": _sort, "topk": _topk, "rand": _rand, "leaky_relu": _leaky_relu, **CACHE_RULES, **UPSAMPLE_RULES, **BATCH_NORM_RULES})
# One-to-one conversions first: the canonicalized and decomposed forms replace some of them.
RULES.update(DIRECT_RULES)
RULES.update(CANONICALIZED_RULES)
RULES.update(TRANSFORMER_RULES)
RULES.update(CONV_TRANSPOSE_RULES)
RULES.update(LINEAR_RULES)
RULES.update(QUANTIZATION_RULES)
RULES.update(CONV3D_RULES)
RULES.update(CONV1D_RULES)
RULES.update(TT_LANG_RULES)
RULES.update(SDPA_TRAINING_RULES)
RULES.update(GROUP_NORM_RULES)
RULES.update(CCL_RULES)
RULES.update(ADAMW_RULES)
_TO_TENSOR_SPEC = RULES["to_layout"]


def _to_layout(lw: _Lowering, op: Any) -> Any:
    """A `ttir.to_layout` around a CPU-hoisted call moves its tensor across; any other is a `ttnn.to_tensor_spec`."""
    return cpu_to_layout(lw, op) if around_hoisted_call(op) else _TO_TENSOR_SPEC(lw, op)


RULES["to_layout"] = _to_layout


@register_pass
@dataclass
class ConvertTTIRToTTNN(Pass):
    """TTIR compute ops -> TTNN ops with DRAM-interleaved tile layouts."""

    name = "convert-ttir-to-ttnn"
    summary = "TTIR ops to TTNN ops; every tensor gets a tiled DRAM-interleaved ttnn_layout, input arguments a row-major one (ttir-to-ttnn-backend-pipeline's conversion)"

    enable_implicit_broadcast_folding_pass: bool = option(
        True, "A broadcast read only by elementwise ops becomes their implicit broadcast (tt-mlir's TTIRImplicitBroadcastFold); false keeps it a ttnn.repeat")
    group_norm_decomposition: str = option(
        "none", "Which group norms become mean / variance primitives (tt-mlir's TTNN decomposition): none, those whose per-sample height is not whole tiles, or all",
        choices=("none", "non-tile-aligned", "all"))

    def run(self, module: Module, ctx: PassContext) -> None:
        ctx.stats.setdefault(TTIRToTTIRDecomposition.name, {}).update(decompose(module))
        aliaser = LayoutAliaser(module)
        count = 0
        for func in module.functions():
            if is_cpu_declaration(func):
                host_declaration(_Lowering(module, func, aliaser), func)
                continue
            if not func.regions or not func.regions[0].blocks:
                continue
            if len(func.regions[0].blocks) != 1:
                raise LoweringError(f"convert-ttir-to-ttnn: function with {len(func.regions[0].blocks)} blocks",
                                    op_position(module.source, func))  # fmt: skip
            count += _Lowering(module, func, aliaser, self.enable_implicit_broadcast_folding_pass, self.group_norm_decomposition).run()
        ctx.stats.setdefault(self.name, {})["converted"] = count
