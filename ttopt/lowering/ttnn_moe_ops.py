"""TTIR -> TTNN for the mixture-of-experts collectives, as tt-mlir HEAD's TTIRToTTNN converts them
(one to one, the attributes copied):

| TTIR | TTNN | results | attributes |
|---|---|---|---|
| `all_to_all_dispatch` | `ttnn.all_to_all_dispatch` | dispatched, metadata | `cluster_axis`, `num_devices` |
| `all_to_all_dispatch_metadata` | `ttnn.all_to_all_dispatch_metadata` | dispatched, indices, scores | `cluster_axis`, `num_devices` |
| `all_to_all_combine` | `ttnn.all_to_all_combine` | result | `cluster_axis`, `num_devices`, `num_experts_per_tok`, `output_shard_dim` |
| `moe_expert_token_remap` | `ttnn.moe_expert_token_remap` | mapping, reduced | `reduction_size` |
| `selective_reduce_combine` | `ttnn.selective_reduce_combine` | result | `hidden_size`, `batch_size`, `seq_size`, `select_experts_k`, `experts` |
| `sparse_matmul` | `ttnn.sparse_matmul` | result | `is_input_a_sparse`, `is_input_b_sparse`, `nnz`, `program_config` |
| `moe_gpt` | `ttnn.moe_gpt` | token counts, activation records, token indices, tilize_out, tilize_out_rm | `output_height_shard_dim`, `output_width_shard_dim`, `hidden_size`, `cluster_axis` |

`moe_gpt` is checked as HEAD's TTIR verifier checks it (rank-6 weights whose last dimension is 128,
w0_w1 and w2 with the same cores (dim 0) and experts per device (dim 2), rank >= 2 expert indices
and scores). HEAD's ttnn-workaround then places its staging outputs (tilize_out, tilize_out_rm) in
L1 height-sharded on every worker core and its weights as bfp4 DRAM shards
(MoeGptLayoutRewritePattern); ttopt's workarounds do not yet, so they keep the conversion's
DRAM-interleaved tiles.
`all_to_all_dispatch_metadata` reads its expert mapping as `[D, E]`: a `[1, 1, D, E]` mapping is
reshaped first. Its three output buffers and its semaphore are left unbound (operand segments
`1, 1, 1, 1, 0, 0, 0, 0`), as HEAD's conversion leaves them for a later pass to allocate.
`sparse_matmul` gets HEAD's default 1-D multicast program config for its shapes and the worker grid
(the module's system desc, else the mock wormhole_b0 desc HEAD registers): N split over as many
grid columns as keep every column busy, `per_core_m` = M / 32, in0 multicast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.device.device import from_module_desc
from ttopt.device.presets import CHIP_PRESETS
from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import BoolAttr, DenseArrayAttr, DialectAttr
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


def sparse_matmul_program_config(a_shape: tuple[int, ...], b_shape: tuple[int, ...], grid: tuple[int, int]) -> DialectAttr:
    """HEAD's createSparseMatmulProgramConfigAttr: the 1-D multicast config for A [..., M, K] x B [..., K, N]
    on a `grid` (rows, cols) of worker cores."""
    rows, cols = grid
    m, n = a_shape[-2], b_shape[-1]
    n_tiles = -(-n // 32)
    used = min(cols, n_tiles)
    # Every used column must get work: ceil(n_tiles / per_core_n) has to equal the column count.
    while used > 1:
        per_core_n = -(-n_tiles // used)
        if -(-n_tiles // per_core_n) == used:
            break
        used -= 1
    per_core_m = max(1, m // 32)
    per_core_n = max(1, -(-n_tiles // used))
    body = (f"compute_with_storage_grid_size = #ttnn.core_coord<{used}, {rows}>, in0_block_w = 1, out_subblock_h = 1, "
            f"out_subblock_w = 1, out_block_h = 1, out_block_w = 1, per_core_m = {per_core_m}, per_core_n = {per_core_n}, "
            "fuse_batch = false, mcast_in0 = true, gather_in0 = false, hop_cores = #ttnn.core_range_set<>, "
            "num_global_cb_receivers = 0, untilize_out = false")  # fmt: skip
    return DialectAttr("ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config", body)


def _sparse_matmul(lw: _Lowering, op: Any) -> Any:
    ins = inputs(op)
    if len(ins) != 3:
        raise ValueError(f"has {len(ins)} operands; it takes a, b and sparsity")
    device = from_module_desc(lw.module)
    grid = tuple(device.worker_grid) if device is not None else CHIP_PRESETS["wormhole_b0"].grid
    shapes = [tuple(int(d) for d in v.type.resolve().shape) for v in ins[:2]]
    props: dict[str, Any] = {
        "is_input_a_sparse": op.properties.get("is_input_a_sparse") or BoolAttr(False),
        "is_input_b_sparse": op.properties.get("is_input_b_sparse") or BoolAttr(True),
        "program_config": sparse_matmul_program_config(shapes[0], shapes[1], (int(grid[0]), int(grid[1]))),
    }
    if "nnz" in op.properties:
        props["nnz"] = op.properties["nnz"]
    return lw.emit("ttnn.sparse_matmul", ins, lw.layout_type(op.results[0].type, op), dict(sorted(props.items())), op.location)


_MOE_GPT = Direct(("input_tensor", "expert_indices", "expert_scores", "expert_mapping", "w0_w1_tensor", "w2_tensor"),
                  ("output_height_shard_dim", "output_width_shard_dim", "hidden_size", "cluster_axis"), results=5)


def _moe_gpt(lw: _Lowering, op: Any) -> Any:
    """`ttir.moe_gpt` -> `ttnn.moe_gpt` (five results), once HEAD's TTIR verifier accepts it."""
    ins = inputs(op)
    if len(ins) != 6 or len(op.results) != 5:
        raise ValueError("takes input, expert indices, expert scores, expert mapping, w0_w1 and w2, and has five results")
    shapes = [tuple(v.type.resolve().shape) for v in ins]
    w0w1, w2 = shapes[4], shapes[5]
    for name, w in (("w0_w1_tensor", w0w1), ("w2_tensor", w2)):
        if len(w) != 6:
            raise ValueError(f"{name} must be a rank 6 tensor")
    for name, w in (("w0_w1_tensor", w0w1), ("w2_tensor", w2)):
        if w[5] != 128:
            raise ValueError(f"{name} dim[5] must be 128 (4*TILE_SIZE)")
    if w0w1[0] != w2[0]:
        raise ValueError("w0_w1_tensor and w2_tensor must have same dim[0] (num_cores)")
    if w0w1[2] != w2[2]:
        raise ValueError("w0_w1_tensor and w2_tensor must have same dim[2] (experts_per_device)")
    for name, shape in (("expert_indices", shapes[1]), ("expert_scores", shapes[2])):
        if len(shape) < 2:
            raise ValueError(f"{name} must have rank >= 2")
    return _MOE_GPT_RULE(lw, op)


_MOE_GPT_RULE = direct_rule("moe_gpt", _MOE_GPT)
MOE_RULES = {name: direct_rule(name, spec) for name, spec in MOE_DIRECT.items()}
MOE_RULES["moe_gpt"] = _moe_gpt
MOE_RULES["all_to_all_dispatch_metadata"] = _dispatch_metadata
MOE_RULES["sparse_matmul"] = _sparse_matmul
MOE_MULTI_RESULT = frozenset({"all_to_all_dispatch", "all_to_all_dispatch_metadata", "moe_expert_token_remap", "moe_gpt"})
