"""The analysis pipeline (seed 002 §3.1, reference §2.1-2.4), run on forward functions only.

* ScalarDataTypeAnalysis: the scalar types of every ttnn tensor (+ override dtypes).
* LegalTensorLayoutAnalysis: the layout pool of each (tensor shape, scalar type) of an op result
  (`ttopt.device.layout_pool`: interleaved first, then sharded by grid volume).
* LegalOpLayoutAnalysis: per op, the pool's layouts the op model accepts (seed 002 §3.1.3):
  interleaved ones, then sharded ones by volume until `max-legal-layouts` are found; overrides
  pin or filter them (reference §2.3).
* LegalOpConfigAnalysis: each legal layout expanded with its op-specific knobs (matmul program
  config, conv2d search space; reference §2.4), keeping the configs the op model accepts.

Validation inputs: the layouts the operands will have when the op is *not* in an L1 chain (block
arguments as written; results of optimized ops in their default config, i.e. DRAM interleaved),
rather than the IR's pre-optimization layouts (upstream), so a layout is judged with the inputs it
will really meet. A sharded candidate the op rejects with those inputs is still legal if the op
accepts it when operand 0 arrives with the same shard spec (mid-chain use; e.g. a norm whose
sharded output must copy a sharded input).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, cast

from ttopt.device import (
    Conv2dConfig,
    Device,
    OpConfig,
    OpModel,
    conv2d_search_space,
    derive_program_config,
    layout_info,
    layout_pool,
)
from ttopt.device.layout_info import INTERLEAVED, L1, make_layout
from ttopt.device.matmul_config import is_batched, matmul_dims
from ttopt.device.op_families import Family, family_of, fixed_dispatch
from ttopt.device.rules.transformer import SHARED_CONFIG_OPS, has_one_config
from ttopt.device.tensor import TensorTypeError, element_dtype
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType
from ttopt.optimizer.overrides import OutputLayoutOverride

FORWARD_ATTR = "tt.function_type"
FORWARD_VALUE = "forward_device"
# Ops whose layout the optimizer never changes (reference §2.3); dispatch ops get theirs from the
# dispatch configs (seed 001 phase 5).
FIXED_LAYOUT_OPS = frozenset({"ttnn.to_layout", "ttnn.to_memory_config", "ttnn.empty"})


def forward_functions(module: Any) -> list[Any]:
    """Functions marked `tt.function_type = "forward_device"`, else every public function with a body."""
    funcs = [f for f in module.functions() if f.regions and f.regions[0].blocks]
    marked = [f for f in funcs if getattr(f.attributes.get(FORWARD_ATTR), "value", None) == FORWARD_VALUE]
    if marked:
        return marked
    return [f for f in funcs if getattr(f.properties.get("sym_visibility"), "value", "public") == "public"]


def ranked_shape(t: TensorType) -> tuple[int, ...]:
    """`tuple(t.shape)` for a tensor type the caller knows is ranked with static dims (a ttnn layout,
    or `_result_type`'s check): typed as ints, not checked; an unranked one raises TypeError as before."""
    return tuple(cast("tuple[int, ...]", t.shape))


def current_layout(t: Any) -> TTNNLayoutAttr | None:
    """The ttnn layout encoded on a tensor type, or None."""
    t = t.resolve()
    if not isinstance(t, TensorType) or t.encoding is None:
        return None
    try:
        typed = getattr(t.encoding.resolve(), "typed", None)  # a plain attribute has no typed view
    except AttrError:
        return None
    return typed if isinstance(typed, TTNNLayoutAttr) else None


def op_labels(ops: Iterable[Any]) -> dict[Any, str]:
    """A name per op for traces, stats and override lookup: its NameLoc name, else `short#index`."""
    out = {}
    for i, op in enumerate(ops):
        name = None
        if op.location is not None:
            try:
                name = op.location.name
            except Exception:  # noqa: BLE001  (a malformed location is not worth failing for)
                name = None
        out[op] = name or f"{op.name.split('.', 1)[-1]}#{i}"
    return out


@dataclass
class OpLegalConfigs:
    """What the analyses found for one op."""

    op: Any
    label: str
    configs: list[OpConfig] = field(default_factory=list)  # upstream order (interleaved first)
    sharded: list[OpConfig] = field(default_factory=list)  # the L1-sharded subset (reference §2.5)
    current: TTNNLayoutAttr | None = None
    note: str = ""  # why the op keeps its layout, or an override warning

    @property
    def fixed(self) -> bool:
        """The op keeps its current layout (no legal config, or a layout it never changes)."""
        return not self.configs

    def default_config(self) -> OpConfig | None:
        """The first legal config with the result's page layout (reference §2.10: DRAM interleaved)."""
        if not self.configs:
            return None
        tiled = self.current.is_tiled if self.current is not None else True
        for c in self.configs:
            if isinstance(c.output, TTNNLayoutAttr) and c.output.is_tiled == tiled:
                return c
        return self.configs[0]

    def default_layout(self) -> TTNNLayoutAttr | None:
        """The layout the op gets outside an L1 chain (its current one when fixed)."""
        c = self.default_config()
        return c.output if c is not None and isinstance(c.output, TTNNLayoutAttr) else self.current


class AnalysisPipeline:
    """Runs the four analyses over forward functions and keeps their results per op."""

    def __init__(
        self,
        device: Device,
        model: OpModel,
        max_legal_layouts: int = 8,
        row_major_enabled: bool = False,
        output_overrides: dict[str, OutputLayoutOverride] | None = None,
        conv2d_overrides: dict[str, Any] | None = None,  # name -> conv2d_overrides.Conv2dOverride
    ) -> None:
        self.device = device
        self.model = model
        self.max_legal_layouts = max_legal_layouts
        self.row_major_enabled = row_major_enabled
        self.output_overrides = output_overrides or {}
        self.conv2d_overrides = conv2d_overrides or {}
        self.scalar_types: set[DataType] = set()
        self.tensor_types: set[tuple[tuple[int, ...], DataType]] = set()
        self.legal: dict[Any, OpLegalConfigs] = {}
        self.labels: dict[Any, str] = {}
        self._cache: dict[tuple, tuple[list[OpConfig], list[OpConfig], str]] = {}

    # -- entry point ---------------------------------------------------------------------------
    def run(self, ops: list[Any], labels: dict[Any, str]) -> None:
        """Analyse the top-level ops of one forward function (in IR order: producers first)."""
        self.labels.update(labels)
        self.scalar_data_type_analysis(ops)
        self.legal_tensor_layout_analysis(ops)
        for op in ops:
            self.legal[op] = self.legal_op_config_analysis(op)

    # -- ScalarDataTypeAnalysis (reference §2.1) -------------------------------------------------
    def scalar_data_type_analysis(self, ops: list[Any]) -> set[DataType]:
        """Scalar types of all ttnn tensors of these ops, plus the dtypes named in overrides."""
        for op in ops:
            for v in [*op.operands, *op.results]:
                t = v.type.resolve()
                if isinstance(t, TensorType):
                    dt = element_dtype(t)
                    if dt is not None:
                        self.scalar_types.add(dt)
        self.scalar_types.update(o.dtype for o in self.output_overrides.values() if o.dtype is not None)
        return self.scalar_types

    # -- LegalTensorLayoutAnalysis (reference §2.2) ------------------------------------------------
    def legal_tensor_layout_analysis(self, ops: list[Any]) -> None:
        """Layout pools of every (op result shape, scalar type) the ops can produce (built lazily by
        `layout_pool`, which caches; upstream builds every (type, scalar type) pair eagerly)."""
        for op in ops:
            t = self._result_type(op)
            if t is None:
                continue
            dtypes = {element_dtype(t)}
            ov = self.output_overrides.get(self.labels.get(op, ""))
            if ov is not None and ov.dtype is not None:
                dtypes.add(ov.dtype)
            for dt in dtypes:
                if dt is not None:
                    self.tensor_types.add((ranked_shape(t), dt))

    def pool(self, shape: tuple[int, ...], dtype: DataType):
        """The layout pool of a tensor type."""
        return layout_pool(shape, dtype, self.device.worker_grid, self.row_major_enabled)

    # -- inputs ----------------------------------------------------------------------------------
    def effective_layout(self, value: Any) -> TTNNLayoutAttr | None:
        """The layout `value` has when its producer is not in an L1 chain (see module docstring)."""
        producer = getattr(value, "op", None)
        if producer is not None:
            info = self.legal.get(producer)
            lay = info.default_layout() if info is not None else None
            if lay is not None:
                return lay
        # A producer the analyses know no layout of (a ttcore.load_cached of const-eval, a
        # multi-result op): the value's own type says it.
        return current_layout(value.type)

    def effective_inputs(self, op: Any) -> list[TTNNLayoutAttr] | None:
        """One layout per tensor operand (None when an operand has none)."""
        out = []
        for v in op.operands:
            if not isinstance(v.type.resolve(), TensorType):
                continue
            lay = self.effective_layout(v)
            if lay is None:
                return None
            out.append(lay)
        return out

    # -- LegalOpLayoutAnalysis + LegalOpConfigAnalysis (reference §2.3-2.4) ------------------------
    def legal_op_config_analysis(self, op: Any) -> OpLegalConfigs:
        """Legal configs of one op (layouts from LegalOpLayoutAnalysis, expanded with op knobs)."""
        label = self.labels.get(op, op.name)
        t = self._result_type(op)
        res = OpLegalConfigs(op, label, current=current_layout(t) if t is not None else None)
        if t is None:
            res.note = _why_no_result_type(op)
            return res
        fam = family_of(op.name)
        if fam is None:
            res.note = f"no op-model rule for {op.name}"
            return res
        if op.name in FIXED_LAYOUT_OPS or fixed_dispatch(op.name):
            res.note = "layout fixed (conversion, buffer or dispatch op)"
            return res
        inputs = self.effective_inputs(op)
        if inputs is None:
            res.note = "an operand has no ttnn layout"
            return res
        if res.current is not None and not res.current.is_tiled and any(not x.is_tiled for x in inputs) and not self.row_major_enabled:
            # Row-major from a row-major operand (ttnn-rm-layout-propagation's): its kernel keeps the
            # page layout, and without row-major layouts there is no other config to offer.
            res.note = "row-major output of a row-major operand (row-major layouts not enabled)"
            return res
        override = self.output_overrides.get(label)
        key = (
            op.name, tuple(layout_info(x).uid for x in inputs),
            tuple(tuple(v.type.resolve().shape) for v in op.operands if isinstance(v.type.resolve(), TensorType)),
            t.canonical(), tuple(sorted((k, a.text) for d in (op.properties, op.attributes) for k, a in d.items())),
            override, self.conv2d_overrides.get(label),
        )  # fmt: skip
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._analyse(op, t, fam, inputs, override)
        res.configs, res.sharded, res.note = hit
        return res

    def _analyse(self, op: Any, t: TensorType, fam: Family, inputs: list[TTNNLayoutAttr],
                 override: OutputLayoutOverride | None) -> tuple[list[OpConfig], list[OpConfig], str]:  # fmt: skip
        dtype = override.dtype if override is not None and override.dtype is not None else element_dtype(t)
        if dtype is None:
            return [], [], f"element type {t.element_type.text} has no ttcore data type"
        try:
            pool = self.pool(ranked_shape(t), dtype)
        except TensorTypeError as e:
            return [], [], e.message
        expand = _Expander(op, fam, self.device, self.conv2d_overrides.get(self.labels.get(op, "")))
        layouts, note = self.legal_op_layout_analysis(op, t, dtype, pool, expand, inputs, override)
        if not layouts:
            return [], [], note
        configs = self.order_configs(fam, expand, layouts)
        return configs, [c for c in configs if _is_l1_sharded(c)], note

    def legal_op_layout_analysis(
        self, op: Any, t: TensorType, dtype: DataType, pool: Any, expand: _Expander, inputs: list[TTNNLayoutAttr],
        override: OutputLayoutOverride | None,
    ) -> tuple[list[tuple[TTNNLayoutAttr, list[OpConfig]]], str]:  # fmt: skip
        """LegalOpLayoutAnalysis (seed 002 §3.1.3, reference §2.3): the legal output layouts, each
        with the op-specific configs the op model accepts for it (LegalOpConfigAnalysis's expansion).

        Interleaved layouts first, then sharded ones by grid volume until `max-legal-layouts` are
        legal (half row-major, half tiled with row-major enabled); a full override is the one layout
        (kept, with a note, even if the op model rejects it); a partial override filters.
        """
        if override is not None and override.is_full:
            try:
                lay = make_layout(
                    ranked_shape(t), dtype, bool(override.tiled), override.buffer, override.memory_layout,
                    override.grid if override.memory_layout is not INTERLEAVED else None, self.device.worker_grid,
                )  # fmt: skip
            except AttrError as e:
                return [], f"override {override.text()} cannot hold the result: {e.message}"
            cfgs = expand(lay)
            ok = [c for c in cfgs if self._accepts(op, inputs, c)]
            note = "" if ok else f"override {override.text()} kept although the op model rejects it"
            return [(lay, ok or cfgs)], note
        interleaved = list(pool.interleaved)
        n = self.max_legal_layouts
        if self.row_major_enabled and pool.sharded_row_major:
            groups = [(pool.sharded_row_major, n // 2), (pool.sharded, n // 2)]
        else:
            groups = [(pool.sharded, n)]
        if override is not None:
            interleaved = [x for x in interleaved if override.matches(layout_info(x))]
            groups = [([x for x in g if override.matches(layout_info(x))], k) for g, k in groups]
        legal: list[tuple[TTNNLayoutAttr, list[OpConfig]]] = []
        for lay in interleaved:
            ok = [c for c in expand(lay) if self._accepts(op, inputs, c)]
            if ok:
                legal.append((lay, ok))
        sharded: list[tuple[TTNNLayoutAttr, list[OpConfig]]] = []
        for cands, limit in groups:
            found = 0
            for lay in cands:
                if found >= limit:
                    break
                ok = [c for c in expand(lay) if self._accepts(op, inputs, c)]
                if ok:
                    sharded.append((lay, ok))
                    found += 1
        sharded.sort(key=lambda e: -(e[0].grid[0] * e[0].grid[1]))  # stable: merge RM + tile by volume
        legal += sharded
        if not legal:
            why = "no candidate layout is legal" if override is None else f"no legal layout matches override {override.text()}"
            return [], why
        return legal, ""

    @staticmethod
    def order_configs(fam: Family, expand: _Expander, layouts: list[tuple[TTNNLayoutAttr, list[OpConfig]]]) -> list[OpConfig]:
        """LegalOpConfigAnalysis's order (reference §2.4): per layout; conv2d: for each conv config
        (odometer order), all layouts."""
        if fam is Family.CONV:
            order: dict[Conv2dConfig | None, int] = {c: i for i, c in enumerate(expand.conv_space)}
            return sorted((c for _, cs in layouts for c in cs), key=lambda c: order.get(c.conv2d, 0))
        return [c for _, cs in layouts for c in cs]

    def _accepts(self, op: Any, inputs: list[TTNNLayoutAttr], cfg: OpConfig) -> bool:
        """Legal with the effective inputs, or (sharded outputs) with operand 0 in the same spec."""
        return self.accepted_inputs(op, inputs, cfg) is not None

    def accepted_inputs(self, op: Any, inputs: list[TTNNLayoutAttr], cfg: OpConfig) -> list[TTNNLayoutAttr] | None:
        """The input layouts `cfg` is legal with: the effective `inputs`, or (sharded outputs) those
        with operand 0 in the output's spec; None when neither is."""
        if self.model.validate(op, inputs, cfg).ok:
            return inputs
        out = cfg.output
        if op.name in SHARED_CONFIG_OPS and isinstance(out, TTNNLayoutAttr) and not out.is_sharded:
            # Its results take the input's memory config: the inputs moved into the output's.
            moved = [self.interleaved_like(v, out) for v in op.operands if isinstance(v.type.resolve(), TensorType)]
            ref = [m for m in moved if m is not None]
            return ref if len(ref) == len(inputs) and self.model.validate(op, ref, cfg).ok else None
        if not (isinstance(out, TTNNLayoutAttr) and out.is_sharded and inputs):
            return None
        if family_of(op.name) is Family.CONCAT:
            # Sharded concat needs *every* input in the output's memory layout and grid (OP-MODEL.md
            # §3): substituting operand 0 alone mixes sharded and interleaved inputs, which the
            # model rejects, so concat never had a sharded legal config.
            tensors = [v for v in op.operands if isinstance(v.type.resolve(), TensorType)]
            if len(tensors) != len(inputs):
                return None
            same_all = [s for s in (self.same_spec_input(op, out, v) for v in tensors) if s is not None]
            if len(same_all) != len(tensors):
                return None
            return same_all if self.model.validate(op, same_all, cfg).ok else None
        same = self.same_spec_input(op, out)
        if same is None:
            return None
        ref = [same, *inputs[1:]]
        return ref if self.model.validate(op, ref, cfg).ok else None

    def interleaved_like(self, v: Any, out: TTNNLayoutAttr) -> TTNNLayoutAttr | None:
        """Value `v` in the interleaved memory config (buffer, page layout) of `out`."""
        t = v.type.resolve()
        dt = element_dtype(t)
        if dt is None:
            return None
        try:
            return make_layout(tuple(t.shape), dt, out.is_tiled, out.buffer_type, INTERLEAVED, None, self.device.worker_grid)
        except (AttrError, TensorTypeError, ValueError):
            return None

    def same_spec_input(self, op: Any, out: TTNNLayoutAttr, v: Any = None) -> TTNNLayoutAttr | None:
        """Operand `v` (default: the first tensor operand) laid out like the sharded output `out`
        (same memory layout, grid and cores)."""
        if v is None:
            v = next((v for v in op.operands if isinstance(v.type.resolve(), TensorType)), None)
        if v is None:
            return None
        t = v.type.resolve()
        dt = element_dtype(t)
        if dt is None:
            return None
        out_t = op.results[0].type.resolve()
        crs = out.core_ranges if tuple(t.shape) == tuple(out_t.shape) else None
        try:
            return make_layout(tuple(t.shape), dt, out.is_tiled, L1, out.memory_layout, tuple(out.grid),
                               self.device.worker_grid, crs)  # fmt: skip
        except (AttrError, TensorTypeError, ValueError):
            return None

    @staticmethod
    def _result_type(op: Any) -> TensorType | None:
        if not has_one_config(op):
            return None
        t = op.results[0].type.resolve()
        if not isinstance(t, TensorType) or t.shape is None:  # unranked
            return None
        if any(not isinstance(d, int) for d in t.shape):
            return None
        return t


def _why_no_result_type(op: Any) -> str:
    if len(op.results) != 1 or not isinstance(op.results[0].type.resolve(), TensorType):
        return "no single tensor result"
    if not op.results[0].type.resolve().is_ranked:
        return "unranked result"
    return "dynamic result shape"


def _is_l1_sharded(cfg: OpConfig) -> bool:
    o = cfg.output
    return isinstance(o, TTNNLayoutAttr) and o.is_sharded and o.is_l1


class _Expander:
    """Op-specific configs of one layout (LegalOpConfigAnalysis, reference §2.4)."""

    def __init__(self, op: Any, fam: Family, device: Device, conv_override: Any = None) -> None:
        self.fam = fam
        self.device = device
        self.conv_space: list[Conv2dConfig] = []
        self.dims = None
        self.activation = None
        self.batched = False
        tensors = [t for t in (v.type.resolve() for v in op.operands) if isinstance(t, TensorType)]
        if fam is Family.MATMUL and len(tensors) >= 2:
            # The operands have ttnn layouts (effective_inputs), so their shapes are static.
            ta = op.get_attr("transpose_a")
            a_shape, b_shape, out_shape = ranked_shape(tensors[0]), ranked_shape(tensors[1]), ranked_shape(op.results[0].type.resolve())
            self.dims = matmul_dims(a_shape, b_shape, out_shape, bool(getattr(ta, "value", False)))
            act = op.get_attr("activation")
            v = getattr(act.resolve(), "value", None) if act is not None else None
            self.activation = v if isinstance(v, str) and v else None
            self.batched = is_batched(b_shape)
        elif fam is Family.CONV:
            attr = op.get_attr("conv2d_config")
            try:
                base = Conv2dConfig.from_attr(attr.resolve().typed if attr is not None else None)
            except AttrError:
                base = Conv2dConfig()
            if conv_override is not None:  # override-conv2d-config: its keys are set, not searched
                base = conv_override.apply(base)
            if base.weights_dtype is None and len(op.operands) > 1:
                wt = op.operands[1].type.resolve()
                wd = element_dtype(wt) if isinstance(wt, TensorType) else None
                if wd is not None:
                    base = replace(base, weights_dtype=wd.value)
            self.conv_space = conv2d_search_space(base, *([conv_override.search_space()] if conv_override is not None else []))

    def __call__(self, lay: TTNNLayoutAttr) -> list[OpConfig]:
        if self.fam is Family.MATMUL:
            cfg = None
            if self.dims is not None and not self.batched:
                cfg = derive_program_config(self.dims, layout_info(lay), self.device.max_subblock, self.activation)
            return [OpConfig(output=lay, matmul=cfg)]
        if self.fam is Family.CONV:
            return [OpConfig(output=lay, conv2d=c) for c in self.conv_space]
        return [OpConfig(output=lay)]
