"""The op model: `validate(op, input_layouts, config, additional_l1)` (OP-MODEL.md §2).

Answers what tt-metal's `getOpConstraints` answers for the real optimizer (reference §4.1), from the
family rules in `ttopt.device.rules`: legal or not (and why), the output layout the op really
produces, its circular-buffer and tensor L1 peak per core, and out-of-memory against the budget.

Speed: the optimizer calls this 10^5+ times. Every op is reduced once to a signature (name, tensor
shapes and dtypes, attributes) with a small integer id; layouts and configs are interned by object
identity (`layout_info`); so a repeated question is one dict lookup on a tuple of ints. Ops with
equal signatures share results, which is what makes repeated shapes cheap.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Sequence

from ttopt.device.device import Device
from ttopt.device.layout_info import LayoutInfo, layout_info
from ttopt.device.op_config import NO_HINT, OpConfig
from ttopt.device.op_families import Family, family_of
from ttopt.device.rules import RULES, Illegal, NotModelled, OpContext
from ttopt.device.rules.transformer import SHARED_CONFIG_OPS, has_one_config
from ttopt.device.tensor import TensorTypeError, check_shape, element_dtype
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType


class Status(StrEnum):
    SUCCESS = "success"
    OUT_OF_MEMORY = "out_of_memory"
    ILLEGAL = "illegal"
    NOT_IMPLEMENTED = "not_implemented"


@dataclass(frozen=True, slots=True)
class L1Usage:
    """Bytes per core: circular buffers, L1 tensors (inputs + output), their sum, and the output alone."""

    cb_peak: int = 0
    tensor_peak: int = 0
    peak: int = 0
    output_per_core: int = 0


NO_L1 = L1Usage()


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """The op model's answer for one (op, input layouts, config, additional L1) question."""

    status: Status
    reason: str
    output_layout: TTNNLayoutAttr | None
    l1: L1Usage = NO_L1
    output_info: LayoutInfo | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """True when the op is legal and fits in L1."""
        return self.status is Status.SUCCESS

    @property
    def is_error(self) -> bool:
        """True for illegal, out of memory and not implemented."""
        return self.status is not Status.SUCCESS


@dataclass(frozen=True, slots=True)
class OpSignature:
    """What validation reads from an op; ops with equal signatures get the same answers."""

    name: str
    family: Family | None
    in_shapes: tuple[tuple[int, ...], ...]
    in_dtypes: tuple[DataType | None, ...]
    out_shape: tuple[int, ...] | None
    out_dtype: DataType | None
    out_tiled: bool | None
    current_output: TTNNLayoutAttr | None
    attrs: tuple[tuple[str, str], ...]
    aliases: tuple[int, ...]  # per tensor operand: index of the first operand with the same value
    problem: str | None  # why the op cannot be modelled at all (bad shape, no single tensor result)
    problem_status: Status = Status.ILLEGAL
    identity: int = 0  # non-zero for ops whose answer depends on more than the signature (dispatch)


# Attributes that never change legality or L1 (locations, names, hints for other passes).
_IGNORED_ATTRS = frozenset({"ttnn.hoist_generic_via_d2m"})


def _encoding_typed(t: TensorType) -> Any:
    enc = t.encoding
    if enc is None:
        return None
    try:
        return getattr(enc.resolve(), "typed", None)  # a plain attribute has no typed view
    except AttrError:
        return None


@dataclass(frozen=True, slots=True)
class TypeFacts:
    """What a signature reads from one tensor type: its checked shape (or why it has none and its
    dims with -1 for the bad ones), its ttcore data type and its encoding's typed view."""

    shape: tuple[int, ...] | None
    error: str | None
    loose_shape: tuple[int, ...]
    dtype: DataType | None
    typed: Any


def type_facts(t: TensorType) -> TypeFacts:
    """The `TypeFacts` of a tensor type (never raises)."""
    try:
        shape: tuple[int, ...] | None = check_shape(t.shape)
        error = None
        loose = shape
    except TensorTypeError as e:
        shape, error = None, e.message
        loose = tuple(d if isinstance(d, int) else -1 for d in (t.shape or ()))
    assert loose is not None
    return TypeFacts(shape, error, loose, element_dtype(t), _encoding_typed(t))


