"""The ShardSolver's questions answered by the op model (reference §2.6; upstream
`OpConstraintValidation`).

* first op: which sharded configs are valid with operand 0 DRAM interleaved, producing exactly the
  config's layout (interleaved input -> sharded output);
* dispatch consumers (seed 001): every (sharded input layout of the dispatch operand, config) pair
  the op accepts, in candidate order;
* edges: with the producer's output layout on the edge operand, which consumer configs the op
  reaches. Test configs as upstream: matmul/linear try each config (the op model needs the program
  config with a full layout, where tt-metal takes a partial one); conv tries each conv2d config with
  no output hint; everything else one "let the op decide" question. A result counts only if it
  *exactly* equals a consumer config (layout, op-specific attributes);
* reshards: every sharded layout of the edge's tensor type in the full pool, tested the same way.

Other operands get their effective layouts (`AnalysisPipeline.effective_inputs`). Answers are cached
per (consumer config list, other inputs, operand, layout): ops with the same signature share the
config list object, so repeated blocks cost one evaluation.
"""

from __future__ import annotations

from typing import Any

from ttopt.device import NO_HINT, OpConfig, layout_info
from ttopt.device.layout_info import DRAM, INTERLEAVED, make_layout
from ttopt.device.op_families import Family, family_of
from ttopt.device.tensor import element_dtype
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_attrs import TensorMemoryLayout
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import AnalysisPipeline, ranked_shape
from ttopt.optimizer.chain import Edge
from ttopt.optimizer.dispatch import is_dispatch


class _Facts:
    """Per config list: plain numbers the solver and the matching read in their loops."""

    __slots__ = ("volumes", "block", "uids", "index", "conv_configs")

    def __init__(self, configs: list[OpConfig]) -> None:
        self.volumes = []
        self.block = []
        self.uids = []
        self.index: dict[tuple, int] = {}
        seen_conv: dict[Any, None] = {}
        for i, c in enumerate(configs):
            info = layout_info(c.layout)
            self.volumes.append(info.grid[0] * info.grid[1])
            self.block.append(info.memory_layout is TensorMemoryLayout.BLOCK_SHARDED)
            self.uids.append(info.uid)
            self.index.setdefault((info.uid, c.conv2d), i)
            if c.conv2d is not None:
                seen_conv.setdefault(c.conv2d, None)
        self.conv_configs = list(seen_conv)


