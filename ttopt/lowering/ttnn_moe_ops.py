"""TTIR -> TTNN for the mixture-of-experts collectives, as tt-mlir HEAD's TTIRToTTNN converts them
(one to one, the attributes copied):

| TTIR | TTNN | results | attributes |
|---|---|---|---|
| `all_to_all_dispatch` | `ttnn.all_to_all_dispatch` | dispatched, metadata | `cluster_axis`, `num_devices` |
| `all_to_all_dispatch_metadata` | `ttnn.all_to_all_dispatch_metadata` | dispatched, indices, scores | `cluster_axis`, `num_devices` |
| `all_to_all_combine` | `ttnn.all_to_all_combine` | result | `cluster_axis`, `num_devices`, `num_experts_per_tok`, `output_shard_dim` |
| `moe_expert_token_remap` | `ttnn.moe_expert_token_remap` | mapping, reduced | `reduction_size` |
| `selective_reduce_combine` | `ttnn.selective_reduce_combine` | result | `hidden_size`, `batch_size`, `seq_size`, `select_experts_k`, `experts` |

`all_to_all_dispatch_metadata` reads its expert mapping as `[D, E]`: a `[1, 1, D, E]` mapping is
reshaped first. Its three output buffers and its semaphore are left unbound (operand segments
`1, 1, 1, 1, 0, 0, 0, 0`), as HEAD's conversion leaves them for a later pass to allocate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import DenseArrayAttr
from ttopt.ir.operation import Operation
from ttopt.lowering.ttnn_direct import Direct, direct_rule

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

MOE_DIRECT = {
    "all_to_all_dispatch": Direct(("input_tensor", "expert_indices", "expert_mapping"), ("cluster_axis", "num_devices"), results=2),
    "all_to_all_combine": Direct(("input_tensor", "expert_metadata", "expert_mapping"),
                                 ("cluster_axis", "num_devices", "num_experts_per_tok", "output_shard_dim")),
    "moe_expert_token_remap": Direct(("topk_tensor", "expert_mapping", "expert_metadata"), ("reduction_size",), results=2),
    "selective_reduce_combine": Direct(("dense_input_tensor", "dense_activations_tensor", "dense_token_maps_tensor", "dense_token_counts_tensor"),
                                       ("batch_size", "experts", "hidden_size", "select_experts_k", "seq_size")),
}  # fmt: skip


def _dispatch_metadata(lw: _Lowering, op: Any) -> Any:
    ins = inputs(op)
    if len(ins) != 4 or len(op.results) != 3:
        raise ValueError("takes input, expert indices, expert scores and expert mapping, and has three results")
    missing = [k for k in ("cluster_axis", "num_devices") if k not in op.properties]
    if missing:
        raise ValueError(f"needs the attribute(s) {', '.join(missing)}")
    mapping = ins[3]
    shape = tuple(int(d) for d in mapping.type.resolve().shape)
    if len(shape) == 4:
        mapping = lw.reshape(mapping, shape[2:], op, op.location)
    props = {k: op.properties[k] for k in ("cluster_axis", "num_devices")}
    props["operandSegmentSizes"] = DenseArrayAttr("i32", (1, 1, 1, 1, 0, 0, 0, 0))
    types = [lw.layout_type(r.type, op) for r in op.results]
    new = Operation("ttnn.all_to_all_dispatch_metadata", [*ins[:3], mapping], types, properties=props, location=op.location)
    lw.out.append(new)
    return list(new.results)


MOE_RULES = {name: direct_rule(name, spec) for name, spec in MOE_DIRECT.items()}
MOE_RULES["all_to_all_dispatch_metadata"] = _dispatch_metadata
MOE_MULTI_RESULT = frozenset({"all_to_all_dispatch", "all_to_all_dispatch_metadata", "moe_expert_token_remap"})