def op_signature(op: Any, facts: Callable[[TensorType], TypeFacts] = type_facts) -> OpSignature:
    """Reduce an op to its signature (never raises: problems are recorded in `problem`); `facts`
    may be a cache of `type_facts`."""
    fam = family_of(op.name)
    shapes, dtypes, values = [], [], []
    problem: str | None = None
    status = Status.ILLEGAL
    for i, v in enumerate(op.operands):
        t = v.type.resolve()
        if not isinstance(t, TensorType):
            continue
        f = facts(t)
        shapes.append(f.loose_shape)
        if f.error is not None:
            problem = problem or f"operand {i}: {f.error}"
        dtypes.append(f.dtype)
        values.append(v)
    aliases = tuple(next(j for j, w in enumerate(values) if w is v) for v in values)
    tensor_results = [r for r in op.results if isinstance(r.type.resolve(), TensorType)]
    out_shape = out_dtype = out_tiled = current = None
    # Ops whose results share one memory config are answered for result 0 (rules/transformer.py).
    single = len(op.results) == 1 or (op.name in SHARED_CONFIG_OPS and len(tensor_results) == len(op.results))
    if not single or not tensor_results:
        problem, status = f"{op.name} has {len(op.results)} results; only single-tensor-result ops are modelled", Status.NOT_IMPLEMENTED
    else:
        t = tensor_results[0].type.resolve()
        f = facts(t)
        out_shape = f.shape
        if f.error is not None:
            problem = problem or f"result: {f.error}"
        out_dtype = f.dtype
        if out_dtype is None:
            problem = problem or f"result element type {t.element_type.text} has no ttcore data type"
        typed = f.typed
        if isinstance(typed, TTNNLayoutAttr):
            out_tiled = typed.is_tiled
            if fam in (Family.LAYOUT, Family.DISPATCH):
                current = typed
    if fam is None:
        problem, status = f"no op-model rule for {op.name}", Status.NOT_IMPLEMENTED
    attrs = tuple(
        sorted((k, a.text) for d in (op.properties, op.attributes) for k, a in d.items() if k not in _IGNORED_ATTRS)
    )
    return OpSignature(
        name=op.name, family=fam, in_shapes=tuple(shapes), in_dtypes=tuple(dtypes), out_shape=out_shape,
        out_dtype=out_dtype, out_tiled=out_tiled, current_output=current, attrs=attrs, aliases=aliases,
        problem=problem, problem_status=status, identity=id(op) if fam is Family.DISPATCH else 0,
    )  # fmt: skip


class _Core:
    """A validation without the budget check (independent of additional_l1)."""

    __slots__ = ("status", "reason", "output", "l1")

    def __init__(self, status: Status, reason: str, output: LayoutInfo | None = None, l1: L1Usage = NO_L1) -> None:
        self.status = status
        self.reason = reason
        self.output = output
        self.l1 = l1