class OpModelBackend:
    """`ShardSolverBackend` over the op model and the analyses' legal configs."""

    def __init__(self, analyses: AnalysisPipeline, labels: dict[Any, str] | None = None) -> None:
        self.analyses = analyses
        self.model = analyses.model
        self.labels = labels or analyses.labels
        self._facts: dict[int, _Facts] = {}
        self._inputs: dict[Any, tuple[list[TTNNLayoutAttr], tuple[int, ...]]] = {}
        self._tests: dict[tuple, tuple[int, ...]] = {}
        self._reshards: dict[tuple, dict[int, list[TTNNLayoutAttr]]] = {}

    # -- configs ---------------------------------------------------------------------------------
    def configs(self, op: Any) -> list[OpConfig]:
        """The op's L1-sharded legal configs (DFSharding's input, reference §2.5)."""
        return self.analyses.legal[op].sharded

    def facts(self, op: Any) -> _Facts:
        cfgs = self.configs(op)
        f = self._facts.get(id(cfgs))
        if f is None:
            f = self._facts[id(cfgs)] = _Facts(cfgs)
        return f

    def config_count(self, op: Any) -> int:
        return len(self.configs(op))

    def core_count(self, op: Any, index: int) -> int:
        return self.facts(op).volumes[index]

    def is_block_sharded(self, op: Any, index: int) -> bool:
        return self.facts(op).block[index]

    def always_reshards_input(self, op: Any) -> bool:
        return family_of(op.name) is Family.CONV

    def op_label(self, op: Any) -> str:
        return self.labels.get(op, getattr(op, "name", str(op)))

    # -- inputs ----------------------------------------------------------------------------------
    def inputs(self, op: Any) -> tuple[list[TTNNLayoutAttr], tuple[int, ...]]:
        """Effective input layouts of `op` and their uids (cached)."""
        e = self._inputs.get(op)
        if e is None:
            ins = self.analyses.effective_inputs(op) or []
            e = self._inputs[op] = (ins, tuple(layout_info(x).uid for x in ins))
        return e

    @staticmethod
    def tensor_position(op: Any, operand_index: int) -> int:
        """Position of operand `operand_index` among the op's tensor operands."""
        k = 0
        for i, v in enumerate(op.operands):
            if i == operand_index:
                return k
            if isinstance(v.type.resolve(), TensorType):
                k += 1
        return k

    def _replace(self, op: Any, k: int, layout: TTNNLayoutAttr) -> list[TTNNLayoutAttr]:
        ins = list(self.inputs(op)[0])
        if k < len(ins):
            ins[k] = layout
        return ins

    # -- first op --------------------------------------------------------------------------------
    def interleaved_input_configs(self, op: Any) -> int:
        """Configs valid with operand 0 DRAM interleaved that produce exactly their own layout."""
        cfgs = self.configs(op)
        if not cfgs or not op.operands:
            return 0
        dram = self.dram_interleaved(op.operands[0])
        if dram is None:
            return 0
        ins = self._replace(op, self.tensor_position(op, 0), dram)
        f = self.facts(op)
        bits = 0
        for i, cfg in enumerate(cfgs):
            r = self.model.validate(op, ins, cfg)
            if r.ok and r.output_info is not None and r.output_info.sharded and r.output_info.l1 and r.output_info.uid == f.uids[i]:
                bits |= 1 << i
        return bits

    def dram_interleaved(self, value: Any) -> TTNNLayoutAttr | None:
        """`value`'s tensor in DRAM interleaved, with the page layout it has outside a chain."""
        t = value.type.resolve()
        if not isinstance(t, TensorType):
            return None
        dt = element_dtype(t)
        if dt is None:
            return None
        cur = self.analyses.effective_layout(value)
        tiled = cur.is_tiled if cur is not None else True
        try:
            return make_layout(ranked_shape(t), dt, tiled, DRAM, INTERLEAVED, None, self.analyses.device.worker_grid)
        except (AttrError, ValueError, TypeError):
            return None

    def dispatch_input_combinations(self, op: Any) -> list[tuple[Any, int]]:
        """Seed 001 preprocessFirstOp: (candidate input of the dispatch operand, config) pairs."""
        idx = next((i for i, v in enumerate(op.operands) if getattr(v, "op", None) is not None and is_dispatch(v.op)), None)
        if idx is None:
            return []
        k = self.tensor_position(op, idx)
        f = self.facts(op)
        combos = []
        for cand in self.sharded_candidates(op.operands[idx]):
            ins = self._replace(op, k, cand)
            for i, cfg in enumerate(self.configs(op)):
                r = self.model.validate(op, ins, cfg)
                if r.ok and r.output_info is not None and r.output_info.uid == f.uids[i]:
                    combos.append((cand, i))
        return combos

    def sharded_candidates(self, value: Any) -> list[TTNNLayoutAttr]:
        """Every L1-sharded layout of `value`'s tensor type: row-major first (when enabled), then
        tiled, each by volume (reference §2.6 insertReshard)."""
        t = value.type.resolve()
        dt = element_dtype(t) if isinstance(t, TensorType) else None
        if dt is None:
            return []
        try:
            pool = self.analyses.pool(tuple(t.shape), dt)
        except Exception:  # noqa: BLE001  (TensorTypeError: a shape with no layouts)
            return []
        return list(pool.sharded_row_major) + list(pool.sharded)

    # -- edges -----------------------------------------------------------------------------------
    def edge_configs(self, edge: Edge, producer_config: int) -> tuple[int, ...]:
        """Consumer configs reached when the producer outputs config `producer_config`'s layout."""
        layout = self.configs(edge.producer)[producer_config].layout  # legal configs are full layouts
        return self.consumer_configs_for_input(edge.consumer, edge.operand_index, layout)

    def consumer_configs_for_input(self, op: Any, operand_index: int, layout: TTNNLayoutAttr) -> tuple[int, ...]:
        """Consumer config indices `op` reaches with `layout` on operand `operand_index` (cached)."""
        k = self.tensor_position(op, operand_index)
        uid = layout_info(layout).uid
        key = (id(self.configs(op)), self.inputs(op)[1], k, uid)
        hit = self._tests.get(key)
        if hit is None:
            hit = self._tests[key] = self._test(op, self._replace(op, k, layout))
        return hit

    def _test(self, op: Any, ins: list[TTNNLayoutAttr]) -> tuple[int, ...]:
        cfgs = self.configs(op)
        f = self.facts(op)
        fam = family_of(op.name)
        found: list[int] = []
        if fam is Family.MATMUL:
            for i, cfg in enumerate(cfgs):
                r = self.model.validate(op, ins, cfg)
                if r.ok and r.output_info is not None and r.output_info.uid == f.uids[i]:
                    found.append(i)
        elif fam is Family.CONV:
            for conv in f.conv_configs:
                r = self.model.validate(op, ins, OpConfig(output=None, conv2d=conv))
                if r.ok and r.output_info is not None:
                    j = f.index.get((r.output_info.uid, conv))
                    if j is not None:
                        found.append(j)
        else:
            r = self.model.validate(op, ins, NO_HINT)
            if r.ok and r.output_info is not None:
                j = f.index.get((r.output_info.uid, None))
                if j is not None:
                    found.append(j)
        return tuple(sorted(found))

    def reshard_map(self, edge: Edge) -> dict[int, list[TTNNLayoutAttr]]:
        """Consumer config -> sharded layouts of the edge's tensor that make it valid (insertReshard)."""
        op = edge.consumer
        value = op.operands[edge.operand_index]
        t = value.type.resolve()
        key = (id(self.configs(op)), self.inputs(op)[1], edge.operand_index, t.canonical() if isinstance(t, TensorType) else None)
        hit = self._reshards.get(key)
        if hit is None:
            hit = {}
            for cand in self.sharded_candidates(value):
                for i in self.consumer_configs_for_input(op, edge.operand_index, cand):
                    hit.setdefault(i, []).append(cand)
            self._reshards[key] = hit
        return {i: list(v) for i, v in hit.items()}