class OpModel:
    """Validation with memoisation for one device (and its L1 budget)."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.usable_l1 = device.usable_l1
        self._ops: dict[int, tuple[Any, Any, int, OpSignature]] = {}
        self._sig_uid: dict[OpSignature, int] = {}
        self._sigs: list[OpSignature] = []
        self._cfgs: dict[int, tuple[OpConfig, int]] = {}
        self._cfg_uid: dict[OpConfig, int] = {}
        self._core: dict[tuple, _Core] = {}
        self._types: dict[tuple, tuple[Any, Any, TypeFacts]] = {}
        self._memo: dict[tuple, ValidationResult] = {}
        self.calls = 0
        self.computed = 0

    # -- public --------------------------------------------------------------------------------
    def validate(
        self,
        op: Any,
        input_layouts: Sequence[TTNNLayoutAttr],
        config: OpConfig | None = None,
        additional_l1: int = 0,
    ) -> ValidationResult:
        """Is `op` legal with these input layouts (one per tensor operand) and this config, what
        does it output, how much L1 does it use, and does that fit with `additional_l1` more?"""
        self.calls += 1
        e = self._ops.get(id(op))
        if e is None or e[0] is not op or e[1] is not (op.results[0].type if op.results else None):
            e = self._register(op)
        cfg = NO_HINT if config is None else config
        c = self._cfgs.get(id(cfg))
        if c is None or c[0] is not cfg:
            c = self._register_cfg(cfg)
        try:
            uids = tuple([layout_info(x).uid for x in input_layouts])
        except (AttributeError, TypeError):
            return ValidationResult(Status.ILLEGAL, "input layouts must be ttnn layouts (one per tensor operand)", None)
        key = (e[2], uids, c[1], additional_l1)
        r = self._memo.get(key)
        if r is not None:
            return r
        core_key = key[:3]
        core = self._core.get(core_key)
        if core is None:
            self.computed += 1
            core = self._compute(op, e[3], tuple(layout_info(x) for x in input_layouts), cfg)
            self._core[core_key] = core
        r = self._finish(core, additional_l1)
        self._memo[key] = r
        return r

    def invalidate(self, op: Any) -> None:
        """Forget `op`'s signature (call after changing its attributes or operand types in place)."""
        self._ops.pop(id(op), None)

    def clear(self) -> None:
        """Forget every answer (e.g. after rewriting the inside of a dispatch op)."""
        self._ops.clear()
        self._core.clear()
        self._memo.clear()
        self._types.clear()

    def current_inputs(self, op: Any) -> tuple[TTNNLayoutAttr, ...] | None:
        """The layouts of the op's tensor operands as the IR has them now (None if one has none)."""
        out = []
        for v in op.operands:
            t = v.type.resolve()
            if not isinstance(t, TensorType):
                continue
            typed = self._facts(t).typed
            if not isinstance(typed, TTNNLayoutAttr):
                return None
            out.append(typed)
        return tuple(out)

    def validate_current(self, op: Any, additional_l1: int = 0) -> ValidationResult:
        """Validate the op as the IR has it: current input layouts, current result layout as the hint."""
        ins = self.current_inputs(op)
        if ins is None:
            return ValidationResult(Status.NOT_IMPLEMENTED, "an operand has no ttnn layout", None)
        out = None
        t = op.results[0].type.resolve() if has_one_config(op) else None
        if isinstance(t, TensorType):
            typed = self._facts(t).typed
            out = typed if isinstance(typed, TTNNLayoutAttr) else None
        return self.validate(op, ins, OpConfig(output=out), additional_l1)

    def signature_uid(self, op: Any) -> int:
        """A small int shared by every op with the same signature (same answers, same cost)."""
        e = self._ops.get(id(op))
        if e is None or e[0] is not op or e[1] is not (op.results[0].type if op.results else None):
            e = self._register(op)
        return e[2]

    @property
    def stats(self) -> dict[str, int]:
        """Calls, rule evaluations, distinct signatures and cached answers."""
        return {"calls": self.calls, "computed": self.computed, "signatures": len(self._sigs), "memo": len(self._memo)}

    # -- internals -------------------------------------------------------------------------------
    def _facts(self, t: TensorType) -> TypeFacts:
        """`type_facts` per (shape, element type object, encoding object): all a tensor type holds.
        Types are never mutated in place, and the rewrite gives every relaid value a new type object
        but shares the encoding objects (one per layout), so equal types hit one entry."""
        el, enc = t.element_type, t.encoding
        try:
            key = (t.shape, id(el), id(enc))
            e = self._types.get(key)
        except TypeError:  # an unhashable shape: not cached
            return type_facts(t)
        if e is None or e[0] is not el or e[1] is not enc:
            e = self._types[key] = (el, enc, type_facts(t))
        return e[2]

    def _register(self, op: Any) -> tuple[Any, Any, int, OpSignature]:
        sig = op_signature(op, self._facts)
        uid = self._sig_uid.get(sig)
        if uid is None:
            uid = len(self._sigs)
            self._sig_uid[sig] = uid
            self._sigs.append(sig)
        e = (op, op.results[0].type if op.results else None, uid, sig)
        self._ops[id(op)] = e
        return e

    def _register_cfg(self, cfg: OpConfig) -> tuple[OpConfig, int]:
        uid = self._cfg_uid.get(cfg)
        if uid is None:
            uid = len(self._cfg_uid)
            self._cfg_uid[cfg] = uid
        c = (cfg, uid)
        self._cfgs[id(cfg)] = c
        return c

    def _finish(self, core: _Core, additional_l1: int) -> ValidationResult:
        out = core.output
        lay = out.layout if out is not None else None
        if core.status is not Status.SUCCESS:
            return ValidationResult(core.status, core.reason, lay, core.l1, out)
        need = core.l1.peak + additional_l1
        if need > self.usable_l1:
            extra = f" + additional {additional_l1}" if additional_l1 else ""
            reason = (
                f"L1 peak {core.l1.peak} B/core (CBs {core.l1.cb_peak} + tensors {core.l1.tensor_peak}){extra} "
                f"exceeds usable {self.usable_l1} B"
            )
            return ValidationResult(Status.OUT_OF_MEMORY, reason, lay, core.l1, out)
        return ValidationResult(Status.SUCCESS, core.reason, lay, core.l1, out)

    def _compute(self, op: Any, sig: OpSignature, inputs: tuple[LayoutInfo, ...], cfg: OpConfig) -> _Core:
        if sig.problem is not None:
            return _Core(sig.problem_status, sig.problem)
        if len(inputs) != len(sig.in_shapes):
            return _Core(
                Status.ILLEGAL,
                f"{op.name} has {len(sig.in_shapes)} tensor operand(s) but {len(inputs)} input layout(s) were given",
            )
        fam = sig.family
        # A signature without a problem has a family, an output shape and dtype (_signature).
        assert fam is not None and sig.out_shape is not None and sig.out_dtype is not None
        for i, info in enumerate(inputs):
            # Host tensors must be moved to the device first; conv weights/bias may stay on the host.
            if info.system and fam is not Family.LAYOUT and not (fam is Family.CONV and i > 0):
                return _Core(Status.ILLEGAL, f"operand {i} is in system memory; {op.name} runs on device tensors")
        ctx = OpContext(
            op, self.device, self, sig.in_shapes, sig.in_dtypes, inputs, sig.out_shape, sig.out_dtype,
            sig.out_tiled, sig.current_output, cfg,
        )  # fmt: skip
        try:
            rr = RULES[fam](ctx)
        except Illegal as e:
            return _Core(Status.ILLEGAL, e.reason)
        except NotModelled as e:
            return _Core(Status.NOT_IMPLEMENTED, e.reason)
        except AttrError as e:
            return _Core(Status.ILLEGAL, e.message)
        except (ArithmeticError, ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
            if os.environ.get("TTOPT_DEBUG"):
                raise
            return _Core(Status.NOT_IMPLEMENTED, f"op model could not evaluate {op.name}: {type(e).__name__}: {e}")
        out = rr.output
        if out.system and fam is not Family.LAYOUT:
            return _Core(Status.ILLEGAL, f"{op.name} cannot write its result to system memory")
        tensor = out.per_core_bytes + rr.extra_tensor_bytes
        seen = set(rr.freed_inputs)
        for i, info in enumerate(inputs):
            a = sig.aliases[i]
            if a in seen or i in seen:
                continue
            seen.add(a)
            tensor += info.per_core_bytes
        peak = rr.cb_bytes + tensor
        reason = f"L1 peak {peak} B/core" if peak else "no L1 used"
        return _Core(Status.SUCCESS, reason, out, L1Usage(rr.cb_bytes, tensor, peak, out.per_core_bytes))


_MODELS: dict[Device, OpModel] = {}


def op_model(device: Device) -> OpModel:
    """The shared OpModel of a device (one memo per device and budget)."""
    m = _MODELS.get(device)
    if m is None or m.device.usable_l1 != device.usable_l1:
        m = _MODELS[device] = OpModel(device)
    return m


def validate(op: Any, input_layouts: Sequence[TTNNLayoutAttr], config: OpConfig | None = None,
             additional_l1: int = 0, device: Device | None = None) -> ValidationResult:  # fmt: skip
    """`OpModel.validate` on the shared model of `device` (default: the wormhole_b0 preset)."""
    if device is None:
        from ttopt.device.device import preset

        device = preset("wormhole_b0")
    return op_model(device).validate(op, input_layouts, config, additional_l1)
